// cusci::distributed::gmres: the one-GPU gmres of cusci::sparse::linalg (sparse/src/linalg/
// krylov_gmres.cpp with gram_schmidt.cu) with callback_type 'pr_norm', hence SciPy 1.18's restarted,
// left-preconditioned GMRES, on a row-partitioned matrix.
//
// Each rank keeps its rows of the Krylov basis V [restart + 1, nlocal]. An Arnoldi step computes
// w = M A v_j (the product's halo exchange; M rank-local), then the one-GPU solver's classical
// Gram-Schmidt with the DGKS criterion:
//   1. c = V^T w and ||w||^2: the rank's j + 1 projections and its norm in one pass, one all-reduce of
//      j + 2 values;
//   2. w -= V c, and in the same pass s = V^T w and ||w||^2 of the updated w: one all-reduce of j + 2;
//   3. the host reads both (one wait); where ||w|| fell below 1/sqrt(2) of its value before, the second
//      pass w -= V s and its norm (one more all-reduce and wait, rare); h = c (+ s), h1 = ||w||;
//   4. w /= h1 unless h1 <= eps h0 (breakdown: SciPy leaves w unscaled).
// The Hessenberg column is then rotated on the host in float64 with SciPy's Givens rotations (LAPACK's
// lartg convention), presid = |last entry of the rotated right-hand side|. At the end of a cycle:
// x += V y, r = b - A x, z = M r, and norm(r), norm(z) in one all-reduce (one wait; the one-GPU solver
// reads them at two places, the next cycle's start for norm(z)).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "solvers/common.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed {

namespace {

/// The least-squares problem min || g e1 - H y || of one GMRES cycle, a column of H at a time, as SciPy's
/// gmres updates it: each new column is rotated by the earlier rotations, then a new rotation zeroes its
/// subdiagonal entry and is applied to the right-hand side g.
class hessenberg {
 public:
  explicit hessenberg(double beta) : g_{beta} {}

  /// Adds column h (entries 0 .. j + 1 for the j-th column); returns presid = |g[j + 1]|.
  double add_column(std::vector<double> h) {
    const std::size_t j = cols_.size();
    for (std::size_t k = 0; k < j; ++k) {  // SciPy: [c n0 + s n1, -s n0 + c n1]
      const double n0 = h[k], n1 = h[k + 1];
      h[k] = c_[k] * n0 + s_[k] * n1;
      h[k + 1] = -s_[k] * n0 + c_[k] * n1;
    }
    double c = 1.0, s = 0.0, r = h[j];
    rotation(h[j], h[j + 1], c, s, r);
    c_.push_back(c);
    s_.push_back(s);
    h[j] = r;
    h[j + 1] = 0.0;
    const double gj = g_[j];
    g_[j] = c * gj;
    g_.push_back(-s * gj);
    cols_.push_back(std::move(h));
    return std::fabs(g_[j + 1]);
  }

  /// SciPy gmres's solve of the first k columns' triangle, which allows singular cases: a zero last
  /// diagonal entry zeroes the last right-hand side entry, and zero entries of y are not divided.
  std::vector<double> solve(std::size_t k) const {
    const std::size_t last = k - 1;
    std::vector<double> y(g_.begin(), g_.begin() + static_cast<std::ptrdiff_t>(k));
    if (cols_[last][last] == 0.0) y[last] = 0.0;
    for (std::size_t j = last; j > 0; --j) {
      if (y[j] != 0.0) {
        y[j] /= cols_[j][j];
        const double t = y[j];
        for (std::size_t i = 0; i < j; ++i) y[i] -= t * cols_[j][i];
      }
    }
    if (y[0] != 0.0) y[0] /= cols_[0][0];
    return y;
  }

 private:
  // LAPACK's dlartg (3.10 and later): [c s; -s c] [f; g] = [r; 0] with c >= 0 and r of f's sign.
  static void rotation(double f, double g, double& c, double& s, double& r) {
    if (g == 0.0) {
      c = 1.0;
      s = 0.0;
      r = f;
    } else if (f == 0.0) {
      c = 0.0;
      s = g > 0 ? 1.0 : -1.0;
      r = std::fabs(g);
    } else {
      const double d = std::hypot(f, g);
      c = std::fabs(f) / d;
      r = f > 0 ? d : -d;
      s = g / r;
    }
  }

  std::vector<std::vector<double>> cols_;  // rotated columns: cols_[j][0..j] the triangle
  std::vector<double> c_, s_, g_;
};

}  // namespace

solve_result gmres(const csr_matrix& A, const vector& b, const gmres_options& o) {
  using namespace solver_detail;
  static constexpr const char* fn = "cusci::distributed::gmres";
  CUSCI_NVTX_SCOPE(fn);
  check_solve(fn, A, b, o.x0, o.M, o.rtol, o.atol);
  CUSCI_EXPECTS(!o.restart || *o.restart >= 1, value_error,
                std::string(fn) + ": restart must be >= 1, got " + std::to_string(o.restart.value_or(0)));
  CUSCI_EXPECTS(!o.maxiter || *o.maxiter >= 1, value_error,
                std::string(fn) + ": maxiter must be >= 1, got " + std::to_string(o.maxiter.value_or(0)));
  const dtype xt = A.dtype();
  const std::int64_t n = A.shape()[0];
  const std::int64_t nl = A.partition().size(A.comm().rank());
  const std::int64_t restart = std::max<std::int64_t>(1, std::min<std::int64_t>(o.restart.value_or(20), n));
  const std::int64_t maxiter = o.maxiter.value_or(10 * n);
  const double eps = xt == dtype::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                          : std::numeric_limits<double>::epsilon();
  cudaStream_t st = get_current_stream();
  const precond_use M = use_preconditioner(o.M, xt);
  const int mode = M.mode;
  const ndarray& d = M.d;

  // Scalar area: [0, K) pass-1 coefficients and ||w||^2, [K, 2K) pass 2's, then the second-pass norm,
  // the start's and the cycles' norms, and y.
  const std::size_t K = static_cast<std::size_t>(restart) + 1;
  const std::size_t C1 = 0, C2 = K, W3 = 2 * K, NRM = 2 * K + 1, Y = 2 * K + 5;
  scalar_area sc(A.comm(), Y + static_cast<std::size_t>(restart), st);
  double* s = sc.dev();
  sum_workspace ws(nl, st);
  history_log hist;
  solve_result res;

  auto precondition = [&](const ndarray& v) -> ndarray {  // M v (mode 0: v itself)
    if (mode == 0) return v;
    if (mode == 1) {
      ndarray z = empty({nl}, xt);
      diag_mul(xt, nl, ptr(d), ptr(v), mptr(z), st);
      return z;
    }
    return M.M->apply(wrap(A, v)).local();
  };

  // The start: norm(b), norm(M b) and, with x0, norm(r0), norm(M r0), in one all-reduce.
  const ndarray& bl = b.local();
  vector x = o.x0 ? vector(A.comm(), A.partition(), o.x0->local().astype(xt, true))
                  : vector::zeros(A.comm(), A.partition(), xt);
  ndarray Mb = precondition(bl);
  ndarray r = empty({nl}, xt), z;
  vector axv = wrap(A, empty({nl}, xt));
  // r = b - A x, z = M r and norm(r)^2, norm(z)^2 into slots dst, dst + 1.
  auto residual = [&](std::size_t dst) {
    A.dot(x, axv);
    if (mode == 1) z = empty({nl}, xt);
    gmres_residual(xt, mode, nl, ptr(bl), ptr(axv.local()), mptr(r), ptr(d), mptr(z), s + dst, ws, st);
    if (mode == 0) z = r;
    if (mode == 2) {
      z = precondition(r);
      const void* zz[1] = {ptr(z)};
      sumsq(xt, nl, 1, zz, s + dst + 1, ws, st);
    }
  };
  {
    const void* v[2] = {ptr(bl), ptr(Mb)};
    sumsq(xt, nl, 2, v, s + NRM, ws, st);
  }
  if (o.x0) residual(NRM + 2);
  sc.allreduce(NRM, o.x0 ? 4 : 2);
  sc.post(NRM, 4);
  const double* h = sc.wait();
  const double bnrm2 = std::sqrt(h[NRM]), Mb_nrm2 = std::sqrt(h[NRM + 1]);
  if (bnrm2 == 0) {  // SciPy: return b, 0
    res.x = b.copy();
    hist.add(0.0);
    res.history = hist.take();
    return res;
  }
  const double atol = std::max(o.atol, o.rtol * bnrm2);
  double rnorm = bnrm2, znorm = Mb_nrm2;
  if (o.x0) {
    rnorm = std::sqrt(h[NRM + 2]);
    znorm = std::sqrt(h[NRM + 3]);
  } else {
    CUSCI_CUDA_TRY(cudaMemcpyAsync(r.data(), bl.data(), static_cast<std::size_t>(nl) * itemsize(xt),
                                   cudaMemcpyDeviceToDevice, st));
    z = Mb;
  }
  hist.add(znorm / bnrm2);
  if (rnorm < atol) {  // SciPy tests the starting residual with '<' (the cycles with '<=')
    res.x = x;
    res.history = hist.take();
    return res;
  }

  // SciPy's inner tolerance (gh-8400): presid of a cycle must reach ptol, adapted between cycles.
  double ptol_max_factor = 1.0;
  double ptol = Mb_nrm2 * std::min(ptol_max_factor, atol / bnrm2);
  double presid = 0.0;
  ndarray V = empty({restart + 1, nl}, xt);
  const std::int64_t ldv = nl;
  vector tmp = wrap(A, empty({nl}, xt));
  std::int64_t inner = 0;
  bool breakdown = false;

  for (std::int64_t cycle = 0; cycle < maxiter; ++cycle) {
    scale(xt, nl, 1.0 / znorm, ptr(z), mptr(V[0]), st);  // v0 = z / norm(z)
    hessenberg H(znorm);
    breakdown = false;
    std::int64_t col = 0;
    for (col = 0; col < restart; ++col) {
      const std::int64_t k = col + 1;
      ndarray w = V[k];
      // w = M A v_col.
      if (mode == 0) {
        vector wv = wrap(A, w);
        A.dot(wrap(A, V[col]), wv);
        if (wv.local().data() != w.data())  // the product gave y a new block: copy it into the basis
          CUSCI_CUDA_TRY(cudaMemcpyAsync(w.data(), wv.local().data(), static_cast<std::size_t>(nl) * itemsize(xt),
                                         cudaMemcpyDeviceToDevice, st));
      } else {
        A.dot(wrap(A, V[col]), tmp);
        if (mode == 1) {
          diag_mul(xt, nl, ptr(d), ptr(tmp.local()), mptr(w), st);
        } else {
          const ndarray mw = precondition(tmp.local());
          CUSCI_CUDA_TRY(cudaMemcpyAsync(w.data(), mw.data(), static_cast<std::size_t>(nl) * itemsize(xt),
                                         cudaMemcpyDeviceToDevice, st));
        }
      }
      // Classical Gram-Schmidt, two all-reduces of k + 1 values and one wait.
      gs_project(xt, nl, V.data(), ldv, k, ptr(w), s + C1, ws, st);
      sc.allreduce(C1, static_cast<std::size_t>(k) + 1);
      gs_update(xt, nl, V.data(), ldv, k, s + C1, mptr(w), true, s + C2, ws, st);
      sc.allreduce(C2, static_cast<std::size_t>(k) + 1);
      sc.post(C1, 2 * K);
      h = sc.wait();
      const double w2 = h[C1 + k], wn2 = h[C2 + k];
      std::vector<double> hcol(h + C1, h + C1 + k);
      double h1 = std::sqrt(wn2);
      if (wn2 < 0.5 * w2) {  // DGKS: ||w|| fell below 1/sqrt(2) of its value; NaN: no second pass
        gs_update(xt, nl, V.data(), ldv, k, s + C2, mptr(w), false, s + W3, ws, st);
        sc.allreduce(W3, 1);
        sc.post(C2, K + 1);
        h = sc.wait();
        for (std::int64_t i = 0; i < k; ++i) hcol[i] += h[C2 + i];
        h1 = std::sqrt(h[W3]);
      }
      const double h0 = std::sqrt(w2);
      if (h1 <= eps * h0) {  // an invariant subspace: SciPy leaves w unscaled
        hcol.push_back(0.0);
        breakdown = true;
      } else {
        hcol.push_back(h1);
        scale(xt, nl, 1.0 / h1, ptr(w), mptr(w), st);
      }
      presid = H.add_column(std::move(hcol));
      ++inner;
      hist.add(presid / bnrm2);
      if (o.callback) o.callback(presid / bnrm2);
      if (presid <= ptol || breakdown) break;
    }
    if (col == restart) col = restart - 1;  // the loop ran out (SciPy's col is its last value)
    // x += V y, r = b - A x, z = M r; norm(r) and norm(z) in one all-reduce.
    const std::vector<double> y = H.solve(static_cast<std::size_t>(col) + 1);
    sc.upload(Y, y);
    gmres_add_basis(xt, nl, V.data(), ldv, col + 1, s + Y, mptr(x.local()), st);
    residual(NRM);
    sc.allreduce(NRM, 2);
    sc.post(NRM, 2);
    h = sc.wait();
    rnorm = std::sqrt(h[NRM]);
    znorm = std::sqrt(h[NRM + 1]);
    if (rnorm <= atol) break;
    if (breakdown) break;  // an exact solution of M A x = M b, but the true residual test failed
    if (presid <= ptol) ptol_max_factor = std::max(eps, 0.25 * ptol_max_factor);
    else ptol_max_factor = std::min(1.0, 1.5 * ptol_max_factor);
    ptol = presid * std::min(ptol_max_factor, atol / rnorm);
  }
  res.x = x;
  res.info = rnorm <= atol ? 0 : maxiter;
  res.iterations = inner;
  res.history = hist.take();
  return res;
}

}  // namespace cusci::distributed

// scipy.sparse.linalg.eigs: ARPACK's implicitly restarted Arnoldi method (dnaupd/dnaup2/dnaitr/
// dnapps/dngets/dnconv/dneupd and the complex z* counterparts) with the Arnoldi basis on the device
// (cuBLAS) and the small Hessenberg matrix on the host, plus SciPy's eigs driver (modes, operator
// construction, the k + 1-st value of a real problem, Rayleigh quotients for a complex shift).

#include "cusci/sparse/linalg/eigs.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/products.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/stream.hpp"
#include "linalg/eigs_arpack.hpp"
#include "linalg/eigs_blas.hpp"

namespace cusci::sparse::linalg {
namespace {

using eig_detail::cplx;
namespace ad = arpack_detail;
using ad::dense;
using ad::which_t;
constexpr const char* kFn = "cusci::sparse::linalg::eigs";

// The Arnoldi process on the device.
struct arnoldi {
  dtype t;
  bool real;
  std::int64_t n, m;
  std::function<ndarray(const ndarray&)> op;
  double ulp;  // unit roundoff of the working precision (ARPACK's dlamch('P'))
  ndarray V, F, dh, dn;
  memory_ptr pin;
  dense H;
  double rnorm = 0.0;
  std::int64_t nops = 0;
  std::mt19937_64 gen;
  cudaStream_t st;
  std::size_t isz;

  arnoldi(dtype tt, std::int64_t nn, std::int64_t mm, std::function<ndarray(const ndarray&)> f, std::uint64_t seed)
      : t(tt), real(!is_complex(tt)), n(nn), m(mm), op(std::move(f)), H(mm), gen(seed) {
    ulp = (t == dtype::float32 || t == dtype::complex64) ? std::numeric_limits<float>::epsilon()
                                                         : std::numeric_limits<double>::epsilon();
    V = zeros({m, n}, t);
    F = zeros({n}, t);
    dh = zeros({3 * (m + 1)}, t);
    dn = zeros({4}, real_dtype(t));
    isz = itemsize(t);
    pin = pinned_malloc(3 * (m + 1) * isz + 4 * sizeof(double));
    st = get_current_stream();
  }

  void* row(std::int64_t i) const { return static_cast<char*>(V.data()) + i * n * isz; }
  void* hptr(std::int64_t k) const { return static_cast<char*>(dh.data()) + k * (m + 1) * isz; }
  void* nptr(int k) const { return static_cast<char*>(dn.data()) + k * itemsize(real_dtype(t)); }

  // Reads the device norm k into the pinned tail (past the coefficient columns). Synchronizes.
  double read_norm(int k) const {
    const std::size_t rs = itemsize(real_dtype(t));
    char* dst = static_cast<char*>(pin->ptr()) + 3 * (m + 1) * isz;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(dst, nptr(k), rs, cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    return rs == 4 ? static_cast<double>(*reinterpret_cast<float*>(dst)) : *reinterpret_cast<double*>(dst);
  }

  // F -= V[0..j) (V[0..j)^H F), coefficients into hptr(slot).
  void project(std::int64_t j, int slot) {
    if (j == 0) return;
    eig_detail::gemm(t, 'C', 'N', j, 1, n, 1.0, V.data(), n, F.data(), n, 0.0, hptr(slot), j);
    eig_detail::gemm(t, 'N', 'N', n, 1, j, -1.0, V.data(), n, hptr(slot), j, 1.0, F.data(), n);
  }

  // F = OP(x) for the device vector x (a row of V or any [n] array).
  void apply(const ndarray& x) {
    ndarray y = eig_detail::contiguous_as(op(x), t);
    CUSCI_EXPECTS(y.size() == n, value_error, std::string(kFn) + ": the operator returned " +
                                                  std::to_string(y.size()) + " elements, expected " +
                                                  std::to_string(n));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(F.data(), y.data(), n * isz, cudaMemcpyDeviceToDevice, st));
    ++nops;
  }

  ndarray row_view(std::int64_t i) const {
    return ndarray(V.memory(), t, shape_t{n}, shape_t{static_cast<std::int64_t>(isz)}, V.offset() + i * n * static_cast<std::int64_t>(isz), V.device());
  }

  // A random vector orthogonal to V[0..j), normalized into V[j] (ARPACK's dgetv0 after a breakdown).
  void random_restart(std::int64_t j) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int attempt = 0; attempt < 3; ++attempt) {
      std::vector<cplx> h(static_cast<std::size_t>(n));
      for (auto& v : h) v = real ? cplx(u(gen), 0.0) : cplx(u(gen), u(gen));
      ndarray r = eig_detail::upload(h, t, {n});
      CUSCI_CUDA_TRY(cudaMemcpyAsync(F.data(), r.data(), n * isz, cudaMemcpyDeviceToDevice, st));
      eig_detail::nrm2_device(t, n, F.data(), nptr(0));
      const double r0 = read_norm(0);
      project(j, 0);
      project(j, 1);
      eig_detail::nrm2_device(t, n, F.data(), nptr(1));
      const double r1 = read_norm(1);
      if (r1 > 0.717 * r0 && r1 > 0.0) {
        CUSCI_CUDA_TRY(cudaMemcpyAsync(row(j), F.data(), n * isz, cudaMemcpyDeviceToDevice, st));
        eig_detail::scal(t, n, 1.0 / r1, row(j));
        return;
      }
    }
    throw arpack_error(-9999, std::string(kFn) + ": ARPACK error -9999: Could not build an Arnoldi factorization.");
  }

  // Arnoldi step j: v_j from the residual, then the new residual and column j of H (dnaitr).
  void step(std::int64_t j) {
    if (rnorm > 0.0) {
      CUSCI_CUDA_TRY(cudaMemcpyAsync(row(j), F.data(), n * isz, cudaMemcpyDeviceToDevice, st));
      eig_detail::scal(t, n, 1.0 / rnorm, row(j));
      if (j > 0) H(j, j - 1) = rnorm;
    } else {
      random_restart(j);
      if (j > 0) H(j, j - 1) = 0.0;
    }
    apply(row_view(j));
    eig_detail::nrm2_device(t, n, F.data(), nptr(0));
    project(j + 1, 0);
    eig_detail::nrm2_device(t, n, F.data(), nptr(1));
    project(j + 1, 1);
    eig_detail::nrm2_device(t, n, F.data(), nptr(2));
    // One host wait: both coefficient columns and the three norms.
    const std::size_t hb = 2 * (m + 1) * isz;
    char* hp = static_cast<char*>(pin->ptr());
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hp, dh.data(), hb, cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hp + hb, dn.data(), 3 * itemsize(real_dtype(t)), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    std::vector<cplx> h1 = eig_detail::to_cplx(hp, t, j + 1);
    std::vector<cplx> h2 = eig_detail::to_cplx(hp + (m + 1) * isz, t, j + 1);
    std::vector<cplx> nr = eig_detail::to_cplx(hp + hb, real_dtype(t), 3);
    const double wnorm = nr[0].real(), r1 = nr[1].real();
    double r2 = nr[2].real();
    for (std::int64_t i = 0; i <= j; ++i) H(i, j) = h1[i] + h2[i];
    if (!(r1 > 0.717 * wnorm) && !(r2 > 0.717 * r1)) {
      // One more refinement; if it too removes most of the residual, it lies in the span of V.
      project(j + 1, 2);
      eig_detail::nrm2_device(t, n, F.data(), nptr(3));
      CUSCI_CUDA_TRY(cudaMemcpyAsync(hp, hptr(2), (j + 1) * isz, cudaMemcpyDeviceToHost, st));
      const double r3 = read_norm(3);
      std::vector<cplx> h3 = eig_detail::to_cplx(hp, t, j + 1);
      for (std::int64_t i = 0; i <= j; ++i) H(i, j) += h3[i];
      if (r3 > 0.717 * r2) {
        r2 = r3;
      } else {
        CUSCI_CUDA_TRY(cudaMemsetAsync(F.data(), 0, n * isz, st));
        r2 = 0.0;
      }
    }
    if (!std::isfinite(r2)) throw arpack_error(-9999, std::string(kFn) + ": ARPACK error -9999: Could not build an Arnoldi factorization (the operator returned inf or nan).");
    rnorm = r2;
  }

  void extend(std::int64_t from, std::int64_t to) {
    for (std::int64_t j = from; j < to; ++j) step(j);
  }

  // V <- V Q[:, :kev], F <- Q[m-1, kev-1] F + H[kev, kev-1] (V Q)[:, kev], H <- H[:kev, :kev] (dnapps).
  void restart(std::int64_t kev, const dense& Q) {
    std::vector<cplx> qs(static_cast<std::size_t>((kev + 1) * m));
    for (std::int64_t c = 0; c <= kev; ++c)
      for (std::int64_t r = 0; r < m; ++r) qs[c * m + r] = Q(r, c);
    ndarray dq = eig_detail::upload(qs, t, {kev + 1, m});
    ndarray W = empty({kev + 1, n}, t);
    eig_detail::gemm(t, 'N', 'N', n, kev + 1, m, 1.0, V.data(), n, dq.data(), m, 0.0, W.data(), n);
    const cplx betak = H(kev, kev - 1), sigmak = Q(m - 1, kev - 1);
    eig_detail::scal(t, n, sigmak, F.data());  // F is the residual f itself (||f|| = rnorm)
    eig_detail::axpy(t, n, betak, static_cast<char*>(W.data()) + kev * n * isz, F.data());
    CUSCI_CUDA_TRY(cudaMemcpyAsync(V.data(), W.data(), kev * n * isz, cudaMemcpyDeviceToDevice, st));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j)
        if (i >= kev || j >= kev) H(i, j) = 0.0;
    eig_detail::nrm2_device(t, n, F.data(), nptr(0));
    rnorm = read_norm(0);
  }
};

struct problem {
  dtype t;
  std::int64_t n = 0, k = 0, ncv = 0, maxiter = 0;
  which_t which = which_t::LM;
  int mode = 1;
  bool use_m = false;  // bmat 'G'
  cplx sigma = 0.0;
  bool complex_sigma_real = false;  // real A with a complex sigma (Rayleigh quotients)
  double tol = 0.0;
};

[[noreturn]] void no_convergence(std::int64_t iter, std::int64_t nconv, std::int64_t k, ndarray w, ndarray v) {
  throw arpack_no_convergence(std::string(kFn) + ": ARPACK error -1: No convergence (" + std::to_string(iter) +
                                  " iterations, " + std::to_string(nconv) + "/" + std::to_string(k) +
                                  " eigenvectors converged)",
                              std::move(w), std::move(v));
}

eigs_result solve(const problem& P, const linear_operator& A, std::function<ndarray(const ndarray&)> op,
                  const std::optional<ndarray>& v0, std::uint64_t seed, bool want_vectors) {
  const dtype t = P.t;
  const bool real = !is_complex(t);
  const dtype ct = (t == dtype::float32 || t == dtype::complex64) ? dtype::complex64 : dtype::complex128;
  const std::int64_t n = P.n, m = P.ncv, nev0 = P.k;
  arnoldi ar(t, n, m, std::move(op), seed);

  // Starting vector (dgetv0): v0 or random; with M forced into the range of OP.
  if (v0) {
    ndarray x = eig_detail::contiguous_as(*v0, t);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(ar.F.data(), x.data(), n * ar.isz, cudaMemcpyDeviceToDevice, ar.st));
  } else {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<cplx> h(static_cast<std::size_t>(n));
    for (auto& v : h) v = cplx(u(ar.gen), 0.0);
    ndarray x = eig_detail::upload(h, t, {n});
    CUSCI_CUDA_TRY(cudaMemcpyAsync(ar.F.data(), x.data(), n * ar.isz, cudaMemcpyDeviceToDevice, ar.st));
  }
  if (P.use_m) {
    ndarray f = ar.F.copy();
    ar.apply(f);
  }
  eig_detail::nrm2_device(t, n, ar.F.data(), ar.nptr(0));
  ar.rnorm = ar.read_norm(0);
  if (!(ar.rnorm > 0.0))
    throw arpack_error(-9, std::string(kFn) + ": ARPACK error -9: Starting vector is zero.");

  ad::arpack_params prm;
  prm.nev = nev0;
  prm.ncv = m;
  prm.maxiter = P.maxiter;
  prm.which = P.which;
  prm.tol = P.tol;
  prm.ulp = ar.ulp;
  prm.real = real;
  const bool vectors = want_vectors || P.complex_sigma_real;
  const ad::arpack_outcome out = ad::run_arpack(ar, prm, vectors);
  const std::vector<int>& chosen = out.chosen;
  const std::int64_t L = static_cast<std::int64_t>(chosen.size());

  // Eigenvalues of OP and, when needed, the Ritz vectors Z [L, n] (rows) = V y.
  std::vector<cplx> nu(static_cast<std::size_t>(L));
  for (std::int64_t i = 0; i < L; ++i) nu[i] = out.last.values[chosen[i]];
  std::vector<cplx> d(nu);
  ndarray Z;
  if (vectors && L > 0) {
    if (real) {
      std::vector<cplx> y(static_cast<std::size_t>(2 * L * m));
      for (std::int64_t i = 0; i < L; ++i)
        for (std::int64_t r = 0; r < m; ++r) {
          const cplx v = out.last.vectors(r, chosen[i]);
          y[i * m + r] = v.real();
          y[(L + i) * m + r] = v.imag();
        }
      ndarray dy = eig_detail::upload(y, t, {2 * L, m});
      ndarray zb = empty({2 * L, n}, t);
      eig_detail::gemm(t, 'N', 'N', n, 2 * L, m, 1.0, ar.V.data(), n, dy.data(), m, 0.0, zb.data(), n);
      ndarray zr = zb[{index_spec(slice(0, L))}], zi = zb[{index_spec(slice(L, 2 * L))}];
      Z = add(zr.astype(ct), multiply(zi.astype(ct), scalar(cplx(0.0, 1.0))));
      if (P.complex_sigma_real) {
        // SciPy: w = z^H A z for the unit eigenvector z = zr + i zi.
        for (std::int64_t i = 0; i < L; ++i) {
          ndarray a = zr[i], b = zi[i];
          ndarray Aa = eig_detail::contiguous_as(A.matvec(a), t), Ab = eig_detail::contiguous_as(A.matvec(b), t);
          const double aa = vdot(a, Aa).astype(dtype::float64).item<double>();
          const double bb = vdot(b, Ab).astype(dtype::float64).item<double>();
          const double ab = vdot(a, Ab).astype(dtype::float64).item<double>();
          const double ba = vdot(b, Aa).astype(dtype::float64).item<double>();
          d[i] = cplx(aa + bb, ab - ba);
        }
      }
    } else {
      std::vector<cplx> y(static_cast<std::size_t>(L * m));
      for (std::int64_t i = 0; i < L; ++i)
        for (std::int64_t r = 0; r < m; ++r) y[i * m + r] = out.last.vectors(r, chosen[i]);
      ndarray dy = eig_detail::upload(y, t, {L, m});
      Z = empty({L, n}, t);
      eig_detail::gemm(t, 'N', 'N', n, L, m, 1.0, ar.V.data(), n, dy.data(), m, 0.0, Z.data(), n);
    }
  }
  // Eigenvalues of A (dneupd's shift-invert transformation w = sigma + 1 / nu).
  if (P.mode >= 3 && !P.complex_sigma_real)
    for (auto& x : d) x = P.sigma + 1.0 / x;

  const std::vector<std::int64_t> ind =
      ad::scipy_extract(d, nu, nev0, P.which, real, P.mode >= 3, P.sigma);
  const std::int64_t kk = static_cast<std::int64_t>(ind.size());
  std::vector<cplx> wv(static_cast<std::size_t>(kk));
  for (std::int64_t i = 0; i < kk; ++i) wv[i] = d[ind[i]];
  eigs_result res;
  res.w = eig_detail::upload(wv, ct, {kk});
  ndarray vecs = zeros({n, 0}, ct);
  if (vectors && kk > 0) {
    ndarray rows_sel = empty({kk, n}, ct);
    const std::size_t cs = itemsize(ct);
    for (std::int64_t i = 0; i < kk; ++i)
      CUSCI_CUDA_TRY(cudaMemcpyAsync(static_cast<char*>(rows_sel.data()) + i * n * cs,
                                     static_cast<const char*>(Z.data()) + ind[i] * n * cs, n * cs,
                                     cudaMemcpyDeviceToDevice, ar.st));
    vecs = rows_sel.T().copy();
  }
  res.v = want_vectors ? vecs : zeros({0}, ct);
  res.iterations = out.iter;
  res.op_products = ar.nops;
  if (out.failed) no_convergence(out.iter, out.nconv, nev0, res.w, vecs);
  return res;
}

}  // namespace

eigs_result eigs(const linear_operator& A, const eigs_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::eigs");
  using cusci::detail::shape_str;
  const std::int64_t rows = A.shape()[0], n = A.shape()[1];
  CUSCI_EXPECTS(rows == n, value_error, std::string(kFn) + ": expected square matrix (shape=" + shape_str(A.shape()) + ")");
  if (o.M)
    CUSCI_EXPECTS(o.M->shape() == A.shape(), value_error,
                  std::string(kFn) + ": wrong M dimensions " + shape_str(o.M->shape()) + ", should be " +
                      shape_str(A.shape()));
  CUSCI_EXPECTS(o.k > 0, value_error, std::string(kFn) + ": k=" + std::to_string(o.k) + " must be greater than 0.");
  CUSCI_EXPECTS(o.k < n - 1, type_error,
                std::string(kFn) + ": Cannot use scipy.linalg.eig for sparse A with k >= N - 1 (k=" +
                    std::to_string(o.k) + ", N=" + std::to_string(n) + "). Use a dense eig or reduce k.");
  const dtype at = A.dtype();
  CUSCI_EXPECTS(is_inexact(at), type_error,
                std::string(kFn) + ": matrix type must be 'f', 'd', 'F', or 'D', got " + std::string(dtype_name(at)));
  const dtype t = (at == dtype::float32 || at == dtype::float64 || at == dtype::complex64 || at == dtype::complex128)
                      ? at
                      : dtype::float64;
  const bool cpx = is_complex(t);
  const which_t which = ad::parse_which(o.which);

  problem P;
  P.t = t;
  P.n = n;
  P.k = o.k;
  P.which = which;
  P.tol = o.tol;
  bool part_imag = false;
  if (!o.sigma) {
    CUSCI_EXPECTS(!o.OPinv, value_error, std::string(kFn) + ": OPinv should not be specified with sigma = None.");
    CUSCI_EXPECTS(!o.OPpart, value_error,
                  std::string(kFn) + ": OPpart should not be specified with sigma = None or complex A");
    if (!o.M) {
      CUSCI_EXPECTS(!o.Minv, value_error, std::string(kFn) + ": Minv should not be specified with M = None.");
      P.mode = 1;
    } else {
      P.mode = 2;
      P.use_m = true;
    }
  } else {
    P.sigma = *o.sigma;
    if (cpx) {
      CUSCI_EXPECTS(!o.OPpart, value_error,
                    std::string(kFn) + ": OPpart should not be specified with sigma=None or complex A");
      P.mode = 3;
    } else if (!o.OPpart || *o.OPpart == "r" || *o.OPpart == "R") {
      P.mode = 3;
    } else if (*o.OPpart == "i" || *o.OPpart == "I") {
      CUSCI_EXPECTS(o.sigma->imag() != 0.0, value_error, std::string(kFn) + ": OPpart cannot be 'i' if sigma is real");
      P.mode = 4;
      part_imag = true;
    } else {
      throw value_error(std::string(kFn) + ": OPpart must be one of ('r','i')");
    }
    CUSCI_EXPECTS(!o.Minv, value_error, std::string(kFn) + ": Minv should not be specified when sigma is specified.");
    P.use_m = static_cast<bool>(o.M);
    P.complex_sigma_real = !cpx && o.sigma->imag() != 0.0;
  }
  const std::int64_t ncv = std::min(o.ncv.value_or(std::max<std::int64_t>(2 * o.k + 1, 20)), n);
  P.ncv = ncv;
  if (cpx)
    CUSCI_EXPECTS(ncv > o.k && ncv <= n, value_error,
                  std::string(kFn) + ": ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  else
    CUSCI_EXPECTS(ncv > o.k + 1 && ncv <= n, value_error,
                  std::string(kFn) + ": ncv must be k+1<ncv<=n, ncv=" + std::to_string(ncv));
  P.maxiter = o.maxiter.value_or(10 * n);
  CUSCI_EXPECTS(P.maxiter > 0, value_error,
                std::string(kFn) + ": maxiter must be positive, maxiter=" + std::to_string(P.maxiter));
  if (o.v0)
    CUSCI_EXPECTS(o.v0->size() == n, value_error,
                  std::string(kFn) + ": v0 must have " + std::to_string(n) + " elements, got shape " +
                      shape_str(o.v0->shape()));
  if (o.v0) CUSCI_EXPECTS(is_inexact(o.v0->dtype()) || is_integer(o.v0->dtype()), type_error,
                          std::string(kFn) + ": v0 must be numeric");
  for (const auto* op : {o.Minv ? &*o.Minv : nullptr, o.OPinv ? &*o.OPinv : nullptr})
    if (op)
      CUSCI_EXPECTS(op->shape() == A.shape(), value_error,
                    std::string(kFn) + ": Minv / OPinv of shape " + shape_str(op->shape()) + ", expected " +
                        shape_str(A.shape()));

  // inv(S) for S = A - sigma M (or M, or A): a sparse LU, or a dense LU on the device for n <= 4096.
  auto factorize = [&](bool of_m, cplx sigma) -> std::function<ndarray(const ndarray&)> {
    const csr_matrix* Ac = A.csr();
    const csr_matrix* Mc = o.M ? o.M->csr() : nullptr;
    const bool need_m = !of_m && o.M && sigma != 0.0;
    const char* what = of_m ? "M" : "A - sigma M";
    CUSCI_EXPECTS((of_m ? Mc != nullptr : Ac != nullptr) && (!need_m || Mc != nullptr), not_implemented_error,
                  std::string(kFn) + ": inverting " + what +
                      " needs csr matrices (SciPy iterates with gmres here): pass " + (of_m ? "Minv" : "OPinv"));
    spmatrix S = of_m ? spmatrix(*Mc) : spmatrix(*Ac);
    if (!of_m && sigma != 0.0) {
      const scalar s = sigma.imag() != 0.0 ? scalar(sigma) : scalar(sigma.real());
      const spmatrix shift = need_m ? multiply(spmatrix(*Mc), s) : multiply(identity(n, Ac->dtype(), "csr"), s);
      S = subtract(S, shift);
    }
    if (has_superlu()) {
      auto lu = std::make_shared<SuperLU>(splu(spmatrix(S.tocsc())));
      return [lu](const ndarray& x) -> ndarray {
        if (!is_complex(lu->dtype()) && is_complex(x.dtype())) {
          const dtype c = lu->dtype() == dtype::float32 ? dtype::complex64 : dtype::complex128;
          ndarray re = lu->solve(real(x)), im = lu->solve(imag(x));
          return add(re.astype(c), multiply(im.astype(c), scalar(cplx(0.0, 1.0))));
        }
        return lu->solve(x);
      };
    }
    CUSCI_EXPECTS(n <= 4096, not_implemented_error,
                  std::string(kFn) + ": inverting " + what + " for n=" + std::to_string(n) +
                      " needs SuperLU (cusci was built without it) or n <= 4096: pass " + (of_m ? "Minv" : "OPinv"));
    return eig_detail::dense_lu_solver(S.toarray(), kFn);
  };

  std::function<ndarray(const ndarray&)> op;
  auto Mop = o.M ? std::optional<linear_operator>(*o.M) : std::nullopt;
  if (P.mode == 1) {
    op = [A](const ndarray& x) { return A.matvec(x); };
  } else if (P.mode == 2) {
    std::function<ndarray(const ndarray&)> minv =
        o.Minv ? std::function<ndarray(const ndarray&)>([Mi = *o.Minv](const ndarray& x) { return Mi.matvec(x); })
               : factorize(true, 0.0);
    op = [A, minv](const ndarray& x) { return minv(A.matvec(x)); };
  } else {
    std::function<ndarray(const ndarray&)> opinv =
        o.OPinv ? std::function<ndarray(const ndarray&)>([Oi = *o.OPinv](const ndarray& x) { return Oi.matvec(x); })
                : factorize(false, P.sigma);
    op = [opinv, Mop, part_imag, cpx](const ndarray& x) {
      ndarray y = opinv(Mop ? Mop->matvec(x) : x);
      if (!cpx && is_complex(y.dtype())) return part_imag ? imag(y) : real(y);
      return y;
    };
  }
  return solve(P, A, std::move(op), o.v0, o.rng.value_or(0), o.return_eigenvectors);
}

}  // namespace cusci::sparse::linalg

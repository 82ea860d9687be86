// cusci::distributed::bicgstab: the one-GPU bicgstab of cusci::sparse::linalg
// (sparse/src/linalg/krylov_nonsymmetric.cu), hence SciPy 1.18's iteration, on a row-partitioned
// matrix. The scalars and the status word live in a float64 area on the device: each pass writes its
// rank's partial sums, one all-reduce adds them, and the next pass forms alpha, omega and beta from
// the totals and runs SciPy's breakdown and early-end tests there (the same on every rank, since the
// totals are). Every pass after a failed test does nothing, while the collectives (the products'
// halo exchanges, the all-reduces) still run on every rank, so the ranks stay in step; the host reads
// the status with norm(r) once an iteration. The next iteration's first half (p, p^ = M p, v = A p^)
// changes neither x nor r and is enqueued before the host waits, as in the one-GPU solver.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "cusci/detail/nvtx.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "solvers/common.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed {

solve_result bicgstab(const csr_matrix& A, const vector& b, const bicgstab_options& o) {
  using namespace solver_detail;
  static constexpr const char* fn = "cusci::distributed::bicgstab";
  CUSCI_NVTX_SCOPE(fn);
  check_solve(fn, A, b, o.x0, o.M, o.rtol, o.atol);
  CUSCI_EXPECTS(!o.maxiter || *o.maxiter >= 0, value_error,
                std::string(fn) + ": maxiter must be >= 0, got " + std::to_string(o.maxiter.value_or(0)));
  const dtype xt = A.dtype();
  const std::int64_t n = A.shape()[0];
  const std::int64_t nl = A.partition().size(A.comm().rank());
  const std::int64_t maxiter = o.maxiter.value_or(10 * n);
  const double eps = xt == dtype::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                          : std::numeric_limits<double>::epsilon();
  const double rhotol = eps * eps, omegatol = rhotol;  // SciPy: np.finfo(x.dtype.char).eps ** 2
  cudaStream_t st = get_current_stream();
  const precond_use M = use_preconditioner(o.M, xt);
  const int mode = M.mode;
  const ndarray& d = M.d;

  sum_workspace ws(nl, st);
  scalar_area sc(A.comm(), BS_SLOTS, st);
  double* s = sc.dev();
  history_log hist;

  // r0 = b - A x0 (or b), r~ = r0; norm(b)^2, norm(r0)^2 (= the first rho) in one all-reduce.
  vector x = o.x0 ? vector(A.comm(), A.partition(), o.x0->local().astype(xt, true))
                  : vector::zeros(A.comm(), A.partition(), xt);
  ndarray r = empty({nl}, xt), rt = empty({nl}, xt);
  ndarray ax;
  if (o.x0) ax = A.dot(x).local();
  bicgstab_start(xt, nl, ptr(b.local()), o.x0 ? ptr(ax) : nullptr, mptr(r), mptr(rt), s, ws, st);
  sc.allreduce(BS_BB, 3);
  sc.post(0, BS_SLOTS);
  const double* h = sc.wait();
  solve_result res;
  if (h[BS_BB] == 0) {  // SciPy: return b, 0
    res.x = b.copy();
    return res;
  }
  const double atol = std::max(o.atol, o.rtol * std::sqrt(h[BS_BB]));
  double rnorm = std::sqrt(h[BS_RR]);
  hist.add(rnorm);

  const vector rvec = wrap(A, r);
  ndarray p = empty({nl}, xt);
  const vector pvec = wrap(A, p);
  vector vvec = wrap(A, empty({nl}, xt));
  vector tvec = wrap(A, empty({nl}, xt));
  // p^ and s^: p and r themselves (M none), filled by the passes (Jacobi), M's results (block ILU).
  ndarray phat = mode == 1 ? empty({nl}, xt) : (mode == 0 ? p : ndarray());
  ndarray shat = mode == 1 ? empty({nl}, xt) : (mode == 0 ? r : ndarray());

  // The first half of iteration k: breakdown tests on rho and omega, p, p^ = M p, v = A p^.
  auto front = [&](std::int64_t k) {
    bicgstab_p(xt, mode, nl, k == 0, mptr(p), ptr(r), ptr(vvec.local()), ptr(d), mptr(phat), s, rhotol, omegatol,
               st);
    if (mode == 2) phat = M.M->apply(pvec).local();
    A.dot(wrap(A, phat), vvec);
  };
  for (std::int64_t it = 0; it < maxiter; ++it) {
    if (rnorm < atol) {
      res.x = x;
      res.iterations = it;
      res.history = hist.take();
      return res;
    }
    if (it == 0) front(0);
    // alpha = rho / r~.v (breakdown -11 when r~.v == 0); s = r - alpha v (kept in r), norm(s)^2.
    bicgstab_rv(xt, nl, ptr(rt), ptr(vvec.local()), s, ws, st);
    sc.allreduce(BS_RV, 1);
    bicgstab_s(xt, mode, nl, mptr(r), ptr(vvec.local()), ptr(d), mptr(shat), s, ws, st);
    sc.allreduce(BS_SS, 1);
    // s^ = M s, t = A s^; norm(s) < atol' ends the iteration early, else t.t and t.s.
    if (mode == 2) shat = M.M->apply(rvec).local();
    A.dot(wrap(A, shat), tvec);
    bicgstab_omega(xt, nl, ptr(tvec.local()), ptr(r), s, atol, ws, st);
    sc.allreduce(BS_TT, 2);
    // x += alpha p^ + omega s^, r = s - omega t; norm(r)^2 and the next rho = r~.r in one all-reduce.
    bicgstab_x(xt, mode, nl, mptr(x.local()), mptr(r), ptr(phat), ptr(shat), ptr(tvec.local()), ptr(rt), s, ws, st);
    sc.allreduce(BS_RR, 2);
    sc.post(0, BS_RHO);  // FLAG, SS, BB, RR
    if (it + 1 < maxiter) front(it + 1);
    h = sc.wait();
    const int flag = static_cast<int>(h[BS_FLAG]);
    if (flag == kEarly) {  // SciPy: norm(s) < atol: x += alpha p^, converged, no callback
      hist.add(std::sqrt(h[BS_SS]));
      res.x = x;
      res.iterations = it;
      res.history = hist.take();
      return res;
    }
    if (flag != 0) {  // breakdown: x as before the iteration
      res.x = x;
      res.info = flag;
      res.iterations = it;
      res.history = hist.take();
      return res;
    }
    rnorm = std::sqrt(h[BS_RR]);
    hist.add(rnorm);
    if (o.callback) o.callback(x);
  }
  res.x = x;
  res.info = maxiter;
  res.iterations = maxiter;
  res.history = hist.take();
  return res;
}

}  // namespace cusci::distributed

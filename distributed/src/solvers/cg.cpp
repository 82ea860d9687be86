// cusci::distributed::cg: the one-GPU cg of cusci::sparse::linalg (sparse/src/linalg/cg.cu), hence
// SciPy 1.18's iteration, on a row-partitioned matrix. The device scalars (rho, rho_prev, p.q, r.r) live
// in a small float64 area; each fused pass writes its rank's partial sums there, one all-reduce adds
// them, and the next pass reads the totals (alpha, beta are formed on the device). The host reads
// norm(r) once an iteration; the next iteration's p, A p and p.q (which change neither x nor r) are
// enqueued before it waits, as in the one-GPU solver.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "cusci/detail/nvtx.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "solvers/common.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed {

solve_result cg(const csr_matrix& A, const vector& b, const cg_options& o) {
  using namespace solver_detail;
  static constexpr const char* fn = "cusci::distributed::cg";
  CUSCI_NVTX_SCOPE(fn);
  check_solve(fn, A, b, o.x0, o.M, o.rtol, o.atol);
  CUSCI_EXPECTS(!o.maxiter || *o.maxiter >= 0, value_error,
                std::string(fn) + ": maxiter must be >= 0, got " + std::to_string(o.maxiter.value_or(0)));
  const dtype xt = A.dtype();
  const std::int64_t n = A.shape()[0];
  const std::int64_t nl = A.partition().size(A.comm().rank());
  const std::int64_t maxiter = o.maxiter.value_or(10 * n);
  cudaStream_t st = get_current_stream();
  const precond_use M = use_preconditioner(o.M, xt);
  const int mode = M.mode;

  sum_workspace ws(nl, st);
  scalar_area sc(A.comm(), CG_SLOTS, st);
  double* s = sc.dev();
  history_log hist;

  // r0 = b - A x0 (or b); norm(b)^2, norm(r0)^2 and (M none / Jacobi) r0.z0 in one all-reduce.
  const ndarray& bl = b.local();
  vector x = o.x0 ? vector(A.comm(), A.partition(), o.x0->local().astype(xt, true))
                  : vector::zeros(A.comm(), A.partition(), xt);
  ndarray r = empty({nl}, xt);
  ndarray ax;
  if (o.x0) ax = A.dot(x).local();
  const ndarray& d = M.d;
  cg_start(xt, mode, nl, ptr(bl), o.x0 ? ptr(ax) : nullptr, mptr(r), ptr(d), s, ws, st);
  sc.allreduce(CG_BB, 3);
  sc.post(CG_BB, 2);
  const double* h = sc.wait();
  const double bnrm2 = std::sqrt(h[CG_BB]);
  solve_result res;
  if (bnrm2 == 0) {  // SciPy: return b, 0
    res.x = b.copy();
    return res;
  }
  const double atol = std::max(o.atol, o.rtol * bnrm2);
  double rnorm = std::sqrt(h[CG_RR]);
  hist.add(rnorm);

  ndarray p = empty({nl}, xt);
  vector pv = wrap(A, p);
  vector qv = wrap(A, empty({nl}, xt));
  const vector rv = wrap(A, r);
  ndarray z;
  // The first half of an iteration: (block ILU) z = M r and rho = r.z; p = z + beta p; q = A p; p.q.
  auto enqueue_pq = [&](std::int64_t it) {
    if (mode == 2) {
      z = M.M->apply(rv).local();
      dot(xt, nl, ptr(r), ptr(z), s, CG_RHO, CG_RHO_PREV, ws, st);
      sc.allreduce(CG_RHO, 1);
    }
    cg_update_p(xt, mode, nl, it == 0, mptr(p), ptr(r), ptr(d), ptr(z), s, st);
    A.dot(pv, qv);
    dot(xt, nl, ptr(p), ptr(qv.local()), s, CG_PQ, -1, ws, st);
    sc.allreduce(CG_PQ, 1);
  };
  if (maxiter > 0) enqueue_pq(0);
  for (std::int64_t it = 0; it < maxiter; ++it) {
    if (it > 0) {
      rnorm = std::sqrt(sc.wait()[CG_RR]);
      hist.add(rnorm);
    }
    if (rnorm < atol) {
      res.x = x;
      res.iterations = it;
      res.history = hist.take();
      return res;
    }
    // alpha = rho / p.q; x += alpha p; r -= alpha q; norm(r)^2 and the next r.z in one all-reduce.
    cg_update_xr(xt, mode, nl, mptr(x.local()), mptr(r), ptr(p), ptr(qv.local()), ptr(d), s, ws, st);
    sc.allreduce(CG_RR, mode == 2 ? 1 : 2);
    sc.post(CG_RR, 1);
    if (it + 1 < maxiter) enqueue_pq(it + 1);
    if (o.callback) o.callback(x);
  }
  if (maxiter > 0) hist.add(std::sqrt(sc.wait()[CG_RR]));  // the residual the last iteration left
  res.x = x;
  res.info = maxiter;
  res.iterations = maxiter;
  res.history = hist.take();
  return res;
}

}  // namespace cusci::distributed

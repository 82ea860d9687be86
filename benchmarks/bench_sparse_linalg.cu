// cusci::sparse::linalg iterative solver benchmarks (family sparse_linalg, ids SL1..SL8), each a FIXED amount
// of work so that cusci and its peer (benchmarks/peers_sparse_linalg.py) do the same iterations:
// tolerances that can never be met (rtol = atol = 0; lsqr/lsmr atol = btol = 0, conlim = 1e300; eigsh
// tol = 1e-300) and maxiter = the iteration count below.
//
// Input (identical on both sides): the 3-D Poisson matrix on a 128^3 grid, 7-point stencil (6 on the
// diagonal, -1 at each grid neighbour, Dirichlet boundary), float64, canonical CSR with int32 indices:
// n = 2,097,152, nnz = 14,581,760 (matrix 183 MB, above the H200's 60 MB L2; each vector 16.8 MB);
// b = ones(n); eigsh's v0[i] = ((i * 7919) mod 10007) / 10007 - 0.5 (no symmetry of the grid, so that
// every eigenvector has a component in it).
//
// Traffic model ("roof_pct", against the 4139 GB/s copy ceiling): the minimal bytes an iteration must
// move with the vector operations fused as far as the algorithm allows: MA = 12 nnz + 4 (n + 1) bytes
// for one pass over the matrix (float64 values + int32 column indices + int32 row pointers), V = 8 n
// bytes for one pass over one float64 vector (a read or a write). Dot products and norms are counted
// free when fused into the kernel producing one operand while the other is already read there.
//   SL1 cg, 100 iterations:            MA + 11 V an iteration
//       p = r + beta p (r, p read, p written: 3V); q = A p with p.q (MA + 2V);
//       x += alpha p, r -= alpha q with norm(r) (x, p, r, q read, x, r written: 6V).
//   SL2 bicgstab, 100 iterations:      2 MA + 20 V an iteration (peer: SciPy on the CPU, CuPy has none)
//       p = r + beta (p - omega v) (4V); v = A p with r~.v (MA + 3V); s = r - alpha v with norm(s)
//       (3V); t = A s with t.s, t.t (MA + 2V); x += alpha p + omega s (4V); r = s - omega t with norm(r)
//       and r~.r (4V).
//   SL3 gmres(restart=30), 4 restart cycles = 120 inner iterations (CuPy: maxiter=120 inner iterations):
//       inner step j (basis of j + 1 vectors): w = A v_j (MA + 2V); h = V^T w (j + 2 V); w -= V h with
//       norm(w) (j + 3 V); v_{j+1} = w / norm(w) (2V): MA + (2 j + 9) V.
//       Per cycle besides: x += V y (30 + 2 V), r = b - A x with norm(r) (MA + 3V), v_0 = r / norm(r)
//       (2V). Reported per inner iteration: the whole over 120.
//   SL4 minres, 100 iterations:        MA + 13 V an iteration
//       v = y / beta written by the product kernel, which reads y and r1 and writes y' = A v -
//       (beta / oldb) r1 (MA + 4V); y' -= (alpha / beta) r2 with norm (3V); w = (v - oldeps w1 -
//       delta w2) / gamma and x += phi w with norm(x) (v, w1, w2, x read, w, x written: 6V).
//   SL5 lsqr, 100 iterations:          2 MA + 11 V an iteration (peer: SciPy on the CPU: CuPy's lsqr is
//       a direct sparse QR solve, not LSQR)
//       u = A v - alpha u with norm(u) (MA + 3V; the division by beta folded into the next use);
//       v = A^T u - beta v with norm(v) (MA + 3V); x += (phi / rho) w, w = v - (theta / rho) w (x, w,
//       v read, x, w written: 5V). cusci forms A^T once per call (not counted; inside the timing).
//   SL6 eigsh(k=6, which='LA', ncv=20), 20 restarts = 300 Lanczos steps (ARPACK's count: ncv steps,
//       then ncv - k = 14 a restart; CuPy: maxiter=300 Lanczos steps, the same 300 products):
//       Lanczos step j (basis of j + 1 vectors, one Gram-Schmidt pass): MA + (2 j + 9) V as gmres;
//       each restart forms the k kept Ritz vectors from the ncv basis vectors (ncv + k V).
//       Reported per Lanczos step.
//   SL7 lsmr, 100 iterations:          2 MA + 13 V an iteration
//       the two products as lsqr (2 MA + 6V); h, hbar, x updates with norm(x) (v, h, hbar, x read,
//       h, hbar, x written: 7V).
//   SL8 cgs, 100 iterations:           2 MA + 20 V an iteration
//       u = r + beta q, p = u + beta (q + beta p) (r, q, p read, u, p written: 5V); v = A p with r~.v
//       (MA + 3V); q = u - alpha v (3V); u^ = u + q, x += alpha u^ (u, q, x read, u^, x written: 5V);
//       r -= alpha A u^ with norm(r) and r~.r (MA + 4V: u^, r, r~ read, r written).
// "ms" is the whole solve (median of 20 CUDA-event-timed calls after 2 warm-up calls); "ms_per_iter"
// divides it by the iterations (inner iterations for gmres, Lanczos steps for eigsh); "iters" is what
// the solver reports (a value other than the fixed count means the work differs from the model).
//
// SL9..SL18: further inputs and functions (same conventions; MA and V then refer to the case's matrix).
//   Matrices (built identically by the peer):
//   - convdiff3d_128: -Laplace(u) + w . grad(u) on the unit cube, 128^3 interior points, h = 1/129,
//     Dirichlet boundary, w = 64.5 (1, 1, 1) (cell Peclet number |w_a| h / 2 = 0.25), first-order upwind
//     (backward, since w_a > 0) differences, the whole scaled by h^2: per axis the 1-D matrix
//     tridiag(-(1 + g), 2 + g, -1) with g = h w_a = 0.5, summed over the three axes as Kronecker
//     products: 7.5 on the diagonal, -1.5 at the lower neighbour (stride k^2, k, 1: column < row), -1 at
//     the upper one. Nonsymmetric, weakly diagonally dominant (an M-matrix); every value exact in
//     float64. Pattern, n and nnz as poisson3d_128 (MA, V as above).
//   - cage10 (SuiteSparse, DNA electrophoresis): 11397 x 11397, nnz 150,645, nonsymmetric, read from
//     <dir>/cage10.mtx, dir = argv[1], else $CUSCI_BENCH_MATRICES, else examples/data (relative to
//     the working directory); missing: a note on stderr and SL11/SL12 are skipped. MA = 1.8 MB and a
//     vector 91 KB: the whole working set stays in L2, so these two measure per-iteration latency
//     (launches, synchronizations), not bandwidth; roof_pct is given for uniformity only.
//   - bcsstk16 (<dir>/bcsstk16.mtx.gz, else examples/data/bcsstk16.mtx.gz): 4884 x 4884, symmetric file,
//     nnz 290,378 once expanded; float64 CSR.
//   - poisson2d_K: the 2-D Poisson matrix on a K^2 grid, 5-point (4 on the diagonal, -1 at each grid
//     neighbour, Dirichlet), canonical CSR: K = 1000: n = 10^6, nnz = 4,996,000 (MA = 64 MB,
//     V = 8 MB); K = 300: n = 90,000, nnz = 448,800.
//   - expm_multiply's A = -c poisson2d_1000 with c = 2.5 (-10 on the diagonal, 2.5 at the
//     neighbours): one step dt = 2.5 h^2 of the heat equation u_t = Laplace(u) on the same grid
//     (h = 1/1001; 10 times explicit Euler's stability limit h^2 / 4);
//     ||A||_1 = 20, ||A - mu I||_1 = 10 after SciPy's shift mu = trace(A) / n = -10, large enough
//     for the norm estimation of powers of A (onenormest) to take part in the choice of the Taylor
//     degree m* and the scaling steps s: SciPy 1.18.1 chooses m* = 40, s = 2 (80 products of the
//     [n, 10] block in the series); cusci reports its own "m_star", "s", "matvecs" (series) and
//     "norm_matvecs" (onenormest; its random columns differ from SciPy's, so may its estimates).
//   - Dense inputs: b = ones(n) (SL12: b = v0); v0 as above; blocks X[i, j] = ((i * 7919 + j * 104729) mod 10007)
//     / 10007 - 0.5, C order (spsolve's B [n, 16], lobpcg's X [n, 6], expm_multiply's B [n, 10]).
//   Cases:
//   SL9  gmres(restart=30), 4 cycles = 120 inner iterations, convdiff3d_128 (CuPy: maxiter=120):
//        model as SL3.
//   SL10 bicgstab, 100 iterations, convdiff3d_128: model as SL2 (peer: CuPy's bicgstab where CuPy has
//        one, else SciPy on the CPU: the peer says which on stderr).
//   SL11 gmres(restart=30), 4 cycles, cage10: model as SL3 with cage10's MA, V.
//   SL12 bicgstab, 15 iterations, cage10, b = v0 (above; x0 = 0): model as SL2 (peer as SL10). A fixed
//        amount of work with this b and count, checked with SciPy 1.18.1's bicgstab (rtol = atol = 0,
//        maxiter = 15): it returns info = 15 (no breakdown); over the 15 iterations |rho| >= 3.8e-9,
//        |vdot(r~, v)| >= 1.9e-9 and |omega| >= 1.08, against the breakdown thresholds eps^2 = 4.9e-32
//        (and rv == 0); the relative residual falls from 8.2e-2 (first iteration) to 3.7e-9 (15th),
//        seven orders of magnitude above the rounding floor (4e-16, reached near iteration 25, after
//        which SciPy stagnates and ends with info -10 at iteration 45). b = ones (SL10's, SL11's) does
//        not give a fixed amount of work on cage10: the matrix is column-stochastic (A^T 1 = 1), so r~ =
//        b = 1 is a left eigenvector and vdot(r~, r) is 0 in exact arithmetic from the second iteration
//        on (1.1e4, then 2.2e-13): the iteration runs on rounding noise and stops at a breakdown that
//        depends on rounding (SciPy: info -11 after 10 iterations, relative residual 2e-4).
//   SL13 spsolve(A, B) with B [n, 16] float64 on bcsstk16 (CSR): the whole call, SuperLU's
//        factorization on the host included (peer: CuPy's spsolve, which takes one right-hand side,
//        called once per column: 16 QR factorizations and solves). No traffic model.
//   SL14 spsolve as SL13 on poisson2d_1000. The peer runs CuPy in a child process with a 30 s limit
//        and may time one column and multiply by 16 when one column takes over 1.25 s (it says so).
//   SL13/SL14 time the first call (SL13 loads SuperLU and cuSPARSE's solve paths before it is timed:
//        see time_slow) and, when it took at most 5 s, report the median of 3 further calls instead;
//        "calls" says which (SuperLU alone takes tens of seconds for poisson2d_1000: L + U hold
//        145 M entries with COLAMD).
//   SL15 eigsh(k=10, which='LA', ncv=24), 20 restarts = 24 + 20 * 14 = 304 Lanczos steps (tol 1e-300;
//        CuPy: maxiter=304), poisson2d_1000, v0 as above: model as SL6 with k = 10, ncv = 24.
//   SL16 eigsh(k=6, sigma=0.0, which='LM', ncv=20), tol = 0 (machine precision: here even tol = 1e-300
//        is met within 10 restarts by SciPy, the Ritz estimates of the shift-inverted problem falling
//        to 0, so no tolerance fixes the work), v0 as above, on poisson2d_300: one sparse LU of A
//        (SuperLU, COLAMD) and the solves until convergence; "solves" and "restarts" are cusci's
//        counts (the peer prints SciPy's number of solves on stderr: equal counts mean equal work).
//        Peer: SciPy on the CPU (CuPy's eigsh has no sigma), host wall time, with OPinv = the solve of
//        splu(A) counting its calls (what SciPy's eigsh builds itself for a sparse A and sigma), the
//        factorization inside the timed call. No traffic model. Timed as SL13 (time_slow: the first
//        call, or the median of 3 more when it took at most 5 s).
//   SL17 lobpcg(A, X [n, 6], tol=1e-300, maxiter=50, largest=True) on poisson2d_300: 51 passes of
//        the iteration loop; "iters" is the index of the best iterate + 1 (SciPy's
//        len(lambdaHistory) - 1): 52 when the last iterate is the best (peer: SciPy on the CPU, host
//        wall time). SL17c: the same cusci call against CuPy's lobpcg where CuPy has one. No traffic
//        model (dense block operations dominate). Median of 5 calls after 1 warm-up.
//   SL18 expm_multiply(A, B [n, 10]) at t = 1 for A = -2.5 poisson2d_1000 (peer: SciPy on the CPU,
//        host wall time): each series term one product of A with the [n, 10] block and one fused
//        update of F and the norms: MA + 50 V (block in and out 20 V; the term read again, F read and
//        written 30 V; the scaling folded in), counted over the "matvecs" the series did; the
//        norm estimation products are not counted. Median of 5 calls after 1 warm-up call.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/sparse/linalg/eigen.hpp"
#include "cusci/sparse/linalg/krylov.hpp"
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#include "cusci/sparse/linalg/least_squares.hpp"
#include "cusci/sparse/linalg/lobpcg.hpp"
#include "cusci/sparse/linalg/matfuncs.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"
#include "stencil.cuh"

using namespace cusci;
namespace sla = cusci::sparse::linalg;

namespace {

constexpr std::int64_t grid_k = 128;
constexpr int runs = 20, warmup = 2;

// The stencil matrices (canonical CSR, int32 indices, float64) are stencil.cuh's.
using bench::stencil;

sparse::csr_matrix poisson3d(std::int64_t k) { return bench::poisson(k, 3); }

// v0[i] = ((i * 7919) mod 10007) / 10007 - 0.5 (exact integers, one correctly rounded division: the
// same bits as the peer's NumPy expression).
__global__ void k_v0(std::int64_t n, double* v) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    v[i] = static_cast<double>((i * 7919) % 10007) / 10007.0 - 0.5;
}

ndarray start_vector(std::int64_t n) {
  ndarray v = empty({n}, dtype::float64);
  k_v0<<<4096, 256, 0, get_current_stream()>>>(n, v.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  return v;
}

// X[i, j] = ((i * 7919 + j * 104729) mod 10007) / 10007 - 0.5, C order [n, m] (exact integers, one
// correctly rounded division: the same bits as the peer's NumPy expression).
__global__ void k_block(std::int64_t n, std::int64_t m, double* x) {
  const std::int64_t total = n * m;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t / m, j = t % m;
    x[t] = static_cast<double>((i * 7919 + j * 104729) % 10007) / 10007.0 - 0.5;
  }
}

ndarray start_block(std::int64_t n, std::int64_t m) {
  ndarray x = empty({n, m}, dtype::float64);
  k_block<<<4096, 256, 0, get_current_stream()>>>(n, m, x.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  return x;
}

// The directory of the Matrix Market inputs: argv[1], else $CUSCI_BENCH_MATRICES, else examples/data.
std::string matrix_dir(int argc, char** argv) {
  if (argc > 1) return argv[1];
  if (const char* e = std::getenv("CUSCI_BENCH_MATRICES"); e != nullptr && *e != '\0') return e;
  return "examples/data";
}

// <dir>/<name>, else examples/data/<name>, else "" (with a note on stderr).
std::string find_matrix(const std::string& dir, const std::string& name) {
  for (const std::string& d : {dir, std::string("examples/data")}) {
    const std::string p = d + "/" + name;
    if (std::filesystem::exists(p)) return p;
  }
  std::fprintf(stderr, "# bench_sparse_linalg: %s not found in %s (nor examples/data)\n", name.c_str(), dir.c_str());
  return "";
}

// Slow whole-call timings (direct solves): the first call is timed (the libraries are already loaded
// by then); when it took over `one_call_ms`, it is the result, else the median of 3 further calls.
bench::result time_slow(const std::function<void()>& fn, int& calls, double one_call_ms) {
  cusci::synchronize();
  cusci::event start, stop;
  start.record();
  fn();
  stop.record();
  const double first = cusci::get_elapsed_time(start, stop);
  if (first > one_call_ms) {
    calls = 1;
    return {first, first};
  }
  calls = 3;
  return bench::time_it(fn, 3, 0);
}

std::string extra(std::int64_t iters, std::int64_t nominal, const bench::result& r, const std::string& more = "") {
  std::string s = "\"iters\":" + std::to_string(iters) + ",\"ms_per_iter\":" +
                  std::to_string(r.median_ms / static_cast<double>(nominal));
  if (iters != nominal) s += ",\"warning\":\"iteration count differs from the fixed " + std::to_string(nominal) + "\"";
  if (!more.empty()) s += "," + more;
  return s;
}

// Bytes of the Arnoldi / Lanczos steps j = j0 .. j1 - 1 (basis of j + 1 vectors, one Gram-Schmidt
// pass): MA + (2 j + 9) V each.
double gs_steps(double MA, double V, std::int64_t j0, std::int64_t j1) {
  double b = 0;
  for (std::int64_t j = j0; j < j1; ++j) b += MA + (2.0 * static_cast<double>(j) + 9.0) * V;
  return b;
}

// eigsh(k, which='LA', ncv) over a fixed number of restarts (tol 1e-300 is never met: ARPACK ends with
// arpack_no_convergence after `restarts` restarts) with v0 = start_vector: ncv + restarts (ncv - k)
// Lanczos steps of the model gs_steps, plus the k kept Ritz vectors formed from the ncv basis vectors
// at each restart (ncv + k V).
void eigsh_fixed(const sparse::csr_matrix& A, const char* id, const std::string& name, std::int64_t k, std::int64_t ncv,
                 std::int64_t restarts, double MA, double V) {
  const std::int64_t steps = ncv + restarts * (ncv - k);
  const ndarray v0 = start_vector(A.shape()[0]);
  std::int64_t products = -1;
  bool no_convergence = false;
  auto r = bench::time_it(
      [&] {
        try {
          products = sla::eigsh(A, {.k = k, .which = "LA", .v0 = v0, .ncv = ncv, .maxiter = restarts, .tol = 1e-300})
                         .op_products;
        } catch (const sla::arpack_no_convergence&) {
          no_convergence = true;  // the expected end: all maxiter restarts run
        }
      },
      runs, warmup);
  const double bytes = gs_steps(MA, V, 0, ncv) + static_cast<double>(restarts) * (gs_steps(MA, V, k, ncv) + static_cast<double>(ncv + k) * V);
  // The exception carries no product count: the iterations are then the model's steps.
  bench::report(id, name, r, bytes,
                no_convergence ? extra(steps, steps, r,
                                       "\"end\":\"arpack_no_convergence after " + std::to_string(restarts) + " restarts\"")
                               : extra(products, steps, r, "\"end\":\"returned\""));
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::no_device()) return 77;
  const sparse::csr_matrix A = poisson3d(grid_k);
  const std::int64_t n = A.shape()[0];
  const ndarray b = ones({n});
  const double MA = 12.0 * static_cast<double>(A.nnz()) + 4.0 * static_cast<double>(n + 1);
  const double V = 8.0 * static_cast<double>(n);
  const std::int64_t N = 100;
  const std::string tag = "poisson3d_128";

  if (bench::wanted({"SL1"})) {  // SL1 cg
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::cg(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; }, runs, warmup);
    bench::report("SL1", "cg_" + tag + "_100it", r, N * (MA + 11 * V), extra(it, N, r));
  }
  if (bench::wanted({"SL2"})) {  // SL2 bicgstab (peer: SciPy CPU)
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::bicgstab(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; },
                            runs, warmup);
    bench::report("SL2", "bicgstab_" + tag + "_100it (SciPy CPU peer)", r, N * (2 * MA + 20 * V), extra(it, N, r));
  }
  if (bench::wanted({"SL3"})) {  // SL3 gmres(restart=30), 4 cycles
    const std::int64_t restart = 30, cycles = 4;
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] {
          it = sla::gmres(A, b, {.rtol = 0.0, .atol = 0.0, .restart = restart, .maxiter = cycles}).iterations;
        },
        runs, warmup);
    const double per_cycle =
        gs_steps(MA, V, 0, restart) + (restart + 2.0) * V + (MA + 3 * V) + 2 * V;
    bench::report("SL3", "gmres_restart30_" + tag + "_4cycles_120it", r, cycles * per_cycle,
                  extra(it, restart * cycles, r));
  }
  if (bench::wanted({"SL4"})) {  // SL4 minres
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::minres(A, b, {.rtol = 0.0, .maxiter = N}).iterations; }, runs, warmup);
    bench::report("SL4", "minres_" + tag + "_100it", r, N * (MA + 13 * V), extra(it, N, r));
  }
  if (bench::wanted({"SL5"})) {  // SL5 lsqr (peer: SciPy CPU)
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] { it = sla::lsqr(A, b, {.atol = 0.0, .btol = 0.0, .conlim = 1e300, .iter_lim = N}).itn; }, runs, warmup);
    bench::report("SL5", "lsqr_" + tag + "_100it (SciPy CPU peer)", r, N * (2 * MA + 11 * V), extra(it, N, r));
  }
  // SL6 eigsh(k=6, which='LA', ncv=20), 20 restarts = 300 Lanczos steps
  if (bench::wanted({"SL6"})) eigsh_fixed(A, "SL6", "eigsh_k6_LA_ncv20_" + tag + "_300steps", 6, 20, 20, MA, V);
  if (bench::wanted({"SL7"})) {  // SL7 lsmr
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] { it = sla::lsmr(A, b, {.atol = 0.0, .btol = 0.0, .conlim = 1e300, .maxiter = N}).itn; }, runs, warmup);
    bench::report("SL7", "lsmr_" + tag + "_100it", r, N * (2 * MA + 13 * V), extra(it, N, r));
  }
  if (bench::wanted({"SL8"})) {  // SL8 cgs
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::cgs(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; }, runs,
                            warmup);
    bench::report("SL8", "cgs_" + tag + "_100it", r, N * (2 * MA + 20 * V), extra(it, N, r));
  }
  const std::string dir = matrix_dir(argc, argv);
  const std::int64_t restart = 30, cycles = 4;
  // gmres(restart=30) over 4 cycles with b = ones (SL3's model) and bicgstab over bN iterations with
  // b = bb (SL2's model) on C; bname: the bicgstab case's name.
  const auto nonsymmetric = [&](const sparse::csr_matrix& C, const std::string& ctag, const char* id_gmres,
                                const char* id_bicgstab, const ndarray& bb, std::int64_t bN, const std::string& bname) {
    const std::int64_t cn = C.shape()[0];
    const ndarray cb = ones({cn});
    const double cMA = 12.0 * static_cast<double>(C.nnz()) + 4.0 * static_cast<double>(cn + 1);
    const double cV = 8.0 * static_cast<double>(cn);
    if (bench::wanted({id_gmres})) {
      std::int64_t it = 0;
      auto r = bench::time_it(
          [&] {
            it = sla::gmres(C, cb, {.rtol = 0.0, .atol = 0.0, .restart = restart, .maxiter = cycles}).iterations;
          },
          runs, warmup);
      const double per_cycle = gs_steps(cMA, cV, 0, restart) + (restart + 2.0) * cV + (cMA + 3 * cV) + 2 * cV;
      bench::report(id_gmres, "gmres_restart30_" + ctag + "_4cycles_120it", r, cycles * per_cycle,
                    extra(it, restart * cycles, r));
    }
    if (bench::wanted({id_bicgstab})) {
      std::int64_t it = 0;
      auto r = bench::time_it(
          [&] { it = sla::bicgstab(C, bb, {.rtol = 0.0, .atol = 0.0, .maxiter = bN}).iterations; }, runs, warmup);
      bench::report(id_bicgstab, bname + " (CuPy peer, else SciPy CPU)", r, bN * (2 * cMA + 20 * cV),
                    extra(it, bN, r));
    }
  };
  if (bench::wanted({"SL9", "SL10"})) {  // SL9 gmres, SL10 bicgstab: 3-D convection-diffusion, upwind, 128^3
    const sparse::csr_matrix C = stencil(grid_k, 3, -1.5, 7.5, -1.0);
    nonsymmetric(C, "convdiff3d_128", "SL9", "SL10", ones({C.shape()[0]}), N, "bicgstab_convdiff3d_128_100it");
  }
  const bool superlu = sla::has_superlu();
  if (!superlu) std::fprintf(stderr, "# bench_sparse_linalg: built without SuperLU: SL13, SL14, SL16 skipped\n");
  // spsolve(A, B [n, 16]): the whole call (factorization on the host, solves on the device).
  // A failure (no SuperLU, SuperLU out of memory) skips the case with a note.
  const auto spsolve16 = [&](const sparse::csr_matrix& S, const std::string& stag, const char* id, bool warm_first) {
    const ndarray B = start_block(S.shape()[0], 16);
    const sparse::spmatrix Sm(S);
    int calls = 0;
    try {
      if (warm_first) sla::spsolve(Sm, B);  // loads SuperLU and the solve paths (untimed)
      auto r = time_slow([&] { sla::spsolve(Sm, B); }, calls, 5000.0);
      bench::report(id, "spsolve_16rhs_" + stag + " (CuPy: one call a column)", r, 0,
                    "\"calls\":" + std::to_string(calls));
    } catch (const cusci::error& e) {
      std::fprintf(stderr, "# bench_sparse_linalg %s skipped: %s\n", id, e.what());
    }
  };
  if (superlu && bench::wanted({"SL13"})) {  // SL13 spsolve, bcsstk16
    const std::string p = find_matrix(dir, "bcsstk16.mtx.gz");
    if (!p.empty()) spsolve16(io::mmread(p).tocsr(), "bcsstk16", "SL13", true);
  }
  const sparse::csr_matrix P2 = stencil(1000, 2, -1.0, 4.0, -1.0);
  const std::int64_t n2 = P2.shape()[0];
  const double MA2 = 12.0 * static_cast<double>(P2.nnz()) + 4.0 * static_cast<double>(n2 + 1);
  const double V2 = 8.0 * static_cast<double>(n2);
  if (superlu && bench::wanted({"SL14"})) spsolve16(P2, "poisson2d_1000", "SL14", false);  // SL14 spsolve, 2-D Poisson 1000^2
  // SL15 eigsh(k=10, which='LA', ncv=24), 20 restarts = 304 Lanczos steps, 2-D Poisson 1000^2
  if (bench::wanted({"SL15"})) eigsh_fixed(P2, "SL15", "eigsh_k10_LA_ncv24_poisson2d_1000_304steps", 10, 24, 20, MA2, V2);
  if (bench::wanted({"SL18"})) {  // SL18 expm_multiply(-2.5 poisson2d_1000, B [n, 10]) (SciPy CPU peer)
    const sparse::csr_matrix E = stencil(1000, 2, 2.5, -10.0, 2.5);
    const ndarray B = start_block(n2, 10);
    sla::expm_multiply_info info;
    auto r = bench::time_it([&] { sla::expm_multiply(E, B, {}, &info); }, 5, 1);
    const double bytes = static_cast<double>(info.matvecs) * (MA2 + 50.0 * V2);
    bench::report("SL18", "expm_multiply_heat2d_1000_10rhs (SciPy CPU peer)", r, bytes,
                  "\"m_star\":" + std::to_string(info.m_star) + ",\"s\":" + std::to_string(info.s) +
                      ",\"matvecs\":" + std::to_string(info.matvecs) +
                      ",\"norm_matvecs\":" + std::to_string(info.norm_matvecs));
  }
  if (bench::wanted({"SL11", "SL12"})) {  // SL11 gmres, SL12 bicgstab: cage10
    const std::string p = find_matrix(dir, "cage10.mtx");
    if (p.empty())
      std::fprintf(stderr, "# bench_sparse_linalg: SL11, SL12 skipped (no cage10.mtx)\n");
    else {
      const sparse::csr_matrix C = io::mmread(p).tocsr();
      // SL12: b = v0 and 15 iterations, far above the rounding floor and from any breakdown (header).
      nonsymmetric(C, "cage10", "SL11", "SL12", start_vector(C.shape()[0]), 15, "bicgstab_cage10_v0rhs_15it");
    }
  }
  if (bench::wanted({"SL16", "SL17", "SL17c"})) {  // SL16 eigsh shift-invert, SL17 lobpcg: 2-D Poisson 300^2 (SciPy CPU peers)
    const sparse::csr_matrix Q = stencil(300, 2, -1.0, 4.0, -1.0);
    const std::int64_t nq = Q.shape()[0];
    if (superlu) {
      const std::int64_t k = 6, ncv = 20;
      const ndarray v0 = start_vector(nq);
      std::int64_t products = -1, iterations = -1;
      int calls = 0;
      try {
        auto r = time_slow(
            [&] {
              const auto e = sla::eigsh(Q, {.k = k, .sigma = 0.0, .which = "LM", .v0 = v0, .ncv = ncv});
              products = e.op_products;
              iterations = e.iterations;
            },
            calls, 5000.0);
        bench::report("SL16", "eigsh_k6_sigma0_shift_invert_poisson2d_300 (SciPy CPU peer)", r, 0,
                      "\"solves\":" + std::to_string(products) + ",\"restarts\":" + std::to_string(iterations) +
                          ",\"calls\":" + std::to_string(calls));
      } catch (const cusci::error& e) {
        std::fprintf(stderr, "# bench_sparse_linalg SL16 skipped: %s\n", e.what());
      }
    }
    const ndarray X = start_block(nq, 6);
    const std::int64_t M = 50;
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] { it = sla::lobpcg(Q, X, {.tol = 1e-300, .maxiter = M, .largest = true}).iterations; }, 5, 1);
    // The count reported is the best iterate's index + 1: M + 2 when the last one is the best.
    bench::report("SL17", "lobpcg_k6_largest_poisson2d_300_maxiter50 (SciPy CPU peer)", r, 0, extra(it, M + 2, r));
    bench::report("SL17c", "lobpcg_k6_largest_poisson2d_300_maxiter50 (CuPy peer)", r, 0, extra(it, M + 2, r));
  }
  return 0;
}

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

#include <cstdint>
#include <cstdio>
#include <string>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/eigen.hpp"
#include "cusci/sparse/linalg/krylov.hpp"
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#include "cusci/sparse/linalg/least_squares.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sla = cusci::sparse::linalg;

namespace {

constexpr std::int64_t grid_k = 128;
constexpr int runs = 20, warmup = 2;

// Number of stored entries of row i of the 3-D Poisson matrix on a k^3 grid.
__device__ int row_count(std::int64_t i, std::int64_t k) {
  int c = 1;
  std::int64_t rest = i;
  for (int a = 0; a < 3; ++a) {
    const std::int64_t coord = rest % k;
    rest /= k;
    c += (coord > 0) + (coord < k - 1);
  }
  return c;
}

__global__ void k_counts(std::int64_t n, std::int64_t k, std::int32_t* cnt) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    cnt[i] = row_count(i, k);
}

// Row i in increasing column order: -1 at the lower neighbours (stride k^2, k, 1), 6 on the diagonal,
// -1 at the upper neighbours (stride 1, k, k^2). The same matrix as the sum of Kronecker products of
// the 1-D second difference matrix that the peer builds.
__global__ void k_fill(std::int64_t n, std::int64_t k, const std::int32_t* ptr, std::int32_t* ind, double* val) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[3] = {0, 0, 0};
    const std::int64_t stride[3] = {1, k, k * k};
    std::int64_t rest = i;
    for (int a = 0; a < 3; ++a) {
      coord[a] = rest % k;
      rest /= k;
    }
    std::int64_t j = ptr[i];
    for (int a = 2; a >= 0; --a)
      if (coord[a] > 0) {
        ind[j] = static_cast<std::int32_t>(i - stride[a]);
        val[j++] = -1.0;
      }
    ind[j] = static_cast<std::int32_t>(i);
    val[j++] = 6.0;
    for (int a = 0; a < 3; ++a)
      if (coord[a] < k - 1) {
        ind[j] = static_cast<std::int32_t>(i + stride[a]);
        val[j++] = -1.0;
      }
  }
}

sparse::csr_matrix poisson3d(std::int64_t k) {
  const std::int64_t n = k * k * k;
  cudaStream_t s = get_current_stream();
  ndarray ptr = zeros({n + 1}, dtype::int32);
  std::int32_t* p1 = ptr.data_as<std::int32_t>() + 1;
  k_counts<<<4096, 256, 0, s>>>(n, k, p1);
  CUSCI_CHECK_LAUNCH();
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, p1, p1, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, p1, p1, n, s));
  const std::int64_t nnz = ptr[{slice{n, n + 1}}].item<std::int64_t>();
  ndarray ind = empty({nnz}, dtype::int32), val = empty({nnz}, dtype::float64);
  k_fill<<<4096, 256, 0, s>>>(n, k, ptr.data_as<std::int32_t>(), ind.data_as<std::int32_t>(), val.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  return sparse::csr_matrix::from_valid(val, ind, ptr, {n, n}, true);
}

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

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const sparse::csr_matrix A = poisson3d(grid_k);
  const std::int64_t n = A.shape()[0];
  const ndarray b = ones({n});
  const double MA = 12.0 * static_cast<double>(A.nnz()) + 4.0 * static_cast<double>(n + 1);
  const double V = 8.0 * static_cast<double>(n);
  const std::int64_t N = 100;
  const std::string tag = "poisson3d_128";

  {  // SL1 cg
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::cg(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; }, runs, warmup);
    bench::report("SL1", "cg_" + tag + "_100it", r, N * (MA + 11 * V), extra(it, N, r));
  }
  {  // SL2 bicgstab (peer: SciPy CPU)
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::bicgstab(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; },
                            runs, warmup);
    bench::report("SL2", "bicgstab_" + tag + "_100it (SciPy CPU peer)", r, N * (2 * MA + 20 * V), extra(it, N, r));
  }
  {  // SL3 gmres(restart=30), 4 cycles
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
  {  // SL4 minres
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::minres(A, b, {.rtol = 0.0, .maxiter = N}).iterations; }, runs, warmup);
    bench::report("SL4", "minres_" + tag + "_100it", r, N * (MA + 13 * V), extra(it, N, r));
  }
  {  // SL5 lsqr (peer: SciPy CPU)
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] { it = sla::lsqr(A, b, {.atol = 0.0, .btol = 0.0, .conlim = 1e300, .iter_lim = N}).itn; }, runs, warmup);
    bench::report("SL5", "lsqr_" + tag + "_100it (SciPy CPU peer)", r, N * (2 * MA + 11 * V), extra(it, N, r));
  }
  {  // SL6 eigsh(k=6, which='LA', ncv=20), 20 restarts = 300 Lanczos steps
    const std::int64_t k = 6, ncv = 20, restarts = 20, steps = ncv + restarts * (ncv - k);
    const ndarray v0 = start_vector(n);
    std::int64_t products = -1;
    bool no_convergence = false;
    auto r = bench::time_it(
        [&] {
          try {
            products = sla::eigsh(A, {.k = k, .which = "LA", .v0 = v0, .ncv = ncv, .maxiter = restarts, .tol = 1e-300})
                           .op_products;
          } catch (const sla::arpack_no_convergence&) {
            no_convergence = true;  // the expected end: tol 1e-300 is never met, all maxiter restarts run
          }
        },
        runs, warmup);
    const double bytes = gs_steps(MA, V, 0, ncv) + restarts * (gs_steps(MA, V, k, ncv) + (ncv + k) * V);
    // The exception carries no product count: the iterations are then the model's 300 steps.
    bench::report("SL6", "eigsh_k6_LA_ncv20_" + tag + "_300steps", r, bytes,
                  no_convergence ? extra(steps, steps, r, "\"end\":\"arpack_no_convergence after 20 restarts\"")
                                 : extra(products, steps, r, "\"end\":\"returned\""));
  }
  {  // SL7 lsmr
    std::int64_t it = 0;
    auto r = bench::time_it(
        [&] { it = sla::lsmr(A, b, {.atol = 0.0, .btol = 0.0, .conlim = 1e300, .maxiter = N}).itn; }, runs, warmup);
    bench::report("SL7", "lsmr_" + tag + "_100it", r, N * (2 * MA + 13 * V), extra(it, N, r));
  }
  {  // SL8 cgs
    std::int64_t it = 0;
    auto r = bench::time_it([&] { it = sla::cgs(A, b, {.rtol = 0.0, .atol = 0.0, .maxiter = N}).iterations; }, runs,
                            warmup);
    bench::report("SL8", "cgs_" + tag + "_100it", r, N * (2 * MA + 20 * V), extra(it, N, r));
  }
  return 0;
}

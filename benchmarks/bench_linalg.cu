// cusci::linalg benchmarks. Ids A1..A4b are the CuPy baseline's (../shared/cupy-h200-baseline.md); A5..A9 are
// new cases of the linalg performance targets:
//   A1   solve batched (1e5, 8, 8) fp64            A1b  solve batched (1e4, 32, 32) fp64
//   A2   cholesky 8192^2 fp64                      A2b  cholesky batched (1e4, 32, 32) fp64
//   A3   eigh 4096^2 fp64 (values + vectors)       A3b  eigh batched (500, 100, 100) float32
//   A4   svd 4096^2 fp64, full_matrices=False      A4b  svd batched (256, 64, 64) float32
//   A5   solve batched (1e4, 64, 64) fp64          A6 / A6d  inv / det batched (1e4, 64, 64) fp64
//   A7   expm 1024^2 fp64
//   A8   qr 8192^2 fp64 (mode full)                A8raw  bare cuSOLVER Xgeqrf + Dorgqr on the same buffer
//   A9   lu_factor 8192^2 fp64                     A9raw  bare cuSOLVER Xgetrf on the same buffer
//
// Inputs are generated on the device from a counter-based generator, u(k) = uniform[-1, 1) of splitmix64(k)
// (53 bits), so that compare_cupy.py's peers rebuild the very same matrices (values decide the iteration
// counts of the Jacobi eigen/SVD solvers and expm's Pade order and scaling). Element (b, i, j) of a batch of
// n x n matrices has the flat row-major index k = (b n + i) n + j; `seed` is added to k:
//   general(seed, shift)   a = u(seed + k) + shift [i == j]          (shift = n: well conditioned)
//   symmetric(seed)        a = u(seed + (b n + min(i, j)) n + max(i, j))
//   scaled(seed, c)        a = c u(seed + k)
// A1..A2b keep their original inputs (general with seed 0 and shift n; the SPD matrices of fill_spd).
//
// Each case prints the harness's line (median ms, and `gbps` / `roof_pct` of the minimal traffic against the
// 4139 GB/s copy ceiling) and, for the compute-bound ones, "gflops" from the operation count stated at the case.
// CUSCI_BENCH_IDS (bench::wanted) selects cases; without a GPU the program prints an error line and returns 77.

#include <cusolverDn.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/linalg/eigen.hpp"
#include "cusci/linalg/linalg.hpp"
#include "cusci/linalg/lu.hpp"
#include "cusci/linalg/matfuncs.hpp"
#include "cusci/linalg/qr.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/memory.hpp"
#include "harness.hpp"

namespace {

namespace bench = cusci::bench;

__host__ __device__ double uniform_pm1(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

__global__ void fill_general(double* a, std::int64_t nb, std::int64_t n) {
  const std::int64_t total = nb * n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = e % (n * n), i = r / n, j = r % n;
    a[e] = uniform_pm1(e) + (i == j ? static_cast<double>(n) : 0.0);
  }
}

__global__ void fill_spd(double* a, std::int64_t nb, std::int64_t n) {
  const std::int64_t total = nb * n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t b = e / (n * n), r = e % (n * n), i = r / n, j = r % n;
    const std::int64_t lo = i < j ? i : j, hi = i < j ? j : i;
    a[e] = i == j ? static_cast<double>(n + 1) : uniform_pm1((b * n + lo) * n + hi);
  }
}

__global__ void fill_uniform(double* x, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    x[e] = uniform_pm1(seed + static_cast<std::uint64_t>(e));
}

// The inputs of A3..A9 (see the file comment): symmetric ? symmetric(seed) : c u(seed + k) + shift [i == j],
// computed in double and rounded once to T (as NumPy's astype on the peers' side).
template <class T>
__global__ void fill_matrix(T* a, std::int64_t nb, std::int64_t n, std::uint64_t seed, bool symmetric, double c,
                            double shift) {
  const std::int64_t total = nb * n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t b = e / (n * n), r = e % (n * n), i = r / n, j = r % n;
    double v;
    if (symmetric) {
      const std::int64_t lo = i < j ? i : j, hi = i < j ? j : i;
      v = uniform_pm1(seed + static_cast<std::uint64_t>((b * n + lo) * n + hi));
    } else {
      v = c * uniform_pm1(seed + static_cast<std::uint64_t>(e)) + (i == j ? shift : 0.0);
    }
    a[e] = static_cast<T>(v);
  }
}

unsigned blocks(std::int64_t n) {
  std::int64_t g = (n + 255) / 256;
  return static_cast<unsigned>(g < 1 ? 1 : (g > 65535 * 16 ? 65535 * 16 : g));
}

cusci::ndarray general(std::int64_t nb, std::int64_t n) {
  cusci::ndarray a = cusci::empty({nb, n, n});
  fill_general<<<blocks(nb * n * n), 256, 0, cusci::get_current_stream()>>>(a.data_as<double>(), nb, n);
  CUSCI_CUDA_TRY(cudaGetLastError());
  return a;
}

cusci::ndarray spd(cusci::shape_t shape) {
  const std::int64_t n = shape.back();
  const std::int64_t nb = shape.size() == 3 ? shape[0] : 1;
  cusci::ndarray a = cusci::empty(shape);
  fill_spd<<<blocks(nb * n * n), 256, 0, cusci::get_current_stream()>>>(a.data_as<double>(), nb, n);
  CUSCI_CUDA_TRY(cudaGetLastError());
  return a;
}

cusci::ndarray rhs(std::int64_t nb, std::int64_t n) {
  cusci::ndarray b = cusci::empty({nb, n, 1});
  fill_uniform<<<blocks(nb * n), 256, 0, cusci::get_current_stream()>>>(b.data_as<double>(), nb * n, 77);
  CUSCI_CUDA_TRY(cudaGetLastError());
  return b;
}

/// A matrix (nb == 0: shape (n, n)) or a batch (nb, n, n) of A3..A9's inputs, in float32 or float64.
cusci::ndarray matrix(std::int64_t nb, std::int64_t n, cusci::dtype dt, std::uint64_t seed, bool symmetric,
                      double c = 1.0, double shift = 0.0) {
  const std::int64_t count = (nb == 0 ? 1 : nb) * n * n;
  cusci::ndarray a = nb == 0 ? cusci::empty({n, n}, dt) : cusci::empty({nb, n, n}, dt);
  const cudaStream_t s = cusci::get_current_stream();
  if (dt == cusci::dtype::float32)
    fill_matrix<float><<<blocks(count), 256, 0, s>>>(a.data_as<float>(), count / (n * n), n, seed, symmetric, c,
                                                     shift);
  else
    fill_matrix<double><<<blocks(count), 256, 0, s>>>(a.data_as<double>(), count / (n * n), n, seed, symmetric,
                                                      c, shift);
  CUSCI_CUDA_TRY(cudaGetLastError());
  return a;
}

/// Seeds of the new cases' inputs (disjoint counter ranges: 2^40 apart); compare_cupy.py uses the same.
constexpr std::uint64_t seed_of(int k) { return static_cast<std::uint64_t>(k) << 40; }

std::string dims(std::int64_t nb, std::int64_t n) {
  const std::string nn = std::to_string(n);
  return nb == 0 ? "(" + nn + ", " + nn + ")" : "(" + std::to_string(nb) + ", " + nn + ", " + nn + ")";
}

std::string gflops(double flops, const bench::result& r) {
  return "\"gflops\":" + std::to_string(flops / (r.median_ms * 1e-3) / 1e9);
}

// A1, A1b, A5. bytes: read a and b, write x. flops (extra of A5): LU 2/3 n^3 + two triangular solves 2 n^2,
// per matrix. scipy.linalg.solve with assume_a="gen" (no structure detection; CuPy's solve detects none either).
void bench_solve(const std::string& id, std::int64_t nb, std::int64_t n, bool with_flops = false) {
  const cusci::ndarray a = general(nb, n), b = rhs(nb, n);
  const auto r = bench::time_it([&] {
    (void)cusci::linalg::solve(a, b, {.assume_a = cusci::linalg::matrix_structure::general});
  });
  const double nd = static_cast<double>(n);
  bench::report(id, "solve batched " + dims(nb, n) + " fp64, b (..., n, 1)", r,
                static_cast<double>(nb * (n * n + 2 * n)) * 8.0,
                with_flops ? gflops(static_cast<double>(nb) * (2.0 / 3.0 * nd * nd * nd + 2.0 * nd * nd), r) : "");
}

// A2, A2b. bytes: read a, write the factor. flops: n^3 / 3 per matrix.
void bench_cholesky(const std::string& id, const cusci::shape_t& shape) {
  const cusci::ndarray a = spd(shape);
  const std::int64_t n = shape.back(), nb = shape.size() == 3 ? shape[0] : 1;
  const auto r = bench::time_it([&] { (void)cusci::linalg::cholesky(a); }, shape.size() == 3 ? 30 : 10, 2);
  bench::report(id, std::string(shape.size() == 3 ? "cholesky batched " : "cholesky ") +
                           dims(shape.size() == 3 ? nb : 0, n) + " fp64", r,
                static_cast<double>(nb * n * n) * 16.0, gflops(static_cast<double>(nb) * n * n * n / 3.0, r));
}

// A3, A3b: eigh (w and v, lower triangle, default driver) of symmetric(seed 3 / 4).
// bytes: read a (n^2), write w (n) and v (n^2). flops: 4/3 n^3 (Householder tridiagonal reduction, ?sytrd)
// + 2 n^3 (back transformation of the vectors, ?ormtr) per matrix; the tridiagonal eigensolver is not
// counted, so the figure is a lower bound of the work.
void bench_eigh(const std::string& id, std::int64_t nb, std::int64_t n, cusci::dtype dt, std::uint64_t seed,
                int runs, int warmup) {
  const cusci::ndarray a = matrix(nb, n, dt, seed, true);
  const auto r = bench::time_it([&] { (void)cusci::linalg::eigh(a); }, runs, warmup);
  const double m = static_cast<double>(nb == 0 ? 1 : nb), nd = static_cast<double>(n);
  const double item = dt == cusci::dtype::float32 ? 4.0 : 8.0;
  bench::report(id, "eigh " + dims(nb, n) + (dt == cusci::dtype::float32 ? " float32" : " fp64"), r,
                m * (2.0 * nd * nd + nd) * item, gflops(m * (4.0 / 3.0 + 2.0) * nd * nd * nd, r));
}

// A4, A4b: svd of uniform(seed 5 / 6) (c = 1, no shift), default lapack_driver (gesdd).
// bytes: read a (n^2), write u (n^2), s (n), vh (n^2). flops: Golub & Van Loan's count for U (thin), S, V by
// Golub-Kahan-Reinsch, 4 m^2 n + 8 m n^2 + 9 n^3 = 21 n^3 for m = n, per matrix (a conventional figure:
// Jacobi and the polar-decomposition path do different amounts of work).
void bench_svd(const std::string& id, std::int64_t nb, std::int64_t n, cusci::dtype dt, std::uint64_t seed,
               bool full_matrices, int runs, int warmup) {
  const cusci::ndarray a = matrix(nb, n, dt, seed, false);
  const auto r = bench::time_it(
      [&] { (void)cusci::linalg::svd(a, {.full_matrices = full_matrices}); }, runs, warmup);
  const double m = static_cast<double>(nb == 0 ? 1 : nb), nd = static_cast<double>(n);
  const double item = dt == cusci::dtype::float32 ? 4.0 : 8.0;
  bench::report(id,
                "svd " + dims(nb, n) + (dt == cusci::dtype::float32 ? " float32" : " fp64") +
                    (full_matrices ? "" : ", full_matrices=False"),
                r, m * (3.0 * nd * nd + nd) * item, gflops(m * 21.0 * nd * nd * nd, r));
}

// A6: inv of general(seed 9, shift n). bytes: read a, write inv(a). flops: 2 n^3 per matrix (getrf 2/3 n^3
// + getri 4/3 n^3).
// A6d: det of the same matrices. bytes: read a, write one float64 per matrix. flops: 2/3 n^3 per matrix.
void bench_inv_det(std::int64_t nb, std::int64_t n) {
  const cusci::ndarray a = matrix(nb, n, cusci::dtype::float64, seed_of(9), false, 1.0, static_cast<double>(n));
  const double m = static_cast<double>(nb), nd = static_cast<double>(n);
  if (bench::wanted({"A6"})) {
    const auto r = bench::time_it([&] { (void)cusci::linalg::inv(a); });
    bench::report("A6", "inv batched " + dims(nb, n) + " fp64", r, m * nd * nd * 16.0,
                  gflops(m * 2.0 * nd * nd * nd, r));
  }
  if (bench::wanted({"A6d"})) {
    const auto r = bench::time_it([&] { (void)cusci::linalg::det(a); });
    bench::report("A6d", "det batched " + dims(nb, n) + " fp64", r, m * (nd * nd + 1.0) * 8.0,
                  gflops(m * 2.0 / 3.0 * nd * nd * nd, r));
  }
}

// A7: expm of scaled(seed 7, c = 3 sqrt(3 / n)), n = 1024: entries of variance 3 / n, spectral radius about 3
// (circular law), ||A||_1 = 88.10, ||A||_inf = 87.46. SciPy's tests (as cusci follows them, evaluated with
// NumPy on this very matrix): d4 = ||A^4||^(1/4) = 6.94, d6 = ||A^6||^(1/6) = 5.30 (infinity norms of SciPy's
// transposed view); for n >= 400 SciPy takes "d8" / "d10" from the 8 x 8 / 10 x 10 blocks of A[0:64, 0] and
// A[0:100, 0]: 0.98 / 1.01. max(d6, d8) = 5.30 > theta_9 = 2.098, so the order is m = 13, the only order
// CuPy's expm uses (its [13/13] approximant always). Scaling: SciPy s = max(ceil(log2(min(5.30, 1.01) /
// 4.25)), 0) = 0, plus ell = 4 from the || |A|^27 1 || test: s = 4; CuPy s = ceil(log2(||A - mu I||_1 /
// 5.37)) + 1 = 6. bytes: read A, write expm(A). flops (SciPy's m = 13, s = 4): products A^2, A^4, A^6 and
// three for U and V, 4 squarings: 10 x 2 n^3, + LU 2/3 n^3 + the solve with n right-hand sides 2 n^3.
void bench_expm(std::int64_t n) {
  const double c = 3.0 * std::sqrt(3.0 / static_cast<double>(n));
  const cusci::ndarray a = matrix(0, n, cusci::dtype::float64, seed_of(7), false, c);
  const auto r = bench::time_it([&] { (void)cusci::linalg::expm(a); }, 20, 3);
  const double nd = static_cast<double>(n);
  bench::report("A7", "expm " + dims(0, n) + " fp64, ||A||_1 88.1: Pade 13, s 4 (CuPy: 13, 6)", r,
                2.0 * nd * nd * 8.0, gflops((20.0 + 2.0 / 3.0 + 2.0) * nd * nd * nd, r));
}

/// Device and host workspace of a cuSOLVER call, allocated outside the timed region.
struct solver_ws {
  cusci::memory_ptr dev;
  std::vector<unsigned char> host;
  std::size_t dev_bytes = 0;
  solver_ws(std::size_t d, std::size_t h) : dev(cusci::malloc(d > 0 ? d : 1)), host(h > 0 ? h : 1), dev_bytes(d) {}
};

/// cusolverDnParams_t for the bare reference calls.
struct solver_params {
  cusolverDnParams_t p = nullptr;
  solver_params() { CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&p)); }
  ~solver_params() { CUSCI_LAZY(cusolverDnDestroyParams)(p); }
  solver_params(const solver_params&) = delete;
  solver_params& operator=(const solver_params&) = delete;
};

/// ",\"info\":k" with the cuSOLVER info of the last bare call (0: success), read after a synchronization.
std::string info_of(const cusci::ndarray& info) {
  int h = 0;
  CUSCI_CUDA_TRY(cudaMemcpy(&h, info.data_as<int>(), sizeof(int), cudaMemcpyDeviceToHost));
  return ",\"info\":" + std::to_string(h);
}

// A8: qr(a) (mode full; M = N so Q is n x n and R n x n) of uniform(seed 8), n = 8192, against A8raw: the
// bare cuSOLVER calls cusci's single-matrix path makes, timed on the same input buffer in the same program:
// copy a into a work buffer (cusci gathers it into a column-major copy; the bare path factors the buffer
// read as column-major, i.e. a^T: same size, same work), Xgeqrf, copy the factored matrix out (R; cusci also
// clears its lower triangle), Dorgqr (Q in place). Target: A8 within 10% of A8raw; A8 (timed after
// A8raw) adds "vs_raw" = A8 ms / A8raw ms.
// bytes: read a, write Q and R. flops: geqrf 4/3 n^3 + orgqr 4/3 n^3 (m = n).
void bench_qr(std::int64_t n) {
  const cusci::ndarray a = matrix(0, n, cusci::dtype::float64, seed_of(8), false);
  const double nd = static_cast<double>(n), flops = 8.0 / 3.0 * nd * nd * nd, bytes = 3.0 * nd * nd * 8.0;
  double raw_ms = 0;
  if (bench::wanted({"A8raw"})) {
    cusci::ndarray w = cusci::empty({n, n}), rr = cusci::empty({n, n}), tau = cusci::empty({n});
    cusci::ndarray info = cusci::empty({1}, cusci::dtype::int32);
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    std::size_t dq = 0, hq = 0;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgeqrf_bufferSize)(h, prm.p, n, n, CUDA_R_64F, w.data_as<double>(), n,
                                                               CUDA_R_64F, tau.data_as<double>(), CUDA_R_64F, &dq,
                                                               &hq));
    int lq = 0;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnDorgqr_bufferSize)(h, static_cast<int>(n), static_cast<int>(n),
                                                               static_cast<int>(n), w.data_as<double>(),
                                                               static_cast<int>(n), tau.data_as<double>(), &lq));
    solver_ws ws(dq, hq);
    cusci::memory_ptr wq = cusci::malloc(static_cast<std::size_t>(lq > 0 ? lq : 1) * sizeof(double));
    const std::size_t mat_bytes = static_cast<std::size_t>(n * n) * sizeof(double);
    const auto r = bench::time_it(
        [&] {
          h = cusci::detail::cusolver_dn_handle();
          const cudaStream_t s = cusci::get_current_stream();
          CUSCI_CUDA_TRY(cudaMemcpyAsync(w.data_as<double>(), a.data_as<double>(), mat_bytes,
                                         cudaMemcpyDeviceToDevice, s));
          CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgeqrf)(h, prm.p, n, n, CUDA_R_64F, w.data_as<double>(), n,
                                                          CUDA_R_64F, tau.data_as<double>(), CUDA_R_64F,
                                                          ws.dev->ptr(), ws.dev_bytes, ws.host.data(),
                                                          ws.host.size(), info.data_as<int>()));
          CUSCI_CUDA_TRY(cudaMemcpyAsync(rr.data_as<double>(), w.data_as<double>(), mat_bytes,
                                         cudaMemcpyDeviceToDevice, s));
          CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnDorgqr)(h, static_cast<int>(n), static_cast<int>(n),
                                                          static_cast<int>(n), w.data_as<double>(),
                                                          static_cast<int>(n), tau.data_as<double>(),
                                                          static_cast<double*>(wq->ptr()), lq, info.data_as<int>()));
        },
        10, 2);
    bench::report("A8raw", "bare cuSOLVER Xgeqrf + Dorgqr " + dims(0, n) + " fp64 (copy in, R copied out)", r,
                  bytes, gflops(flops, r) + info_of(info));
    raw_ms = r.median_ms;
  }
  if (bench::wanted({"A8"})) {
    const auto r = bench::time_it([&] { (void)cusci::linalg::qr(a); }, 10, 2);
    bench::report("A8", "qr " + dims(0, n) + " fp64 (mode full)", r, bytes,
                  gflops(flops, r) + (raw_ms > 0 ? ",\"vs_raw\":" + std::to_string(r.median_ms / raw_ms) : ""));
  }
}

// A9: lu_factor(a) of uniform(seed 10), n = 8192, against A9raw: copy a into a work buffer + bare cuSOLVER
// Xgetrf (int64 pivots) on it, in the same program. Target: A9 within 10% of A9raw ("vs_raw" of A9).
// bytes: read a, write lu and piv. flops: 2/3 n^3.
void bench_lu_factor(std::int64_t n) {
  const cusci::ndarray a = matrix(0, n, cusci::dtype::float64, seed_of(10), false);
  const double nd = static_cast<double>(n), flops = 2.0 / 3.0 * nd * nd * nd, bytes = 2.0 * nd * nd * 8.0;
  double raw_ms = 0;
  if (bench::wanted({"A9raw"})) {
    cusci::ndarray w = cusci::empty({n, n}), ipiv = cusci::empty({n}, cusci::dtype::int64);
    cusci::ndarray info = cusci::empty({1}, cusci::dtype::int32);
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    std::size_t dv = 0, hv = 0;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm.p, n, n, CUDA_R_64F, w.data_as<double>(), n,
                                                               CUDA_R_64F, &dv, &hv));
    solver_ws ws(dv, hv);
    const std::size_t mat_bytes = static_cast<std::size_t>(n * n) * sizeof(double);
    const auto r = bench::time_it(
        [&] {
          h = cusci::detail::cusolver_dn_handle();
          CUSCI_CUDA_TRY(cudaMemcpyAsync(w.data_as<double>(), a.data_as<double>(), mat_bytes,
                                         cudaMemcpyDeviceToDevice, cusci::get_current_stream()));
          CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm.p, n, n, CUDA_R_64F, w.data_as<double>(), n,
                                                          ipiv.data_as<std::int64_t>(), CUDA_R_64F, ws.dev->ptr(),
                                                          ws.dev_bytes, ws.host.data(), ws.host.size(),
                                                          info.data_as<int>()));
        },
        10, 2);
    bench::report("A9raw", "bare cuSOLVER Xgetrf " + dims(0, n) + " fp64 (copy in)", r, bytes,
                  gflops(flops, r) + info_of(info));
    raw_ms = r.median_ms;
  }
  if (bench::wanted({"A9"})) {
    const auto r = bench::time_it([&] { (void)cusci::linalg::lu_factor(a); }, 10, 2);
    bench::report("A9", "lu_factor " + dims(0, n) + " fp64", r, bytes,
                  gflops(flops, r) + (raw_ms > 0 ? ",\"vs_raw\":" + std::to_string(r.median_ms / raw_ms) : ""));
  }
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  if (bench::wanted({"A1"})) bench_solve("A1", 100000, 8);
  if (bench::wanted({"A1b"})) bench_solve("A1b", 10000, 32);
  if (bench::wanted({"A2"})) bench_cholesky("A2", {8192, 8192});
  if (bench::wanted({"A2b"})) bench_cholesky("A2b", {10000, 32, 32});
  if (bench::wanted({"A3"})) bench_eigh("A3", 0, 4096, cusci::dtype::float64, seed_of(3), 10, 2);
  if (bench::wanted({"A3b"})) bench_eigh("A3b", 500, 100, cusci::dtype::float32, seed_of(4), 30, 5);
  if (bench::wanted({"A4"})) bench_svd("A4", 0, 4096, cusci::dtype::float64, seed_of(5), false, 5, 1);
  if (bench::wanted({"A4b"})) bench_svd("A4b", 256, 64, cusci::dtype::float32, seed_of(6), true, 20, 3);
  if (bench::wanted({"A5"})) bench_solve("A5", 10000, 64, true);
  if (bench::wanted({"A6", "A6d"})) bench_inv_det(10000, 64);
  if (bench::wanted({"A7"})) bench_expm(1024);
  if (bench::wanted({"A8", "A8raw"})) bench_qr(8192);
  if (bench::wanted({"A9", "A9raw"})) bench_lu_factor(8192);
  cusci::synchronize();
  return 0;
}

// The toeplitz family's kernel: Levinson-Durbin recursion, one thread block per system.
//
// The recursion is SciPy's `levinson` (scipy/linalg/_solve_toeplitz.pyx, after A. Miller's
// toeplitz.f90): with a[0 .. 2n-2] = [r[n-1], ..., r[1], c[0], ..., c[n-1]], step m computes the
// denominator x_den = sum_{j<m} a[n+m-j-1] g[m-j-1] - a[n-1], the new unknown(s) x[m] = x_num / x_den,
// updates x[0..m-1] with g, then the next g / h vectors. g and h depend on the matrix only, so the K
// right-hand sides share them (SciPy repeats the recursion per column). Each dot product of step m is a
// warp reduction: warps 0-3 take the four scalar sums (x_den, g_num, h_num, g_den), the warps take the
// K numerators round-robin; the elementwise updates use all threads of the block.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "toeplitz/toeplitz_detail.hpp"

namespace cusci::linalg::detail {
namespace {

constexpr int block = 128;  // 4 warps: one per scalar sum of a step

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) {
    if constexpr (is_complex_v<T>) {
      v += T(__shfl_xor_sync(0xffffffffu, v.real(), o), __shfl_xor_sync(0xffffffffu, v.imag(), o));
    } else {
      v += __shfl_xor_sync(0xffffffffu, v, o);
    }
  }
  return v;
}

template <class T>
__global__ void __launch_bounds__(block) levinson_kernel(const T* cbuf, const T* rbuf, std::int64_t n, std::int64_t k,
                                                          T* xall, T* work, int* info, int* status) {
  const std::int64_t bi = blockIdx.x;
  const T* c = cbuf + bi * n;
  const T* r = rbuf ? rbuf + bi * n : c;
  const bool conj_r = rbuf == nullptr;
  T* x = xall + bi * n * k;
  T* g = work + bi * 2 * n;
  T* h = g + n;
  // SciPy's a[i]: r reversed (without r[0]) then c.
  auto a = [&](std::int64_t i) -> T {
    if (i >= n - 1) return c[i - (n - 1)];
    const T v = r[n - 1 - i];
    return conj_r ? conj_elem(v) : v;
  };
  __shared__ T sums[4];  // x_den, g_num, h_num, g_den (without their constant terms)
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  constexpr int nw = block / 32;
  auto fail = [&]() {
    if (tid == 0) {
      info[bi] = 1;
      status[1] = 1;
    }
  };
  const T a0 = a(n - 1);
  if (a0 == T(0)) {
    fail();
    return;
  }
  for (std::int64_t q = tid; q < k; q += block) x[q] = x[q] / a0;
  if (n == 1) return;
  if (tid == 0) {
    g[0] = a(n - 2) / a0;
    h[0] = a(n) / a0;
  }
  __syncthreads();
  for (std::int64_t m = 1; m < n; ++m) {
    const bool last = m == n - 1;
    // Reductions over j < m; all read only g, h and x[0..m-1] (updated at the previous step).
    if (warp == 0 || !last) {
      T acc = T(0);
      for (std::int64_t j = lane; j < m; j += 32) {
        switch (warp) {
          case 0: acc += a(n + m - j - 1) * g[m - j - 1]; break;
          case 1: acc += a(n + j - m - 1) * g[j]; break;
          case 2: acc += a(n + m - j - 1) * h[j]; break;
          default: acc += a(n + j - m - 1) * h[m - j - 1]; break;
        }
      }
      acc = warp_sum(acc);
      if (lane == 0) sums[warp] = acc;
    }
    for (std::int64_t q = warp; q < k; q += nw) {
      T acc = T(0);
      for (std::int64_t j = lane; j < m; j += 32) acc += a(n + m - j - 1) * x[j * k + q];
      acc = warp_sum(acc);
      if (lane == 0) x[m * k + q] = acc - x[m * k + q];  // x_num (x[m] still holds b[m])
    }
    __syncthreads();
    const T x_den = sums[0] - a0;
    if (x_den == T(0)) {  // uniform over the block
      fail();
      return;
    }
    for (std::int64_t q = tid; q < k; q += block) x[m * k + q] = x[m * k + q] / x_den;
    __syncthreads();
    for (std::int64_t e = tid; e < m * k; e += block) {
      const std::int64_t j = e / k, q = e - j * k;
      x[e] -= x[m * k + q] * g[m - j - 1];
    }
    if (last) return;
    const T g_den = sums[3] - a0;
    if (g_den == T(0)) {
      fail();
      return;
    }
    const T gm = (sums[1] - a(n - m - 2)) / g_den;
    const T hm = (sums[2] - a(n + m)) / x_den;
    __syncthreads();  // the x update above reads g
    for (std::int64_t j = tid; j < (m + 1) / 2; j += block) {
      const std::int64_t kk = m - 1 - j;
      const T gj = g[j], gk = g[kk], hj = h[j], hk = h[kk];
      g[j] = gj - gm * hk;
      g[kk] = gk - gm * hj;
      h[j] = hj - hm * gk;
      h[kk] = hk - hm * gj;
    }
    if (tid == 0) {
      g[m] = gm;
      h[m] = hm;
    }
    __syncthreads();
  }
}

}  // namespace

void levinson(dtype t, const void* c, const void* r, std::int64_t nbatch, std::int64_t n, std::int64_t k, void* x,
              void* work, int* info, int* status) {
  if (nbatch == 0 || n == 0) return;
  CUSCI_CUDA_TRY(cudaMemsetAsync(info, 0, static_cast<std::size_t>(nbatch) * sizeof(int), get_current_stream()));
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    levinson_kernel<T><<<static_cast<unsigned>(nbatch), block, 0, get_current_stream()>>>(
        static_cast<const T*>(c), static_cast<const T*>(r), n, k, static_cast<T*>(x), static_cast<T*>(work), info,
        status);
    CUSCI_CHECK_LAUNCH();
  };
  if (t == dtype::float64) run(cusci::detail::type_tag<double>{});
  else if (t == dtype::complex128) run(cusci::detail::type_tag<cuda::std::complex<double>>{});
  else throw type_error("cusci::linalg::solve_toeplitz: internal dtype must be float64 or complex128");
}

}  // namespace cusci::linalg::detail

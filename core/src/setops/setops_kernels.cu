/// @file setops_kernels.cu
/// The setops family's only kernels: digitize's monotonicity check (NumPy's check_array_monotonic as
/// one parallel pass) and the index arithmetic of unravel_index / ravel_multi_index. Everything else
/// in the family composes existing cusci operations (setops.cpp, index_tricks.cpp).

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "setops/setops_detail.hpp"

namespace cusci::detail::setops {
namespace {

using i64 = std::int64_t;
using u64 = unsigned long long;

inline constexpr int threads = 256;

int blocks_for(i64 n) {
  const i64 b = (n + threads - 1) / threads;
  return static_cast<int>(std::min<i64>(std::max<i64>(b, 1), 65535 * 8));
}

/// Over the pairs (a[k-1], a[k]), k in [1, n): word[0] = first k with !(a[k] == a[0]) (NumPy's end
/// of the leading run), word[1] = first k with a[k-1] < a[k], word[2] = first k with a[k-1] > a[k]
/// (each starts at n; atomicMin). The run of values equal to a[0] has no increasing or decreasing
/// step, so the first differing value a[j] increases iff pair j is increasing.
__global__ void monotonic_pass(const double* a, i64 n, u64* word) {
  const double first = a[0];
  u64 ne = static_cast<u64>(n), lt = ne, gt = ne;
  for (i64 k = 1 + blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; k < n;
       k += static_cast<i64>(gridDim.x) * blockDim.x) {
    const double p = a[k - 1], q = a[k];
    const u64 uk = static_cast<u64>(k);
    if (!(q == first) && uk < ne) ne = uk;
    if (p < q && uk < lt) lt = uk;
    if (p > q && uk < gt) gt = uk;
  }
  if (ne < static_cast<u64>(n)) atomicMin(&word[0], ne);
  if (lt < static_cast<u64>(n)) atomicMin(&word[1], lt);
  if (gt < static_cast<u64>(n)) atomicMin(&word[2], gt);
}

struct dims_param {
  i64 dim[max_dims];
  i64* out[max_dims];
};

/// out[d][i] = coordinate d of the flat index idx[i]; bad (atomicMin) = first i out of [0, total).
__global__ void unravel_kernel(const i64* idx, i64 n, int nd, i64 total, bool f_order, dims_param p, u64* bad) {
  for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    i64 v = idx[i];
    if (v < 0 || v >= total) {
      atomicMin(bad, static_cast<u64>(i));
      continue;
    }
    if (f_order) {
      for (int d = 0; d < nd; ++d) {
        const i64 m = p.dim[d];
        const i64 q = v / m;
        p.out[d][i] = v - q * m;
        v = q;
      }
    } else {
      for (int d = nd - 1; d >= 0; --d) {
        const i64 m = p.dim[d];
        const i64 q = v / m;
        p.out[d][i] = v - q * m;
        v = q;
      }
    }
  }
}

struct ravel_param {
  i64 dim[max_dims];
  const i64* in[max_dims];
  unsigned char mode[max_dims];  // 0 raise, 1 wrap, 2 clip
};

__device__ __forceinline__ i64 fix_coord(i64 v, i64 m, unsigned char mode, bool& ok) {
  if (mode == 1) {  // Python's modulo (m > 0, checked on the host)
    i64 r = v % m;
    return r < 0 ? r + m : r;
  }
  if (mode == 2) return v < 0 ? 0 : (v >= m ? m - 1 : v);
  if (v < 0 || v >= m) ok = false;
  return v;
}

__global__ void ravel_kernel(i64 n, int nd, bool f_order, ravel_param p, i64* out, u64* bad) {
  for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    bool ok = true;
    i64 acc = 0;
    for (int k = 0; k < nd; ++k) {
      const int d = f_order ? nd - 1 - k : k;
      acc = acc * p.dim[d] + fix_coord(p.in[d][i], p.dim[d], p.mode[d], ok);
    }
    if (!ok) {  // only in raise mode, where `bad` is allocated
      atomicMin(bad, static_cast<u64>(i));
      acc = 0;
    }
    out[i] = acc;
  }
}

}  // namespace

int bins_monotonicity(const ndarray& bins) {
  const i64 n = bins.size();
  if (n < 2) return 1;
  cudaStream_t st = get_current_stream();
  device_buffer<u64> word(3, st);
  const u64 init[3] = {static_cast<u64>(n), static_cast<u64>(n), static_cast<u64>(n)};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(word.data(), init, sizeof init, cudaMemcpyHostToDevice, st));
  monotonic_pass<<<blocks_for(n - 1), threads, 0, st>>>(bins.data_as<const double>(), n, word.data());
  CUSCI_CHECK_LAUNCH();
  u64 h[3];
  CUSCI_CUDA_TRY(cudaMemcpyAsync(h, word.data(), sizeof h, cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  const u64 un = static_cast<u64>(n);
  if (h[0] == un) return 1;  // all equal to bins[0]
  if (h[1] == h[0]) return h[2] == un ? 1 : 0;  // first differing value is larger: increasing
  return h[1] == un ? -1 : 0;
}

std::int64_t unravel(const ndarray& idx, const std::vector<std::int64_t>& dims, bool f_order,
                     std::vector<ndarray>& out) {
  const i64 n = idx.size();
  if (n == 0) return -1;
  const int nd = static_cast<int>(dims.size());
  dims_param p{};
  i64 total = 1;
  for (int d = 0; d < nd; ++d) {
    p.dim[d] = dims[d];
    p.out[d] = out[d].data_as<i64>();
    total *= dims[d];  // checked for overflow by the caller
  }
  cudaStream_t st = get_current_stream();
  device_buffer<u64> bad(1, st);
  CUSCI_CUDA_TRY(cudaMemsetAsync(bad.data(), 0xff, sizeof(u64), st));
  unravel_kernel<<<blocks_for(n), threads, 0, st>>>(idx.data_as<const i64>(), n, nd, total, f_order, p, bad.data());
  CUSCI_CHECK_LAUNCH();
  u64 h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, bad.data(), sizeof h, cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  return h == ~u64{0} ? -1 : static_cast<i64>(h);
}

bool ravel(const std::vector<ndarray>& coords, const std::vector<std::int64_t>& dims,
           const std::vector<clip_mode>& modes, bool f_order, ndarray& out) {
  const i64 n = out.size();
  if (n == 0) return true;
  const int nd = static_cast<int>(dims.size());
  ravel_param p{};
  bool any_raise = false;
  for (int d = 0; d < nd; ++d) {
    p.dim[d] = dims[d];
    p.in[d] = coords[d].data_as<const i64>();
    p.mode[d] = modes[d] == clip_mode::raise ? 0 : modes[d] == clip_mode::wrap ? 1 : 2;
    any_raise = any_raise || modes[d] == clip_mode::raise;
  }
  cudaStream_t st = get_current_stream();
  device_buffer<u64> bad;  // status word, only with a raise mode (a wrap/clip launch never writes it)
  if (any_raise) {
    bad = device_buffer<u64>(1, st);
    CUSCI_CUDA_TRY(cudaMemsetAsync(bad.data(), 0xff, sizeof(u64), st));
  }
  ravel_kernel<<<blocks_for(n), threads, 0, st>>>(n, nd, f_order, p, out.data_as<i64>(), bad.data());
  CUSCI_CHECK_LAUNCH();
  if (!any_raise) return true;
  u64 h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, bad.data(), sizeof h, cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  return h == ~u64{0};
}

}  // namespace cusci::detail::setops

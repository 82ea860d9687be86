/// @file sorting_nonzero.cu
/// nonzero / argwhere / flatnonzero: a byte flag per element (the input itself for contiguous 1-byte
/// dtypes, else one light kernel per storage width), a CUB count, one synchronization, an exact-size
/// CUB select of the flat indices and an unravel kernel. The CUB algorithms are instantiated once
/// (on byte flags), not per dtype.

#include <string>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "sorting/sorting_common.cuh"
#include "cusci/dtype.hpp"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::strided_indexer;

// --- nonzero -------------------------------------------------------------------------------------

/// flag[i] = element i (C order) is non-zero. U: storage word; fl: IEEE float words (-0.0 is zero,
/// NaN is not); parts: words per element (2 for complex).
template <class U, bool fl, int parts>
__global__ void nz_flags(const char* base, strided_indexer ix, std::uint8_t* flag, i64 n) {
  constexpr U mask = fl ? static_cast<U>(~(U(1) << (8 * sizeof(U) - 1))) : static_cast<U>(~U(0));
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const U* p = reinterpret_cast<const U*>(base + ix.offset(i));
    bool f = false;
#pragma unroll
    for (int k = 0; k < parts; ++k) f |= static_cast<U>(p[k] & mask) != 0;
    flag[i] = f ? 1 : 0;
  }
}

struct byte_count {
  __host__ __device__ std::int64_t operator()(std::uint8_t b) const { return b != 0 ? 1 : 0; }
};

/// Flat C indices of the non-zero elements of `a`. Synchronizes once.
ndarray flat_indices(const ndarray& a) {
  const i64 n = a.size();
  cudaStream_t st = get_current_stream();
  if (n == 0) return empty({0}, dtype::int64);
  const dtype dt = a.dtype();
  const std::uint8_t* flags = nullptr;
  device_buffer<std::uint8_t> fb;
  if (itemsize(dt) == 1 && a.is_c_contiguous()) {
    flags = static_cast<const std::uint8_t*>(a.data());  // bool, int8, uint8: non-zero byte
  } else {
    fb = device_buffer<std::uint8_t>(static_cast<std::size_t>(n));
    const char* base = static_cast<const char*>(a.data());
    const strided_indexer ix = indexer_of(a);
    const unsigned g = grid(n);
    std::uint8_t* f = fb.data();
    const bool fl = is_floating(dt) || is_complex(dt);
    switch (itemsize(dt)) {
      case 1: nz_flags<std::uint8_t, false, 1><<<g, block, 0, st>>>(base, ix, f, n); break;
      case 2:
        if (fl) nz_flags<std::uint16_t, true, 1><<<g, block, 0, st>>>(base, ix, f, n);
        else nz_flags<std::uint16_t, false, 1><<<g, block, 0, st>>>(base, ix, f, n);
        break;
      case 4:
        if (fl) nz_flags<std::uint32_t, true, 1><<<g, block, 0, st>>>(base, ix, f, n);
        else nz_flags<std::uint32_t, false, 1><<<g, block, 0, st>>>(base, ix, f, n);
        break;
      case 8:
        if (is_complex(dt)) nz_flags<std::uint32_t, true, 2><<<g, block, 0, st>>>(base, ix, f, n);
        else if (fl) nz_flags<std::uint64_t, true, 1><<<g, block, 0, st>>>(base, ix, f, n);
        else nz_flags<std::uint64_t, false, 1><<<g, block, 0, st>>>(base, ix, f, n);
        break;
      case 16: nz_flags<std::uint64_t, true, 2><<<g, block, 0, st>>>(base, ix, f, n); break;
      default: throw type_error("cusci::nonzero: unsupported dtype " + std::string(dtype_name(dt)));
    }
    CUSCI_CHECK_LAUNCH();
    flags = f;
  }
  auto counts = thrust::make_transform_iterator(flags, byte_count{});
  device_buffer<std::int64_t> cnt(1);
  std::int64_t* c = cnt.data();
  cub_run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, counts, c, n, st); });
  std::int64_t k = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&k, c, sizeof(k), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  ndarray out = empty({k}, dtype::int64);
  if (k == 0) return out;
  std::int64_t* o = out.data_as<std::int64_t>();
  thrust::counting_iterator<std::int64_t> it(0);
  cub_run([&](void* t, std::size_t& b) { return cub::DeviceSelect::Flagged(t, b, it, flags, o, c, n, st); });
  return out;
}

/// Writes the multi-index of each flat index: out[j * ostride + d * dstride].
__global__ void unravel(const std::int64_t* flat, i64 k, int nd, detail::strided_indexer shape, std::int64_t* out,
                        i64 jstride, i64 dstride) {
  for (i64 j = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; j < k; j += static_cast<i64>(gridDim.x) * blockDim.x) {
    i64 i = flat[j];
    for (int d = nd - 1; d >= 0; --d) {
      const i64 s = shape.shape[d];
      const i64 q = i / s;
      out[j * jstride + d * dstride] = i - q * s;
      i = q;
    }
  }
}


}  // namespace

std::vector<ndarray> nonzero(const ndarray& a) {
  CUSCI_EXPECTS(a.ndim() >= 1, value_error,
                "cusci::nonzero: Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                "instead.");
  ndarray flat = flat_indices(a);
  const int nd = a.ndim();
  if (nd == 1) return {flat};
  const i64 k = flat.size();
  ndarray all = empty({nd, k}, dtype::int64);
  std::vector<ndarray> out;
  if (k > 0) {
    detail::strided_indexer sh{};
    sh.ndim = nd;
    for (int d = 0; d < nd; ++d) sh.shape[d] = a.shape()[d];
    CUSCI_EXPECTS(nd <= detail::max_kernel_dims, value_error, "cusci::nonzero: more than 16 dimensions");
    unravel<<<grid(k), block, 0, get_current_stream()>>>(flat.data_as<std::int64_t>(), k, nd, sh,
                                                        all.data_as<std::int64_t>(), 1, k);
    CUSCI_CHECK_LAUNCH();
  }
  for (int d = 0; d < nd; ++d) out.push_back(all[d]);
  return out;
}

ndarray argwhere(const ndarray& a) {
  const int nd = a.ndim();
  if (nd == 0) {
    ndarray flat = flat_indices(a);
    return empty({flat.size(), 0}, dtype::int64);
  }
  CUSCI_EXPECTS(nd <= detail::max_kernel_dims, value_error, "cusci::argwhere: more than 16 dimensions");
  ndarray flat = flat_indices(a);
  const i64 k = flat.size();
  if (nd == 1) return flat.reshape({k, 1});
  ndarray out = empty({k, nd}, dtype::int64);
  if (k > 0) {
    detail::strided_indexer sh{};
    sh.ndim = nd;
    for (int d = 0; d < nd; ++d) sh.shape[d] = a.shape()[d];
    unravel<<<grid(k), block, 0, get_current_stream()>>>(flat.data_as<std::int64_t>(), k, nd, sh,
                                                        out.data_as<std::int64_t>(), nd, 1);
    CUSCI_CHECK_LAUNCH();
  }
  return out;
}

ndarray flatnonzero(const ndarray& a) { return flat_indices(a); }

}  // namespace cusci

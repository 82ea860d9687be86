// The sort-based passes of the measurements (median, labeled_comprehension, value_indices): CUB's
// stable radix sorts group the elements by slot (and by value within a slot), so that each slot's
// elements are contiguous and a per-slot thread can read them in order.
//
// Cost: a radix sort of 2**24 (32-bit key, 64-bit value) pairs on the H200 moves about 8 passes of
// ~12 bytes per element in each direction, a few hundred microseconds; median sorts twice (by value,
// then by slot with only ceil(log2(nslots + 1)) key bits).

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "measurements/measure_common.cuh"
#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, 132 * 16)));
}

#define CUSCI_GRID_LOOP(i, n)                                                                  \
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

template <class L>
__global__ void slot_key_kernel(const L* __restrict__ lab, long long n, slot_map m, unsigned nslots, unsigned* key,
                                long long* pos) {
  CUSCI_GRID_LOOP(i, n) {
    const long long s = slot_of(m, label_at(lab, i));
    key[i] = s >= 0 ? static_cast<unsigned>(s) : nslots;
    pos[i] = i;
  }
}

template <class T>
__global__ void value_key_kernel(const T* __restrict__ v, long long n, unsigned long long* key) {
  CUSCI_GRID_LOOP(i, n) key[i] = order_key(v[i]);
}

__global__ void regather_kernel(const unsigned* __restrict__ key, const long long* __restrict__ pos, long long n,
                                unsigned* out) {
  CUSCI_GRID_LOOP(i, n) out[i] = key[pos[i]];
}

/// offsets[s] = the first element of sorted keys >= s, for s in [0, nslots].
__global__ void offsets_kernel(const unsigned* __restrict__ sorted, long long n, long long nslots, long long* offsets) {
  CUSCI_GRID_LOOP(s, nslots + 1) {
    long long a = 0, b = n;
    while (a < b) {
      const long long c = (a + b) >> 1;
      if (static_cast<long long>(sorted[c]) < s) a = c + 1;
      else b = c;
    }
    offsets[s] = a;
  }
}

template <class W>
__global__ void gather_kernel(const W* __restrict__ v, const long long* __restrict__ pos, long long n, W* out) {
  CUSCI_GRID_LOOP(i, n) out[i] = v[pos[i]];
}

/// The dtype of a median of T: float64 for bool and integers, T for floats.
template <class T>
using median_t = std::conditional_t<std::is_integral_v<T>, double, T>;

template <class T>
__device__ __forceinline__ median_t<T> median_of(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<double>(a) + static_cast<double>(b)) / 2.0;  // SciPy: astype('d') first (gh-12836)
  } else if constexpr (std::is_same_v<T, __half>) {
    // NumPy's float16 arithmetic: each operation in float32, rounded to float16.
    const __half s = __float2half_rn(__half2float(a) + __half2float(b));
    return __float2half_rn(__half2float(s) / 2.0f);
  } else {
    return (a + b) / T(2);
  }
}

template <class T>
__global__ void median_kernel(const T* __restrict__ v, const long long* __restrict__ off, long long nslots,
                              const median_t<T>* absent, median_t<T>* out) {
  CUSCI_GRID_LOOP(s, nslots) {
    const long long c = off[s + 1] - off[s];
    if (c == 0) {
      out[s] = *absent;
    } else {
      out[s] = median_of(v[off[s] + (c - 1) / 2], v[off[s] + c / 2]);
    }
  }
}

struct dims_t {
  long long n[32];
  int ndim;
};

__global__ void unravel_flat_kernel(const long long* __restrict__ pos, long long n, dims_t dims, long long* coords) {
  CUSCI_GRID_LOOP(i, n) {
    long long rem = pos[i];
    for (int d = dims.ndim - 1; d >= 0; --d) {
      coords[d * n + i] = rem % dims.n[d];
      rem /= dims.n[d];
    }
  }
}

/// Temporary storage for CUB from the pool (kept alive by the returned array until the stream's
/// work is done: the pool reuses a block only on its allocation stream).
ndarray temp_bytes(std::size_t bytes) {
  return empty({static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))}, dtype::uint8);
}

int bits_for(std::uint64_t v) {
  int b = 1;
  while (b < 64 && (v >> b) != 0) ++b;
  return b;
}

/// Stable sort of (keys, values) pairs, keys' low `end_bit` bits.
template <class K, class V>
void sort_pairs(const K* kin, K* kout, const V* vin, V* vout, std::int64_t n, int end_bit) {
  cudaStream_t st = get_current_stream();
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, n, 0, end_bit, st));
  ndarray tmp = temp_bytes(bytes);
  CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, kin, kout, vin, vout, n, 0, end_bit, st));
}

}  // namespace

void group_by_slot(const region_view& r, bool by_value, ndarray& positions, ndarray& offsets) {
  const std::int64_t n = r.size;
  CUSCI_EXPECTS(r.nslots < (std::int64_t{1} << 31), not_implemented_error,
                "cusci::ndimage: at most 2**31 - 1 regions are supported");
  cudaStream_t st = get_current_stream();
  offsets = zeros({r.nslots + 1}, dtype::int64);
  positions = empty({n}, dtype::int64);
  if (n == 0) return;
  ndarray key = empty({n}, dtype::uint32);
  ndarray pos = empty({n}, dtype::int64);
  const auto ns = static_cast<unsigned>(r.nslots);
  if (r.has_labels && r.labels.dtype() == dtype::int64) {
    slot_key_kernel<long long><<<grid_for(n), kBlock, 0, st>>>(static_cast<const long long*>(r.labels.data()), n, r.map, ns,
                                                               static_cast<unsigned*>(key.data()),
                                                               static_cast<long long*>(pos.data()));
  } else {
    slot_key_kernel<int><<<grid_for(n), kBlock, 0, st>>>(
        r.has_labels ? static_cast<const int*>(r.labels.data()) : nullptr, n, r.map, ns,
        static_cast<unsigned*>(key.data()), static_cast<long long*>(pos.data()));
  }
  CUSCI_CHECK_LAUNCH();
  ndarray by_slot_pos = pos;
  if (by_value) {
    ndarray vkey = empty({n}, dtype::uint64), vkey2 = empty({n}, dtype::uint64), pos2 = empty({n}, dtype::int64);
    cusci::detail::dispatch(r.values.dtype(), [&](auto tv) {
      using T = typename decltype(tv)::type;
      if constexpr (cusci::detail::is_complex_v<T>) {
        throw type_error("cusci::ndimage: complex values are not supported by the measurements");
      } else {
        value_key_kernel<T><<<grid_for(n), kBlock, 0, st>>>(static_cast<const T*>(r.values.data()), n,
                                                            static_cast<unsigned long long*>(vkey.data()));
        CUSCI_CHECK_LAUNCH();
      }
    });
    sort_pairs(static_cast<const unsigned long long*>(vkey.data()), static_cast<unsigned long long*>(vkey2.data()),
               static_cast<const long long*>(pos.data()), static_cast<long long*>(pos2.data()), n, 64);
    ndarray key2 = empty({n}, dtype::uint32);
    regather_kernel<<<grid_for(n), kBlock, 0, st>>>(static_cast<const unsigned*>(key.data()),
                                                    static_cast<const long long*>(pos2.data()), n,
                                                    static_cast<unsigned*>(key2.data()));
    CUSCI_CHECK_LAUNCH();
    key = key2;
    by_slot_pos = pos2;
  }
  ndarray skey = empty({n}, dtype::uint32);
  sort_pairs(static_cast<const unsigned*>(key.data()), static_cast<unsigned*>(skey.data()),
             static_cast<const long long*>(by_slot_pos.data()), static_cast<long long*>(positions.data()), n,
             bits_for(static_cast<std::uint64_t>(r.nslots)));
  offsets_kernel<<<grid_for(r.nslots + 1), kBlock, 0, st>>>(static_cast<const unsigned*>(skey.data()), n, r.nslots,
                                                            static_cast<long long*>(offsets.data()));
  CUSCI_CHECK_LAUNCH();
}

void gather_flat(const ndarray& values, const ndarray& positions, ndarray& out) {
  const std::int64_t n = positions.size();
  out = empty({n}, values.dtype());
  if (n == 0) return;
  cudaStream_t st = get_current_stream();
  const auto* pos = static_cast<const long long*>(positions.data());
  switch (itemsize(values.dtype())) {
    case 1:
      gather_kernel<std::uint8_t><<<grid_for(n), kBlock, 0, st>>>(static_cast<const std::uint8_t*>(values.data()), pos,
                                                                  n, static_cast<std::uint8_t*>(out.data()));
      break;
    case 2:
      gather_kernel<std::uint16_t><<<grid_for(n), kBlock, 0, st>>>(static_cast<const std::uint16_t*>(values.data()),
                                                                   pos, n, static_cast<std::uint16_t*>(out.data()));
      break;
    case 4:
      gather_kernel<std::uint32_t><<<grid_for(n), kBlock, 0, st>>>(static_cast<const std::uint32_t*>(values.data()),
                                                                   pos, n, static_cast<std::uint32_t*>(out.data()));
      break;
    case 8:
      gather_kernel<std::uint64_t><<<grid_for(n), kBlock, 0, st>>>(static_cast<const std::uint64_t*>(values.data()),
                                                                   pos, n, static_cast<std::uint64_t*>(out.data()));
      break;
    default: throw type_error("cusci::ndimage: complex values are not supported by the measurements");
  }
  CUSCI_CHECK_LAUNCH();
}

void median_finish(const ndarray& sorted_values, const ndarray& offsets, const ndarray& absent, ndarray& out) {
  const std::int64_t k = offsets.size() - 1;
  if (k <= 0) return;
  cusci::detail::dispatch(sorted_values.dtype(), [&](auto tv) {
    using T = typename decltype(tv)::type;
    if constexpr (!cusci::detail::is_complex_v<T>) {
      using R = median_t<T>;
      median_kernel<T><<<grid_for(k), kBlock, 0, get_current_stream()>>>(
          static_cast<const T*>(sorted_values.data()), static_cast<const long long*>(offsets.data()), k,
          static_cast<const R*>(absent.data()), static_cast<R*>(out.data()));
      CUSCI_CHECK_LAUNCH();
    }
  });
}

std::int64_t sort_and_encode(const ndarray& keys, ndarray& positions, ndarray& unique, ndarray& counts) {
  const std::int64_t n = keys.size();
  cudaStream_t st = get_current_stream();
  positions = empty({n}, dtype::int64);
  unique = empty({n}, dtype::int64);
  counts = empty({n}, dtype::int64);
  if (n == 0) return 0;
  ndarray pos = arange(scalar(std::int64_t{0}), scalar(n), scalar(std::int64_t{1}), dtype::int64);
  ndarray skeys = empty({n}, dtype::int64);
  sort_pairs(static_cast<const long long*>(keys.data()), static_cast<long long*>(skeys.data()),
             static_cast<const long long*>(pos.data()), static_cast<long long*>(positions.data()), n, 64);
  ndarray runs = zeros({1}, dtype::int64);
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceRunLengthEncode::Encode(
      nullptr, bytes, static_cast<const long long*>(skeys.data()), static_cast<long long*>(unique.data()),
      static_cast<long long*>(counts.data()), static_cast<long long*>(runs.data()), n, st));
  ndarray tmp = temp_bytes(bytes);
  CUSCI_CUDA_TRY(cub::DeviceRunLengthEncode::Encode(
      tmp.data(), bytes, static_cast<const long long*>(skeys.data()), static_cast<long long*>(unique.data()),
      static_cast<long long*>(counts.data()), static_cast<long long*>(runs.data()), n, st));
  return runs.item<std::int64_t>();
}

void unravel_flat(const ndarray& positions, const shape_t& shape, ndarray& coords) {
  const std::int64_t n = positions.size();
  dims_t d{};
  d.ndim = static_cast<int>(shape.size());
  CUSCI_EXPECTS(d.ndim <= 32, value_error, "cusci::ndimage: at most 32 dimensions");
  for (int i = 0; i < d.ndim; ++i) d.n[i] = shape[i];
  coords = empty({static_cast<std::int64_t>(d.ndim), n}, dtype::int64);
  if (n == 0 || d.ndim == 0) return;
  unravel_flat_kernel<<<grid_for(n), kBlock, 0, get_current_stream()>>>(static_cast<const long long*>(positions.data()),
                                                                       n, d, static_cast<long long*>(coords.data()));
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail

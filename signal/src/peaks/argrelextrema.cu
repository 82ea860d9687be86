// The relative-extremum mask of argrelextrema: one thread per element of a C-contiguous
// [outer, len, inner] array compares it with its neighbours at shifts 1..order along the axis
// (NumPy take's clip or wrap), in the data's own dtype. The indices come from core's nonzero.
// One read of the data (the shifted neighbours come from L1/L2) and one byte written per element.

#include <cuda_runtime.h>

#include <cstdint>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "peaks/peaks_walk.cuh"

namespace cusci::signal::detail::peaks {
namespace {

template <int Cmp, class T>
__device__ __forceinline__ bool cmp(T a, T b) {
  if constexpr (Cmp == 0) return a > b;
  else if constexpr (Cmp == 1) return a < b;
  else if constexpr (Cmp == 2) return a >= b;
  else return a <= b;
}

template <int Cmp, class T>
__global__ void relext_kernel(const T* __restrict__ a, i64 outer, i64 len, i64 inner, i64 order, int wrap,
                              std::uint8_t* mask) {
  const i64 total = outer * len * inner;
  CUSCI_PEAKS_LOOP(e, total) {
    const i64 j = e % inner;
    const i64 i = (e / inner) % len;
    const i64 row = e - (i * inner + j);  // flat index of (o, 0, 0)
    const T v = a[e];
    bool r = true;
    for (i64 s = 1; s <= order && r; ++s) {
      i64 ip = i + s, im = i - s;
      if (wrap) {
        ip %= len;
        im %= len;
        if (im < 0) im += len;
      } else {
        if (ip > len - 1) ip = len - 1;
        if (im < 0) im = 0;
      }
      r = cmp<Cmp>(v, a[row + ip * inner + j]) && cmp<Cmp>(v, a[row + im * inner + j]);
    }
    mask[e] = r ? 1 : 0;
  }
}

template <class T>
void launch(const void* data, i64 outer, i64 len, i64 inner, int c, i64 order, int mode, std::uint8_t* mask,
            cudaStream_t st) {
  const T* a = static_cast<const T*>(data);
  const i64 total = outer * len * inner;
  const unsigned g = grid_for(total);
  switch (c) {
    case 0: relext_kernel<0, T><<<g, kBlock, 0, st>>>(a, outer, len, inner, order, mode, mask); break;
    case 1: relext_kernel<1, T><<<g, kBlock, 0, st>>>(a, outer, len, inner, order, mode, mask); break;
    case 2: relext_kernel<2, T><<<g, kBlock, 0, st>>>(a, outer, len, inner, order, mode, mask); break;
    default: relext_kernel<3, T><<<g, kBlock, 0, st>>>(a, outer, len, inner, order, mode, mask); break;
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void relextrema_mask(const void* data, int dt, i64 outer, i64 len, i64 inner, int c, i64 order, int mode,
                     std::uint8_t* mask, cudaStream_t st) {
  if (outer * len * inner <= 0) return;
  // Past `len` shifts clip and wrap only repeat neighbours already compared.
  if (order > len) order = len;
  switch (static_cast<dtype>(dt)) {
    case dtype::bool_:
    case dtype::uint8: launch<std::uint8_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::int8: launch<std::int8_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::int16: launch<std::int16_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::uint16: launch<std::uint16_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::int32: launch<std::int32_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::uint32: launch<std::uint32_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::int64: launch<std::int64_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::uint64: launch<std::uint64_t>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::float32: launch<float>(data, outer, len, inner, c, order, mode, mask, st); break;
    case dtype::float64: launch<double>(data, outer, len, inner, c, order, mode, mask, st); break;
    default: throw type_error("cusci::signal::argrelextrema: unsupported dtype");
  }
}

}  // namespace cusci::signal::detail::peaks

// The precompiled kernels of the generic filters: the padded copy of the input (float64 or the
// input's bytes) and the conversion of float64 results into the output dtype with SciPy's x86-64 C
// cast. Both are bandwidth-bound grid-stride loops over C-ordered indices; adjacent threads touch
// adjacent padded / result elements.

#include <cstdint>
#include <cstring>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "engine/boundary.cuh"
#include "engine/cast.cuh"
#include "generic/generic_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

constexpr unsigned kBlock = 256;

unsigned grid_for(std::int64_t count) {
  const std::int64_t blocks = (count + kBlock - 1) / kBlock;
  return static_cast<unsigned>(blocks < 132 * 64 ? blocks : 132 * 64);
}

/// Byte offset of padded element p in the input, or -1 for the constant.
__device__ __forceinline__ std::int64_t source_offset(std::int64_t p, const pad_geometry& g, bool& constant) {
  std::int64_t off = 0;
  constant = false;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const std::int64_t c = p % g.shape[d];
    p /= g.shape[d];
    std::int64_t j = c - g.before[d];
    if (j < 0 || j >= g.len[d]) {
      j = map_index(j, g.len[d], g.mode);
      if (j < 0) {
        constant = true;
        return 0;
      }
    }
    off += j * g.stride[d];
  }
  return off;
}

template <class T>
__global__ void pad_double_kernel(const char* in, double* out, std::int64_t count, pad_geometry g, double cval) {
  for (std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; p < count;
       p += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    bool constant = false;
    const std::int64_t off = source_offset(p, g, constant);
    out[p] = constant ? cval : static_cast<double>(*reinterpret_cast<const T*>(in + off));
  }
}

template <class U>  // an unsigned type of the element's size, or a 16-byte struct
__global__ void pad_bytes_kernel(const char* in, U* out, std::int64_t count, pad_geometry g, U cval) {
  for (std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; p < count;
       p += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    bool constant = false;
    const std::int64_t off = source_offset(p, g, constant);
    out[p] = constant ? cval : *reinterpret_cast<const U*>(in + off);
  }
}

template <class T>
__global__ void cast_kernel(const double* src, char* dst, std::int64_t count, cast_geometry g, bool numpy_bool) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t rem = i, off = 0;
    for (int d = g.ndim - 1; d >= 0; --d) {
      off += (rem % g.shape[d]) * g.stride[d];
      rem /= g.shape[d];
    }
    if constexpr (std::is_same_v<T, bool>) {
      // SciPy's (npy_bool)tmp: npy_bool is an unsigned char, so the byte stored is C's conversion to
      // unsigned char on x86-64 (0.3 -> 0, 256 -> 0, NaN -> 0, -2 -> 254).
      *reinterpret_cast<std::uint8_t*>(dst + off) =
          numpy_bool ? static_cast<std::uint8_t>(src[i] != 0.0 || src[i] != src[i]) : x86_cast<std::uint8_t>(src[i]);
    } else {
      *reinterpret_cast<T*>(dst + off) = x86_cast<T>(src[i]);
    }
  }
}

struct alignas(16) bytes16 {
  unsigned long long lo, hi;
};

template <class F>
void for_real_dtype(dtype dt, const char* what, F&& f) {
  switch (dt) {
    case dtype::bool_: return f(cusci::detail::type_tag<bool>{});
    case dtype::int8: return f(cusci::detail::type_tag<std::int8_t>{});
    case dtype::int16: return f(cusci::detail::type_tag<std::int16_t>{});
    case dtype::int32: return f(cusci::detail::type_tag<std::int32_t>{});
    case dtype::int64: return f(cusci::detail::type_tag<std::int64_t>{});
    case dtype::uint8: return f(cusci::detail::type_tag<std::uint8_t>{});
    case dtype::uint16: return f(cusci::detail::type_tag<std::uint16_t>{});
    case dtype::uint32: return f(cusci::detail::type_tag<std::uint32_t>{});
    case dtype::uint64: return f(cusci::detail::type_tag<std::uint64_t>{});
    case dtype::float32: return f(cusci::detail::type_tag<float>{});
    case dtype::float64: return f(cusci::detail::type_tag<double>{});
    default: break;
  }
  throw runtime_error(std::string("cusci::ndimage: array type not supported (") + what + " " +
                      std::string(dtype_name(dt)) + ")");
}

}  // namespace

void pad_to_double(const void* in, dtype dt, double* out, std::int64_t count, const pad_geometry& g, double cval) {
  if (count <= 0) return;
  cudaStream_t s = get_current_stream();
  for_real_dtype(dt, "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    pad_double_kernel<T><<<grid_for(count), kBlock, 0, s>>>(static_cast<const char*>(in), out, count, g, cval);
  });
  CUSCI_CHECK_LAUNCH();
}

void pad_bytes(const void* in, std::size_t itemsize, void* out, std::int64_t count, const pad_geometry& g,
               const unsigned char* cval_bytes) {
  if (count <= 0) return;
  cudaStream_t s = get_current_stream();
  auto run = [&](auto tag) {
    using U = typename decltype(tag)::type;
    U c;
    std::memcpy(&c, cval_bytes, sizeof(U));
    pad_bytes_kernel<U><<<grid_for(count), kBlock, 0, s>>>(static_cast<const char*>(in), static_cast<U*>(out), count, g, c);
  };
  switch (itemsize) {
    case 1: run(cusci::detail::type_tag<std::uint8_t>{}); break;
    case 2: run(cusci::detail::type_tag<std::uint16_t>{}); break;
    case 4: run(cusci::detail::type_tag<std::uint32_t>{}); break;
    case 8: run(cusci::detail::type_tag<std::uint64_t>{}); break;
    case 16: run(cusci::detail::type_tag<bytes16>{}); break;
    default: throw type_error("cusci::ndimage: unsupported item size " + std::to_string(itemsize));
  }
  CUSCI_CHECK_LAUNCH();
}

void cast_from_double(const double* src, void* dst, dtype dt, std::int64_t count, const cast_geometry& g,
                      bool numpy_bool) {
  if (count <= 0) return;
  cudaStream_t s = get_current_stream();
  for_real_dtype(dt, "output", [&](auto tag) {
    using T = typename decltype(tag)::type;
    cast_kernel<T><<<grid_for(count), kBlock, 0, s>>>(src, static_cast<char*>(dst), count, g, numpy_bool);
  });
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail

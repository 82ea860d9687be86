#pragma once
// Device side of the resampling kernels of cusci::ndimage (map_coordinates, affine_transform, shift,
// zoom, rotate): ni_interpolation.c's NI_GeometricTransform / NI_ZoomShift, shared by
// resample.cu (the host entry, the generic kernel for every other input dtype), resample_f32.cu and
// resample_f64.cu (float32 / float64 inputs). Files including it are compiled without fused
// multiply-adds: the operations and their order are SciPy's, so values agree to the bit.
//
// The generic kernel (resample_kernel, one thread per output point): decomposes its output index,
// computes the input coordinate of every interpolated axis on the fly (zoom / shift: per-axis scale
// and offset; affine: a row of the matrix; map_coordinates: a read of the coordinate array), maps it
// by the mode (map_coordinate), finds the order + 1 taps and their B-spline weights
// (get_spline_interpolation_weights), then sums coefficient * weight_0 * ... * weight_{d-1} over the
// taps in C order. It is templated on the number of interpolated axes (1, 2, 3; resample_kernel_nd
// keeps the per-axis tables in local memory for more) and on the input type (float32, float64, or
// any other real dtype read through a run-time switch). The common cases run the specialised kernels
// of resample_fast.cuh instead.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "engine/axis_engine.cuh"
#include "interpolation/interp_detail.hpp"

namespace cusci::ndimage::detail::interp {

constexpr int kmax = 16;        // axes of the input / output handled by the kernels
constexpr int kmax_matrix = 256;  // affine matrix entries (16 x 16)

struct resample_params {
  const char* in;
  char* out;
  const char* coords;
  std::int64_t total;
  int nd, nb, n_out, out_ndim;
  int kind, order, mode, spline_mode, in_code, out_code, coord_code;
  int has_zoom, has_shift, grid_mode, out_contig, out_itemsize;
  double cval, npad;
  std::int64_t in_len[kmax], in_stride[kmax], batch_stride[kmax];
  std::int64_t out_shape[kmax], out_stride[kmax];
  std::int64_t c_stride0, c_stride[kmax];
  double zoom[kmax], shift[kmax], offset[kmax];
  double matrix[kmax_matrix];
};

// ni_interpolation.c's map_coordinate, with C's conversions spelled out.
__device__ __forceinline__ double map_coordinate(double in, std::int64_t len, int mode) {
  using i64 = long long;
  if (in < 0) {
    switch (mode) {
      case ic_mirror:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz2 = 2 * len - 2;
          in = static_cast<double>(sz2 * static_cast<i64>(-in / static_cast<double>(sz2))) + in;
          in = in <= static_cast<double>(1 - len) ? in + static_cast<double>(sz2) : -in;
        }
        break;
      case ic_reflect:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz2 = 2 * len;
          if (in < static_cast<double>(-sz2))
            in = static_cast<double>(sz2 * static_cast<i64>(-in / static_cast<double>(sz2))) + in;
          in = in < static_cast<double>(-len) ? in + static_cast<double>(sz2) : (in > -1e-15 ? 1e-15 : -in) - 1;
        }
        break;
      case ic_wrap:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz = len - 1;
          in += static_cast<double>(sz * (static_cast<i64>(-in / static_cast<double>(sz)) + 1));
        }
        break;
      case ic_grid_wrap:
        if (len <= 1) {
          in = 0;
        } else {
          in += static_cast<double>(len * (static_cast<i64>((-1 - in) / static_cast<double>(len)) + 1));
        }
        break;
      case ic_nearest: in = 0; break;
      case ic_constant: in = -1; break;
      default: break;
    }
  } else if (in > static_cast<double>(len - 1)) {
    switch (mode) {
      case ic_mirror:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz2 = 2 * len - 2;
          in -= static_cast<double>(sz2 * static_cast<i64>(in / static_cast<double>(sz2)));
          if (in >= static_cast<double>(len)) in = static_cast<double>(sz2) - in;
        }
        break;
      case ic_reflect:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz2 = 2 * len;
          in -= static_cast<double>(sz2 * static_cast<i64>(in / static_cast<double>(sz2)));
          if (in >= static_cast<double>(len)) in = static_cast<double>(sz2) - in - 1;
        }
        break;
      case ic_wrap:
        if (len <= 1) {
          in = 0;
        } else {
          const i64 sz = len - 1;
          in -= static_cast<double>(sz * static_cast<i64>(in / static_cast<double>(sz)));
        }
        break;
      case ic_grid_wrap:
        if (len <= 1) {
          in = 0;
        } else {
          in -= static_cast<double>(len * static_cast<i64>(in / static_cast<double>(len)));
        }
        break;
      case ic_nearest: in = static_cast<double>(len - 1); break;
      case ic_constant: in = -1; break;
      default: break;
    }
  }
  return in;
}

// ni_splines.c's get_spline_interpolation_weights (order 1..5).
__device__ __forceinline__ void spline_weights(double x, int order, double (&w)[6]) {
  x -= floor((order & 1) ? x : x + 0.5);
  double y = x, z = 1.0 - x, t;
  switch (order) {
    case 1: w[0] = 1.0 - x; break;
    case 2:
      w[1] = 0.75 - x * x;
      y = 0.5 - x;
      w[0] = 0.5 * y * y;
      break;
    case 3:
      w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
      w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
      w[0] = z * z * z / 6.0;
      break;
    case 4:
      t = x * x;
      w[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0;
      y = 1.0 + x;
      w[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      w[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      y = 0.5 - x;
      t = y * y;
      w[0] = t * t / 24.0;
      break;
    default:
      t = y * y;
      w[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55;
      t = z * z;
      w[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55;
      y += 1.0;
      w[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      z += 1.0;
      w[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      y = 1.0 - x;
      t = y * y;
      w[0] = y * t * t / 120.0;
      break;
  }
  double last = 1.0;
#pragma unroll
  for (int i = 0; i < 5; ++i)
    if (i < order) last -= w[i];
#pragma unroll
  for (int i = 1; i < 6; ++i)
    if (i == order) w[i] = last;
}

// The stores of ni_interpolation.c's CASE_INTERP_OUT*, with x86-64's results for the conversions C
// leaves undefined (nan and out-of-range values).
__device__ __forceinline__ int x86_i32(double t) {
  return (t > -2147483649.0 && t < 2147483648.0) ? static_cast<int>(t) : static_cast<int>(0x80000000u);
}
__device__ __forceinline__ long long x86_i64(double t) {
  return (t >= -9223372036854775808.0 && t < 9223372036854775808.0) ? static_cast<long long>(t)
                                                                     : static_cast<long long>(1ull << 63);
}
__device__ __forceinline__ void store_interp(char* ptr, int code, double t) {
  switch (code) {
    case static_cast<int>(dtype::bool_): *reinterpret_cast<std::uint8_t*>(ptr) = static_cast<std::uint8_t>(x86_i32(t)); return;
    case static_cast<int>(dtype::float32): *reinterpret_cast<float*>(ptr) = static_cast<float>(t); return;
    case static_cast<int>(dtype::float64): *reinterpret_cast<double*>(ptr) = t; return;
    default: break;
  }
  const bool is_unsigned = code == static_cast<int>(dtype::uint8) || code == static_cast<int>(dtype::uint16) ||
                           code == static_cast<int>(dtype::uint32) || code == static_cast<int>(dtype::uint64);
  if (is_unsigned) {
    t = t > 0 ? t + 0.5 : 0;
    double mx;
    switch (code) {
      case static_cast<int>(dtype::uint8): mx = 255.0; break;
      case static_cast<int>(dtype::uint16): mx = 65535.0; break;
      case static_cast<int>(dtype::uint32): mx = 4294967295.0; break;
      default: mx = 18446744073709551615.0; break;
    }
    t = t > mx ? mx : t;
    t = t < 0 ? 0 : t;
    switch (code) {
      case static_cast<int>(dtype::uint8): *reinterpret_cast<std::uint8_t*>(ptr) = static_cast<std::uint8_t>(t); return;
      case static_cast<int>(dtype::uint16): *reinterpret_cast<std::uint16_t*>(ptr) = static_cast<std::uint16_t>(t); return;
      case static_cast<int>(dtype::uint32): *reinterpret_cast<std::uint32_t*>(ptr) = static_cast<std::uint32_t>(t); return;
      default: {
        std::uint64_t v;
        if (t < 9223372036854775808.0) v = static_cast<std::uint64_t>(static_cast<long long>(t));
        else v = static_cast<std::uint64_t>(x86_i64(t - 9223372036854775808.0)) ^ (1ull << 63);
        *reinterpret_cast<std::uint64_t*>(ptr) = v;
        return;
      }
    }
  }
  t = t > 0 ? t + 0.5 : t - 0.5;
  double mn, mx;
  switch (code) {
    case static_cast<int>(dtype::int8): mn = -128.0; mx = 127.0; break;
    case static_cast<int>(dtype::int16): mn = -32768.0; mx = 32767.0; break;
    case static_cast<int>(dtype::int32): mn = -2147483648.0; mx = 2147483647.0; break;
    default: mn = -9223372036854775808.0; mx = 9223372036854775807.0; break;
  }
  t = t > mx ? mx : t;
  t = t < mn ? mn : t;
  switch (code) {
    case static_cast<int>(dtype::int8): *reinterpret_cast<std::int8_t*>(ptr) = static_cast<std::int8_t>(x86_i32(t)); return;
    case static_cast<int>(dtype::int16): *reinterpret_cast<std::int16_t*>(ptr) = static_cast<std::int16_t>(x86_i32(t)); return;
    case static_cast<int>(dtype::int32): *reinterpret_cast<std::int32_t*>(ptr) = x86_i32(t); return;
    default: *reinterpret_cast<std::int64_t*>(ptr) = x86_i64(t); return;
  }
}


/// The taps along one axis of the input coordinate cc (ni_interpolation.c's per-axis set-up):
/// false when the point takes cval (mode constant, cc outside [-1, len - 1] after mapping); else
/// w[0..order] the B-spline weights (order > 0), off[k] the byte offset of tap k (mapped by the
/// spline's boundary mode at the edges) and ok[k] false where grid-constant reads cval.
/// ORDER >= 0 fixes the order at compile time; ORDER < 0 takes `order_rt`.
template <int ORDER>
__device__ __forceinline__ bool taps_along(double cc, std::int64_t len, std::int64_t st, int mode, int spline_mode,
                                           int order_rt, double (&w)[6], std::int64_t (&off)[6], bool (&ok)[6]) {
  const int order = ORDER >= 0 ? ORDER : order_rt;
  const bool unmapped = mode == ic_grid_constant || mode == ic_nearest;
  if (!unmapped) cc = map_coordinate(cc, len, mode);
  if (!(cc > -1.0) && !unmapped) return false;
  const std::int64_t start = ((order & 1) ? static_cast<std::int64_t>(floor(cc))
                                          : static_cast<std::int64_t>(floor(cc + 0.5))) - order / 2;
  const bool edge = start < 0 || start + order >= len;
#pragma unroll
  for (int k = 0; k < 6; ++k) {
    if (k > order) break;
    std::int64_t idx = start + k;
    ok[k] = true;
    if (mode == ic_grid_constant) {
      ok[k] = idx >= 0 && idx < len;
    } else if (edge) {
      idx = static_cast<std::int64_t>(map_coordinate(static_cast<double>(idx), len, spline_mode));
    }
    off[k] = idx * st;
  }
  if (order > 0) spline_weights(cc, order, w);
  return true;
}

/// zoom / shift's input coordinate of output position o along one axis (NI_ZoomShift's order of
/// operations), before the prefilter's padding is added.
__device__ __forceinline__ double zoom_coordinate(std::int64_t o, int has_shift, double shift, int has_zoom,
                                                  int grid_mode, double zoom) {
  double cc = static_cast<double>(o);
  if (has_shift) cc += shift;
  if (has_zoom) {
    if (grid_mode) {
      cc += 0.5;
      cc *= zoom;
      cc -= 0.5;
    } else {
      cc *= zoom;
    }
  }
  return cc;
}

template <class Tin>
__device__ __forceinline__ double load_in(const resample_params& p, const char* ptr) {
  if constexpr (std::is_same_v<Tin, any_in>) return load_value<any_in, double>(ptr, p.in_code);
  else return static_cast<double>(__ldg(reinterpret_cast<const Tin*>(ptr)));
}

/// The input coordinate along interpolated axis d of the output point with index o (padded).
__device__ __forceinline__ double coordinate(const resample_params& p, int d, const std::int64_t (&o)[kmax]) {
  double cc = 0.0;
  if (p.kind == resample_spec::zoom_shift) {
    cc = zoom_coordinate(o[p.nb + d], p.has_shift, p.shift[d], p.has_zoom, p.grid_mode, p.zoom[d]);
  } else if (p.kind == resample_spec::affine) {
    double sum = p.offset[d];
    const double* m = p.matrix + d * p.n_out;
#pragma unroll
    for (int l = 0; l < kmax; ++l)
      if (l < p.n_out) sum += static_cast<double>(o[p.nb + l]) * m[l];
    cc = sum;
  } else {
    const char* c = p.coords + d * p.c_stride0;
#pragma unroll
    for (int l = 0; l < kmax; ++l)
      if (l < p.n_out) c += o[l] * p.c_stride[l];
    cc = p.coord_code == static_cast<int>(dtype::float32) ? static_cast<double>(*reinterpret_cast<const float*>(c))
                                                          : *reinterpret_cast<const double*>(c);
  }
  return cc + p.npad;
}

/// Taps and weights along interpolated axis d; false when the point takes cval (mode constant).
__device__ __forceinline__ bool axis_taps(const resample_params& p, int d, double cc, double (&w)[6],
                                          std::int64_t (&off)[6], bool (&ok)[6]) {
  return taps_along<-1>(cc, p.in_len[d], p.in_stride[d], p.mode, p.spline_mode, p.order, w, off, ok);
}

template <int ND>
struct taps_t {
  double w[ND][6];
  std::int64_t off[ND][6];
  bool ok[ND][6];
};

template <int D, int ND, class Tin>
__device__ __forceinline__ void accumulate(const resample_params& p, const taps_t<ND>& s, const char* ptr, bool cv,
                                           double (&ws)[ND], double& t) {
  if constexpr (D == ND) {
    double coeff = cv ? p.cval : load_in<Tin>(p, ptr);
    if (p.order > 0) {
#pragma unroll
      for (int d = 0; d < ND; ++d) coeff *= ws[d];
    }
    t += coeff;
  } else {
#pragma unroll
    for (int k = 0; k < 6; ++k) {
      if (k > p.order) break;
      ws[D] = s.w[D][k];
      accumulate<D + 1, ND, Tin>(p, s, ptr + s.off[D][k], cv || !s.ok[D][k], ws, t);
    }
  }
}

__device__ __forceinline__ std::int64_t out_index(const resample_params& p, std::int64_t i, std::int64_t (&o)[kmax]) {
  std::int64_t off = 0;
#pragma unroll
  for (int d = kmax - 1; d >= 0; --d) {
    if (d < p.out_ndim) {
      const std::int64_t n = p.out_shape[d];
      const std::int64_t q = i / n;
      o[d] = i - q * n;
      off += o[d] * p.out_stride[d];
      i = q;
    } else {
      o[d] = 0;
    }
  }
  return off;
}

__device__ __forceinline__ const char* batch_base(const resample_params& p, const std::int64_t (&o)[kmax]) {
  const char* base = p.in;
#pragma unroll
  for (int b = 0; b < kmax; ++b)
    if (b < p.nb) base += o[b] * p.batch_stride[b];
  return base;
}

template <int ND, class Tin>
__global__ void __launch_bounds__(256) resample_kernel(const resample_params p) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < p.total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t o[kmax];
    std::int64_t ooff = out_index(p, i, o);
    if (p.out_contig) ooff = i * p.out_itemsize;
    taps_t<ND> s;
    bool constant = false;
#pragma unroll
    for (int d = 0; d < ND; ++d) {
      if (!constant) constant = !axis_taps(p, d, coordinate(p, d, o), s.w[d], s.off[d], s.ok[d]);
    }
    double t = p.cval;
    if (!constant) {
      t = 0.0;
      double ws[ND];
      accumulate<0, ND, Tin>(p, s, batch_base(p, o), false, ws, t);
    }
    store_interp(p.out + ooff, p.out_code, t);
  }
}

// More than 3 interpolated axes: the same steps with the tables in local memory.
template <class Tin>
__global__ void __launch_bounds__(128) resample_kernel_nd(const resample_params p) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < p.total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t o[kmax];
    std::int64_t ooff = out_index(p, i, o);
    if (p.out_contig) ooff = i * p.out_itemsize;
    double w[kmax][6];
    std::int64_t off[kmax][6];
    bool ok[kmax][6];
    bool constant = false;
    for (int d = 0; d < p.nd && !constant; ++d)
      constant = !axis_taps(p, d, coordinate(p, d, o), w[d], off[d], ok[d]);
    double t = p.cval;
    if (!constant) {
      t = 0.0;
      const char* base = batch_base(p, o);
      int ff[kmax];
      for (int d = 0; d < p.nd; ++d) ff[d] = 0;
      for (;;) {
        bool cv = false;
        std::int64_t idx = 0;
        for (int d = 0; d < p.nd; ++d) {
          idx += off[d][ff[d]];
          cv = cv || !ok[d][ff[d]];
        }
        double coeff = cv ? p.cval : load_in<Tin>(p, base + idx);
        if (p.order > 0)
          for (int d = 0; d < p.nd; ++d) coeff *= w[d][ff[d]];
        t += coeff;
        int d = p.nd - 1;
        for (; d >= 0; --d) {
          if (ff[d] < p.order) {
            ++ff[d];
            break;
          }
          ff[d] = 0;
        }
        if (d < 0) break;
      }
    }
    store_interp(p.out + ooff, p.out_code, t);
  }
}

/// Launches the generic kernel for input type Tin (float, double or any_in) on `stream`.
template <class Tin>
void launch_generic(const resample_params& p, cudaStream_t stream) {
  const unsigned grid = cusci::detail::grid_for(p.total, 256);
  switch (p.nd) {
    case 1: resample_kernel<1, Tin><<<grid, 256, 0, stream>>>(p); break;
    case 2: resample_kernel<2, Tin><<<grid, 256, 0, stream>>>(p); break;
    case 3: resample_kernel<3, Tin><<<grid, 256, 0, stream>>>(p); break;
    default: resample_kernel_nd<Tin><<<cusci::detail::grid_for(p.total, 128), 128, 0, stream>>>(p); break;
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail::interp

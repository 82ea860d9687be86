#pragma once
// The specialised resampling kernels of cusci::ndimage: 2-D and 3-D interpolation with nothing
// batched, orders 0, 1 and 3 fixed at compile time, float32 / float64 inputs and outputs, a
// C-contiguous output. Same operations in the same order as the generic kernel of
// resample_common.cuh (and SciPy): only what is computed once and reused changes.
//
//   zoom_fast    zoom / shift (NI_ZoomShift): the per-axis taps and weights of the leading axes
//                come from tables built once per call (build_tables: one entry per output index of
//                each leading axis, read by a whole warp at once); a thread owns one output column
//                (last axis), computes that axis' taps once and walks `rows_per_thread` rows.
//   affine_fast  affine_transform / rotate of a plane: a thread owns one output column and walks
//                rows; offset + o_0 m_0 (+ o_1 m_1) is computed per row, o_last m_last once.
//   coords_fast  map_coordinates with coordinates contiguous per input axis: one thread per point.
// Each keeps the order + 1 taps per axis in registers (no local-memory tables, no 16-axis index
// arrays), which is what brings them from ~160-200 registers (the generic kernel) to well under 64.

#include <cuda_runtime.h>

#include <cstdint>

#include "interpolation/resample_common.cuh"

namespace cusci::ndimage::detail::interp {

/// Output rows (positions over the leading axes) each thread of zoom_fast / affine_fast walks.
constexpr int rows_per_thread = 8;
constexpr int fast_block = 128;

/// Rows whose sums a thread computes before storing any of them: their loads are independent and
/// issued together (a store between them would keep the compiler from hoisting the next row's loads,
/// leaving each row waiting out two memory latencies, the table's and the input's).
constexpr int row_batch(int order) { return order <= 1 ? 4 : 2; }

/// The taps of one axis: weights, byte offsets, the grid-constant mask, the constant flag.
template <int ORDER>
struct tap_entry {
  double w[ORDER + 1];
  std::int64_t off[ORDER + 1];
  std::uint32_t ok;        // bit k: tap k reads the input (grid-constant: 0 = cval)
  std::int32_t constant;  // the point takes cval (mode constant)
};

template <int ND>
struct fast_params {
  const char* in;
  char* out;
  const char* coords;
  std::int64_t rows, cols;  // the output seen as [rows, cols]: cols = its last extent
  std::int64_t out_shape[ND];
  std::int64_t in_len[ND], in_stride[ND];
  std::int64_t c_stride0;  // coords_fast: bytes between the coordinate planes
  int coord_f32;
  int mode, spline_mode;
  double cval, npad;
  int has_zoom, has_shift, grid_mode;
  double zoom[ND], shift[ND];
  double matrix[ND * ND], offset[ND];
  const void* table;            // zoom_fast: the entries of axes 0..ND-2, concatenated
  std::int64_t table_start[ND];  // first entry of each axis
};

/// The taps along `d` of coordinate cc (padding already added) as a tap_entry.
template <int ND, int ORDER>
__device__ __forceinline__ tap_entry<ORDER> make_entry(const fast_params<ND>& p, int d, double cc) {
  double w[6];
  std::int64_t off[6];
  bool ok[6];
  tap_entry<ORDER> e;
  e.constant = taps_along<ORDER>(cc, p.in_len[d], p.in_stride[d], p.mode, p.spline_mode, ORDER, w, off, ok) ? 0 : 1;
  e.ok = 0;
#pragma unroll
  for (int k = 0; k <= ORDER; ++k) {
    e.w[k] = e.constant ? 0.0 : w[k];
    e.off[k] = e.constant ? 0 : off[k];
    e.ok |= (e.constant || ok[k]) ? (1u << k) : 0u;
  }
  return e;
}

template <class Tin>
__device__ __forceinline__ double load_tap(const char* ptr) {
  return static_cast<double>(__ldg(reinterpret_cast<const Tin*>(ptr)));
}

/// sum over taps in C order of coeff * w_0 * ... * w_{ND-1} (t starts at 0.0, as the generic kernel).
template <int ORDER, class Tin>
__device__ __forceinline__ double sum_2d(const char* base, const tap_entry<ORDER>& a, const tap_entry<ORDER>& b,
                                         double cval) {
  double t = 0.0;
#pragma unroll
  for (int i = 0; i <= ORDER; ++i) {
#pragma unroll
    for (int j = 0; j <= ORDER; ++j) {
      const bool read = ((a.ok >> i) & (b.ok >> j) & 1u) != 0;
      double coeff = read ? load_tap<Tin>(base + a.off[i] + b.off[j]) : cval;
      if constexpr (ORDER > 0) {
        coeff *= a.w[i];
        coeff *= b.w[j];
      }
      t += coeff;
    }
  }
  return t;
}

template <int ORDER, class Tin>
__device__ __forceinline__ double sum_3d(const char* base, const tap_entry<ORDER>& a, const tap_entry<ORDER>& b,
                                         const tap_entry<ORDER>& c, double cval) {
  double t = 0.0;
#pragma unroll
  for (int i = 0; i <= ORDER; ++i) {
#pragma unroll
    for (int j = 0; j <= ORDER; ++j) {
#pragma unroll
      for (int k = 0; k <= ORDER; ++k) {
        const bool read = ((a.ok >> i) & (b.ok >> j) & (c.ok >> k) & 1u) != 0;
        double coeff = read ? load_tap<Tin>(base + a.off[i] + b.off[j] + c.off[k]) : cval;
        if constexpr (ORDER > 0) {
          coeff *= a.w[i];
          coeff *= b.w[j];
          coeff *= c.w[k];
        }
        t += coeff;
      }
    }
  }
  return t;
}

template <class Tout>
__device__ __forceinline__ void store_out(char* out, std::int64_t i, double t) {
  reinterpret_cast<Tout*>(out)[i] = static_cast<Tout>(t);
}

/// One entry per output index of each leading axis of a zoom / shift.
template <int ND, int ORDER>
__global__ void __launch_bounds__(256) build_tables(const fast_params<ND> p, tap_entry<ORDER>* table,
                                                    std::int64_t n_entries) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < n_entries;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    int d = 0;
#pragma unroll
    for (int a = 1; a < ND - 1; ++a)
      if (e >= p.table_start[a]) d = a;
    const std::int64_t o = e - p.table_start[d];
    const double cc = zoom_coordinate(o, p.has_shift, p.shift[d], p.has_zoom, p.grid_mode, p.zoom[d]) + p.npad;
    table[e] = make_entry<ND, ORDER>(p, d, cc);
  }
}

/// The first output row of the block and the number of rows (grid-stride over row groups).
__device__ __forceinline__ std::int64_t row_groups(std::int64_t rows) {
  return (rows + rows_per_thread - 1) / rows_per_thread;
}

template <int ND, int ORDER, class Tin, class Tout>
__global__ void __launch_bounds__(fast_block) zoom_fast(const fast_params<ND> p) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(fast_block) + threadIdx.x;
  if (j >= p.cols) return;
  constexpr int L = ND - 1;
  const double ccj = zoom_coordinate(j, p.has_shift, p.shift[L], p.has_zoom, p.grid_mode, p.zoom[L]) + p.npad;
  const tap_entry<ORDER> tc = make_entry<ND, ORDER>(p, L, ccj);
  const auto* table = static_cast<const tap_entry<ORDER>*>(p.table);
  for (std::int64_t g = blockIdx.y; g < row_groups(p.rows); g += gridDim.y) {
    const std::int64_t r0 = g * rows_per_thread;
    const std::int64_t r1 = r0 + rows_per_thread < p.rows ? r0 + rows_per_thread : p.rows;
    std::int64_t o0 = r0, o1 = 0;
    if constexpr (ND == 3) {
      o0 = r0 / p.out_shape[1];
      o1 = r0 - o0 * p.out_shape[1];
    }
    constexpr int U = row_batch(ORDER);
    for (std::int64_t r = r0; r < r1; r += U) {
      double t[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        t[u] = p.cval;
        if (r + u < r1) {
          const tap_entry<ORDER>& ta = table[o0];
          if constexpr (ND == 2) {
            if (!tc.constant && !ta.constant) t[u] = sum_2d<ORDER, Tin>(p.in, ta, tc, p.cval);
            ++o0;
          } else {
            const tap_entry<ORDER>& tb = table[p.table_start[1] + o1];
            if (!tc.constant && !ta.constant && !tb.constant) t[u] = sum_3d<ORDER, Tin>(p.in, ta, tb, tc, p.cval);
            if (++o1 == p.out_shape[1]) {
              o1 = 0;
              ++o0;
            }
          }
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (r + u < r1) store_out<Tout>(p.out, (r + u) * p.cols + j, t[u]);
    }
  }
}

/// Blocks of 128 per SM the point-wise kernels ask of ptxas: 6 (<= 85 registers) for orders 0 and 1,
/// 4 (<= 128) for order 3.
constexpr int min_blocks(int order) { return order <= 1 ? 6 : 4; }

template <int ND, int ORDER, class Tin, class Tout>
__global__ void __launch_bounds__(fast_block, min_blocks(ORDER)) affine_fast(const fast_params<ND> p) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(fast_block) + threadIdx.x;
  if (j >= p.cols) return;
  constexpr int L = ND - 1;
  // o_last * m[d][last], the last term of each row's sum.
  double last[ND];
#pragma unroll
  for (int d = 0; d < ND; ++d) last[d] = static_cast<double>(j) * p.matrix[d * ND + L];
  for (std::int64_t g = blockIdx.y; g < row_groups(p.rows); g += gridDim.y) {
    const std::int64_t r0 = g * rows_per_thread;
    const std::int64_t r1 = r0 + rows_per_thread < p.rows ? r0 + rows_per_thread : p.rows;
    std::int64_t o0 = r0, o1 = 0;
    if constexpr (ND == 3) {
      o0 = r0 / p.out_shape[1];
      o1 = r0 - o0 * p.out_shape[1];
    }
    constexpr int U = row_batch(ORDER);
    for (std::int64_t r = r0; r < r1; r += U) {
      double t[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        t[u] = p.cval;
        if (r + u < r1) {
          tap_entry<ORDER> e[ND];
          bool constant = false;
#pragma unroll
          for (int d = 0; d < ND; ++d) {
            // offset + o_0 m_0 (+ o_1 m_1) + o_last m_last, left to right as the generic kernel
            double sum = p.offset[d];
            sum += static_cast<double>(o0) * p.matrix[d * ND];
            if constexpr (ND == 3) sum += static_cast<double>(o1) * p.matrix[d * ND + 1];
            sum += last[d];
            e[d] = make_entry<ND, ORDER>(p, d, sum + p.npad);
            constant = constant || e[d].constant;
          }
          if (!constant) {
            if constexpr (ND == 2) t[u] = sum_2d<ORDER, Tin>(p.in, e[0], e[1], p.cval);
            else t[u] = sum_3d<ORDER, Tin>(p.in, e[0], e[1], e[2], p.cval);
          }
          if constexpr (ND == 3) {
            if (++o1 == p.out_shape[1]) {
              o1 = 0;
              ++o0;
            }
          } else {
            ++o0;
          }
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (r + u < r1) store_out<Tout>(p.out, (r + u) * p.cols + j, t[u]);
    }
  }
}

template <int ND, int ORDER, class Tin, class Tout>
__global__ void __launch_bounds__(fast_block, min_blocks(ORDER)) coords_fast(const fast_params<ND> p) {
  const std::int64_t total = p.rows * p.cols;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(fast_block) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * fast_block) {
    tap_entry<ORDER> e[ND];
    bool constant = false;
#pragma unroll
    for (int d = 0; d < ND; ++d) {
      const char* c = p.coords + d * p.c_stride0;
      const double cc = p.coord_f32 ? static_cast<double>(__ldg(reinterpret_cast<const float*>(c) + i))
                                    : __ldg(reinterpret_cast<const double*>(c) + i);
      e[d] = make_entry<ND, ORDER>(p, d, cc + p.npad);
      constant = constant || e[d].constant;
    }
    double t = p.cval;
    if (!constant) {
      if constexpr (ND == 2) t = sum_2d<ORDER, Tin>(p.in, e[0], e[1], p.cval);
      else t = sum_3d<ORDER, Tin>(p.in, e[0], e[1], e[2], p.cval);
    }
    store_out<Tout>(p.out, i, t);
  }
}

/// Which specialised kernel a call takes.
enum class fast_kind { zoom, affine, coords };

/// The launch shape of zoom_fast / affine_fast.
inline dim3 fast_grid(std::int64_t rows, std::int64_t cols) {
  const std::int64_t gx = (cols + fast_block - 1) / fast_block;
  std::int64_t gy = (rows + rows_per_thread - 1) / rows_per_thread;
  if (gy > 65535) gy = 65535;
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy < 1 ? 1 : gy), 1);
}

/// The body of launch_fast2 / launch_fast3 for one Tin (instantiated in the per-type files).
template <int ND, class Tin, int ORDER, class Tout>
void launch_fast_one(fast_kind kind, const fast_params<ND>& p, cudaStream_t stream) {
  switch (kind) {
    case fast_kind::zoom: zoom_fast<ND, ORDER, Tin, Tout><<<fast_grid(p.rows, p.cols), fast_block, 0, stream>>>(p); break;
    case fast_kind::affine:
      affine_fast<ND, ORDER, Tin, Tout><<<fast_grid(p.rows, p.cols), fast_block, 0, stream>>>(p);
      break;
    case fast_kind::coords:
      coords_fast<ND, ORDER, Tin, Tout>
          <<<cusci::detail::grid_for(p.rows * p.cols, fast_block), fast_block, 0, stream>>>(p);
      break;
  }
  CUSCI_CHECK_LAUNCH();
}

template <int ND, class Tin>
void launch_fast_nd(fast_kind kind, int order, bool out_f32, const fast_params<ND>& p, cudaStream_t stream) {
  switch (order) {
    case 0: return out_f32 ? launch_fast_one<ND, Tin, 0, float>(kind, p, stream)
                           : launch_fast_one<ND, Tin, 0, double>(kind, p, stream);
    case 1: return out_f32 ? launch_fast_one<ND, Tin, 1, float>(kind, p, stream)
                           : launch_fast_one<ND, Tin, 1, double>(kind, p, stream);
    default: return out_f32 ? launch_fast_one<ND, Tin, 3, float>(kind, p, stream)
                            : launch_fast_one<ND, Tin, 3, double>(kind, p, stream);
  }
}

/// Launches the specialised kernel of `kind` for p (order 0, 1 or 3, float or double output).
/// Instantiated for Tin float in resample_f32.cu and double in resample_f64.cu.
template <class Tin>
void launch_fast2(fast_kind kind, int order, bool out_f32, const fast_params<2>& p, cudaStream_t stream) {
  launch_fast_nd<2, Tin>(kind, order, out_f32, p, stream);
}
template <class Tin>
void launch_fast3(fast_kind kind, int order, bool out_f32, const fast_params<3>& p, cudaStream_t stream) {
  launch_fast_nd<3, Tin>(kind, order, out_f32, p, stream);
}

}  // namespace cusci::ndimage::detail::interp

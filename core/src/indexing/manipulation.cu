/// @file manipulation.cu
/// Kernels behind concatenate, roll, pad and ascontiguousarray.
///
/// * concatenate: one launch copies up to 64 same-dtype C-contiguous inputs. Input descriptors (base
///   pointer, row length, column offset in the result, prefix of work units) travel as kernel
///   parameters; the copy unit is the widest of 16/8/4/2/1 bytes that divides every row, offset and
///   address, so contiguous data moves in 16-byte words whatever the dtype.
/// * remap: one launch writes the whole result; each element is one input element chosen per axis by a
///   boundary rule (in range, constant, edge, reflect, symmetric, wrap), C-ordered rows with the row
///   offset computed once per row, several 16-byte units in flight per thread (see remap_kernel);
///   serves roll (wrap on the rolled axes, any strides) and pad's constant/edge/reflect/symmetric/
///   wrap/empty modes (and the centre copy of the others).
/// * pad's other modes (linear_ramp, maximum, mean, median, minimum, odd reflections): one thread per
///   line along the padded axis, axis after axis, reproducing NumPy's order of filling.
/// * ascontiguousarray of a transposed 2-D layout: 32 x 32 shared-memory tiles (33-column padding
///   against bank conflicts), coalesced reads and writes.

#include <limits>
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include <cuda/std/complex>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/stream.hpp"
#include "indexing/indexing_common.cuh"

namespace cusci {
namespace detail::ix {
namespace {

constexpr int block_size = 256;
constexpr int max_cat = 64;

// ---------------------------------------------------------------------------------------------
// concatenate

struct cat_params {
  int n;
  std::int64_t dst_row_units;
  const char* src[max_cat];
  std::int64_t row_units[max_cat];
  std::int64_t col_off[max_cat];
  std::int64_t start[max_cat + 1];
};

template <class W>
__global__ void concat_kernel(W* __restrict__ dst, const cat_params p) {
  const std::int64_t total = p.start[p.n];
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t u = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; u < total; u += step) {
    int lo = 0, hi = p.n - 1;  // last k with start[k] <= u
    while (lo < hi) {
      const int mid = (lo + hi + 1) >> 1;
      if (p.start[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    const std::int64_t local = u - p.start[lo];
    const std::int64_t ru = p.row_units[lo];
    const std::int64_t o = local / ru;
    const std::int64_t c = local - o * ru;
    dst[o * p.dst_row_units + p.col_off[lo] + c] = reinterpret_cast<const W*>(p.src[lo])[local];
  }
}

// ---------------------------------------------------------------------------------------------
// remap (pad fast modes, roll)

enum remap_kind : int { k_copy = 0, k_constant, k_edge, k_reflect, k_symmetric, k_wrap };

struct remap_params {
  int nd;
  std::int64_t out_shape[max_kernel_dims];
  std::int64_t in_shape[max_kernel_dims];
  std::int64_t in_stride[max_kernel_dims];  // bytes
  std::int64_t before[max_kernel_dims];
  int kind[max_kernel_dims];
};

/// Source coordinate of an out-of-range position `sx` of an axis of length n (n >= 1).
__device__ __forceinline__ std::int64_t boundary(std::int64_t sx, std::int64_t n, int kind) {
  switch (kind) {
    case k_edge: return sx < 0 ? 0 : n - 1;
    case k_reflect: {
      if (n == 1) return 0;
      const std::int64_t p = 2 * (n - 1);
      std::int64_t j = sx % p;
      if (j < 0) j += p;
      return j >= n ? p - j : j;
    }
    case k_symmetric: {
      const std::int64_t p = 2 * n;
      std::int64_t j = sx % p;
      if (j < 0) j += p;
      return j >= n ? p - 1 - j : j;
    }
    default: {  // wrap
      std::int64_t j = sx;
      if (j < 0) j += n;
      else if (j >= n) j -= n;
      if (j < 0 || j >= n) {
        j %= n;
        if (j < 0) j += n;
      }
      return j;
    }
  }
}

constexpr int remap_block = 256;

/// V items of type U moved as one aligned access (V * sizeof(U) is 16 when V > 1).
template <class U, int V>
struct alignas(sizeof(U) * V) remap_vec {
  U v[V];
};

/// Items sx0 .. sx0 + V - 1 of a row along the last axis when some are outside the input or the row
/// is a constant one. Out of line: the 64-bit remainders of the boundary rules would otherwise be
/// inlined V * ILP times into the copy loop and cost the common (interior) path its registers.
template <class U, int V>
__device__ __noinline__ remap_vec<U, V> border_unit(const char* __restrict__ srow, std::int64_t sx0, std::int64_t n_in,
                                                    std::int64_t s_in, int kind_in, int L, int cfound,
                                                    const U* __restrict__ cvals) {
  remap_vec<U, V> r;
#pragma unroll
  for (int q = 0; q < V; ++q) {
    std::int64_t sx = sx0 + q;
    if (sx < 0 || sx >= n_in) {
      if (kind_in == k_constant) {
        r.v[q] = cvals[2 * L + (sx < 0 ? 0 : 1)];
        continue;
      }
      sx = boundary(sx, n_in, kind_in);
    }
    r.v[q] = cfound >= 0 ? cvals[cfound] : *reinterpret_cast<const U*>(srow + sx * s_in);
  }
  return r;
}

/// Each thread produces up to ILP units of V consecutive items of one output row: block (bx, by)
/// owns units [bx * chunk, (bx + 1) * chunk) of rows by, by + gridDim.y, ...; a thread's units are
/// remap_block apart, so every load instruction of a warp is coalesced and all of a thread's loads
/// are issued before its stores (ILP * V loads in flight per thread: a one-element grid-stride copy
/// keeps too few bytes in flight to reach the memory bandwidth). A unit that lies inside the input
/// along the last axis is read with one 16-byte load when the input row is contiguous there and the
/// address is aligned (pad by a multiple of 16 bytes), with V independent loads otherwise (roll by an
/// arbitrary shift); units at the borders map each item through the boundary rule. V > 1 requires
/// 16-byte aligned output rows (one row, or rows of a multiple of 16 bytes); only the last unit of
/// a row may be partial. Four blocks per SM (at most 64 registers; the 1- and 2-byte wide variants
/// spill a few bytes of the row prologue) keep 32 KiB of loads in flight per SM.
template <class U, int V, int ILP>
__global__ void __launch_bounds__(remap_block, 4)
    remap_kernel(const char* __restrict__ src, U* __restrict__ out, std::int64_t rows, std::int64_t chunk,
                 const remap_params p, const U* __restrict__ cvals) {
  using vec = remap_vec<U, V>;
  const int L = p.nd - 1;
  const std::int64_t W = p.out_shape[L], n_in = p.in_shape[L], b_in = p.before[L], s_in = p.in_stride[L];
  const int kind_in = p.kind[L];
  const bool contiguous_in = s_in == static_cast<std::int64_t>(sizeof(U));
  const std::int64_t units = (W + V - 1) / V;
  const std::int64_t u_begin = static_cast<std::int64_t>(blockIdx.x) * chunk;
  const std::int64_t u_end = u_begin + chunk < units ? u_begin + chunk : units;
  for (std::int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    std::int64_t soff = 0, rem = row;
    int cfound = -1;
    for (int d = L - 1; d >= 0; --d) {
      const std::int64_t q = d > 0 ? rem / p.out_shape[d] : 0;
      const std::int64_t c = d > 0 ? rem - q * p.out_shape[d] : rem;
      rem = q;
      std::int64_t sx = c - p.before[d];
      if (sx < 0 || sx >= p.in_shape[d]) {
        if (p.kind[d] == k_constant) {
          if (cfound < 0) cfound = 2 * d + (sx < 0 ? 0 : 1);  // the highest padded axis wins
          sx = 0;
        } else {
          sx = boundary(sx, p.in_shape[d], p.kind[d]);
        }
      }
      soff += sx * p.in_stride[d];
    }
    const char* srow = src + soff;
    U* orow = out + row * W;
    vec val[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
      const std::int64_t u = u_begin + static_cast<std::int64_t>(k) * remap_block + threadIdx.x;
      if (u >= u_end) continue;
      const std::int64_t sx0 = u * V - b_in;
      if (cfound < 0 && sx0 >= 0 && sx0 + V <= n_in) {
        const char* ps = srow + sx0 * s_in;
        if (V > 1 && contiguous_in && reinterpret_cast<std::uintptr_t>(ps) % sizeof(vec) == 0) {
          val[k] = *reinterpret_cast<const vec*>(ps);
        } else {
#pragma unroll
          for (int q = 0; q < V; ++q) val[k].v[q] = *reinterpret_cast<const U*>(ps + q * s_in);
        }
      } else {
        val[k] = border_unit<U, V>(srow, sx0, n_in, s_in, kind_in, L, cfound, cvals);
      }
    }
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
      const std::int64_t u = u_begin + static_cast<std::int64_t>(k) * remap_block + threadIdx.x;
      if (u >= u_end) continue;
      const std::int64_t x0 = u * V;
      if (V == 1) {
        orow[x0] = val[k].v[0];
      } else if (x0 + V <= W) {
        *reinterpret_cast<vec*>(orow + x0) = val[k];
      } else {
#pragma unroll
        for (int q = 0; q < V; ++q)
          if (x0 + q < W) orow[x0 + q] = val[k].v[q];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// transpose copy

template <class U>
__global__ void transpose_kernel(const char* __restrict__ src, std::int64_t sR, std::int64_t sC, U* __restrict__ dst,
                                 std::int64_t R, std::int64_t C) {
  __shared__ U tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t tiles_r = (R + 31) / 32;
  for (std::int64_t by = blockIdx.y; by < tiles_r; by += gridDim.y) {
    const std::int64_t i0 = by * 32, j0 = static_cast<std::int64_t>(blockIdx.x) * 32;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const std::int64_t j = j0 + ty + 8 * r, i = i0 + tx;
      if (i < R && j < C) tile[ty + 8 * r][tx] = *reinterpret_cast<const U*>(src + i * sR + j * sC);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const std::int64_t i = i0 + ty + 8 * r, j = j0 + tx;
      if (i < R && j < C) dst[i * C + j] = tile[tx][ty + 8 * r];
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
// pad: per-line kernels of the computed modes

enum line_mode : int { l_ramp = 0, l_max, l_min, l_mean, l_median, l_odd_reflect, l_odd_symmetric };

struct line_params {
  int nd, axis, mode;
  std::int64_t out_shape[max_kernel_dims];
  std::int64_t in_shape[max_kernel_dims];
  std::int64_t before[max_kernel_dims];
  std::int64_t ostride[max_kernel_dims];  // elements
  std::int64_t b, a, n;
  std::int64_t lstat, rstat;
  double end_l_re, end_l_im, end_r_re, end_r_im;
};

template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
using acc_t = std::conditional_t<is_complex_v<T>, cuda::std::complex<double>, double>;

template <class T>
__device__ __forceinline__ acc_t<T> to_acc(const T& v) {
  if constexpr (is_complex_v<T>) return acc_t<T>(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  else if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(v));
  else return static_cast<double>(v);
}
/// Converts back; integers are rounded half to even first when `round_int` (NumPy's `round`), floored
/// otherwise when `floor_int` (linspace).
template <class T>
__device__ __forceinline__ T from_acc(const acc_t<T>& x, bool round_int, bool floor_int) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  } else if constexpr (std::is_same_v<T, __half>) {
    return __double2half(x);
  } else if constexpr (is_int_v<T>) {
    double y = x;
    if (round_int) y = rint(y);
    else if (floor_int) y = floor(y);
    // NumPy's float -> integer cast (C's conversion on x86-64) wraps a negative value into an unsigned
    // dtype (linspace(-5, 7, dtype=uint16) starts at 65531), where CUDA's direct conversion saturates
    // to 0: go through int64 (uint64 values of 2^63 and above convert directly).
    if constexpr (std::is_same_v<T, std::uint64_t>) {
      if (y >= 9223372036854775808.0) return static_cast<T>(y);
    }
    return static_cast<T>(static_cast<std::int64_t>(y));
  } else {
    return static_cast<T>(x);
  }
}

/// `i * step + start` rounded after each operation as NumPy's linspace computes it (no fused
/// multiply-add: its single rounding can move a value that NumPy lands exactly on an integer below
/// it, and the integer dtypes floor).
template <class A>
__device__ __forceinline__ A ramp_at(double i, const A& step, const A& start) {
  if constexpr (std::is_same_v<A, double>) return __dadd_rn(__dmul_rn(i, step), start);
  else return A(__dadd_rn(__dmul_rn(i, step.real()), start.real()), __dadd_rn(__dmul_rn(i, step.imag()), start.imag()));
}

template <class T>
__device__ __forceinline__ bool is_nan_v(const T& v) {
  if constexpr (std::is_same_v<T, __half>) return __hisnan(v);
  else if constexpr (std::is_floating_point_v<T>) return isnan(v);
  else return false;
}

/// Statistic of x[0], x[st], ..., x[(len-1)*st].
template <class T>
__device__ T line_stat(const T* x, std::int64_t st, std::int64_t len, int mode) {
  if constexpr (is_complex_v<T>) {
    acc_t<T> s(0.0, 0.0);
    for (std::int64_t i = 0; i < len; ++i) s += to_acc(x[i * st]);
    return from_acc<T>(s / static_cast<double>(len), false, false);
  } else {
    using C = compute_t<T>;
    if (mode == l_mean) {
      double s = 0.0;
      for (std::int64_t i = 0; i < len; ++i) s += to_acc(x[i * st]);
      return from_acc<T>(s / static_cast<double>(len), true, false);
    }
    if (mode == l_max || mode == l_min) {
      C best = static_cast<C>(x[0]);
      for (std::int64_t i = 0; i < len; ++i) {
        const T v = x[i * st];
        if (is_nan_v(v)) return v;
        const C c = static_cast<C>(v);
        if (mode == l_max ? c > best : c < best) best = c;
      }
      return static_cast<T>(best);
    }
    // median: O(len^2) selection of the middle order statistics; NaN propagates.
    for (std::int64_t i = 0; i < len; ++i)
      if (is_nan_v(x[i * st])) return x[i * st];
    const std::int64_t k1 = (len - 1) / 2, k2 = len / 2;
    C v1{}, v2{};
    for (std::int64_t j = 0; j < len; ++j) {
      const C c = static_cast<C>(x[j * st]);
      std::int64_t lt = 0, eq = 0;
      for (std::int64_t i = 0; i < len; ++i) {
        const C d = static_cast<C>(x[i * st]);
        lt += d < c;
        eq += d == c;
      }
      if (lt <= k1 && k1 < lt + eq) v1 = c;
      if (lt <= k2 && k2 < lt + eq) v2 = c;
    }
    if constexpr (is_int_v<T>) {
      const double m = k1 == k2 ? static_cast<double>(v1) : (static_cast<double>(v1) + static_cast<double>(v2)) / 2.0;
      return from_acc<T>(m, true, false);
    } else {
      if (k1 == k2) return static_cast<T>(v1);
      return static_cast<T>((v1 + v2) / C(2));
    }
  }
}

template <class T>
__device__ __forceinline__ T odd_value(const T& edge, const T& v) {
  if constexpr (is_int_v<T>) {
    using UT = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<UT>(static_cast<UT>(2) * static_cast<UT>(edge) - static_cast<UT>(v)));
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(R(2), R(0)) * edge - v;
  } else {
    using C = compute_t<T>;
    return static_cast<T>(C(2) * static_cast<C>(edge) - static_cast<C>(v));
  }
}

template <class T>
__global__ void pad_line_kernel(T* __restrict__ out, std::int64_t n_lines, const line_params p) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t line = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; line < n_lines;
       line += step) {
    std::int64_t base = 0, rem = line;
    for (int d = p.nd - 1; d >= 0; --d) {
      if (d == p.axis) continue;
      const std::int64_t ext = d < p.axis ? p.out_shape[d] : p.in_shape[d];
      const std::int64_t q = rem / ext;
      std::int64_t c = rem - q * ext;
      rem = q;
      if (d > p.axis) c += p.before[d];
      base += c * p.ostride[d];
    }
    T* x = out + base;
    const std::int64_t st = p.ostride[p.axis];
    const std::int64_t b = p.b, a = p.a, n = p.n, len = b + n + a;
    if (p.mode == l_ramp) {
      using A = acc_t<T>;
      if (b > 0) {
        A start;
        if constexpr (is_complex_v<T>) start = A(p.end_l_re, p.end_l_im);
        else start = A(p.end_l_re);
        const A step_l = (to_acc(x[b * st]) - start) / static_cast<double>(b);
        for (std::int64_t i = 0; i < b; ++i)
          x[i * st] = from_acc<T>(ramp_at(static_cast<double>(i), step_l, start), false, true);
      }
      if (a > 0) {
        A start;
        if constexpr (is_complex_v<T>) start = A(p.end_r_re, p.end_r_im);
        else start = A(p.end_r_re);
        const A step_r = (to_acc(x[(b + n - 1) * st]) - start) / static_cast<double>(a);
        for (std::int64_t j = 0; j < a; ++j)
          x[(b + n + j) * st] = from_acc<T>(ramp_at(static_cast<double>(a - 1 - j), step_r, start), false, true);
      }
    } else if (p.mode == l_odd_reflect || p.mode == l_odd_symmetric) {
      if constexpr (!std::is_same_v<T, bool>) {
        if (n == 1) {
          const T e = x[b * st];
          for (std::int64_t i = 0; i < b; ++i) x[i * st] = e;
          for (std::int64_t j = 0; j < a; ++j) x[(b + 1 + j) * st] = e;
          continue;
        }
        const bool include_edge = p.mode == l_odd_symmetric;
        std::int64_t lp = b, rp = a;
        while (lp > 0 || rp > 0) {
          std::int64_t old_length = len - rp - lp, edge_offset;
          if (include_edge) {
            old_length = old_length / n * n;
            edge_offset = 1;
          } else {
            old_length = (old_length - 1) / (n - 1) * (n - 1) + 1;
            edge_offset = 0;
            old_length -= 1;
          }
          if (lp > 0) {
            const std::int64_t chunk = std::min(old_length, lp);
            const std::int64_t start = lp - edge_offset + chunk;
            const T e = x[lp * st];
            for (std::int64_t t = 0; t < chunk; ++t) x[(lp - chunk + t) * st] = odd_value(e, x[(start - t) * st]);
            lp -= chunk;
          }
          if (rp > 0) {
            const std::int64_t chunk = std::min(old_length, rp);
            const std::int64_t start = len - rp + edge_offset - 2;
            const T e = x[(len - rp - 1) * st];
            const std::int64_t s0 = len - rp;
            for (std::int64_t t = 0; t < chunk; ++t) x[(s0 + t) * st] = odd_value(e, x[(start - t) * st]);
            rp -= chunk;
          }
        }
      }
    } else {
      if constexpr (!std::is_same_v<T, bool>) {
        const std::int64_t ll = p.lstat, rl = p.rstat;
        const T left = line_stat(x + b * st, st, ll, p.mode);
        const T right = (ll == n && rl == n) ? left : line_stat(x + (b + n - rl) * st, st, rl, p.mode);
        for (std::int64_t i = 0; i < b; ++i) x[i * st] = left;
        for (std::int64_t j = 0; j < a; ++j) x[(b + n + j) * st] = right;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// host side

std::int64_t lowbit_unit(std::uint64_t g) {
  std::int64_t w = 16;
  while (w > 1 && (g % static_cast<std::uint64_t>(w)) != 0) w >>= 1;
  return w;
}

void launch_concat(char* dst, std::int64_t dst_row_bytes, std::int64_t outer,
                   const std::vector<std::pair<const ndarray*, std::int64_t>>& parts, cudaStream_t s) {
  // parts: (C-contiguous input, column offset in bytes); each input's row = its size / outer elements.
  for (std::size_t first = 0; first < parts.size(); first += max_cat) {
    const std::size_t last = std::min(parts.size(), first + max_cat);
    std::uint64_t g = static_cast<std::uint64_t>(dst_row_bytes) | reinterpret_cast<std::uintptr_t>(dst);
    for (std::size_t k = first; k < last; ++k) {
      const std::int64_t rb = static_cast<std::int64_t>(parts[k].first->nbytes()) / outer;
      g |= static_cast<std::uint64_t>(rb) | static_cast<std::uint64_t>(parts[k].second) |
           reinterpret_cast<std::uintptr_t>(parts[k].first->data());
    }
    const std::int64_t W = lowbit_unit(g == 0 ? 16 : g);
    cat_params p{};
    p.n = 0;
    p.dst_row_units = dst_row_bytes / W;
    std::int64_t acc = 0;
    for (std::size_t k = first; k < last; ++k) {
      const std::int64_t rb = static_cast<std::int64_t>(parts[k].first->nbytes()) / outer;
      if (rb == 0) continue;
      p.src[p.n] = static_cast<const char*>(parts[k].first->data());
      p.row_units[p.n] = rb / W;
      p.col_off[p.n] = parts[k].second / W;
      p.start[p.n] = acc;
      acc += outer * (rb / W);
      ++p.n;
    }
    p.start[p.n] = acc;
    if (acc == 0) continue;
    const unsigned grid = grid_for(acc, block_size);
    switch (W) {
      case 16: concat_kernel<uint4><<<grid, block_size, 0, s>>>(reinterpret_cast<uint4*>(dst), p); break;
      case 8: concat_kernel<uint2><<<grid, block_size, 0, s>>>(reinterpret_cast<uint2*>(dst), p); break;
      case 4: concat_kernel<unsigned><<<grid, block_size, 0, s>>>(reinterpret_cast<unsigned*>(dst), p); break;
      case 2: concat_kernel<unsigned short><<<grid, block_size, 0, s>>>(reinterpret_cast<unsigned short*>(dst), p); break;
      default: concat_kernel<unsigned char><<<grid, block_size, 0, s>>>(reinterpret_cast<unsigned char*>(dst), p); break;
    }
    CUSCI_CHECK_LAUNCH();
  }
}

/// Runs the remap kernel from `a` into the new C-contiguous `out`; `cvals` holds 2*nd items of a's
/// dtype (constant values per axis, before/after) or is empty. Every element of `out` is written.
template <class U, int V, int ILP>
void launch_remap(const ndarray& a, ndarray& out, std::int64_t rows, std::int64_t W, const remap_params& p,
                  const ndarray* cvals, cudaStream_t s) {
  // Units of V items per row, at most remap_block * ILP per block, spread evenly over the blocks of a
  // row (a row of 8224 float32 is 5 blocks of 412 units rather than 4 full blocks and one of 8).
  const std::int64_t units = (W + V - 1) / V;
  const std::int64_t cap = static_cast<std::int64_t>(remap_block) * ILP;
  const std::int64_t gx = std::min<std::int64_t>((units + cap - 1) / cap, 0x7fffffffLL);
  const std::int64_t chunk = (units + gx - 1) / gx;
  CUSCI_EXPECTS(chunk <= cap, value_error, "cusci: array too large for the remap kernel");
  const unsigned gy = static_cast<unsigned>(std::min<std::int64_t>(rows, 65535));
  remap_kernel<U, V, ILP><<<dim3(static_cast<unsigned>(gx), gy), remap_block, 0, s>>>(
      static_cast<const char*>(a.data()), out.data_as<U>(), rows, chunk, p, cvals ? cvals->data_as<U>() : nullptr);
  CUSCI_CHECK_LAUNCH();
}

void run_remap(const ndarray& a, ndarray& out, const std::vector<std::int64_t>& before, const std::vector<int>& kind,
               const ndarray* cvals) {
  const int nd = a.ndim();
  const std::int64_t n = out.size();
  if (n == 0) return;
  CUSCI_EXPECTS(nd <= max_kernel_dims, value_error, "cusci: arrays of more than 16 dimensions are not supported");
  remap_params p{};
  p.nd = nd;
  for (int d = 0; d < nd; ++d) {
    p.out_shape[d] = out.shape()[d];
    p.in_shape[d] = a.shape()[d];
    p.in_stride[d] = a.strides()[d];
    p.before[d] = before[d];
    p.kind[d] = kind[d];
  }
  const std::int64_t W = out.shape()[nd - 1];
  const std::int64_t rows = n / W;
  const std::int64_t isz = static_cast<std::int64_t>(a.itemsize());
  // 16-byte output stores when every row starts 16-byte aligned (items of 16 bytes go one by one:
  // complex128 is only 8-byte aligned).
  const bool wide = isz < 16 && reinterpret_cast<std::uintptr_t>(out.data()) % 16 == 0 && (rows == 1 || (W * isz) % 16 == 0);
  cudaStream_t s = get_current_stream();
  dispatch_itemsize(a.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    constexpr int V = sizeof(U) < 16 ? static_cast<int>(16 / sizeof(U)) : 1;
    if constexpr (V > 1) {
      if (wide) {
        launch_remap<U, V, 2>(a, out, rows, W, p, cvals, s);
        return;
      }
    }
    launch_remap<U, 1, 4>(a, out, rows, W, p, cvals, s);
  });
}

/// Calls f(type_tag<T>) for the numeric non-bool dtypes; type_error otherwise.
template <class F>
void dispatch_numeric(dtype t, const char* fn, const char* what, bool real_only, F&& f) {
  const bool ok = t != dtype::bool_ && !(real_only && is_complex(t));
  if (!ok)
    throw type_error(std::string(fn) + ": mode '" + what + "' is not supported for dtype " + std::string(dtype_name(t)));
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) f(tag);
  });
}

}  // namespace
}  // namespace detail::ix

using namespace detail;
using namespace detail::ix;

// --- concatenate -------------------------------------------------------------------------------------

namespace {

/// NumPy's rank of a dtype when it looks for the "main" dtype of a sequence: its legacy type number
/// (bool 0, int8 1, uint8 2, ..., uint64 8, float32 11, float64 12, complex64 14, complex128 15),
/// float16 last (type number 23).
int main_rank(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: return 0;
    case dtype::int8: return 1;
    case dtype::uint8: return 2;
    case dtype::int16: return 3;
    case dtype::uint16: return 4;
    case dtype::int32: return 5;
    case dtype::uint32: return 6;
    case dtype::int64: return 7;
    case dtype::uint64: return 8;
    case dtype::float32: return 11;
    case dtype::float64: return 12;
    case dtype::complex64: return 14;
    case dtype::complex128: return 15;
    default: return 23;  // float16
  }
}

/// NumPy 2's `np.result_type(*dtypes)` for array dtypes. Promotion is not associative (int8, uint16,
/// float32 gives float32, while pairwise left to right it would give float64), so NumPy first picks
/// the "main" dtype (the highest legacy type number, float16 above all), promotes it with every
/// dtype, and promotes those results together. Checked against NumPy for every sequence of 2, 3
/// and 4 of cusci's dtypes.
dtype result_type_of(const std::vector<ndarray>& arrays) noexcept {
  dtype main = arrays[0].dtype();
  for (const auto& a : arrays)
    if (main_rank(a.dtype()) > main_rank(main)) main = a.dtype();
  dtype r = promote_types(main, arrays[0].dtype());
  for (const auto& a : arrays) r = promote_types(r, promote_types(main, a.dtype()));
  return r;
}

}  // namespace

ndarray concatenate(const std::vector<ndarray>& arrays_in, std::optional<int> axis_opt, std::optional<dtype> dt) {
  const char* fn = "cusci::concatenate";
  CUSCI_EXPECTS(!arrays_in.empty(), value_error, std::string(fn) + ": need at least one array to concatenate");
  if (axis_opt) {  // the axis is checked before any device work
    CUSCI_EXPECTS(arrays_in[0].ndim() >= 1, value_error, std::string(fn) + ": zero-dimensional arrays cannot be concatenated");
    (void)normalize_axis(*axis_opt, arrays_in[0].ndim(), fn);
  }
  device_guard guard(arrays_in[0].device());
  std::vector<ndarray> arrays;
  if (!axis_opt) {
    for (const auto& a : arrays_in) arrays.push_back(ravel(a));
  } else {
    arrays = arrays_in;
  }
  const int axis_in = axis_opt.value_or(0);
  const int nd = arrays[0].ndim();
  CUSCI_EXPECTS(nd >= 1, value_error, std::string(fn) + ": zero-dimensional arrays cannot be concatenated");
  const int axis = normalize_axis(axis_in, nd, fn);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const ndarray& a = arrays[i];
    CUSCI_EXPECTS(a.ndim() == nd, value_error,
                  std::string(fn) + ": all the input arrays must have same number of dimensions, but the array at index 0 has " +
                      std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) + " has " +
                      std::to_string(a.ndim()) + " dimension(s)");
    for (int d = 0; d < nd; ++d)
      CUSCI_EXPECTS(d == axis || a.shape()[d] == arrays[0].shape()[d], value_error,
                    std::string(fn) +
                        ": all the input array dimensions except for the concatenation axis must match exactly, but "
                        "along dimension " + std::to_string(d) + ", the array at index 0 has size " +
                        std::to_string(arrays[0].shape()[d]) + " and the array at index " + std::to_string(i) +
                        " has size " + std::to_string(a.shape()[d]));
  }
  dtype rt = dt ? *dt : result_type_of(arrays);
  shape_t out_shape = arrays[0].shape();
  out_shape[axis] = 0;
  for (const auto& a : arrays) {  // lengths that add up past int64: NumPy's "array is too big"
    CUSCI_EXPECTS(a.shape()[axis] <= std::numeric_limits<std::int64_t>::max() - out_shape[axis], value_error,
                  std::string(fn) + ": array is too big (the lengths along axis " + std::to_string(axis) +
                      " add up past 2^63 - 1)");
    out_shape[axis] += a.shape()[axis];
  }
  ndarray out = empty(out_shape, rt);
  if (out.size() == 0) return out;
  const line_view lv = line_view_of(out_shape, axis);
  const std::int64_t outer = lv.outer, inner = lv.inner;
  const std::int64_t isz = static_cast<std::int64_t>(out.itemsize());
  std::vector<std::pair<const ndarray*, std::int64_t>> fast;
  std::int64_t col = 0;
  for (const auto& a : arrays) {
    const std::int64_t len = a.shape()[axis];
    if (len > 0) {
      if (a.dtype() == rt && a.is_c_contiguous()) {
        fast.emplace_back(&a, col * inner * isz);
      } else {
        std::vector<index_spec> ix(static_cast<std::size_t>(axis), slice{});
        ix.push_back(slice{col, col + len, 1});
        ndarray part = out[ix];
        copy_cast(a, part);
      }
    }
    col += len;
  }
  if (!fast.empty())
    launch_concat(static_cast<char*>(out.data()), out_shape[axis] * inner * isz, outer, fast, get_current_stream());
  return out;
}

// --- roll --------------------------------------------------------------------------------------------

ndarray roll(const ndarray& a, const std::vector<std::int64_t>& shift, const std::vector<int>& axes) {
  const char* fn = "cusci::roll";
  device_guard guard(a.device());
  CUSCI_EXPECTS(shift.size() == axes.size() || shift.size() == 1 || axes.size() == 1, value_error,
                std::string(fn) + ": 'shift' and 'axis' should be scalars or 1D sequences of the same length");
  const std::size_t n = std::max(shift.size(), axes.size());
  std::vector<std::int64_t> total(a.ndim(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int ax = normalize_axis(axes[axes.size() == 1 ? 0 : i], a.ndim(), fn);
    total[ax] += shift[shift.size() == 1 ? 0 : i];
  }
  ndarray out = empty(a.shape(), a.dtype());
  if (out.size() == 0) return out;
  std::vector<int> kind(a.ndim(), k_copy);
  std::vector<std::int64_t> before(a.ndim(), 0);
  for (int d = 0; d < a.ndim(); ++d) {
    const std::int64_t len = a.shape()[d];
    std::int64_t sh = total[d] % len;
    if (sh < 0) sh += len;
    if (sh != 0) {
      kind[d] = k_wrap;
      before[d] = sh;
    }
  }
  run_remap(a, out, before, kind, nullptr);
  return out;
}

ndarray roll(const ndarray& a, std::int64_t shift, std::optional<int> axis) {
  if (axis) return roll(a, std::vector<std::int64_t>{shift}, std::vector<int>{*axis});
  device_guard guard(a.device());
  if (a.ndim() == 0) return a.copy();
  ndarray flat = ravel(a);
  return roll(flat, std::vector<std::int64_t>{shift}, std::vector<int>{0}).reshape(a.shape());
}

// --- ascontiguousarray ----------------------------------------------------------------------------------

ndarray ascontiguousarray(const ndarray& a) {
  if (a.is_c_contiguous()) return a;
  device_guard guard(a.device());
  ndarray out = empty(a.shape(), a.dtype());
  if (out.size() == 0) return out;
  shape_t shape = a.shape(), ss = a.strides(), ds = out.strides();
  coalesce(shape, {&ss, &ds});
  const std::int64_t isz = static_cast<std::int64_t>(a.itemsize());
  if (shape.size() == 2 && ss[1] != isz && std::abs(ss[0]) < std::abs(ss[1])) {
    const std::int64_t R = shape[0], C = shape[1];
    const unsigned gx = static_cast<unsigned>((C + 31) / 32);
    const unsigned gy = static_cast<unsigned>(std::min<std::int64_t>((R + 31) / 32, 65535));
    if ((C + 31) / 32 <= 0x7fffffffLL) {
      cudaStream_t s = get_current_stream();
      dispatch_itemsize(a.itemsize(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        transpose_kernel<U><<<dim3(gx, gy), dim3(32, 8), 0, s>>>(static_cast<const char*>(a.data()), ss[0], ss[1],
                                                                 out.data_as<U>(), R, C);
        CUSCI_CHECK_LAUNCH();
      });
      return out;
    }
  }
  copy_cast(a, out);
  return out;
}

// --- pad ---------------------------------------------------------------------------------------------------

pad_mode pad_mode_from_string(std::string_view s) {
  static const std::pair<const char*, pad_mode> names[] = {
      {"constant", pad_mode::constant}, {"edge", pad_mode::edge},       {"linear_ramp", pad_mode::linear_ramp},
      {"maximum", pad_mode::maximum},   {"mean", pad_mode::mean},       {"median", pad_mode::median},
      {"minimum", pad_mode::minimum},   {"reflect", pad_mode::reflect}, {"symmetric", pad_mode::symmetric},
      {"wrap", pad_mode::wrap},         {"empty", pad_mode::empty}};
  for (const auto& [n, m] : names)
    if (s == n) return m;
  throw value_error("cusci::pad: mode '" + std::string(s) + "' is not supported");
}

pad_reflect_type pad_reflect_type_from_string(std::string_view s) {
  if (s == "even") return pad_reflect_type::even;
  if (s == "odd") return pad_reflect_type::odd;
  throw value_error("cusci::pad: reflect_type must be 'even' or 'odd', got '" + std::string(s) + "'");
}

namespace {
template <class P>
const P& pair_for(const std::vector<P>& v, int d, const char* fn, const char* what, int nd) {
  CUSCI_EXPECTS(v.size() == 1 || static_cast<int>(v.size()) == nd, value_error,
                std::string(fn) + ": " + what + " must hold one pair or one pair per axis (" + std::to_string(nd) +
                    "), got " + std::to_string(v.size()));
  return v.size() == 1 ? v[0] : v[d];
}
}  // namespace

ndarray pad(const ndarray& array, const pad_width_t& pad_width, pad_mode mode, const pad_options& opts) {
  const char* fn = "cusci::pad";
  device_guard guard(array.device());
  const int nd = array.ndim();
  if (nd == 0) return array.copy();
  CUSCI_EXPECTS(nd <= max_kernel_dims, value_error, std::string(fn) + ": arrays of more than 16 dimensions are not supported");
  std::vector<std::int64_t> b(nd), af(nd);
  for (int d = 0; d < nd; ++d) {
    const auto& pw = pair_for(pad_width, d, fn, "pad_width", nd);
    CUSCI_EXPECTS(pw.first >= 0 && pw.second >= 0, value_error, std::string(fn) + ": index can't contain negative values");
    b[d] = pw.first;
    af[d] = pw.second;
  }
  shape_t out_shape(nd);
  for (int d = 0; d < nd; ++d) out_shape[d] = array.shape()[d] + b[d] + af[d];
  ndarray out = empty(out_shape, array.dtype());
  if (mode != pad_mode::constant && mode != pad_mode::empty && array.size() == 0) {
    for (int d = 0; d < nd; ++d)
      CUSCI_EXPECTS(!(array.shape()[d] == 0 && (b[d] > 0 || af[d] > 0)), value_error,
                    std::string(fn) + ": can't extend empty axis " + std::to_string(d) +
                        " using modes other than 'constant' or 'empty'");
    return out;
  }
  if (out.size() == 0) return out;
  std::vector<int> kind(nd, k_copy);
  const bool odd = opts.reflect_type == pad_reflect_type::odd;
  const bool fast = mode == pad_mode::constant || mode == pad_mode::edge || mode == pad_mode::wrap ||
                    mode == pad_mode::empty || ((mode == pad_mode::reflect || mode == pad_mode::symmetric) && !odd);
  if (fast) {
    // 'empty' leaves the padded values undefined in NumPy: they are filled as 'edge' (one pass,
    // no read of uninitialised memory); an empty input has nothing to copy.
    if (mode == pad_mode::empty && array.size() == 0) return out;
    int k = k_edge;
    switch (mode) {
      case pad_mode::constant: k = k_constant; break;
      case pad_mode::wrap: k = k_wrap; break;
      case pad_mode::reflect: k = k_reflect; break;
      case pad_mode::symmetric: k = k_symmetric; break;
      default: k = k_edge; break;  // edge, empty
    }
    std::fill(kind.begin(), kind.end(), k);
    if (mode == pad_mode::constant) {
      ndarray cv = empty({2 * nd}, array.dtype());
      for (int d = 0; d < nd; ++d) {
        scalar lo = 0, hi = 0;
        if (!opts.constant_values.empty()) {
          const auto& pr = pair_for(opts.constant_values, d, fn, "constant_values", nd);
          lo = pr.first;
          hi = pr.second;
        }
        ndarray e0 = cv[2 * d], e1 = cv[2 * d + 1];
        e0.fill(lo);
        e1.fill(hi);
      }
      run_remap(array, out, b, kind, &cv);
    } else {
      run_remap(array, out, b, kind, nullptr);
    }
    return out;
  }
  // Computed modes: centre copy (the padded parts provisionally 'edge', all overwritten below), then
  // one line pass per padded axis in NumPy's order.
  std::fill(kind.begin(), kind.end(), k_edge);
  run_remap(array, out, b, kind, nullptr);
  int lmode = l_ramp;
  const char* mname = "linear_ramp";
  bool real_only = false;
  switch (mode) {
    case pad_mode::linear_ramp: lmode = l_ramp; break;
    case pad_mode::maximum: lmode = l_max; mname = "maximum"; real_only = true; break;
    case pad_mode::minimum: lmode = l_min; mname = "minimum"; real_only = true; break;
    case pad_mode::mean: lmode = l_mean; mname = "mean"; break;
    case pad_mode::median: lmode = l_median; mname = "median"; real_only = true; break;
    case pad_mode::reflect: lmode = l_odd_reflect; mname = "reflect"; break;
    default: lmode = l_odd_symmetric; mname = "symmetric"; break;
  }
  const shape_t ostr = c_strides(out_shape, 1);
  cudaStream_t s = get_current_stream();
  for (int ax = 0; ax < nd; ++ax) {
    if (b[ax] == 0 && af[ax] == 0) continue;
    line_params p{};
    p.nd = nd;
    p.axis = ax;
    p.mode = lmode;
    for (int d = 0; d < nd; ++d) {
      p.out_shape[d] = out_shape[d];
      p.in_shape[d] = array.shape()[d];
      p.before[d] = b[d];
      p.ostride[d] = ostr[d];
    }
    p.b = b[ax];
    p.a = af[ax];
    p.n = array.shape()[ax];
    if (lmode == l_max || lmode == l_min || lmode == l_mean || lmode == l_median) {
      std::optional<std::int64_t> ls, rs;
      if (!opts.stat_length.empty()) {
        const auto& pr = pair_for(opts.stat_length, ax, fn, "stat_length", nd);
        ls = pr.first;
        rs = pr.second;
        CUSCI_EXPECTS((!ls || *ls >= 0) && (!rs || *rs >= 0), value_error,
                      std::string(fn) + ": index can't contain negative values");
      }
      p.lstat = (!ls || *ls > p.n) ? p.n : *ls;
      p.rstat = (!rs || *rs > p.n) ? p.n : *rs;
      CUSCI_EXPECTS(!((p.lstat == 0 || p.rstat == 0) && (lmode == l_max || lmode == l_min)), value_error,
                    std::string(fn) + ": stat_length of 0 yields no value for padding");
    }
    if (lmode == l_ramp && !opts.end_values.empty()) {
      const auto& pr = pair_for(opts.end_values, ax, fn, "end_values", nd);
      const auto lo = pr.first.value<std::complex<double>>(), hi = pr.second.value<std::complex<double>>();
      p.end_l_re = lo.real();
      p.end_l_im = lo.imag();
      p.end_r_re = hi.real();
      p.end_r_im = hi.imag();
    }
    std::int64_t lines = 1;
    for (int d = 0; d < nd; ++d)
      if (d != ax) lines *= d < ax ? out_shape[d] : array.shape()[d];
    if (lines == 0) continue;
    dispatch_numeric(array.dtype(), fn, mname, real_only, [&](auto tag) {
      using T = typename decltype(tag)::type;
      pad_line_kernel<T><<<grid_for(lines, 128), 128, 0, s>>>(out.data_as<T>(), lines, p);
      CUSCI_CHECK_LAUNCH();
    });
  }
  return out;
}

ndarray pad(const ndarray& array, std::int64_t pad_width, pad_mode mode, const pad_options& opts) {
  return pad(array, pad_width_t{{pad_width, pad_width}}, mode, opts);
}
ndarray pad(const ndarray& array, std::pair<std::int64_t, std::int64_t> pad_width, pad_mode mode,
            const pad_options& opts) {
  return pad(array, pad_width_t{pad_width}, mode, opts);
}

}  // namespace cusci

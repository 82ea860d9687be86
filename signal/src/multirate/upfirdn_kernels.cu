// upfirdn's polyphase kernels (see multirate.hpp for the algorithm):
//  - polyphase_tiled<T, RB>: a block computes a tile of TO = G * up consecutive outputs of one line.
//    It stages the input window the tile needs (with the signal extension applied) and the taps of
//    the tile's up phases in shared memory. Output n = nb + g * up + p (phase p, group g) reads
//    x[i(nb + p) + g * down - m]; splitting the tap index m = m1 * down + m2 makes the inner loop a
//    stride-one convolution over m1, so a thread computing RB consecutive groups of one phase loads
//    2 * RB - 1 window values per RB taps and does RB * RB multiply-adds from registers. The tile's
//    outputs go through shared memory so the global stores are coalesced.
//  - polyphase_direct<T>: one thread per output, taps and input read from global memory; for
//    filters whose taps or windows do not fit in shared memory.
// Index arithmetic checked against SciPy with a NumPy emulation of both kernels (every mode, tiles
// with partial ends, o0 > 0).

#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "multirate/multirate_detail.hpp"

namespace cusci::signal::detail {
namespace {

using cusci::detail::is_complex_v;
using cusci::detail::type_tag;
using i64 = std::int64_t;

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<cuda::std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;

constexpr int kThreads = 256;
constexpr std::size_t kSmemBytes = 48 * 1024;  // no opt-in needed
// Outputs per thread of the register-blocked path: 1 (short polyphase branches), 7, or 11 (float32 and
// float64 only: 11 accumulators + 21 window values stay in registers). Odd, so that lanes stride
// RB * down words: no shared-memory bank conflict for odd down. Chosen per call by blocked_cost.
// Measured on the H200 (G4, resample_poly 2^26 f32 by 2/3, 32 taps per phase): RB 7 0.32 ms (RB 11,
// which the cost estimate picks there, added afterwards: not yet measured).

template <class T>
__device__ __forceinline__ void mad(T& acc, const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    acc = T(acc.real() + a.real() * b.real() - a.imag() * b.imag(), acc.imag() + a.real() * b.imag() + a.imag() * b.real());
  } else {
    acc += a * b;
  }
}

// SciPy's signal extension (scipy/signal/_upfirdn_apply.pyx, _extend_left / _extend_right) for an index
// j outside [0, L). The caller guarantees L >= 1 (L >= 2 for reflect, antireflect, smooth).
template <class T>
__device__ T extend(const T* x, i64 j, i64 L, int mode, T cval) {
  using R = real_t<T>;
  const auto mode_e = static_cast<extension_mode>(mode);
  switch (mode_e) {
    case extension_mode::constant: return cval;
    case extension_mode::edge: return j < 0 ? x[0] : x[L - 1];
    case extension_mode::wrap: return j < 0 ? x[L - 1 - ((-j - 1) % L)] : x[j % L];
    case extension_mode::smooth:
      return j < 0 ? x[0] + (x[1] - x[0]) * static_cast<R>(j) : x[L - 1] + (x[L - 1] - x[L - 2]) * static_cast<R>(j - L + 1);
    case extension_mode::line: {
      const T slope = (x[L - 1] - x[0]) / static_cast<R>(L - 1);
      return j < 0 ? x[0] + slope * static_cast<R>(j) : x[L - 1] + slope * static_cast<R>(j - L + 1);
    }
    case extension_mode::symmetric:
    case extension_mode::antisymmetric: {
      const bool anti = mode_e == extension_mode::antisymmetric;
      if (j < 0) {
        if (-j < L) return anti ? -x[-j - 1] : x[-j - 1];
        const i64 k = (-j - 1) % (2 * L);
        return k < L ? (anti ? -x[k] : x[k]) : x[2 * L - 1 - k];
      }
      if (j < 2 * L) return anti ? -x[2 * L - 1 - j] : x[2 * L - 1 - j];
      const i64 k = j % (2 * L);
      return k < L ? x[k] : (anti ? -x[2 * L - 1 - k] : x[2 * L - 1 - k]);
    }
    case extension_mode::reflect: {
      if (j < 0) {
        if (-j < L - 1) return x[-j];
        const i64 k = (-j - 1) % (2 * (L - 1));
        return k < L - 1 ? x[k + 1] : x[2 * L - 3 - k];
      }
      if (j < 2 * L - 1) return x[2 * L - 2 - j];
      const i64 k = j % (2 * (L - 1));
      return k < L - 1 ? x[k] : x[2 * L - 2 - k];
    }
    case extension_mode::antireflect: {
      if (j < 0) {
        if (-j < L) return x[0] - (x[-j] - x[0]);
        const i64 a = -j - 1;
        const T le = x[0] + (x[0] - x[L - 1]) * static_cast<R>(a / (L - 1));
        const i64 k = a % (2 * (L - 1));
        return k < L - 1 ? le - (x[k + 1] - x[0]) : le - (x[L - 1] - x[2 * L - 3 - k]);
      }
      if (j < 2 * L - 1) return x[L - 1] - (x[2 * L - 2 - j] - x[L - 1]);
      const T re = x[L - 1] + (x[L - 1] - x[0]) * static_cast<R>(j / (L - 1) - 1);
      const i64 k = j % (2 * (L - 1));
      return k < L - 1 ? re + (x[k] - x[0]) : re + (x[L - 1] - x[2 * L - 2 - k]);
    }
  }
  return cval;
}

template <class T>
__device__ __forceinline__ T load_ext(const T* x, i64 j, i64 L, int mode, T cval) {
  return (j >= 0 && j < L) ? x[j] : extend(x, j, L, mode, cval);
}

// taps: [up][dn][M1pad], taps[p][m2][c] = h[(c * down + m2) * up + t_p] (0 past the filter), t_p the
// tile phase p's filter phase. Shared memory: taps | ys [G * up] | xs: LM zeros, then the window
// (WLcap = G * down + hpp + 1 entries: the tile's input, zeros after it). The margins make every
// window read of the blocked loop in bounds (reads outside the tile's input meet zero taps or belong
// to outputs past the end, which are not stored).
template <class T, int RB>
__global__ void __launch_bounds__(kThreads) polyphase_tiled(const T* __restrict__ x, T* __restrict__ y,
                                                           const T* __restrict__ taps, i64 lines, i64 L, i64 n_keep,
                                                           i64 o0, i64 up, i64 down, int hpp, int dn, int M1pad,
                                                           int G, i64 tiles, int mode, T cval) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* tp = reinterpret_cast<T*>(smem_raw);
  const int ntaps = static_cast<int>(up) * dn * M1pad;
  T* ys = tp + ntaps;
  const int TO = G * static_cast<int>(up);
  const int dwn = static_cast<int>(down);
  const int LM = (dn - 1) + (M1pad - 1) * dwn;
  const int WLcap = G * dwn + hpp + 1;
  T* xm = ys + TO;  // the left margin
  T* xs = xm + LM;  // the window
  for (int i = threadIdx.x; i < ntaps; i += blockDim.x) tp[i] = taps[i];
  for (int i = threadIdx.x; i < LM; i += blockDim.x) xm[i] = T(0);
  const int gpr = G / RB;  // work items per phase
  const int items = static_cast<int>(up) * gpr;
  const i64 end = o0 + n_keep;
  constexpr int kBatch = sizeof(T) >= 8 ? 8 : 16;  // independent global loads in flight per thread
  for (i64 blk = blockIdx.x; blk < lines * tiles; blk += gridDim.x) {
    const i64 line = blk / tiles, tile = blk - line * tiles;
    const i64 nb = o0 + tile * TO;
    const i64 ws = (nb * down) / up - (hpp - 1);
    const i64 ne = min(nb + TO, end) - 1;
    const int WL = static_cast<int>((ne * down) / up - ws + 1);
    // Window entries [i0, i1) are inside the signal; the others are extension or zero.
    const int i0 = static_cast<int>(min(max(-ws, i64{0}), static_cast<i64>(WL)));
    const int i1 = static_cast<int>(max(min(L - ws, static_cast<i64>(WL)), static_cast<i64>(i0)));
    const T* xl = x + line * L;
    const T* xw = xl + ws;
    __syncthreads();  // the previous tile is done with xs / ys (and the taps and margin are in place)
    for (int base = i0; base < i1; base += kBatch * kThreads) {
      T v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int i = base + u * kThreads + static_cast<int>(threadIdx.x);
        v[u] = i < i1 ? xw[i] : T(0);
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int i = base + u * kThreads + static_cast<int>(threadIdx.x);
        if (i < i1) xs[i] = v[u];
      }
    }
    for (int i = threadIdx.x; i < i0; i += blockDim.x) xs[i] = extend(xl, ws + i, L, mode, cval);
    for (int i = i1 + threadIdx.x; i < WL; i += blockDim.x) xs[i] = extend(xl, ws + i, L, mode, cval);
    for (int i = WL + threadIdx.x; i < WLcap; i += blockDim.x) xs[i] = T(0);
    __syncthreads();
    for (int w = threadIdx.x; w < items; w += blockDim.x) {
      const int p = w / gpr, g0 = (w - p * gpr) * RB;
      if (nb + static_cast<i64>(g0) * up + p >= end) continue;
      const int sp = static_cast<int>(((nb + p) * down) / up - ws);
      T acc[RB];
#pragma unroll
      for (int r = 0; r < RB; ++r) acc[r] = T(0);
      const T* tprow = tp + p * dn * M1pad;
      for (int m2 = 0; m2 < dn; ++m2) {
        const T* trow = tprow + m2 * M1pad;
        const T* xb = xs + (sp + g0 * dwn - m2 - (RB - 1) * dwn);  // W[0] of the first chunk
        for (int c0 = 0; c0 < M1pad; c0 += RB) {
          const T* w0 = xb - c0 * dwn;
          T W[2 * RB - 1];
#pragma unroll
          for (int k = 0; k < 2 * RB - 1; ++k) W[k] = w0[k * dwn];
#pragma unroll
          for (int c = 0; c < RB; ++c) {
            const T tv = trow[c0 + c];
#pragma unroll
            for (int r = 0; r < RB; ++r) mad(acc[r], tv, W[r - c + RB - 1]);
          }
        }
      }
#pragma unroll
      for (int r = 0; r < RB; ++r) {
        const int loc = (g0 + r) * static_cast<int>(up) + p;
        if (nb + loc < end) ys[loc] = acc[r];
      }
    }
    __syncthreads();
    const int cnt = static_cast<int>(min(static_cast<i64>(TO), end - nb));
    T* yl = y + line * n_keep + (nb - o0);
    for (int i = threadIdx.x; i < cnt; i += blockDim.x) yl[i] = ys[i];
  }
}

// hf: [up][hpp], hf[t][m] = h[m * up + t] (0 past the filter).
template <class T>
__global__ void __launch_bounds__(kThreads) polyphase_direct(const T* __restrict__ x, T* __restrict__ y,
                                                            const T* __restrict__ hf, i64 lines, i64 L, i64 n_keep,
                                                            i64 o0, i64 up, i64 down, i64 hpp, int mode, T cval) {
  const i64 total = lines * n_keep;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 line = i / n_keep, n = o0 + (i - line * n_keep);
    const i64 t = (n * down) % up, xi = (n * down) / up;
    const T* xl = x + line * L;
    const T* hrow = hf + t * hpp;
    T acc = T(0);
    for (i64 m = 0; m < hpp; ++m) mad(acc, hrow[m], load_ext(xl, xi - m, L, mode, cval));
    y[i] = acc;
  }
}

template <class T>
T to_t(const std::complex<double>& v) {
  if constexpr (is_complex_v<T>) return T(static_cast<real_t<T>>(v.real()), static_cast<real_t<T>>(v.imag()));
  else return static_cast<T>(v.real());
}

// A host table of taps as a device array of x's dtype.
ndarray upload_taps(const std::vector<std::complex<double>>& v, dtype dt) {
  const shape_t shp{static_cast<i64>(v.size())};
  if (is_complex(dt)) return asarray(host_array::from(v, shp).astype(dt));
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i].real();
  return asarray(host_array::from(r, shp).astype(dt));
}

template <class T>
void run(const ndarray& xa, ndarray& ya, const std::vector<std::complex<double>>& h, i64 up, i64 down,
         extension_mode mode, std::complex<double> cval, i64 o0) {
  const i64 L = xa.shape().back();
  const i64 n_keep = ya.shape().back();
  const i64 lines = n_keep > 0 ? ya.size() / n_keep : 0;
  if (lines == 0 || n_keep == 0) return;
  cudaStream_t stream = get_current_stream();
  const i64 hl = static_cast<i64>(h.size());
  const i64 hpp = (hl + up - 1) / up;
  const T cv = to_t<T>(cval);
  const T* x = xa.data_as<T>();
  T* y = ya.data_as<T>();

  // Register-blocked tiled path when the taps and a window fit in shared memory. RB minimises an
  // estimate of the work per output: FMAs (padded to whole chunks) + 3 x window loads + 2 x tap loads.
  const i64 M1 = (hpp + down - 1) / down;
  auto blocked_cost = [&](int rb) {
    const i64 chunks = (M1 + rb - 1) / rb;
    return static_cast<double>(chunks * (rb * rb + 3 * (2 * rb - 1) + 2 * rb)) / rb;
  };
  int RB = 1;
  for (int rb : {7, 11}) {
    if (rb == 11 && is_complex_v<T>) continue;
    if (blocked_cost(rb) < blocked_cost(RB)) RB = rb;
  }
  const i64 dn = std::min(down, hpp);
  const i64 M1pad = (M1 + RB - 1) / RB * RB;
  const i64 ntaps = up * dn * M1pad;
  auto smem_of = [&](i64 G) {  // taps, outputs, left margin, window (see polyphase_tiled)
    const i64 TO = G * up;
    const i64 LM = (dn - 1) + (M1pad - 1) * down;
    const i64 WLcap = G * down + hpp + 1;
    return static_cast<std::size_t>(ntaps + TO + LM + WLcap) * sizeof(T);
  };
  i64 G = RB * std::max<i64>(1, 512 / up);
  while (G > RB && smem_of(G) > kSmemBytes) G = std::max<i64>(RB, (G / 2 + RB - 1) / RB * RB);
  const bool tiled = up <= 4096 && hpp <= (1 << 20) && smem_of(G) <= kSmemBytes;
  if (tiled) {
    std::vector<std::complex<double>> tab(static_cast<std::size_t>(ntaps), 0.0);
    for (i64 p = 0; p < up; ++p) {
      const i64 t = ((o0 + p) * down) % up;
      for (i64 m2 = 0; m2 < dn; ++m2)
        for (i64 c = 0; c < M1pad; ++c) {
          const i64 m = c * down + m2, k = m * up + t;
          if (m < hpp && k < hl) tab[static_cast<std::size_t>((p * dn + m2) * M1pad + c)] = h[static_cast<std::size_t>(k)];
        }
    }
    const ndarray td = upload_taps(tab, xa.dtype());
    const i64 tiles = (n_keep + G * up - 1) / (G * up);
    const i64 blocks = std::min<i64>(lines * tiles, 1LL << 30);
    const std::size_t smem = smem_of(G);
    auto launch = [&](auto rb_tag) {
      constexpr int rb = decltype(rb_tag)::value;
      polyphase_tiled<T, rb><<<static_cast<unsigned>(blocks), kThreads, smem, stream>>>(
          x, y, td.data_as<T>(), lines, L, n_keep, o0, up, down, static_cast<int>(hpp), static_cast<int>(dn),
          static_cast<int>(M1pad), static_cast<int>(G), tiles, static_cast<int>(mode), cv);
    };
    if (RB == 7) launch(std::integral_constant<int, 7>{});
    else if constexpr (!is_complex_v<T>) {
      if (RB == 11) launch(std::integral_constant<int, 11>{});
      else launch(std::integral_constant<int, 1>{});
    } else {
      launch(std::integral_constant<int, 1>{});
    }
    CUSCI_CHECK_LAUNCH();
    return;
  }
  std::vector<std::complex<double>> tab(static_cast<std::size_t>(up * hpp), 0.0);
  for (i64 t = 0; t < up; ++t)
    for (i64 m = 0; m < hpp; ++m)
      if (m * up + t < hl) tab[static_cast<std::size_t>(t * hpp + m)] = h[static_cast<std::size_t>(m * up + t)];
  const ndarray td = upload_taps(tab, xa.dtype());
  const i64 total = lines * n_keep;
  const i64 blocks = std::min<i64>((total + kThreads - 1) / kThreads, 1LL << 30);
  polyphase_direct<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      x, y, td.data_as<T>(), lines, L, n_keep, o0, up, down, hpp, static_cast<int>(mode), cv);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void upfirdn_lines(const ndarray& x, ndarray& y, const std::vector<std::complex<double>>& h, std::int64_t up,
                   std::int64_t down, extension_mode mode, std::complex<double> cval, std::int64_t o0) {
  switch (x.dtype()) {
    case dtype::float32: run<float>(x, y, h, up, down, mode, cval, o0); break;
    case dtype::float64: run<double>(x, y, h, up, down, mode, cval, o0); break;
    case dtype::complex64: run<cuda::std::complex<float>>(x, y, h, up, down, mode, cval, o0); break;
    case dtype::complex128: run<cuda::std::complex<double>>(x, y, h, up, down, mode, cval, o0); break;
    default:
      throw not_implemented_error("cusci::signal::upfirdn: unsupported dtype " + std::string(dtype_name(x.dtype())));
  }
}

}  // namespace cusci::signal::detail

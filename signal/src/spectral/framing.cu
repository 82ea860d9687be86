// The short-time Fourier engine (framing.hpp): one fused kernel that reads each segment of the (virtually
// extended) signal, removes its trend, multiplies by the window and writes the zero-padded FFT input row,
// followed by one batched cuFFT call; and the overlap-add gather of the inverse.
//
// Bytes: for real x with nperseg samples per segment and hop h, the frames kernel reads x about once from
// DRAM (overlapping segments re-read it from L2) and writes rows * nfft samples once; cuFFT reads those and
// writes the spectra. Detrending needs the segment's sums before any sample is written: the block (or the
// group of threads serving one row) first reduces sum(v) and sum((j - jbar) v) in double, then re-reads
// the segment (an L1/L2 hit) to write it, so detrending costs no DRAM traffic.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_detail.hpp"
#include "fourier/fourier_kernels.cuh"
#include "spectral/framing.hpp"

namespace cusci::signal::detail {

namespace {

constexpr int kBlock = 256;

// Value type of a sample: P or its complex (float2 / double2).
template <class P, bool C> struct val_of { using type = P; };
template <class P> struct val_of<P, true> { using type = cplx_t<P>; };
template <class P, bool C> using val_t = typename val_of<P, C>::type;

// Uniform complex view (re, im) of a real or complex value, in double.
__device__ __forceinline__ void to_d(float v, double& re, double& im) { re = v; im = 0.0; }
__device__ __forceinline__ void to_d(double v, double& re, double& im) { re = v; im = 0.0; }
__device__ __forceinline__ void to_d(float2 v, double& re, double& im) { re = v.x; im = v.y; }
__device__ __forceinline__ void to_d(double2 v, double& re, double& im) { re = v.x; im = v.y; }

template <class T> __device__ __forceinline__ T vzero() {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return T(0);
  else { T r; r.x = 0; r.y = 0; return r; }
}
template <class T> __device__ __forceinline__ T vadd(T a, T b) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return a + b;
  else { a.x += b.x; a.y += b.y; return a; }
}
template <class T> __device__ __forceinline__ T vsub(T a, T b) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return a - b;
  else { a.x -= b.x; a.y -= b.y; return a; }
}
template <class T, class R> __device__ __forceinline__ T vscale(T a, R s) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return a * s;
  else { a.x *= s; a.y *= s; return a; }
}
// a * b for real or complex a, b of one precision P; the result is complex when either is.
template <class P, bool AC, bool BC>
__device__ __forceinline__ val_t<P, AC || BC> vmul(val_t<P, AC> a, val_t<P, BC> b) {
  if constexpr (!AC && !BC) return a * b;
  else if constexpr (AC && !BC) { a.x *= b; a.y *= b; return a; }
  else if constexpr (!AC && BC) { b.x *= a; b.y *= a; return b; }
  else return cmul(a, b);
}
template <class P, bool FROM, bool TO> __device__ __forceinline__ val_t<P, TO> widen(val_t<P, FROM> v) {
  if constexpr (FROM == TO) return v;
  else { val_t<P, TO> r; r.x = v; r.y = P(0); return r; }
}

// Sample i of x's row (length n) extended by the pad rule (see frame_pad); i may lie anywhere.
template <class P, bool XC>
__device__ __forceinline__ val_t<P, XC> fetch(const val_t<P, XC>* __restrict__ row, std::int64_t n, std::int64_t i,
                                              frame_pad pad, P pad_value, std::int64_t zero_before,
                                              std::int64_t zero_after) {
  using V = val_t<P, XC>;
  if (i >= 0 && i < n) return row[i];
  if (i >= zero_after || i < zero_before) return vzero<V>();
  switch (pad) {
    case frame_pad::edge: return row[i < 0 ? 0 : n - 1];
    case frame_pad::constant: {
      V v = vzero<V>();
      if constexpr (XC) v.x = pad_value; else v = pad_value;
      return v;
    }
    case frame_pad::even:
    case frame_pad::odd: {
      if (n == 1) return row[0];
      // numpy.pad's 'reflect' (even / odd), repeated: with period P = 2(n - 1), x(i + P) = x(i) for even
      // and x(i + P) = x(i) + 2 (x[n-1] - x[0]) for odd (the odd extension mirrors about both ends).
      const std::int64_t per = 2 * (n - 1);
      std::int64_t q = i / per, r = i - q * per;
      if (r < 0) { r += per; --q; }
      if (pad == frame_pad::even) return r < n ? row[r] : row[per - r];
      const V base = r < n ? row[r] : vsub(vscale(row[n - 1], P(2)), row[per - r]);
      const V d = vscale(vsub(row[n - 1], row[0]), P(2 * q));
      return vadd(base, d);
    }
    default: return vzero<V>();
  }
}

__device__ __forceinline__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Sums of the threads of one row group (tpr threads, a multiple of 32) for NV values each. Every thread
// of the block must call it (it synchronizes the block); each gets its group's totals.
template <int NV>
__device__ __forceinline__ void group_sum(double (&v)[NV], int tpr, double* smem /* [kBlock/32][NV] */) {
  for (int k = 0; k < NV; ++k) v[k] = warp_sum(v[k]);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  __syncthreads();  // smem may still be read from the previous row
  if (lane == 0)
    for (int k = 0; k < NV; ++k) smem[warp * NV + k] = v[k];
  __syncthreads();
  const int wpg = tpr >> 5, w0 = (warp / wpg) * wpg;
  for (int k = 0; k < NV; ++k) {
    double s = 0.0;
    for (int w = 0; w < wpg; ++w) s += smem[(w0 + w) * NV + k];
    v[k] = s;
  }
}

struct frame_geom {
  std::int64_t n, nperseg, hop, first, nseg, nfft, rows, zero_before, zero_after;
  frame_pad pad;
  frame_detrend detrend;
  int tpr;
};

// One row (b, s) per group of g.tpr threads. out: rows of nfft values of type val_t<P, OC>.
template <class P, bool XC, bool WC, bool OC>
__global__ void __launch_bounds__(kBlock) frames_kernel(const val_t<P, XC>* __restrict__ x,
                                                       const val_t<P, WC>* __restrict__ win,
                                                       val_t<P, OC>* __restrict__ out, frame_geom g, P pad_value) {
  static_assert(OC || (!XC && !WC), "a complex sample needs a complex output");
  using XV = val_t<P, XC>;
  using OV = val_t<P, OC>;
  constexpr bool PC = XC || WC;  // the windowed sample is complex
  __shared__ double smem[(kBlock / 32) * 4];
  const int rpb = kBlock / g.tpr;
  const int grp = threadIdx.x / g.tpr, lane = threadIdx.x % g.tpr;
  const double jbar = 0.5 * double(g.nperseg - 1);
  // Sum of (j - jbar)^2 over the segment: nperseg (nperseg^2 - 1) / 12.
  const double np_ = double(g.nperseg);
  const double sjj = np_ * (np_ * np_ - 1.0) / 12.0;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * rpb; base < g.rows;
       base += static_cast<std::int64_t>(gridDim.x) * rpb) {
    const std::int64_t r = base + grp;
    const bool active = r < g.rows;
    const std::int64_t b = active ? r / g.nseg : 0, s = active ? r - b * g.nseg : 0;
    const XV* row = x + b * g.n;
    const std::int64_t i0 = g.first + s * g.hop;
    // Trend: v - (m + slope (j - jbar)), m and slope complex for complex x.
    double m_re = 0, m_im = 0, k_re = 0, k_im = 0;
    if (g.detrend != frame_detrend::none) {  // uniform over the block
      // Sums in double: sum(v) and sum((j - jbar) v), real parts first, then imaginary parts (complex x).
      constexpr int NV = XC ? 4 : 2;
      double acc[NV];
      for (int k = 0; k < NV; ++k) acc[k] = 0.0;
      if (active)
        for (std::int64_t j = lane; j < g.nperseg; j += g.tpr) {
          double re, im;
          to_d(fetch<P, XC>(row, g.n, i0 + j, g.pad, pad_value, g.zero_before, g.zero_after), re, im);
          const double t = double(j) - jbar;
          acc[0] += re;
          acc[1] += t * re;
          if constexpr (XC) {
            acc[2] += im;
            acc[3] += t * im;
          }
        }
      group_sum<NV>(acc, g.tpr, smem);
      m_re = acc[0] / np_;
      if constexpr (XC) m_im = acc[2] / np_;
      if (g.detrend == frame_detrend::linear && sjj > 0.0) {
        k_re = acc[1] / sjj;
        if constexpr (XC) k_im = acc[3] / sjj;
      }
    }
    if (!active) continue;
    OV* orow = out + r * g.nfft;
    for (std::int64_t j = lane; j < g.nfft; j += g.tpr) {
      OV o = vzero<OV>();
      if (j < g.nperseg) {
        XV v = fetch<P, XC>(row, g.n, i0 + j, g.pad, pad_value, g.zero_before, g.zero_after);
        if (g.detrend != frame_detrend::none) {
          const double t = double(j) - jbar;
          if constexpr (XC) {
            v.x = P(double(v.x) - (m_re + k_re * t));
            v.y = P(double(v.y) - (m_im + k_im * t));
          } else {
            v = P(double(v) - (m_re + k_re * t));
          }
        }
        o = widen<P, PC, OC>(vmul<P, XC, WC>(v, win[j]));
      }
      orow[j] = o;
    }
  }
}

// y[b, i] = sum_s frames[b, s, i - first - s hop] (* win[...]), for 0 <= i - first - s hop < L.
template <class P, bool FC, bool WC>
__global__ void overlap_add_kernel(const val_t<P, FC>* __restrict__ frames, const val_t<P, WC>* __restrict__ win,
                                   val_t<P, FC || WC>* __restrict__ y, std::int64_t batch, std::int64_t nseg,
                                   std::int64_t L, std::int64_t hop, std::int64_t first, std::int64_t n_out) {
  using OV = val_t<P, FC || WC>;
  CUSCI_FOURIER_ROWS(b, batch) {
    const val_t<P, FC>* fb = frames + b * nseg * L;
    CUSCI_FOURIER_COLS(i, n_out) {
      const std::int64_t t = i - first;
      // Segments s with 0 <= t - s hop < L: floor((t - L) / hop) + 1 <= s <= floor(t / hop).
      auto fdiv = [](std::int64_t a, std::int64_t d) {
        std::int64_t q = a / d;
        if ((a % d != 0) && ((a < 0) != (d < 0))) --q;
        return q;
      };
      std::int64_t s_lo = fdiv(t - L, hop) + 1, s_hi = fdiv(t, hop);
      if (s_lo < 0) s_lo = 0;
      if (s_hi > nseg - 1) s_hi = nseg - 1;
      OV acc = vzero<OV>();
      for (std::int64_t s = s_lo; s <= s_hi; ++s) {
        const std::int64_t j = t - s * hop;
        const val_t<P, FC> f = fb[s * L + j];
        if (win) acc = vadd(acc, vmul<P, FC, WC>(f, win[j]));
        else acc = vadd(acc, widen<P, FC, FC || WC>(f));
      }
      y[b * n_out + i] = acc;
    }
  }
}

const char* const kFn = "cusci::signal::detail::stft_frames";

dtype real_of(bool dbl) { return dbl ? dtype::float64 : dtype::float32; }
dtype cplx_of_dt(bool dbl) { return dbl ? dtype::complex128 : dtype::complex64; }
bool is_double(dtype t) { return t == dtype::float64 || t == dtype::complex128; }

void check_inexact(const ndarray& a, const char* fn, const char* what) {
  const dtype t = a.dtype();
  if (t != dtype::float32 && t != dtype::float64 && t != dtype::complex64 && t != dtype::complex128)
    throw type_error(std::string(fn) + ": " + what + " must have dtype float32, float64, complex64 or complex128, got " +
                     std::string(dtype_name(t)));
}

// a as a C-contiguous array of the precision `dbl` (complexity kept), copying only when needed.
ndarray as_work(const ndarray& a, bool dbl) {
  const bool c = is_complex(a.dtype());
  const dtype want = c ? cplx_of_dt(dbl) : real_of(dbl);
  ndarray r = a.dtype() == want ? a : a.astype(want);
  if (!r.is_c_contiguous()) r = r.copy();
  return r;
}

int threads_per_row(std::int64_t nfft) {
  if (nfft <= 32) return 32;
  if (nfft <= 64) return 64;
  if (nfft <= 128) return 128;
  return kBlock;
}

unsigned blocks_for(std::int64_t groups, int per_block) {
  std::int64_t b = (groups + per_block - 1) / per_block;
  if (b < 1) b = 1;
  if (b > (1LL << 20)) b = 1LL << 20;  // the row loop covers the rest
  return static_cast<unsigned>(b);
}

template <class P, bool XC, bool WC, bool OC>
void launch_frames(const ndarray& x, const ndarray& w, void* out, const frame_geom& g, double pad_value) {
  const unsigned grid = blocks_for(g.rows, kBlock / g.tpr);
  frames_kernel<P, XC, WC, OC><<<grid, kBlock, 0, get_current_stream()>>>(
      static_cast<const val_t<P, XC>*>(x.data()), static_cast<const val_t<P, WC>*>(w.data()),
      static_cast<val_t<P, OC>*>(out), g, static_cast<P>(pad_value));
  CUSCI_CHECK_LAUNCH();
}

template <class P>
void frames_dispatch(bool xc, bool wc, bool oc, const ndarray& x, const ndarray& w, void* out, const frame_geom& g,
                     double pad_value) {
  if (!oc) launch_frames<P, false, false, false>(x, w, out, g, pad_value);
  else if (!xc && !wc) launch_frames<P, false, false, true>(x, w, out, g, pad_value);
  else if (!xc && wc) launch_frames<P, false, true, true>(x, w, out, g, pad_value);
  else if (xc && !wc) launch_frames<P, true, false, true>(x, w, out, g, pad_value);
  else launch_frames<P, true, true, true>(x, w, out, g, pad_value);
}

template <class P, bool FC, bool WC>
void launch_ola(const ndarray& f, const ndarray* w, ndarray& y, std::int64_t batch, std::int64_t nseg, std::int64_t L,
                std::int64_t hop, std::int64_t first, std::int64_t n_out) {
  const dim3 grid = row_grid(n_out, batch);
  overlap_add_kernel<P, FC, WC><<<grid, kBlock, 0, get_current_stream()>>>(
      static_cast<const val_t<P, FC>*>(f.data()), w ? static_cast<const val_t<P, WC>*>(w->data()) : nullptr,
      static_cast<val_t<P, FC || WC>*>(y.data()), batch, nseg, L, hop, first, n_out);
  CUSCI_CHECK_LAUNCH();
}

template <class P>
void ola_dispatch(bool fc, bool wc, const ndarray& f, const ndarray* w, ndarray& y, std::int64_t batch,
                  std::int64_t nseg, std::int64_t L, std::int64_t hop, std::int64_t first, std::int64_t n_out) {
  if (!fc && !wc) launch_ola<P, false, false>(f, w, y, batch, nseg, L, hop, first, n_out);
  else if (!fc && wc) launch_ola<P, false, true>(f, w, y, batch, nseg, L, hop, first, n_out);
  else if (fc && !wc) launch_ola<P, true, false>(f, w, y, batch, nseg, L, hop, first, n_out);
  else launch_ola<P, true, true>(f, w, y, batch, nseg, L, hop, first, n_out);
}

}  // namespace

ndarray stft_frames(const ndarray& x, const ndarray& win, const frame_spec& spec) {
  const std::string fn = kFn;
  CUSCI_EXPECTS(x.ndim() == 2, value_error, fn + ": x must be 2-D (batch, n), got " + std::to_string(x.ndim()) + "-D");
  CUSCI_EXPECTS(win.ndim() == 1 && win.shape()[0] == spec.nperseg, value_error,
                fn + ": win must have shape (nperseg,) = (" + std::to_string(spec.nperseg) + ",)");
  CUSCI_EXPECTS(spec.nperseg >= 1, value_error, fn + ": nperseg must be >= 1, got " + std::to_string(spec.nperseg));
  CUSCI_EXPECTS(spec.hop >= 1, value_error, fn + ": hop must be >= 1, got " + std::to_string(spec.hop));
  CUSCI_EXPECTS(spec.nseg >= 0, value_error, fn + ": nseg must be >= 0, got " + std::to_string(spec.nseg));
  CUSCI_EXPECTS(spec.nfft >= spec.nperseg, value_error,
                fn + ": nfft must be >= nperseg, got " + std::to_string(spec.nfft) + " < " + std::to_string(spec.nperseg));
  check_inexact(x, kFn, "x");
  check_inexact(win, kFn, "win");
  const bool xc = is_complex(x.dtype()), wc = is_complex(win.dtype());
  CUSCI_EXPECTS(!spec.onesided || (!xc && !wc), value_error,
                fn + ": a one-sided transform needs a real x and a real window");
  const std::int64_t batch = x.shape()[0], n = x.shape()[1];
  const bool dbl = is_double(x.dtype()) || is_double(win.dtype());
  const std::int64_t nfreq = spec.onesided ? spec.nfft / 2 + 1 : spec.nfft;
  ndarray out = empty({batch, spec.nseg, nfreq}, cplx_of_dt(dbl));
  const std::int64_t rows = batch * spec.nseg;
  if (rows == 0) return out;
  CUSCI_EXPECTS(n >= 1 || spec.pad == frame_pad::zeros || spec.pad == frame_pad::constant, value_error,
                fn + ": an empty signal can only be padded with zeros or a constant");
  const ndarray xw = as_work(x, dbl), ww = as_work(win, dbl);

  frame_geom g{};
  g.n = n;
  g.nperseg = spec.nperseg;
  g.hop = spec.hop;
  g.first = spec.first;
  g.nseg = spec.nseg;
  g.nfft = spec.nfft;
  g.rows = rows;
  g.zero_before = spec.zero_before;
  g.zero_after = spec.zero_after;
  g.pad = n >= 1 ? spec.pad : frame_pad::constant;
  g.detrend = spec.detrend;
  g.tpr = threads_per_row(spec.nfft);
  const double pad_value = spec.pad == frame_pad::constant ? spec.pad_value : 0.0;

  if (spec.onesided && spec.nfft > 1) {
    ndarray frames = empty({rows, spec.nfft}, real_of(dbl));
    if (dbl) frames_dispatch<double>(false, false, false, xw, ww, frames.data(), g, pad_value);
    else frames_dispatch<float>(false, false, false, xw, ww, frames.data(), g, pad_value);
    fft_r2c_rows(frames.data(), out.data(), spec.nfft, rows, spec.nfft, nfreq, dbl);
  } else {
    // Complex rows written straight into the result and transformed in place (nfft == 1 needs no
    // transform: a length-1 DFT is the identity, and a real one-sided one is the sample with 0 imaginary).
    if (dbl) frames_dispatch<double>(xc, wc, true, xw, ww, out.data(), g, pad_value);
    else frames_dispatch<float>(xc, wc, true, xw, ww, out.data(), g, pad_value);
    fft_c2c_rows(out.data(), spec.nfft, rows, dbl, CUFFT_FORWARD);
  }
  return out;
}

ndarray overlap_add(const ndarray& frames, std::int64_t hop, std::int64_t first, std::int64_t n_out,
                    const ndarray* win) {
  const std::string fn = "cusci::signal::detail::overlap_add";
  CUSCI_EXPECTS(frames.ndim() == 3, value_error,
                fn + ": frames must be 3-D (batch, nseg, L), got " + std::to_string(frames.ndim()) + "-D");
  CUSCI_EXPECTS(hop >= 1, value_error, fn + ": hop must be >= 1, got " + std::to_string(hop));
  CUSCI_EXPECTS(n_out >= 0, value_error, fn + ": n_out must be >= 0, got " + std::to_string(n_out));
  check_inexact(frames, fn.c_str(), "frames");
  const std::int64_t batch = frames.shape()[0], nseg = frames.shape()[1], L = frames.shape()[2];
  if (win) {
    check_inexact(*win, fn.c_str(), "win");
    CUSCI_EXPECTS(win->ndim() == 1 && win->shape()[0] == L, value_error,
                  fn + ": win must have shape (L,) = (" + std::to_string(L) + ",)");
  }
  const bool fc = is_complex(frames.dtype()), wc = win && is_complex(win->dtype());
  const bool dbl = is_double(frames.dtype()) || (win && is_double(win->dtype()));
  ndarray y = empty({batch, n_out}, (fc || wc) ? cplx_of_dt(dbl) : real_of(dbl));
  if (batch == 0 || n_out == 0) return y;
  if (nseg == 0 || L == 0) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(y.data(), 0, y.nbytes(), get_current_stream()));
    return y;
  }
  const ndarray fw = as_work(frames, dbl);
  ndarray ww;
  if (win) ww = as_work(*win, dbl);
  const ndarray* wp = win ? &ww : nullptr;
  if (dbl) ola_dispatch<double>(fc, wc, fw, wp, y, batch, nseg, L, hop, first, n_out);
  else ola_dispatch<float>(fc, wc, fw, wp, y, batch, nseg, L, hop, first, n_out);
  return y;
}

}  // namespace cusci::signal::detail

// ShortTimeFFT's transforms: stft / stft_detrend / spectrogram (the spectral engine's stft_frames, then
// ONE kernel of ours that transposes its (batch, slice, bin) spectra into SciPy's (batch, bin, slice)
// layout while applying fftshift, the onesided2X factor and the phase shift, or |.|^2 / x conj(y)),
// and istft (one kernel that gathers S's slices back into (batch, slice, bin) rows with the inverse
// per-bin factors, core's batched inverse FFT, then the engine's overlap_add with the dual window).
// Every argument check runs first, on the host, in SciPy's order.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/signal/short_time_fft.hpp"
#include "short_time_fft/sft_detail.hpp"
#include "short_time_fft/sft_host.hpp"
#include "spectral/framing.hpp"

namespace cusci::signal {

namespace {

using cd = std::complex<double>;

bool is_single(dtype dt) { return dt == dtype::float32 || dt == dtype::complex64 || dt == dtype::float16; }
using detail::fdiv;
using detail::fmod_py;
using detail::mode_name;

/// A host window (any dtype) as a device array of the work precision, conjugated on request; real
/// windows stay real.
ndarray window_on_device(const host_array& w, bool single, bool conj, std::int64_t len) {
  const std::vector<cd> v = detail::sft_values(w);
  const bool cplx = is_complex(w.dtype());
  host_array h(cplx ? (single ? dtype::complex64 : dtype::complex128) : (single ? dtype::float32 : dtype::float64), {len});
  for (std::int64_t i = 0; i < len; ++i) {
    const cd e = i < static_cast<std::int64_t>(v.size()) ? (conj ? std::conj(v[static_cast<std::size_t>(i)]) : v[static_cast<std::size_t>(i)])
                                                         : cd(0.0, 0.0);
    if (cplx && single) h.data_as<std::complex<float>>()[i] = std::complex<float>(static_cast<float>(e.real()), static_cast<float>(e.imag()));
    else if (cplx) h.data_as<cd>()[i] = e;
    else if (single) h.data_as<float>()[i] = static_cast<float>(e.real());
    else h.data_as<double>()[i] = e.real();
  }
  return asarray(h);
}

ndarray table_on_device(const std::vector<cd>& v, bool single) {
  const auto n = static_cast<std::int64_t>(v.size());
  host_array h(single ? dtype::complex64 : dtype::complex128, {n});
  for (std::int64_t i = 0; i < n; ++i) {
    const cd e = v[static_cast<std::size_t>(i)];
    if (single) h.data_as<std::complex<float>>()[i] = std::complex<float>(static_cast<float>(e.real()), static_cast<float>(e.imag()));
    else h.data_as<cd>()[i] = e;
  }
  return asarray(h);
}

/// exp(sign * 2 pi i * ((p_s * k) mod mfft) / mfft), the integer product reduced exactly.
cd phase_factor(std::int64_t p_s, std::int64_t k, std::int64_t mfft, double sign) {
  const auto r = static_cast<std::int64_t>((static_cast<unsigned __int128>(p_s) * static_cast<unsigned __int128>(k)) %
                                           static_cast<unsigned __int128>(mfft));
  const double ang = sign * 2.0 * 3.141592653589793238462643383279502884 * static_cast<double>(r) / static_cast<double>(mfft);
  return cd(std::cos(ang), std::sin(ang));
}

/// x moved to (batch, n), C-contiguous, float32/float64/complex64/complex128 of the work precision.
ndarray as_rows(const ndarray& x, int ax, bool single, shape_t& batch_shape) {
  ndarray v = x.ndim() > 1 ? moveaxis(x, ax, -1) : x;
  batch_shape.assign(v.shape().begin(), v.shape().end() - 1);
  dtype dt;
  if (is_complex(x.dtype())) dt = single ? dtype::complex64 : dtype::complex128;
  else dt = single ? dtype::float32 : dtype::float64;
  if (v.dtype() != dt) v = v.astype(dt);
  v = ascontiguousarray(v);
  std::int64_t batch = 1;
  for (std::int64_t d : batch_shape) batch *= d;
  return v.reshape({batch, x.shape(ax)});
}

signal::detail::frame_pad pad_of(sft_padding p) {
  switch (p) {
    case sft_padding::zeros: return signal::detail::frame_pad::zeros;
    case sft_padding::edge: return signal::detail::frame_pad::edge;
    case sft_padding::even: return signal::detail::frame_pad::even;
    case sft_padding::odd: return signal::detail::frame_pad::odd;
  }
  return signal::detail::frame_pad::zeros;
}

signal::detail::frame_detrend detrend_of(sft_detrend d) {
  switch (d) {
    case sft_detrend::none: return signal::detail::frame_detrend::none;
    case sft_detrend::constant: return signal::detail::frame_detrend::constant;
    case sft_detrend::linear: return signal::detail::frame_detrend::linear;
  }
  return signal::detail::frame_detrend::none;
}

}  // namespace

ndarray ShortTimeFFT::transform(const ndarray& x, const ndarray* y, sft_detrend detr, const sft_stft_options& o,
                                int mode, const char* fn) const {
  // --- checks, in SciPy's order (stft_detrend of x, then of y) ---
  for (const ndarray* a : {&x, y}) {
    if (a == nullptr) continue;
    if (onesided_fft() && is_complex(a->dtype()))
      throw value_error(std::string(fn) + ": Complex-valued `x` not allowed for self.fft_mode='" + mode_name(fft_mode_) +
                        "''! Set property `fft_mode` to 'twosided' or 'centered'.");
    if (a->ndim() == 0) throw index_error(std::string(fn) + ": tuple index out of range (x is 0-d)");
  }
  const int ax = cusci::detail::normalize_axis(o.axis, x.ndim(), fn);
  const std::int64_t n = x.shape(ax), mid = m_num_ / 2;
  if (!(n >= m_num_ - mid))
    throw value_error(std::string(fn) + ": " +
                      (x.ndim() == 1 ? "len(x)=" + std::to_string(n)
                                     : "of axis=" + std::to_string(o.axis) + " of " + cusci::detail::shape_str(x.shape())) +
                      " must be >= ceil(m_num/2) = " + std::to_string(m_num_ - mid) + "!");
  const auto [p0, p1] = p_range(n, o.p0, o.p1);
  if (y != nullptr && y->shape() != x.shape())
    throw value_error(std::string(fn) + ": x.shape=" + cusci::detail::shape_str(x.shape()) + " and y.shape=" +
                      cusci::detail::shape_str(y->shape()) + " must be equal!");

  // --- the work ---
  const bool single = is_single(x.dtype()) && (y == nullptr || is_single(y->dtype()));
  const bool cplx_out = mode != static_cast<int>(detail::sft_post_mode::power);
  shape_t batch_shape;
  const ndarray xr = as_rows(x, ax, single, batch_shape);
  const std::int64_t batch = xr.shape(0), nseg = p1 - p0, nfreq = f_pts();
  const dtype cdt = single ? dtype::complex64 : dtype::complex128;
  const dtype out_dt = cplx_out ? cdt : (single ? dtype::float32 : dtype::float64);
  shape_t out_shape = batch_shape;
  out_shape.push_back(nfreq);
  out_shape.push_back(nseg);
  ndarray out;
  if (batch == 0) {
    out = cusci::empty(out_shape, out_dt);
  } else {
    const ndarray wdev = window_on_device(win_, single, true, m_num_);
    signal::detail::frame_spec spec;
    spec.nperseg = m_num_;
    spec.hop = hop_;
    spec.first = p0 * hop_ - mid + o.k_offset;
    spec.nseg = nseg;
    spec.nfft = mfft_;
    spec.pad = pad_of(o.padding);
    spec.detrend = detrend_of(detr);
    spec.onesided = onesided_fft();
    const ndarray fx = signal::detail::stft_frames(xr, wdev, spec);
    ndarray fy;
    if (y != nullptr) {
      shape_t bs;
      fy = signal::detail::stft_frames(as_rows(*y, ax, single, bs), wdev, spec);
    }
    // Per source bin: the phase shift (a circular shift of the zero-padded slice by
    // p_s = (phase_shift + m_num_mid) mod m_num is a factor exp(2 pi i p_s k / mfft)) and onesided2X's factor.
    std::vector<cd> fac(static_cast<std::size_t>(nfreq), cd(1.0, 0.0));
    if (phase_shift_ && mode == static_cast<int>(detail::sft_post_mode::spectrum)) {
      const std::int64_t p_s = fmod_py(*phase_shift_ + mid, m_num_);
      for (std::int64_t k = 0; k < nfreq; ++k) fac[static_cast<std::size_t>(k)] = phase_factor(p_s, k, mfft_, 1.0);
    }
    if (fft_mode_ == sft_fft_mode::onesided2X) {
      const double f2 = scaling_ == sft_scaling::psd ? std::sqrt(2.0) : 2.0;
      const std::int64_t last = mfft_ % 2 == 0 ? nfreq - 1 : nfreq;
      for (std::int64_t k = 1; k < last; ++k) fac[static_cast<std::size_t>(k)] *= f2;
    }
    const std::int64_t shift = fft_mode_ == sft_fft_mode::centered ? mfft_ - mfft_ / 2 : 0;
    out = cusci::empty({batch, nfreq, nseg}, out_dt);
    detail::sft_post(fx, y != nullptr ? &fy : nullptr, table_on_device(fac, single), shift,
                     static_cast<detail::sft_post_mode>(mode), out);
    out = out.reshape(out_shape);
  }
  if (x.ndim() > 1) out = moveaxis(out, -2, ax);
  return out;
}

ndarray ShortTimeFFT::stft(const ndarray& x, const sft_stft_options& opts) const {
  return transform(x, nullptr, sft_detrend::none, opts, static_cast<int>(detail::sft_post_mode::spectrum),
                   "cusci::signal::ShortTimeFFT.stft");
}

ndarray ShortTimeFFT::stft_detrend(const ndarray& x, sft_detrend detr, const sft_stft_options& opts) const {
  return transform(x, nullptr, detr, opts, static_cast<int>(detail::sft_post_mode::spectrum),
                   "cusci::signal::ShortTimeFFT.stft_detrend");
}

ndarray ShortTimeFFT::spectrogram(const ndarray& x, const sft_spectrogram_options& o) const {
  return transform(x, nullptr, o.detr, {.p0 = o.p0, .p1 = o.p1, .k_offset = o.k_offset, .padding = o.padding, .axis = o.axis},
                   static_cast<int>(detail::sft_post_mode::power), "cusci::signal::ShortTimeFFT.spectrogram");
}

ndarray ShortTimeFFT::spectrogram(const ndarray& x, const ndarray& y, const sft_spectrogram_options& o) const {
  const sft_stft_options so{.p0 = o.p0, .p1 = o.p1, .k_offset = o.k_offset, .padding = o.padding, .axis = o.axis};
  if (&x == &y)  // SciPy's `y is x`
    return transform(x, nullptr, o.detr, so, static_cast<int>(detail::sft_post_mode::power),
                     "cusci::signal::ShortTimeFFT.spectrogram");
  return transform(x, &y, o.detr, so, static_cast<int>(detail::sft_post_mode::cross),
                   "cusci::signal::ShortTimeFFT.spectrogram");
}

ndarray ShortTimeFFT::istft(const ndarray& S, const sft_istft_options& o) const {
  const char* fn = "cusci::signal::ShortTimeFFT.istft";
  if (o.f_axis == o.t_axis)
    throw value_error(std::string(fn) + ": f_axis=" + std::to_string(o.f_axis) + " may not be equal to t_axis=" +
                      std::to_string(o.t_axis) + "!");
  const int nd = S.ndim();
  const int fa = cusci::detail::normalize_axis(o.f_axis, nd, fn);
  if (S.shape(fa) != f_pts())
    throw value_error(std::string(fn) + ": S.shape[f_axis]=" + std::to_string(S.shape(fa)) + " must be equal to self.f_pts=" +
                      std::to_string(f_pts()) + " (S.shape=" + cusci::detail::shape_str(S.shape()) + ")!");
  const std::int64_t mid = m_num_ / 2, n_min = m_num_ - mid;
  const int ta = cusci::detail::normalize_axis(o.t_axis, nd, fn);
  const std::int64_t q_num = p_num(n_min);
  if (!(S.shape(ta) >= q_num))
    throw value_error(std::string(fn) + ": S.shape[t_axis]=" + std::to_string(S.shape(ta)) + " needs to have at least " +
                      std::to_string(q_num) + " slices (S.shape=" + cusci::detail::shape_str(S.shape()) + ")!");
  if (fa == ta) throw value_error(std::string(fn) + ": repeated axis in `source` argument");
  const std::int64_t nS = S.shape(ta), pmin = p_min(), kmin = k_min();
  const std::int64_t q_max = nS + pmin, k_max = (q_max - 1) * hop_ + m_num_ - mid;
  const std::int64_t k0 = o.k0, k1 = o.k1 ? *o.k1 : k_max;
  if (!(kmin <= k0 && k0 < k1 && k1 <= k_max))
    throw value_error(std::string(fn) + ": (self.k_min=" + std::to_string(kmin) + ") <= (k0=" + std::to_string(k0) +
                      ") < (k1=" + std::to_string(k1) + ") <= (k_max=" + std::to_string(k_max) + ") is false!");
  if (!(k1 - k0 >= n_min))
    throw value_error(std::string(fn) + ": (k1=" + std::to_string(k1) + ") - (k0=" + std::to_string(k0) + ") = " +
                      std::to_string(k1 - k0) + " has to be at least the half the window length " + std::to_string(n_min) + "!");
  const std::int64_t q0 = k0 >= 0 ? k0 / hop_ + pmin : fdiv(k0, hop_);
  const std::int64_t pm = p_max(k1), q1 = pm < q_max ? pm : q_max;
  const std::int64_t nq = q1 > q0 ? q1 - q0 : 0, c0 = q0 - pmin;
  if (nq > 0 && c0 < 0 && c0 + nS < 0)
    throw index_error(std::string(fn) + ": index " + std::to_string(c0) + " is out of bounds for axis with size " +
                      std::to_string(nS));
  const host_array* dual = nq > 0 ? &dual_win() : nullptr;  // SciPy computes it in its loop
  if (dual != nullptr && onesided_fft() && is_complex(dual->dtype()))
    throw type_error(std::string(fn) + ": Cannot cast ufunc 'add' output from dtype('complex128') to dtype('float64') "
                                       "with casting rule 'same_kind'");

  const bool single = is_single(S.dtype());
  const dtype cdt = single ? dtype::complex64 : dtype::complex128;
  const dtype out_dt = onesided_fft() ? (single ? dtype::float32 : dtype::float64) : cdt;
  ndarray Sm = moveaxis(S, std::vector<int>{fa, ta}, std::vector<int>{-2, -1});
  shape_t batch_shape(Sm.shape().begin(), Sm.shape().end() - 2);
  std::int64_t batch = 1;
  for (std::int64_t d : batch_shape) batch *= d;
  const std::int64_t n_out = k1 - k0, nfreq = f_pts();
  shape_t out_shape = batch_shape;
  out_shape.push_back(n_out);
  ndarray x;
  if (batch == 0 || nq == 0) {
    x = cusci::zeros(out_shape, out_dt);
  } else {
    if (Sm.dtype() != cdt) Sm = Sm.astype(cdt);
    const ndarray Sc = ascontiguousarray(Sm).reshape({batch, nfreq, nS});
    std::vector<cd> g(static_cast<std::size_t>(nfreq), cd(1.0, 0.0));
    if (phase_shift_) {  // undo the circular shift: factor exp(-2 pi i p_s j / mfft)
      const std::int64_t p_s = fmod_py(*phase_shift_ + mid, m_num_);
      for (std::int64_t j = 0; j < nfreq; ++j) g[static_cast<std::size_t>(j)] = phase_factor(p_s, j, mfft_, -1.0);
    }
    if (fft_mode_ == sft_fft_mode::onesided2X) {
      const double f2 = scaling_ == sft_scaling::psd ? std::sqrt(2.0) : 2.0;
      const std::int64_t last = mfft_ % 2 == 0 ? nfreq - 1 : nfreq;
      for (std::int64_t j = 1; j < last; ++j) g[static_cast<std::size_t>(j)] /= f2;
    }
    ndarray X = cusci::empty({batch, nq, nfreq}, cdt);
    detail::sft_pre_inverse(Sc, table_on_device(g, single), fft_mode_ == sft_fft_mode::centered ? mfft_ / 2 : 0, c0, X);
    ndarray frames = onesided_fft() ? fft::irfft(X, {.n = mfft_, .axis = -1}) : fft::ifft(X, {.n = mfft_, .axis = -1});
    if (mfft_ > m_num_) frames = ascontiguousarray(frames[{ellipsis, slice{0, m_num_}}]);
    const ndarray ddev = window_on_device(*dual, single, false, m_num_);
    x = signal::detail::overlap_add(frames, hop_, q0 * hop_ - mid - k0, n_out, &ddev);
    if (x.dtype() != out_dt) x = x.astype(out_dt);
    x = x.reshape(out_shape);
  }
  if (x.ndim() > 1) x = moveaxis(x, -1, fa < x.ndim() ? fa : ta);
  return x;
}

}  // namespace cusci::signal

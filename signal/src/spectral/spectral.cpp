// The public functions of the spectral family: argument checks and SciPy's parameter resolution (through
// spectral_host.cpp), the move of the analysis axis last, the framing engine's spectra (framing.cu), the
// averaging / mode kernels (spectral.cu) and the result laid out as SciPy's (views, no copies).
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/signal/spectral.hpp"
#include "cusci/warnings.hpp"
#include "spectral/framing.hpp"
#include "spectral/spectral_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

using detail::seg_plan;

// The dtype the analysis computes in: SciPy's result_type(x, complex64) precision, complexity kept.
dtype work_dtype(dtype t) {
  switch (t) {
    case dtype::float16:
    case dtype::float32: return dtype::float32;
    case dtype::complex64: return dtype::complex64;
    case dtype::complex128: return dtype::complex128;
    default: return dtype::float64;  // float64, integers, bool
  }
}
bool dbl_of(dtype t) { return t == dtype::float64 || t == dtype::complex128; }
dtype real_dt(bool dbl) { return dbl ? dtype::float64 : dtype::float32; }

/// x with `axis` moved last, as a C-contiguous (batch, n) array of the work dtype `wt`.
struct lines {
  ndarray a;       // (batch, n)
  shape_t outer;   // x's shape without axis
  int axis = 0;    // normalized
  std::int64_t n = 0;
};

lines to_lines(const ndarray& x, int axis, dtype wt, const std::string& fn) {
  lines l;
  l.axis = cusci::detail::normalize_axis(axis, x.ndim(), fn);
  l.n = x.shape()[l.axis];
  l.outer = x.shape();
  l.outer.erase(l.outer.begin() + l.axis);
  std::int64_t batch = 1;
  for (auto d : l.outer) batch *= d;
  ndarray m = l.axis == x.ndim() - 1 ? x : cusci::moveaxis(x, l.axis, -1);
  if (m.dtype() != wt) m = m.astype(wt);
  m = cusci::ascontiguousarray(m);
  l.a = m.reshape({batch, l.n});
  return l;
}

/// Device window of the work precision (real or complex as the values), times `mul`, conjugated with
/// `conj` (ShortTimeFFT, behind welch/csd, windows with conj(w)).
ndarray device_window(const host_array& w, bool dbl, std::complex<double> mul = 1.0, bool conj = false) {
  host_array h = w;
  if (mul != 1.0 || conj) {
    if (h.dtype() == dtype::complex128) {
      auto* p = h.data_as<std::complex<double>>();
      for (std::int64_t i = 0; i < h.size(); ++i) p[i] = (conj ? std::conj(p[i]) : p[i]) * mul;
    } else {
      auto* p = h.data_as<double>();
      for (std::int64_t i = 0; i < h.size(); ++i) p[i] *= mul.real();
    }
  }
  const bool c = h.dtype() == dtype::complex128;
  ndarray d = asarray(h);
  const dtype want = c ? (dbl ? dtype::complex128 : dtype::complex64) : real_dt(dbl);
  return d.dtype() == want ? d : d.astype(want);
}

detail::frame_detrend frame_detrend_of(spectral_detrend d) {
  switch (d) {
    case spectral_detrend::constant: return detail::frame_detrend::constant;
    case spectral_detrend::linear: return detail::frame_detrend::linear;
    default: return detail::frame_detrend::none;
  }
}

detail::frame_spec frame_spec_of(const seg_plan& p, spectral_detrend d, stft_boundary boundary) {
  detail::frame_spec s;
  s.nperseg = p.nperseg;
  s.hop = p.hop;
  s.first = p.first;
  s.nseg = p.nseg;
  s.nfft = p.nfft;
  s.detrend = frame_detrend_of(d);
  s.onesided = p.onesided;
  s.zero_before = p.zero_before;
  s.zero_after = p.zero_after;
  switch (boundary) {
    case stft_boundary::even: s.pad = detail::frame_pad::even; break;
    case stft_boundary::odd: s.pad = detail::frame_pad::odd; break;
    case stft_boundary::constant: s.pad = detail::frame_pad::edge; break;
    default: s.pad = detail::frame_pad::zeros; break;
  }
  return s;
}

/// (batch, m) -> outer + (m,) with the last axis moved to `axis`.
ndarray place_axis(const ndarray& r, const shape_t& outer, int axis) {
  shape_t s = outer;
  s.push_back(r.shape()[1]);
  ndarray v = r.reshape(s);
  if (axis == static_cast<int>(s.size()) - 1) return v;
  return cusci::moveaxis(v, -1, axis);
}

/// (batch, nseg, nfreq) -> SciPy's spectrogram layout: outer with nfreq at `axis`, nseg last (a view).
ndarray place_freq_time(const ndarray& r, const shape_t& outer, int axis) {
  shape_t s = outer;
  s.push_back(r.shape()[1]);
  s.push_back(r.shape()[2]);
  ndarray v = r.reshape(s);
  const int nd = static_cast<int>(s.size());
  return cusci::moveaxis(v, {nd - 1, nd - 2}, {axis, nd - 1});
}

bool same_array(const ndarray& a, const ndarray& b) {
  return a.data() == b.data() && a.dtype() == b.dtype() && a.shape() == b.shape() && a.strides() == b.strides();
}

struct csd_core {
  host_array f;
  ndarray P;  // outer + nfreq at axis
};

// welch / csd / coherence on prepared options. y == nullptr: welch (power). n_crop >= 0: periodogram's
// cropped length.
csd_core csd_impl(const std::string& fn, const ndarray& x, const ndarray* y, const welch_options& o,
                  detail::avg_kind kind, std::int64_t n_crop = -1) {
  const dtype xw = work_dtype(x.dtype());
  dtype wt = xw;
  if (y) wt = promote_types(xw, work_dtype(y->dtype()));
  const bool dbl = dbl_of(wt);
  const bool xc = is_complex(x.dtype()), yc = y && is_complex(y->dtype());
  const int ax = cusci::detail::normalize_axis(o.axis, x.ndim(), fn);
  if (y) cusci::detail::normalize_axis(o.axis, y->ndim(), fn);
  // Outer shapes and sizes.
  shape_t xo = x.shape();
  xo.erase(xo.begin() + ax);
  shape_t outer = xo;
  std::int64_t n = n_crop >= 0 ? n_crop : x.shape()[ax];
  if (y) {
    const int ay = cusci::detail::normalize_axis(o.axis, y->ndim(), fn);
    shape_t yo = y->shape();
    yo.erase(yo.begin() + ay);
    try {
      outer = broadcast_shapes(xo, yo);
    } catch (const value_error&) {
      throw value_error(fn + ": x and y cannot be broadcast together.");
    }
    n = std::max(x.shape()[ax], y->shape()[ay]);
    if (x.size() == 0 || y->size() == 0) {
      shape_t es = outer;
      es.push_back(std::min(x.shape()[ax], y->shape()[ay]));
      ndarray e = cusci::moveaxis(empty(es, dtype::float64), -1, ax);
      return {host_array(dtype::float64, e.shape()), e};
    }
  } else if (x.size() == 0) {
    return {host_array(dtype::float64, x.shape()), empty(x.shape(), dtype::float64)};
  }
  seg_plan p = detail::csd_plan(fn, n, o.window, o.nperseg, o.noverlap, o.nfft, xc, yc, o.return_onesided,
                                o.scaling, o.fs);
  const ndarray w = device_window(p.win, dbl, 1.0, true);
  const detail::frame_spec spec = frame_spec_of(p, o.detrend, stft_boundary::none);
  const bool even = p.nfft % 2 == 0;

  auto bline = [&](const ndarray& a) {
    // Broadcast the outer axes (csd) before flattening them.
    if (!y) return to_lines(a, ax, wt, fn);
    const int aa = cusci::detail::normalize_axis(o.axis, a.ndim(), fn);
    ndarray m = cusci::moveaxis(a, aa, -1);
    shape_t s = outer;
    s.push_back(m.shape().back());
    // moveaxis puts the axis last; broadcast_to aligns the remaining axes from the right.
    ndarray b = m.broadcast_to(s);
    return to_lines(b, static_cast<int>(s.size()) - 1, wt, fn);
  };
  const lines lx = bline(x);
  ndarray X = detail::stft_frames(lx.a, w, spec);
  ndarray r;
  if (!y) {
    if (o.average == spectral_average::median && p.nseg > 1)
      r = detail::spectra_median(X, nullptr, false, p.scale, detail::median_bias(p.nseg), p.onesided, even);
    else r = detail::spectra_mean(X, nullptr, detail::avg_kind::power, p.scale, p.onesided, even);
  } else {
    const lines ly = bline(*y);
    ndarray Y = detail::stft_frames(ly.a, w, spec);
    if (kind == detail::avg_kind::coherence) r = detail::spectra_mean(X, &Y, kind, p.scale, p.onesided, even);
    else if (o.average == spectral_average::median && p.nseg > 1)
      r = detail::spectra_median(X, &Y, true, p.scale, detail::median_bias(p.nseg), p.onesided, even);
    else r = detail::spectra_mean(X, &Y, detail::avg_kind::cross, p.scale, p.onesided, even);
  }
  return {detail::plan_freqs(p, o.fs), place_axis(r, outer, ax)};
}

}  // namespace

psd_result welch(const ndarray& x, const welch_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::welch");
  auto r = csd_impl("cusci::signal::welch", x, nullptr, opts, detail::avg_kind::power);
  return {std::move(r.f), std::move(r.P)};
}

csd_result csd(const ndarray& x, const ndarray& y, const csd_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::csd");
  if (same_array(x, y)) {
    auto r = csd_impl("cusci::signal::csd", x, nullptr, opts, detail::avg_kind::power);
    return {std::move(r.f), std::move(r.P)};
  }
  auto r = csd_impl("cusci::signal::csd", x, &y, opts, detail::avg_kind::cross);
  return {std::move(r.f), std::move(r.P)};
}

psd_result periodogram(const ndarray& x, const periodogram_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::periodogram");
  const std::string fn = "cusci::signal::periodogram";
  if (x.size() == 0) return {host_array(dtype::float64, x.shape()), empty(x.shape(), dtype::float64)};
  const int ax = cusci::detail::normalize_axis(o.axis, x.ndim(), fn);
  const std::int64_t n = x.shape()[ax];
  std::int64_t nperseg = n, n_crop = -1;
  std::optional<std::int64_t> nfft = o.nfft;
  if (nfft) {
    CUSCI_EXPECTS(*nfft >= 0, value_error, fn + ": nfft must be a non-negative integer, got " + std::to_string(*nfft));
    if (*nfft == n) nperseg = *nfft;
    else if (*nfft > n) nperseg = n;
    else {
      if (*nfft == 0) {  // x[..., :0] is empty: SciPy returns empty arrays of that shape
        shape_t s = x.shape();
        s[ax] = 0;
        return {host_array(dtype::float64, s), empty(s, dtype::float64)};
      }
      nperseg = *nfft;
      n_crop = *nfft;
      nfft.reset();
    }
  }
  if (!o.window.spec) {
    const std::int64_t len = detail::window_array_length(o.window, fn, false);
    std::int64_t sz = o.window.host ? o.window.host->size() : o.window.device->size();
    (void)len;
    CUSCI_EXPECTS(sz == nperseg, value_error,
                  fn + ": the size of the window must be the same size of the input on the specified axis");
  }
  welch_options w;
  w.fs = o.fs;
  w.window = o.window;
  w.nperseg = nperseg;
  w.noverlap = 0;
  w.nfft = nfft;
  w.detrend = o.detrend;
  w.return_onesided = o.return_onesided;
  w.scaling = o.scaling;
  w.axis = o.axis;
  auto r = csd_impl(fn, x, nullptr, w, detail::avg_kind::power, n_crop);
  return {std::move(r.f), std::move(r.P)};
}

coherence_result coherence(const ndarray& x, const ndarray& y, const coherence_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::coherence");
  const std::string fn = "cusci::signal::coherence";
  welch_options w;
  w.fs = o.fs;
  w.window = o.window;
  w.nperseg = o.nperseg;
  w.noverlap = o.noverlap;
  w.nfft = o.nfft;
  w.detrend = o.detrend;
  w.axis = o.axis;
  if (x.shape() == y.shape() && x.size() > 0) {
    // One pass: the three averages from the two spectra.
    auto r = csd_impl(fn, x, &y, w, detail::avg_kind::coherence);
    return {std::move(r.f), std::move(r.P)};
  }
  auto px = csd_impl(fn, x, nullptr, w, detail::avg_kind::power);
  auto py = csd_impl(fn, y, nullptr, w, detail::avg_kind::power);
  auto pxy = csd_impl(fn, x, &y, w, detail::avg_kind::cross);
  ndarray a = cusci::abs(pxy.P);
  ndarray c = cusci::divide(cusci::divide(cusci::multiply(a, a), px.P), py.P);
  return {std::move(px.f), c};
}

namespace {

struct helper_out {
  host_array f, t;
  ndarray X;  // (batch, nseg, nfreq) complex
  lines l;
  seg_plan p;
};

helper_out helper_impl(const std::string& fn, const ndarray& x, const spectral_window& window,
                       std::optional<std::int64_t> nperseg, std::optional<std::int64_t> noverlap, int noverlap_div,
                       std::optional<std::int64_t> nfft, spectral_detrend detrend, bool return_onesided,
                       spectral_scaling scaling, double fs, int axis, stft_boundary boundary, bool padded,
                       bool sqrt_scale_in_window) {
  helper_out h;
  const dtype wt = work_dtype(x.dtype());
  // Every check (SciPy's) before any device work.
  const int ax = cusci::detail::normalize_axis(axis, x.ndim(), fn);
  h.p = detail::helper_plan(fn, x.shape()[ax], window, nperseg, noverlap, noverlap_div, nfft, is_complex(x.dtype()),
                            return_onesided, scaling, fs, boundary, padded);
  h.l = to_lines(x, axis, wt, fn);
  // stft / the non-psd spectrogram modes scale by sqrt(scale), folded into the window (complex for a
  // complex window: SciPy's scale is then complex).
  std::complex<double> mul = 1.0;
  if (sqrt_scale_in_window)
    mul = h.p.win_complex ? std::sqrt(detail::window_scale_complex(h.p.win, scaling, fs))
                          : std::complex<double>(std::sqrt(h.p.scale), 0.0);
  detail::frame_spec spec = frame_spec_of(h.p, detrend, boundary);
  if (h.p.win_complex && h.p.onesided) {
    // SciPy takes the real part of the windowed (real) segments before its rfft: the real part of the
    // window. A complex scale factor then multiplies the half spectrum: transform the complex window
    // Re(w) * mul two-sided and keep the first nfreq bins.
    host_array re(dtype::float64, h.p.win.shape());
    for (std::int64_t i = 0; i < re.size(); ++i)
      re.data_as<double>()[i] = h.p.win.data_as<std::complex<double>>()[i].real();
    if (mul == std::complex<double>(1.0, 0.0)) {
      h.X = detail::stft_frames(h.l.a, device_window(re, dbl_of(wt)), spec);
    } else {
      host_array rc = re.astype(dtype::complex128);
      spec.onesided = false;
      ndarray full = detail::stft_frames(h.l.a, device_window(rc, dbl_of(wt), mul), spec);
      h.X = cusci::ascontiguousarray(full[{slice{}, slice{}, slice{0, h.p.nfreq}}]);
    }
  } else {
    h.X = detail::stft_frames(h.l.a, device_window(h.p.win, dbl_of(wt), mul), spec);
  }
  h.f = detail::plan_freqs(h.p, fs);
  h.t = detail::helper_times(h.p, fs, boundary != stft_boundary::none);
  return h;
}

}  // namespace

spectrogram_result spectrogram(const ndarray& x, const spectrogram_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::spectrogram");
  const std::string fn = "cusci::signal::spectrogram";
  if (x.size() == 0) {
    cusci::detail::normalize_axis(o.axis, x.ndim(), fn);
    return {host_array(dtype::float64, x.shape()), host_array(dtype::float64, x.shape()), empty(x.shape(), dtype::float64)};
  }
  const bool psd = o.mode == spectrogram_mode::psd;
  helper_out h = helper_impl(fn, x, o.window, o.nperseg, o.noverlap, 8, o.nfft, o.detrend, o.return_onesided,
                             o.scaling, o.fs, o.axis, stft_boundary::none, false, !psd);
  ndarray r;
  if (o.mode == spectrogram_mode::complex) r = h.X;
  else r = detail::spectrogram_mode_apply(h.X, o.mode, h.p.scale, h.p.onesided && psd, h.p.nfft % 2 == 0);
  return {std::move(h.f), std::move(h.t), place_freq_time(r, h.l.outer, h.l.axis)};
}

stft_result stft(const ndarray& x, const stft_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::stft");
  const std::string fn = "cusci::signal::stft";
  if (x.size() == 0) {
    cusci::detail::normalize_axis(o.axis, x.ndim(), fn);
    return {host_array(dtype::float64, x.shape()), host_array(dtype::float64, x.shape()), empty(x.shape(), dtype::float64)};
  }
  helper_out h = helper_impl(fn, x, o.window, o.nperseg, o.noverlap, 2, o.nfft, o.detrend, o.return_onesided,
                             o.scaling, o.fs, o.axis, o.boundary, o.padded, true);
  return {std::move(h.f), std::move(h.t), place_freq_time(h.X, h.l.outer, h.l.axis)};
}

istft_result istft(const ndarray& Zxx_in, const istft_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::istft");
  const std::string fn = "cusci::signal::istft";
  CUSCI_EXPECTS(Zxx_in.ndim() >= 2, value_error, fn + ": Input stft must be at least 2d!");
  CUSCI_EXPECTS(o.freq_axis != o.time_axis, value_error, fn + ": Must specify differing time and frequency axes!");
  const int nd = Zxx_in.ndim();
  const int fa = cusci::detail::normalize_axis(o.freq_axis, nd, fn);
  const int ta = cusci::detail::normalize_axis(o.time_axis, nd, fn);
  CUSCI_EXPECTS(fa != ta, value_error, fn + ": Must specify differing time and frequency axes!");
  const std::int64_t nseg = Zxx_in.shape()[ta], nfreq = Zxx_in.shape()[fa];
  detail::istft_plan p = detail::make_istft_plan(nfreq, nseg, o);
  // Complex work dtype: complex64 for float32/complex64 (SciPy's Zxx + 0j), complex128 otherwise.
  const dtype zt = work_dtype(Zxx_in.dtype());
  const dtype ct = (zt == dtype::float32 || zt == dtype::complex64) ? dtype::complex64 : dtype::complex128;
  const bool dbl = ct == dtype::complex128;
  // (outer..., nseg, nfreq) contiguous.
  ndarray Z = cusci::moveaxis(Zxx_in, {ta, fa}, {nd - 2, nd - 1});
  if (Z.dtype() != ct) Z = Z.astype(ct);
  Z = cusci::ascontiguousarray(Z);
  shape_t outer(Z.shape().begin(), Z.shape().end() - 2);
  std::int64_t batch = 1;
  for (auto d : outer) batch *= d;
  Z = Z.reshape({batch, nseg, nfreq});
  ndarray xs;
  if (batch > 0 && nseg > 0 && nfreq > 0) {
    cusci::fft::fft_options fo;
    fo.n = p.nfft;
    fo.axis = -1;
    xs = o.input_onesided ? cusci::fft::irfft(Z, fo) : cusci::fft::ifft(Z, fo);
  } else {
    xs = empty({batch, nseg, p.nfft}, o.input_onesided ? real_dt(dbl) : ct);
  }
  const ndarray w = device_window(p.win, dbl);
  ndarray y = detail::istft_ola(xs, w, p.xscale, p.hop, p.crop, p.n_out);
  if (!p.nola_ok)
    warn("UserWarning", fn,
         std::string("NOLA condition failed, STFT may not be invertible.") +
             (o.boundary ? "" : " Possibly due to missing boundary"));
  shape_t s = outer;
  s.push_back(p.n_out);
  ndarray x = y.reshape(s);
  if (x.ndim() > 1 && ta != nd - 1) {
    int t = ta;
    if (fa < t) t -= 1;
    x = cusci::moveaxis(x, -1, t);
  }
  const std::int64_t nt = x.ndim() >= 1 ? x.shape()[0] : 0;
  host_array t(dtype::float64, {nt});
  for (std::int64_t i = 0; i < nt; ++i) t.data_as<double>()[i] = double(i) / o.fs;
  return {std::move(t), x};
}

}  // namespace cusci::signal

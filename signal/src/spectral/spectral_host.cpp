// Host side of the spectral family: SciPy's parameter resolution (window, nperseg, noverlap, nfft, sides,
// boundary, padding), scales, frequencies, times, the median bias, istft's plan and NOLA check, and the
// host functions check_COLA / check_NOLA. No device work here, except reading a device window back.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/warnings.hpp"
#include "spectral/spectral_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
}  // namespace

spectral_detrend parse_spectral_detrend(std::string_view s) {
  const std::string l = lower(s);
  if (l == "constant") return spectral_detrend::constant;
  if (l == "linear") return spectral_detrend::linear;
  if (l == "none" || l == "false") return spectral_detrend::none;
  throw value_error("cusci::signal::parse_spectral_detrend: Trend type must be 'linear' or 'constant', got '" +
                    std::string(s) + "'");
}

spectral_scaling parse_spectral_scaling(std::string_view s) {
  if (s == "density" || s == "psd") return spectral_scaling::density;
  if (s == "spectrum") return spectral_scaling::spectrum;
  throw value_error("cusci::signal::parse_spectral_scaling: scaling must be 'density', 'spectrum' or 'psd', got '" +
                    std::string(s) + "'");
}

spectral_average parse_spectral_average(std::string_view s) {
  if (s == "mean") return spectral_average::mean;
  if (s == "median") return spectral_average::median;
  throw value_error("cusci::signal::parse_spectral_average: average must be 'median' or 'mean', got '" +
                    std::string(s) + "'");
}

spectrogram_mode parse_spectrogram_mode(std::string_view s) {
  if (s == "psd") return spectrogram_mode::psd;
  if (s == "complex") return spectrogram_mode::complex;
  if (s == "magnitude") return spectrogram_mode::magnitude;
  if (s == "angle") return spectrogram_mode::angle;
  if (s == "phase") return spectrogram_mode::phase;
  throw value_error("cusci::signal::parse_spectrogram_mode: unknown value for mode " + std::string(s) +
                    ", must be one of ['psd', 'complex', 'magnitude', 'angle', 'phase']");
}

stft_boundary parse_stft_boundary(std::string_view s) {
  if (s == "even") return stft_boundary::even;
  if (s == "odd") return stft_boundary::odd;
  if (s == "constant") return stft_boundary::constant;
  if (s == "zeros") return stft_boundary::zeros;
  if (s == "none" || s == "None") return stft_boundary::none;
  throw value_error("cusci::signal::parse_stft_boundary: Unknown boundary option '" + std::string(s) +
                    "', must be one of: ['even', 'odd', 'constant', 'zeros', None]");
}

}  // namespace cusci::signal

namespace cusci::signal::detail {

namespace {

host_array as_window_dtype(const host_array& h, const std::string& fn) {
  const dtype t = h.dtype();
  if (is_complex(t)) return t == dtype::complex128 ? h : h.astype(dtype::complex128);
  (void)fn;
  return t == dtype::float64 ? h : h.astype(dtype::float64);
}

std::complex<double> at(const host_array& w, std::int64_t i) {
  if (w.dtype() == dtype::complex128) return w.data_as<std::complex<double>>()[i];
  return {w.data_as<double>()[i], 0.0};
}

}  // namespace

std::int64_t window_array_length(const spectral_window& w, const std::string& fn, bool check_1d) {
  const shape_t& s = w.host ? w.host->shape() : w.device->shape();
  if (check_1d) CUSCI_EXPECTS(s.size() == 1, value_error, fn + ": window must be 1-D");
  else CUSCI_EXPECTS(s.size() == 1, value_error, fn + ": window must be a 1-D array, got " + std::to_string(s.size()) + "-D");
  return s[0];
}

host_array window_host_values(const spectral_window& w, std::int64_t nperseg) {
  if (w.spec) return get_window(*w.spec, nperseg);
  if (w.host) return as_window_dtype(*w.host, "window");
  return as_window_dtype(w.device->get(), "window");
}

double window_scale(const host_array& win, spectral_scaling scaling, double fs, bool sft) {
  const std::int64_t n = win.shape()[0];
  std::complex<double> s1 = 0, s2 = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto v = at(win, i);
    s1 += v;
    s2 += sft ? std::complex<double>(std::norm(v), 0.0) : v * v;
  }
  if (sft) return scaling == spectral_scaling::density ? 1.0 / (fs * s2.real()) : 1.0 / std::norm(s1);
  return window_scale_complex(win, scaling, fs).real();
}

std::complex<double> window_scale_complex(const host_array& win, spectral_scaling scaling, double fs) {
  const std::int64_t n = win.shape()[0];
  std::complex<double> s1 = 0, s2 = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto v = at(win, i);
    s1 += v;
    s2 += v * v;
  }
  if (scaling == spectral_scaling::density) return 1.0 / (fs * s2);
  return 1.0 / (s1 * s1);
}

seg_plan csd_plan(const std::string& fn, std::int64_t n, const spectral_window& window,
                  std::optional<std::int64_t> nperseg_o, std::optional<std::int64_t> noverlap_o,
                  std::optional<std::int64_t> nfft_o, bool x_complex, bool y_complex, bool return_onesided,
                  spectral_scaling scaling, double fs) {
  seg_plan p;
  std::int64_t nperseg;
  if (window_is_named(window)) {
    nperseg = nperseg_o.value_or(256);
    CUSCI_EXPECTS(nperseg >= 1, value_error,
                  fn + ": Parameter nperseg=" + std::to_string(nperseg) + " is not a positive integer!");
    if (n < nperseg) {
      warn("UserWarning", fn,
           "nperseg=" + std::to_string(nperseg) + " is greater than signal length max(len(x), len(y)) = " +
               std::to_string(n) + ", using nperseg = " + std::to_string(n));
      nperseg = n;
    }
    p.win = get_window(*window.spec, nperseg);
  } else {
    const std::int64_t len = window_array_length(window, fn, false);
    nperseg = nperseg_o.value_or(len);
    CUSCI_EXPECTS(nperseg == len, value_error,
                  fn + ": nperseg=" + std::to_string(nperseg) + " does not equal len(win)=" + std::to_string(len));
    p.win = window_host_values(window, nperseg);
  }
  p.win_complex = p.win.dtype() == dtype::complex128;
  const std::int64_t nfft = nfft_o.value_or(nperseg);
  CUSCI_EXPECTS(nfft >= nperseg, value_error,
                fn + ": nfft=" + std::to_string(nfft) + " must be greater than or equal to nperseg=" +
                    std::to_string(nperseg) + "!");
  const std::int64_t noverlap = noverlap_o.value_or(nperseg / 2);
  CUSCI_EXPECTS(noverlap < nperseg, value_error,
                fn + ": noverlap=" + std::to_string(noverlap) + " must be less than nperseg=" +
                    std::to_string(nperseg) + "!");
  bool onesided = return_onesided && !x_complex;
  if (onesided && (y_complex || p.win_complex))
    throw value_error(fn + ": Complex-valued `x` not allowed for self.fft_mode='onesided''! Set property "
                      "`fft_mode` to 'twosided' or 'centered'.");
  p.nperseg = nperseg;
  p.noverlap = noverlap;
  p.nfft = nfft;
  p.hop = nperseg - noverlap;
  // ShortTimeFFT's p1 = (n - noverlap) // hop segments, starting at s * hop.
  const std::int64_t d = n - noverlap;
  p.nseg = d >= 0 ? d / p.hop : -((-d + p.hop - 1) / p.hop);
  CUSCI_EXPECTS(p.nseg >= 1, value_error,
                fn + ": Invalid Parameter p0=0, p1=" + std::to_string(p.nseg) +
                    ": the window (nperseg=" + std::to_string(nperseg) + ") does not fit into the signal length n=" +
                    std::to_string(n) + "!");
  p.onesided = onesided;
  p.nfreq = onesided ? nfft / 2 + 1 : nfft;
  p.scale = window_scale(p.win, scaling, fs, true);
  p.first = 0;
  p.zero_before = std::numeric_limits<std::int64_t>::min();
  p.zero_after = std::numeric_limits<std::int64_t>::max();
  return p;
}

seg_plan helper_plan(const std::string& fn, std::int64_t n, const spectral_window& window,
                     std::optional<std::int64_t> nperseg_o, std::optional<std::int64_t> noverlap_o, int noverlap_div,
                     std::optional<std::int64_t> nfft_o, bool x_complex, bool return_onesided,
                     spectral_scaling scaling, double fs, stft_boundary boundary, bool padded) {
  seg_plan p;
  if (nperseg_o) CUSCI_EXPECTS(*nperseg_o >= 1, value_error, fn + ": nperseg must be a positive integer");
  std::int64_t nperseg;
  // _triage_segments
  if (window_is_named(window)) {
    nperseg = nperseg_o.value_or(256);
    if (nperseg > n) {
      warn("UserWarning", fn,
           "nperseg = " + std::to_string(nperseg) + " is greater than input length  = " + std::to_string(n) +
               ", using nperseg = " + std::to_string(n));
      nperseg = n;
    }
    p.win = get_window(*window.spec, nperseg);
  } else {
    const std::int64_t len = window_array_length(window, fn, true);
    CUSCI_EXPECTS(n >= len, value_error, fn + ": window is longer than input signal");
    if (nperseg_o)
      CUSCI_EXPECTS(*nperseg_o == len, value_error, fn + ": value specified for nperseg is different from length of window");
    nperseg = len;
    p.win = window_host_values(window, nperseg);
  }
  p.win_complex = p.win.dtype() == dtype::complex128;
  const std::int64_t nfft = nfft_o.value_or(nperseg);
  CUSCI_EXPECTS(nfft >= nperseg, value_error, fn + ": nfft must be greater than or equal to nperseg.");
  const std::int64_t noverlap = noverlap_o.value_or(nperseg / noverlap_div);
  CUSCI_EXPECTS(noverlap < nperseg, value_error, fn + ": noverlap must be less than nperseg.");
  p.nperseg = nperseg;
  p.noverlap = noverlap;
  p.nfft = nfft;
  p.hop = nperseg - noverlap;
  // Boundary extension by nperseg//2 at both ends, then zeros to whole segments.
  const std::int64_t ext = boundary == stft_boundary::none ? 0 : nperseg / 2;
  if (boundary == stft_boundary::even || boundary == stft_boundary::odd)
    CUSCI_EXPECTS(ext < 1 || ext <= n - 1, value_error,
                  fn + ": The extension length n (" + std::to_string(ext) +
                      ") is too big. It must not exceed x.shape[axis]-1, which is " + std::to_string(n - 1) + ".");
  std::int64_t n_ext = n + 2 * ext;
  const std::int64_t valid_end = n + ext;  // x coordinates: samples >= valid_end are padding zeros
  if (padded) {
    // nadd = (-(n_ext - nperseg) % hop) % nperseg, Python's modulo.
    auto pymod = [](std::int64_t a, std::int64_t m) { std::int64_t r = a % m; return r < 0 ? r + m : r; };
    const std::int64_t nadd = pymod(pymod(-(n_ext - nperseg), p.hop), nperseg);
    n_ext += nadd;
  }
  // numpy's as_strided segment count: (n_ext - noverlap) // hop.
  const std::int64_t d = n_ext - noverlap;
  p.nseg = d >= 0 ? d / p.hop : 0;
  p.onesided = return_onesided;
  if (return_onesided && x_complex) {
    warn("UserWarning", fn, "Input data is complex, switching to return_onesided=False");
    p.onesided = false;
  }
  p.nfreq = p.onesided ? nfft / 2 + 1 : nfft;
  p.scale = window_scale(p.win, scaling, fs, false);
  p.first = -ext;
  p.zero_before = (boundary == stft_boundary::zeros) ? 0 : -ext;
  p.zero_after = (boundary == stft_boundary::zeros) ? n : valid_end;
  return p;
}

host_array helper_times(const seg_plan& p, double fs, bool boundary) {
  host_array t(dtype::float64, {p.nseg});
  double* o = t.data_as<double>();
  const double start = double(p.nperseg) / 2.0;
  for (std::int64_t i = 0; i < p.nseg; ++i) {
    double v = (start + double(i) * double(p.hop)) / fs;
    if (boundary) v -= (double(p.nperseg) / 2.0) / fs;
    o[i] = v;
  }
  return t;
}

host_array plan_freqs(const seg_plan& p, double fs) {
  return p.onesided ? cusci::fft::rfftfreq_host(p.nfft, 1.0 / fs) : cusci::fft::fftfreq_host(p.nfft, 1.0 / fs);
}

double median_bias(std::int64_t n) {
  double s = 0.0;
  std::vector<double> terms;
  for (std::int64_t i = 1; i <= (n - 1) / 2; ++i) {
    const double ii2 = 2.0 * double(i);
    terms.push_back(1.0 / (ii2 + 1.0) - 1.0 / ii2);
  }
  // numpy's pairwise sum is exact enough here; a plain sum differs by a few ulps at most.
  for (double v : terms) s += v;
  return 1.0 + s;
}

std::vector<double> window_binsums(const host_array& win, std::int64_t nperseg, std::int64_t noverlap, bool squared) {
  const std::int64_t step = nperseg - noverlap;
  std::vector<double> b(static_cast<std::size_t>(step), 0.0);
  const double* w = win.data_as<double>();
  auto f = [&](std::int64_t i) { return squared ? w[i] * w[i] : w[i]; };
  for (std::int64_t ii = 0; ii < nperseg / step; ++ii)
    for (std::int64_t j = 0; j < step; ++j) b[j] += f(ii * step + j);
  if (nperseg % step != 0) {
    const std::int64_t r = nperseg % step;
    for (std::int64_t j = 0; j < r; ++j) b[j] += f(nperseg - r + j);
  }
  return b;
}

istft_plan make_istft_plan(std::int64_t nfreq, std::int64_t nseg, const istft_options& o) {
  const std::string fn = "cusci::signal::istft";
  istft_plan p;
  const std::int64_t n_default = o.input_onesided ? 2 * (nfreq - 1) : nfreq;
  std::int64_t nperseg = n_default;
  if (o.nperseg) {
    nperseg = *o.nperseg;
    CUSCI_EXPECTS(nperseg >= 1, value_error, fn + ": nperseg must be a positive integer");
  }
  CUSCI_EXPECTS(nperseg >= 1, value_error, fn + ": nperseg must be a positive integer");
  std::int64_t nfft;
  if (!o.nfft) nfft = (o.input_onesided && nperseg == n_default + 1) ? nperseg : n_default;
  else {
    nfft = *o.nfft;
    CUSCI_EXPECTS(nfft >= nperseg, value_error, fn + ": nfft must be greater than or equal to nperseg.");
  }
  CUSCI_EXPECTS(nfft >= 1, value_error, fn + ": nfft must be a positive integer");
  const std::int64_t noverlap = o.noverlap.value_or(nperseg / 2);
  CUSCI_EXPECTS(noverlap < nperseg, value_error, fn + ": noverlap must be less than nperseg.");
  if (o.window.spec) p.win = get_window(*o.window.spec, nperseg);
  else {
    const std::int64_t len = window_array_length(o.window, fn, true);
    CUSCI_EXPECTS(len == nperseg, value_error, fn + ": window must have length of " + std::to_string(nperseg));
    p.win = window_host_values(o.window, nperseg);
  }
  CUSCI_EXPECTS(p.win.dtype() != dtype::complex128, value_error, fn + ": complex windows are not supported");
  CUSCI_EXPECTS(nperseg <= nfft, value_error, fn + ": nfft must be greater than or equal to nperseg.");
  p.nperseg = nperseg;
  p.noverlap = noverlap;
  p.nfft = nfft;
  p.hop = nperseg - noverlap;
  p.nseg = nseg;
  p.nfreq = nfreq;
  // SciPy's outputlength = nperseg + (nseg - 1) * nstep (noverlap samples for nseg = 0).
  p.out_len = nperseg + (nseg - 1) * p.hop;
  CUSCI_EXPECTS(p.out_len >= 0, value_error, fn + ": negative dimensions are not allowed");
  const double* w = p.win.data_as<double>();
  double s1 = 0, s2 = 0;
  for (std::int64_t i = 0; i < nperseg; ++i) {
    s1 += w[i];
    s2 += w[i] * w[i];
  }
  p.xscale = o.scaling == spectral_scaling::spectrum ? s1 : std::sqrt(o.fs * s2);
  // boundary: x[..., h:-h] with h = nperseg // 2 (h == 0 keeps nothing, as Python's [0:-0]).
  if (o.boundary) {
    const std::int64_t h = nperseg / 2;
    p.crop = h;
    p.n_out = h == 0 ? 0 : std::max<std::int64_t>(0, p.out_len - 2 * h);
  } else {
    p.crop = 0;
    p.n_out = p.out_len;
  }
  // NOLA over the kept samples: the window sum at i is periodic (period hop) where every covering segment
  // exists (i in [nperseg - 1, nseg * hop)); elsewhere it is computed directly.
  auto norm_at = [&](std::int64_t i) {
    std::int64_t s_hi = i / p.hop, s_lo = (i - nperseg) >= 0 ? (i - nperseg) / p.hop + 1 : 0;
    if (i - nperseg < 0) s_lo = 0;
    if (s_hi > nseg - 1) s_hi = nseg - 1;
    double v = 0;
    for (std::int64_t s = s_lo; s <= s_hi; ++s) {
      const std::int64_t j = i - s * p.hop;
      if (j >= 0 && j < nperseg) v += w[j] * w[j];
    }
    return v;
  };
  const std::int64_t lo = p.crop, hi = p.crop + p.n_out;
  const std::int64_t full_lo = nperseg - 1, full_hi = nseg * p.hop;
  bool ok = true;
  for (std::int64_t i = lo; i < hi && ok;) {
    if (i >= full_lo && i < full_hi) {  // periodic interior: one period is enough
      const std::int64_t e = std::min(std::min(hi, full_hi), i + p.hop);
      for (std::int64_t k = i; k < e && ok; ++k)
        if (!(norm_at(k) > 1e-10)) ok = false;
      i = std::min(hi, full_hi);
      continue;
    }
    if (!(norm_at(i) > 1e-10)) ok = false;
    ++i;
  }
  p.nola_ok = ok;
  return p;
}

}  // namespace cusci::signal::detail

namespace cusci::signal {

namespace {
host_array cola_window(const std::string& fn, const spectral_window& window, std::int64_t nperseg) {
  if (window.spec) return get_window(*window.spec, nperseg);
  const std::int64_t len = detail::window_array_length(window, fn, true);
  CUSCI_EXPECTS(len == nperseg, value_error, fn + ": window must have length of nperseg");
  host_array w = detail::window_host_values(window, nperseg);
  CUSCI_EXPECTS(w.dtype() == dtype::float64, value_error, fn + ": window must be real");
  return w;
}
}  // namespace

bool check_COLA(const spectral_window& window, std::int64_t nperseg, std::int64_t noverlap, double tol) {
  CUSCI_NVTX_SCOPE("cusci::signal::check_COLA");
  const std::string fn = "cusci::signal::check_COLA";
  CUSCI_EXPECTS(nperseg >= 1, value_error, fn + ": nperseg must be a positive integer");
  CUSCI_EXPECTS(noverlap < nperseg, value_error, fn + ": noverlap must be less than nperseg.");
  const host_array w = cola_window(fn, window, nperseg);
  std::vector<double> b = detail::window_binsums(w, nperseg, noverlap, false);
  std::vector<double> sorted = b;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t m = sorted.size();
  const double med = (m % 2) ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
  double dev = 0.0;
  for (double v : b) dev = std::max(dev, std::abs(v - med));
  return dev < tol;
}

bool check_NOLA(const spectral_window& window, std::int64_t nperseg, std::int64_t noverlap, double tol) {
  CUSCI_NVTX_SCOPE("cusci::signal::check_NOLA");
  const std::string fn = "cusci::signal::check_NOLA";
  CUSCI_EXPECTS(nperseg >= 1, value_error, fn + ": nperseg must be a positive integer");
  CUSCI_EXPECTS(noverlap < nperseg, value_error, fn + ": noverlap must be less than nperseg");
  CUSCI_EXPECTS(noverlap >= 0, value_error, fn + ": noverlap must be a nonnegative integer");
  const host_array w = cola_window(fn, window, nperseg);
  std::vector<double> b = detail::window_binsums(w, nperseg, noverlap, true);
  return *std::min_element(b.begin(), b.end()) > tol;
}

}  // namespace cusci::signal

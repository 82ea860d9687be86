// ShortTimeFFT's host side: the parsers, construction and factories, the dual windows
// (closest_STFT_dual_window) and every property (the slice geometry of SciPy's _pre_padding /
// _post_padding / lower_border_end / upper_border_begin, reproduced with Python's slicing and floor
// division so that shapes match SciPy's exactly). No device work here: the transforms are in
// sft_transform.cpp.
#include <cmath>
#include <cstdio>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/signal/short_time_fft.hpp"
#include "cusci/signal/windows.hpp"
#include "short_time_fft/sft_host.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

constexpr const char* kCls = "cusci::signal::ShortTimeFFT";
using cd = std::complex<double>;

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  std::string s(b);
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";
  return s;
}


/// A window as float64 or complex128 (bool/integer/float16/float32 become float64, complex64 complex128).
host_array as_double(const host_array& w) {
  if (w.dtype() == dtype::float64 || w.dtype() == dtype::complex128) return w;
  return w.astype(is_complex(w.dtype()) ? dtype::complex128 : dtype::float64);
}

bool all_finite(const host_array& w) {
  for (const cd& v : detail::sft_values(w))
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return false;
  return true;
}

host_array from_values(const std::vector<cd>& v, bool cplx) {
  const auto n = static_cast<std::int64_t>(v.size());
  host_array h(cplx ? dtype::complex128 : dtype::float64, {n});
  if (cplx) {
    cd* p = h.data_as<cd>();
    for (std::int64_t i = 0; i < n; ++i) p[i] = v[static_cast<std::size_t>(i)];
  } else {
    double* p = h.data_as<double>();
    for (std::int64_t i = 0; i < n; ++i) p[i] = v[static_cast<std::size_t>(i)].real();
  }
  return h;
}

using detail::fdiv;
using detail::fmod_py;
using detail::mode_name;

}  // namespace

namespace detail {

std::vector<cd> sft_values(const host_array& w) {
  const host_array d = as_double(w);
  const auto n = d.size();
  std::vector<cd> out(static_cast<std::size_t>(n));
  if (d.dtype() == dtype::complex128) {
    const cd* p = d.data_as<cd>();
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = p[i];
  } else {
    const double* p = d.data_as<double>();
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = cd(p[i], 0.0);
  }
  return out;
}

host_array sft_dual_canonical(const host_array& win, std::int64_t hop, bool win_integer, const char* fn) {
  const std::int64_t m = win.size();
  if (hop > m)
    throw value_error(std::string(fn) + ": hop=" + std::to_string(hop) + " is larger than window length of " +
                      std::to_string(m) + " => STFT not invertible!");
  if (win_integer)
    throw value_error(std::string(fn) + ": Parameter 'win' cannot be of integer type => STFT not invertible!");
  const std::vector<cd> w = sft_values(win);
  std::vector<double> w2(static_cast<std::size_t>(m)), DD;
  for (std::int64_t i = 0; i < m; ++i) {
    const cd v = w[static_cast<std::size_t>(i)];
    w2[static_cast<std::size_t>(i)] = v.real() * v.real() + v.imag() * v.imag();
  }
  DD = w2;
  // SciPy's order of the additions: per shift k, first DD[k:] += w2[:-k], then DD[:-k] += w2[k:].
  for (std::int64_t k = hop; k < m; k += hop) {
    for (std::int64_t i = k; i < m; ++i) DD[static_cast<std::size_t>(i)] += w2[static_cast<std::size_t>(i - k)];
    for (std::int64_t i = 0; i < m - k; ++i) DD[static_cast<std::size_t>(i)] += w2[static_cast<std::size_t>(i + k)];
  }
  double mx = -std::numeric_limits<double>::infinity();
  for (double v : DD) mx = v > mx ? v : mx;
  const double rr = 1e-15 * mx;  // np.finfo(float64).resolution * max(DD)
  for (double v : DD)
    if (!(v >= rr)) throw value_error(std::string(fn) + ": Short-time Fourier Transform not invertible!");
  std::vector<cd> out(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    const cd v = w[static_cast<std::size_t>(i)];
    const double d = DD[static_cast<std::size_t>(i)];
    out[static_cast<std::size_t>(i)] = cd(v.real() / d, v.imag() / d);
  }
  return from_values(out, win.dtype() == dtype::complex128);
}

}  // namespace detail

// ------------------------------------------------------------------------------------ parsers

sft_fft_mode parse_sft_fft_mode(std::string_view s) {
  if (s == "twosided") return sft_fft_mode::twosided;
  if (s == "centered") return sft_fft_mode::centered;
  if (s == "onesided") return sft_fft_mode::onesided;
  if (s == "onesided2X") return sft_fft_mode::onesided2X;
  throw value_error(std::string(kCls) + ": fft_mode='" + std::string(s) +
                    "' not in ('twosided', 'centered', 'onesided', 'onesided2X')!");
}

sft_scaling parse_sft_scaling(std::string_view s) {
  if (s == "magnitude") return sft_scaling::magnitude;
  if (s == "psd") return sft_scaling::psd;
  if (s == "unitary") return sft_scaling::unitary;
  if (s == "None" || s.empty()) return sft_scaling::none;
  throw value_error(std::string(kCls) + ": scale_to='" + std::string(s) +
                    "' not in ['magnitude', 'psd', 'unitary', None]!");
}

sft_padding parse_sft_padding(std::string_view s) {
  if (s == "zeros") return sft_padding::zeros;
  if (s == "edge") return sft_padding::edge;
  if (s == "even") return sft_padding::even;
  if (s == "odd") return sft_padding::odd;
  throw value_error(std::string(kCls) + ": Parameter padding='" + std::string(s) +
                    "' not in ('zeros', 'edge', 'even', 'odd')!");
}

sft_detrend parse_sft_detrend(std::string_view s) {
  if (s == "constant" || s == "c") return sft_detrend::constant;
  if (s == "linear" || s == "l") return sft_detrend::linear;
  if (s == "None" || s.empty()) return sft_detrend::none;
  throw value_error(std::string(kCls) + ": Parameter detr='" + std::string(s) + "' is not a str, function or None!");
}

sft_axes_seq parse_sft_axes_seq(std::string_view s) {
  if (s == "tf") return sft_axes_seq::tf;
  if (s == "ft") return sft_axes_seq::ft;
  throw value_error(std::string(kCls) + ".extent: Parameter axes_seq='" + std::string(s) + "' not in ['tf', 'ft']!");
}

// ------------------------------------------------------------------------------------ dual window

std::pair<host_array, std::complex<double>> closest_STFT_dual_window(const array_like& win_arg, std::int64_t hop,
                                                                     const std::optional<host_array>& desired_dual,
                                                                     const closest_STFT_dual_window_options& opts) {
  const host_array win = win_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::closest_STFT_dual_window");
  const char* fn = "cusci::signal::closest_STFT_dual_window";
  const std::int64_t m = win.size();
  const shape_t dshape = desired_dual ? desired_dual->shape() : win.shape();
  if (!(win.ndim() == 1 && win.shape() == dshape))
    throw value_error(std::string(fn) + ": Parameters `win` and `desired_dual` are not 1d arrays of equal length (win.shape=" +
                      cusci::detail::shape_str(win.shape()) + ", desired_dual.shape=" +
                      cusci::detail::shape_str(dshape) + ")!");
  if (!all_finite(win)) throw value_error(std::string(fn) + ": Parameter win must have finite entries!");
  if (desired_dual && !all_finite(*desired_dual))
    throw value_error(std::string(fn) + ": Parameter desired_dual must have finite entries!");
  if (!(1 <= hop && hop <= m))
    throw value_error(std::string(fn) + ": Parameter hop=" + std::to_string(hop) +
                      " is not an integer between 1 and len(win)=" + std::to_string(m) + "!");
  const host_array wd_h = detail::sft_dual_canonical(as_double(win), hop, is_integer(win.dtype()), fn);
  const std::vector<cd> w = detail::sft_values(win), wd = detail::sft_values(wd_h);
  std::vector<cd> dd = desired_dual ? detail::sft_values(*desired_dual) : std::vector<cd>(static_cast<std::size_t>(m), cd(1.0, 0.0));
  const bool cplx = is_complex(win.dtype()) || (desired_dual && is_complex(desired_dual->dtype()));
  // wdd = conj(win) * desired_dual, q_d = sum over the shifts of wdd (SciPy's order), q_d *= w_d.
  std::vector<cd> wdd(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) wdd[static_cast<std::size_t>(i)] = std::conj(w[static_cast<std::size_t>(i)]) * dd[static_cast<std::size_t>(i)];
  std::vector<cd> q = wdd;
  for (std::int64_t k = hop; k < m; k += hop) {
    for (std::int64_t i = k; i < m; ++i) q[static_cast<std::size_t>(i)] += wdd[static_cast<std::size_t>(i - k)];
    for (std::int64_t i = 0; i < m - k; ++i) q[static_cast<std::size_t>(i)] += wdd[static_cast<std::size_t>(i + k)];
  }
  for (std::int64_t i = 0; i < m; ++i) q[static_cast<std::size_t>(i)] = wd[static_cast<std::size_t>(i)] * q[static_cast<std::size_t>(i)];
  std::vector<cd> out(static_cast<std::size_t>(m));
  if (!opts.scaled) {
    for (std::int64_t i = 0; i < m; ++i) {
      const auto u = static_cast<std::size_t>(i);
      out[u] = wd[u] + dd[u] - q[u];
    }
    return {from_values(out, cplx), cd(1.0, 0.0)};
  }
  cd numer(0.0, 0.0);
  double denom = 0.0;
  for (std::int64_t i = 0; i < m; ++i) {
    const auto u = static_cast<std::size_t>(i);
    numer += std::conj(q[u]) * wd[u];
    denom += q[u].real() * q[u].real() + q[u].imag() * q[u].imag();
  }
  if (!(std::abs(numer) > 0 && denom > 1e-15))
    throw value_error(std::string(fn) +
                      ": Unable to calculate scaled closest dual window due to numerically unstable scaling factor! "
                      "Try setting parameter `scaled` to False.");
  cd alpha = numer / denom;
  if (!cplx) alpha = cd(alpha.real(), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    const auto u = static_cast<std::size_t>(i);
    out[u] = wd[u] + alpha * (dd[u] - q[u]);
  }
  return {from_values(out, cplx), alpha};
}

// ------------------------------------------------------------------------------------ construction

ShortTimeFFT::ShortTimeFFT(const array_like& win_arg, std::int64_t hop, double fs, const short_time_fft_params& p) {
  const host_array win = win_arg.to_host();
  if (!(win.ndim() == 1 && win.size() > 0))
    throw value_error(std::string(kCls) + ": Parameter win must be 1d, but win.shape=" +
                      cusci::detail::shape_str(win.shape()) + "!");
  if (!all_finite(win)) throw value_error(std::string(kCls) + ": Parameter win must have finite entries!");
  if (!(hop >= 1)) throw value_error(std::string(kCls) + ": Parameter hop=" + std::to_string(hop) + " is not an integer >= 1!");
  win_ = as_double(win);
  win_integer_ = is_integer(win.dtype());
  m_num_ = win.size();
  hop_ = hop;
  this->fs(fs);
  this->mfft(p.mfft ? *p.mfft : m_num_);
  if (p.dual_win) {
    if (p.dual_win->shape() != win.shape())
      throw value_error(std::string(kCls) + ": dual_win.shape=" + cusci::detail::shape_str(p.dual_win->shape()) +
                        " must equal win.shape=" + cusci::detail::shape_str(win.shape()) + "!");
    if (!all_finite(*p.dual_win)) throw value_error(std::string(kCls) + ": Parameter dual_win must be a finite array!");
    dual_win_ = as_double(*p.dual_win);
  }
  if (p.scale_to != sft_scaling::none) scale_to(p.scale_to);
  this->fft_mode(p.fft_mode);
  this->phase_shift(p.phase_shift);
}

ShortTimeFFT ShortTimeFFT::from_dual(const array_like& dual_win_arg, std::int64_t hop, double fs,
                                     const sft_factory_params& p) {
  const host_array dual_win = dual_win_arg.to_host();
  const char* fn = "cusci::signal::ShortTimeFFT.from_dual";
  if (!(dual_win.ndim() == 1 && dual_win.size() > 0))
    throw value_error(std::string(fn) + ": Parameter dual_win must be 1d, but dual_win.shape=" +
                      cusci::detail::shape_str(dual_win.shape()) + "!");
  if (!(hop >= 1)) throw value_error(std::string(fn) + ": Parameter hop=" + std::to_string(hop) + " is not an integer >= 1!");
  const host_array win = detail::sft_dual_canonical(as_double(dual_win), hop, is_integer(dual_win.dtype()), fn);
  return ShortTimeFFT(win, hop, fs,
                      {.fft_mode = p.fft_mode, .mfft = p.mfft, .dual_win = dual_win, .scale_to = p.scale_to,
                       .phase_shift = p.phase_shift});
}

ShortTimeFFT ShortTimeFFT::from_window(const window_spec& win_param, double fs, std::int64_t nperseg,
                                       std::int64_t noverlap, const sft_from_window_params& p) {
  const host_array win = get_window(win_param, nperseg, !p.symmetric_win);
  return ShortTimeFFT(win, nperseg - noverlap, fs,
                      {.fft_mode = p.fft_mode, .mfft = p.mfft, .scale_to = p.scale_to, .phase_shift = p.phase_shift});
}

ShortTimeFFT ShortTimeFFT::from_win_equals_dual(const array_like& desired_win_arg, std::int64_t hop, double fs,
                                                const sft_factory_params& p) {
  const host_array desired_win = desired_win_arg.to_host();
  const char* fn = "cusci::signal::ShortTimeFFT.from_win_equals_dual";
  if (!(desired_win.ndim() == 1 && desired_win.size() > 0))
    throw value_error(std::string(fn) + ": Parameter desired_win is not 1d, but desired_win.shape=" +
                      cusci::detail::shape_str(desired_win.shape()) + "!");
  if (is_integer(desired_win.dtype()))
    throw value_error(std::string(fn) + ": Parameter desired_win cannot be of integer type => cast to float | complex");
  if (!all_finite(desired_win)) throw value_error(std::string(fn) + ": Parameter desired_win must have finite entries!");
  const std::int64_t m = desired_win.size();
  if (!(1 <= hop && hop <= m))
    throw value_error(std::string(fn) + ": Parameter hop=" + std::to_string(hop) +
                      " is not an integer between 1 and len(desired_win)=" + std::to_string(m) + "!");
  const std::int64_t mfft = p.mfft ? *p.mfft : m;
  const double s_fac = p.scale_to == sft_scaling::unitary ? std::sqrt(static_cast<double>(mfft)) : 1.0;
  const bool cplx = is_complex(desired_win.dtype());
  std::vector<cd> w = detail::sft_values(desired_win);
  // relative_resolution = resolution * max(win) (NumPy's max: lexicographic for complex values).
  cd mx = w[0];
  for (const cd& v : w)
    if (v.real() > mx.real() || (v.real() == mx.real() && v.imag() > mx.imag())) mx = v;
  const double res = desired_win.dtype() == dtype::float32 || desired_win.dtype() == dtype::complex64 ? 1e-6
                     : desired_win.dtype() == dtype::float16                                             ? 1e-3
                                                                                                         : 1e-15;
  const double rr = res * mx.real();
  const std::vector<cd> orig = w;
  for (std::int64_t r = 0; r < hop; ++r) {
    double ss = 0.0;
    for (std::int64_t i = r; i < m; i += hop) {
      const cd v = orig[static_cast<std::size_t>(i)];
      ss += v.real() * v.real() + v.imag() * v.imag();
    }
    const double a = std::sqrt(ss);
    if (!(a > rr))
      throw value_error(std::string(fn) + ": Parameter desired_win does not have valid STFT dual window for hop=" +
                        std::to_string(hop) + "!");
    for (std::int64_t i = r; i < m; i += hop) w[static_cast<std::size_t>(i)] /= a;
  }
  std::vector<cd> wa(w.size()), wb(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    wa[i] = w[i] / s_fac;
    wb[i] = w[i] * s_fac;
  }
  ShortTimeFFT sft(from_values(wa, cplx), hop, fs,
                   {.fft_mode = p.fft_mode, .mfft = mfft, .dual_win = from_values(wb, cplx),
                    .scale_to = p.scale_to == sft_scaling::unitary ? sft_scaling::none : p.scale_to,
                    .phase_shift = p.phase_shift});
  if (p.scale_to == sft_scaling::unitary) sft.scaling_ = sft_scaling::unitary;
  return sft;
}

// ------------------------------------------------------------------------------------ setters

void ShortTimeFFT::T(double v) {
  if (!(v > 0)) throw value_error(std::string(kCls) + ": Sampling interval T=" + num(v) + " must be positive!");
  fs_ = 1.0 / v;
}

void ShortTimeFFT::fs(double v) {
  if (!(v > 0)) throw value_error(std::string(kCls) + ": Sampling frequency fs=" + num(v) + " must be positive!");
  fs_ = v;
}

void ShortTimeFFT::fft_mode(sft_fft_mode t) {
  const bool one = t == sft_fft_mode::onesided || t == sft_fft_mode::onesided2X;
  if (one && win_.dtype() == dtype::complex128)
    throw value_error(std::string(kCls) + ": One-sided spectra, i.e., fft_mode='" + mode_name(t) +
                      "', are not allowed for complex-valued windows!");
  if (t == sft_fft_mode::onesided2X && scaling_ == sft_scaling::none)
    throw value_error(std::string(kCls) + ": For scaling is None, fft_mode='onesided2X' is invalid!"
                                          "Do scale_to('psd') or scale_to('magnitude')!");
  fft_mode_ = t;
}

void ShortTimeFFT::mfft(std::int64_t n) {
  if (!(n >= m_num_))
    throw value_error(std::string(kCls) + ": Attribute mfft=" + std::to_string(n) +
                      " needs to be at least the window length m_num=" + std::to_string(m_num_) + "!");
  mfft_ = n;
}

void ShortTimeFFT::phase_shift(std::optional<std::int64_t> v) {
  if (v && !(-mfft_ < *v && *v < mfft_))
    throw value_error(std::string(kCls) + ": -mfft < phase_shift < mfft does not hold for mfft=" +
                      std::to_string(mfft_) + ", phase_shift=" + std::to_string(*v) + "!");
  phase_shift_ = v;
}

double ShortTimeFFT::fac_magnitude() const {
  if (scaling_ == sft_scaling::magnitude) return 1.0;
  if (!fac_mag_) {
    cd s(0.0, 0.0);  // Python's sum(): left to right
    for (const cd& v : detail::sft_values(win_)) s += v;
    fac_mag_ = 1.0 / (win_.dtype() == dtype::complex128 ? std::abs(s) : std::fabs(s.real()));
  }
  return *fac_mag_;
}

double ShortTimeFFT::fac_psd() const {
  if (scaling_ == sft_scaling::psd) return 1.0;
  if (!fac_psd_) {
    double s = 0.0;
    for (const cd& v : detail::sft_values(win_)) s += v.real() * v.real() + v.imag() * v.imag();
    fac_psd_ = 1.0 / std::sqrt(s / T());
  }
  return *fac_psd_;
}

void ShortTimeFFT::scale_to(sft_scaling scaling) {
  if (scaling != sft_scaling::magnitude && scaling != sft_scaling::psd)
    throw value_error(std::string(kCls) + ".scale_to: scaling=" +
                      (scaling == sft_scaling::none ? std::string("None") : std::string("'unitary'")) +
                      " not in {'magnitude', 'psd'}!");
  if (scaling_ == scaling) return;
  const double s_fac = scaling == sft_scaling::psd ? fac_psd() : fac_magnitude();
  const bool cplx = win_.dtype() == dtype::complex128;
  std::vector<cd> w = detail::sft_values(win_);
  for (cd& v : w) v = cd(v.real() * s_fac, v.imag() * s_fac);
  win_ = from_values(w, cplx);
  if (dual_win_) {
    const bool dc = dual_win_->dtype() == dtype::complex128;
    std::vector<cd> d = detail::sft_values(*dual_win_);
    for (cd& v : d) v = cd(v.real() / s_fac, v.imag() / s_fac);
    dual_win_ = from_values(d, dc);
  }
  fac_mag_.reset();
  fac_psd_.reset();
  scaling_ = scaling;
}

// ------------------------------------------------------------------------------------ properties

const host_array& ShortTimeFFT::dual_win() const {
  if (!dual_win_) dual_win_ = detail::sft_dual_canonical(win_, hop_, win_integer_, kCls);
  return *dual_win_;
}

bool ShortTimeFFT::invertible() const {
  try {
    return dual_win().size() > 0;
  } catch (const value_error&) {
    return false;
  }
}

namespace {
// |win|^2 and the first / last non-zero index of it (-1 when all zero).
struct w2_info {
  std::int64_t first = -1, last = -1, m = 0;
  // all(w2[a:] == 0) with Python's slice start semantics
  bool zero_from(std::int64_t a) const {
    if (a < 0) a = a + m < 0 ? 0 : a + m;
    return first < 0 || a > last;
  }
  // all(w2[:b] == 0) with Python's slice stop semantics
  bool zero_to(std::int64_t b) const {
    if (b < 0) b = b + m < 0 ? 0 : b + m;
    if (b > m) b = m;
    return first < 0 || first >= b;
  }
};
w2_info w2_of(const host_array& win) {
  w2_info r;
  const std::vector<cd> w = detail::sft_values(win);
  r.m = static_cast<std::int64_t>(w.size());
  for (std::int64_t i = 0; i < r.m; ++i) {
    const cd v = w[static_cast<std::size_t>(i)];
    if (v.real() * v.real() + v.imag() * v.imag() != 0.0) {
      if (r.first < 0) r.first = i;
      r.last = i;
    }
  }
  return r;
}
void check_n(std::int64_t n, std::int64_t m, std::int64_t mid, const char* fn) {
  if (!(n >= m - mid))
    throw value_error(std::string(fn) + ": Parameter n must be >= ceil(m_num/2) = " + std::to_string(m - mid) + "!");
}
}  // namespace

std::pair<std::int64_t, std::int64_t> ShortTimeFFT::pre_padding() const {
  const w2_info w = w2_of(win_);
  const std::int64_t m = m_num_, mid = m_num_ / 2, n0 = -mid;
  std::int64_t p = 0;
  for (std::int64_t n_ = n0; n_ > n0 - m - 1; n_ -= hop_, ++p) {
    const std::int64_t nn = n_ - hop_;
    if (nn + m <= 0 || w.zero_from(nn)) return {n_, -p};
  }
  throw runtime_error(std::string(kCls) + ": internal: no pre-padding found");
}

std::pair<std::int64_t, std::int64_t> ShortTimeFFT::post_padding(std::int64_t n) const {
  const std::int64_t m = m_num_, mid = m_num_ / 2;
  check_n(n, m, mid, kCls);
  const w2_info w = w2_of(win_);
  const std::int64_t q1 = fdiv(n, hop_), k1 = q1 * hop_ - mid;
  std::int64_t q = q1;
  for (std::int64_t k = k1; k < n + m; k += hop_, ++q) {
    const std::int64_t nn = k + hop_;
    if (nn >= n || w.zero_to(n - nn)) return {k + m, q + 1};
  }
  throw runtime_error(std::string(kCls) + ": internal: no post-padding found");
}

std::pair<std::int64_t, std::int64_t> ShortTimeFFT::lower_border_end() const {
  const w2_info w = w2_of(win_);
  if (w.first < 0) throw index_error(std::string(kCls) + ".lower_border_end: index 0 is out of bounds for axis 0 with size 0");
  const std::int64_t k0 = -(m_num_ / 2) + w.first;
  std::int64_t q = 0;
  for (std::int64_t k = k0; k < hop_ + 1; k += hop_, ++q)
    if (k + hop_ >= 0) return {k + m_num_, q + 1};
  const std::int64_t pm = p_min();
  return {0, pm > 0 ? pm : 0};
}

std::pair<std::int64_t, std::int64_t> ShortTimeFFT::upper_border_begin(std::int64_t n) const {
  const std::int64_t m = m_num_, mid = m_num_ / 2;
  check_n(n, m, mid, kCls);
  const w2_info w = w2_of(win_);
  const std::int64_t q2 = fdiv(n, hop_) + 1;
  std::int64_t q1 = fdiv(n - m, hop_) - 1;
  if (q1 < -1) q1 = -1;
  for (std::int64_t q = q2; q > q1; --q) {
    const std::int64_t k = q * hop_ + (m - mid);
    if (k <= n || w.zero_from(n - k)) return {(q + 1) * hop_ - mid, q + 1};
  }
  throw runtime_error(std::string(kCls) + ": internal: no upper border found");
}

std::pair<std::int64_t, std::int64_t> ShortTimeFFT::p_range(std::int64_t n, std::optional<std::int64_t> p0,
                                                            std::optional<std::int64_t> p1) const {
  const std::int64_t pmax = p_max(n), pmin = p_min();
  const std::int64_t a = p0 ? *p0 : pmin, b = p1 ? *p1 : pmax;
  if (!(pmin <= a && a < b && b <= pmax))
    throw value_error(std::string(kCls) + ": Invalid Parameter p0=" + (p0 ? std::to_string(*p0) : "None") +
                      ", p1=" + (p1 ? std::to_string(*p1) : "None") + ", i.e., self.p_min=" + std::to_string(pmin) +
                      " <= p0 < p1 <= p_max=" + std::to_string(pmax) + " does not hold for signal length n=" +
                      std::to_string(n) + "!");
  return {a, b};
}

host_array ShortTimeFFT::t(std::int64_t n, std::optional<std::int64_t> p0, std::optional<std::int64_t> p1,
                           std::int64_t k_offset) const {
  if (!(n > 0)) throw value_error(std::string(kCls) + ".t: Parameter n=" + std::to_string(n) + " is not a positive integer!");
  const auto [a, b] = p_range(n, p0, p1);
  host_array out(dtype::float64, {b - a});
  double* o = out.data_as<double>();
  const double dt = delta_t(), off = static_cast<double>(k_offset) * T();
  for (std::int64_t p = a; p < b; ++p) o[p - a] = static_cast<double>(p) * dt + off;
  return out;
}

std::int64_t ShortTimeFFT::nearest_k_p(std::int64_t k, bool left) const noexcept {
  const std::int64_t q = fdiv(k, hop_), r = fmod_py(k, hop_);
  if (r == 0) return k;
  return left ? q * hop_ : (q + 1) * hop_;
}

host_array ShortTimeFFT::f() const {
  if (onesided_fft()) return fft::rfftfreq_host(mfft_, T());
  host_array f = fft::fftfreq_host(mfft_, T());
  if (fft_mode_ == sft_fft_mode::twosided) return f;
  host_array s(dtype::float64, {mfft_});  // fftshift: s[k] = f[(k - mfft // 2) mod mfft]
  const double* a = f.data_as<double>();
  double* o = s.data_as<double>();
  for (std::int64_t k = 0; k < mfft_; ++k) o[k] = a[fmod_py(k - mfft_ / 2, mfft_)];
  return s;
}

std::array<double, 4> ShortTimeFFT::extent(std::int64_t n, sft_axes_seq axes_seq, bool center_bins) const {
  std::int64_t q0 = 0, q1 = 0;
  if (onesided_fft()) {
    q1 = f_pts();
  } else if (fft_mode_ == sft_fft_mode::centered) {
    q0 = -(mfft_ / 2);
    q1 = mfft_ % 2 == 0 ? mfft_ / 2 : mfft_ / 2 + 1;
  } else {
    throw value_error(std::string(kCls) + ".extent: Attribute fft_mode=" + mode_name(fft_mode_) +
                      " must be in ['centered', 'onesided', 'onesided2X']");
  }
  const std::int64_t p0 = p_min(), p1 = p_max(n);
  const double dt = delta_t(), df = delta_f();
  double t0, t1, f0, f1;
  if (center_bins) {
    t0 = dt * (static_cast<double>(p0) - 0.5);
    t1 = dt * (static_cast<double>(p1) - 0.5);
    f0 = df * (static_cast<double>(q0) - 0.5);
    f1 = df * (static_cast<double>(q1) - 0.5);
  } else {
    t0 = dt * static_cast<double>(p0);
    t1 = dt * static_cast<double>(p1);
    f0 = df * static_cast<double>(q0);
    f1 = df * static_cast<double>(q1);
  }
  if (axes_seq == sft_axes_seq::tf) return {t0, t1, f0, f1};
  return {f0, f1, t0, t1};
}

}  // namespace cusci::signal

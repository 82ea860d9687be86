#pragma once
// Helpers shared by the spectral family's tests: the cases of tests/golden/gen_signal_spectral.py, the
// options built from a case's parameters, and the calls (the same code runs the value cases on the GPU
// and the error cases, on data-less arrays, on the host).

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/spectral.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::spectral_test {

using case_t = testing::golden_case;
namespace sig = cusci::signal;

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_spectral", func, errors);
}

/// The case's window (`prefix` + "window" / "window_array" / "window_len"), or nullopt when not given.
inline std::optional<sig::spectral_window> window_of(const case_t& c, const std::string& prefix = "") {
  if (c.has(prefix + "window_array")) {
    host_array h = c.array(prefix + "window_array");
    if (c.get_or<bool>("window_device", false)) return sig::spectral_window(asarray(h));
    return sig::spectral_window(h);
  }
  if (c.has(prefix + "window_len")) {
    host_array h(dtype::float64, {c.get<std::int64_t>(prefix + "window_len")});
    for (std::int64_t i = 0; i < h.size(); ++i) h.data_as<double>()[i] = 1.0;
    return sig::spectral_window(h);
  }
  if (!c.has(prefix + "window")) return std::nullopt;
  const testing::golden_value w = c.params().at(prefix + "window");
  if (w.is_string()) return sig::spectral_window(w.as_string());
  std::vector<double> args;
  for (std::size_t i = 1; i < w.size(); ++i) args.push_back(w.at(i).as_double());
  return sig::spectral_window(sig::window_spec(w.at(std::size_t{0}).as_string(), args));
}

inline std::optional<std::int64_t> opt_int(const case_t& c, const std::string& k) {
  return c.get_or<std::optional<std::int64_t>>(k, std::nullopt);
}

inline sig::welch_options welch_opts(const case_t& c) {
  sig::welch_options o;
  o.fs = c.get_or<double>("fs", 1.0);
  if (auto w = window_of(c)) o.window = *w;
  o.nperseg = opt_int(c, "nperseg");
  o.noverlap = opt_int(c, "noverlap");
  o.nfft = opt_int(c, "nfft");
  o.detrend = sig::parse_spectral_detrend(c.get_or<std::string>("detrend", "constant"));
  o.return_onesided = c.get_or<bool>("return_onesided", true);
  o.scaling = sig::parse_spectral_scaling(c.get_or<std::string>("scaling", "density"));
  o.axis = c.get_or<int>("axis", -1);
  o.average = sig::parse_spectral_average(c.get_or<std::string>("average", "mean"));
  return o;
}

inline sig::periodogram_options periodogram_opts(const case_t& c) {
  sig::periodogram_options o;
  o.fs = c.get_or<double>("fs", 1.0);
  if (auto w = window_of(c)) o.window = *w;
  o.nfft = opt_int(c, "nfft");
  o.detrend = sig::parse_spectral_detrend(c.get_or<std::string>("detrend", "constant"));
  o.return_onesided = c.get_or<bool>("return_onesided", true);
  o.scaling = sig::parse_spectral_scaling(c.get_or<std::string>("scaling", "density"));
  o.axis = c.get_or<int>("axis", -1);
  return o;
}

inline sig::coherence_options coherence_opts(const case_t& c) {
  sig::coherence_options o;
  o.fs = c.get_or<double>("fs", 1.0);
  if (auto w = window_of(c)) o.window = *w;
  o.nperseg = opt_int(c, "nperseg");
  o.noverlap = opt_int(c, "noverlap");
  o.nfft = opt_int(c, "nfft");
  o.detrend = sig::parse_spectral_detrend(c.get_or<std::string>("detrend", "constant"));
  o.axis = c.get_or<int>("axis", -1);
  return o;
}

inline sig::spectrogram_options spectrogram_opts(const case_t& c) {
  sig::spectrogram_options o;
  o.fs = c.get_or<double>("fs", 1.0);
  if (auto w = window_of(c)) o.window = *w;
  o.nperseg = opt_int(c, "nperseg");
  o.noverlap = opt_int(c, "noverlap");
  o.nfft = opt_int(c, "nfft");
  o.detrend = sig::parse_spectral_detrend(c.get_or<std::string>("detrend", "constant"));
  o.return_onesided = c.get_or<bool>("return_onesided", true);
  o.scaling = sig::parse_spectral_scaling(c.get_or<std::string>("scaling", "density"));
  o.axis = c.get_or<int>("axis", -1);
  o.mode = sig::parse_spectrogram_mode(c.get_or<std::string>("mode", "psd"));
  return o;
}

inline sig::stft_options stft_opts(const case_t& c, const std::string& p = "") {
  sig::stft_options o;
  o.fs = c.get_or<double>(p + "fs", 1.0);
  if (auto w = window_of(c, p)) o.window = *w;
  o.nperseg = c.get_or<std::int64_t>(p + "nperseg", 256);
  o.noverlap = opt_int(c, p + "noverlap");
  o.nfft = opt_int(c, p + "nfft");
  o.detrend = sig::parse_spectral_detrend(c.get_or<std::string>(p + "detrend", "none"));
  o.return_onesided = c.get_or<bool>(p + "return_onesided", true);
  o.boundary = sig::parse_stft_boundary(c.get_or<std::string>(p + "boundary", "zeros"));
  o.padded = c.get_or<bool>(p + "padded", true);
  o.axis = c.get_or<int>(p + "axis", -1);
  o.scaling = sig::parse_spectral_scaling(c.get_or<std::string>(p + "scaling", "spectrum"));
  return o;
}

inline sig::istft_options istft_opts(const case_t& c) {
  sig::istft_options o;
  o.fs = c.get_or<double>("fs", 1.0);
  if (auto w = window_of(c)) o.window = *w;
  o.nperseg = opt_int(c, "nperseg");
  o.noverlap = opt_int(c, "noverlap");
  o.nfft = opt_int(c, "nfft");
  o.input_onesided = c.get_or<bool>("input_onesided", true);
  o.boundary = c.get_or<bool>("boundary", true);
  o.time_axis = c.get_or<int>("time_axis", -1);
  o.freq_axis = c.get_or<int>("freq_axis", -2);
  o.scaling = sig::parse_spectral_scaling(c.get_or<std::string>("scaling", "spectrum"));
  return o;
}

/// What a call returns, uniformly: frequencies (or istft's times) f, times t (spectrogram, stft), P.
struct outputs {
  host_array f, t;
  ndarray P;
};

/// Calls c.func() on x (and y) with the case's parameters. istft takes x as Zxx.
inline outputs call(const case_t& c, const ndarray& x, const ndarray* y = nullptr) {
  const std::string f = c.func();
  if (f == "welch") {
    auto r = sig::welch(x, welch_opts(c));
    return {r.f, {}, r.Pxx};
  }
  if (f == "csd") {
    auto r = sig::csd(x, *y, welch_opts(c));
    return {r.f, {}, r.Pxy};
  }
  if (f == "periodogram") {
    auto r = sig::periodogram(x, periodogram_opts(c));
    return {r.f, {}, r.Pxx};
  }
  if (f == "coherence") {
    auto r = sig::coherence(x, *y, coherence_opts(c));
    return {r.f, {}, r.Cxy};
  }
  if (f == "spectrogram") {
    auto r = sig::spectrogram(x, spectrogram_opts(c));
    return {r.f, r.t, r.Sxx};
  }
  if (f == "stft") {
    auto r = sig::stft(x, stft_opts(c));
    return {r.f, r.t, r.Zxx};
  }
  if (f == "istft") {
    auto r = sig::istft(x, istft_opts(c));
    return {r.t, {}, r.x};
  }
  if (f == "roundtrip") {
    auto z = sig::stft(x, stft_opts(c, "stft_"));
    auto r = sig::istft(z.Zxx, istft_opts(c));
    return {r.t, {}, r.x};
  }
  FAIL("unknown func " << f);
  return {};
}

/// check_COLA / check_NOLA of a case.
inline bool call_check(const case_t& c) {
  const std::int64_t nperseg = c.get<std::int64_t>("nperseg"), noverlap = c.get<std::int64_t>("noverlap");
  const double tol = c.get_or<double>("tol", 1e-10);
  const sig::spectral_window w = window_of(c).value_or(sig::spectral_window("hann"));
  return c.func() == "check_COLA" ? sig::check_COLA(w, nperseg, noverlap, tol) : sig::check_NOLA(w, nperseg, noverlap, tol);
}

}  // namespace cusci::spectral_test

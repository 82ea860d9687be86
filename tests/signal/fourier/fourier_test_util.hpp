#pragma once
// Helpers shared by the fourier family's tests: the cases of tests/golden/gen_signal_fourier.py, and
// the calls of the functions with a case's parameters (the same code runs the value cases on the GPU
// and the error cases, built on data-less arrays, on the host).

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/fourier.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::fourier_test {

using case_t = testing::golden_case;
namespace sig = cusci::signal;

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_fourier", func, errors);
}

inline std::optional<std::complex<double>> opt_complex(const case_t& c, const std::string& key) {
  return c.get<std::optional<std::complex<double>>>(key);
}

/// Calls c.func() on `x` with the case's parameters (CZT / ZoomFFT build the object and call it).
inline ndarray call(const case_t& c, const ndarray& x) {
  const std::string f = c.func();
  if (f == "hilbert")
    return sig::hilbert(x, {.N = c.get_or<std::optional<std::int64_t>>("N", std::nullopt), .axis = c.get_or<int>("axis", -1)});
  if (f == "hilbert2") {
    sig::hilbert2_options o;
    o.N = c.get_or<std::optional<std::vector<std::int64_t>>>("N", std::nullopt);
    if (c.has("axes")) o.axes = c.get<std::vector<int>>("axes");
    return sig::hilbert2(x, o);
  }
  if (f == "envelope") {
    sig::envelope_options o;
    if (c.has("bp_in")) {
      auto bp = c.get<std::vector<std::optional<std::int64_t>>>("bp_in");
      o.bp_in = {bp.at(0), bp.at(1)};
    }
    o.n_out = c.get_or<std::optional<std::int64_t>>("n_out", std::nullopt);
    o.squared = c.get_or<bool>("squared", false);
    o.residual = sig::parse_envelope_residual(c.get_or<std::string>("residual", "lowpass"));
    o.axis = c.get_or<int>("axis", -1);
    return sig::envelope(x, o);
  }
  if (f == "detrend")
    return sig::detrend(x, {.axis = c.get_or<int>("axis", -1),
                            .type = sig::parse_detrend_type(c.get_or<std::string>("type", "linear")),
                            .bp = c.get_or<std::vector<std::int64_t>>("bp", {0})});
  if (f == "czt")
    return sig::czt(x, {.m = c.get_or<std::optional<std::int64_t>>("m", std::nullopt),
                        .w = c.has("w") ? opt_complex(c, "w") : std::nullopt,
                        .a = c.get_or<std::complex<double>>("a", {1.0, 0.0}),
                        .axis = c.get_or<int>("axis", -1)});
  if (f == "zoom_fft")
    return sig::zoom_fft(x, c.get<std::vector<double>>("fn"),
                         {.m = c.get_or<std::optional<std::int64_t>>("m", std::nullopt),
                          .fs = c.get_or<double>("fs", 2.0),
                          .endpoint = c.get_or<bool>("endpoint", false),
                          .axis = c.get_or<int>("axis", -1)});
  if (f == "CZT") {
    const sig::CZT t(c.get<std::int64_t>("n"), c.get_or<std::optional<std::int64_t>>("m", std::nullopt),
                     c.has("w") ? opt_complex(c, "w") : std::nullopt, c.get_or<std::complex<double>>("a", {1.0, 0.0}));
    return t(x, c.get_or<int>("axis", -1));
  }
  if (f == "ZoomFFT") {
    const sig::ZoomFFT t(c.get<std::int64_t>("n"), c.get<std::vector<double>>("fn"),
                         c.get_or<std::optional<std::int64_t>>("m", std::nullopt),
                         {.fs = c.get_or<double>("fs", 2.0), .endpoint = c.get_or<bool>("endpoint", false)});
    return t(x, c.get_or<int>("axis", -1));
  }
  FAIL("unknown func " << f);
  return x;
}

}  // namespace cusci::fourier_test

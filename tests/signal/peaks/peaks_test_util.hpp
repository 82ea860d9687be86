#pragma once
// Helpers shared by the peaks family's tests: the cases of tests/golden/gen_signal_peaks.py and the
// calls of the functions with a case's parameters. With `fake` set, arrays are data-less headers of
// the case's dtype and shape (host tests of the checks that throw before any device work); a string
// "ARRAYk" in a condition stands for such an array of k samples.

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/peaks.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::peaks_test {

using case_t = testing::golden_case;
namespace sig = cusci::signal;

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_peaks", func, errors);
}

/// The device array a case names by parameter `key`.
inline ndarray dev(const case_t& c, const std::string& key) { return asarray(c.array(key)); }

/// One border of a condition: a number, or an array (a golden array name, or "ARRAYk" for a fake).
inline std::optional<sig::peak_border> border_of(const case_t& c, const testing::golden_value& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_number()) return sig::peak_border{v.as_double()};
  const std::string s = v.as_string();
  if (s.rfind("ARRAY", 0) == 0)
    return sig::peak_border{testing::fake_array(dtype::float64, {std::stoll(s.substr(5))})};
  return sig::peak_border{asarray(testing::golden(c.module(), s))};
}

inline std::optional<sig::peak_interval> interval_of(const case_t& c, const std::string& key) {
  if (!c.has(key)) return std::nullopt;
  const testing::golden_value v = c.params().at(key);
  return sig::peak_interval{border_of(c, v.at(std::size_t{0})), border_of(c, v.at(std::size_t{1}))};
}

inline sig::find_peaks_options fp_options(const case_t& c) {
  sig::find_peaks_options o;
  o.height = interval_of(c, "height");
  o.threshold = interval_of(c, "threshold");
  o.distance = c.get_or<std::optional<double>>("distance", std::nullopt);
  o.prominence = interval_of(c, "prominence");
  o.width = interval_of(c, "width");
  o.wlen = c.get_or<std::optional<double>>("wlen", std::nullopt);
  o.rel_height = c.get_or<double>("rel_height", 0.5);
  o.plateau_size = interval_of(c, "plateau_size");
  return o;
}

/// The input x of a value case on the device (layout "strided": x[::2] of the stored parent).
inline ndarray input_x(const case_t& c) {
  ndarray d = dev(c, "x");
  if (c.get_or<std::string>("layout", "C") == "strided") return d[{slice{0, {}, 2}}];
  return d;
}

inline sig::argrelextrema_options ar_options(const case_t& c) {
  return {.axis = c.get<int>("axis"), .order = c.get<std::int64_t>("order"),
          .mode = sig::parse_extrema_mode(c.get<std::string>("mode"))};
}

inline sig::find_peaks_cwt_options cwt_options(const case_t& c) {
  sig::find_peaks_cwt_options o;
  o.max_distances = c.get_or<std::optional<std::vector<double>>>("max_distances", std::nullopt);
  o.gap_thresh = c.get_or<std::optional<double>>("gap_thresh", std::nullopt);
  o.min_length = c.get_or<std::optional<double>>("min_length", std::nullopt);
  o.min_snr = c.get_or<double>("min_snr", 1.0);
  o.noise_perc = c.get_or<double>("noise_perc", 10.0);
  o.window_size = c.get_or<std::optional<double>>("window_size", std::nullopt);
  return o;
}

}  // namespace cusci::peaks_test

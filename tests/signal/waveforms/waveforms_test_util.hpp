#pragma once
// Helpers of the waveforms tests: the cases of gen_signal_waveforms.py and the calls they describe.

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/waveforms.hpp"
#include "../signal_test_util.hpp"

namespace cusci::waveforms_test {

using case_t = testing::golden_case;

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_waveforms", func, errors);
}

/// The case's input t on the device: as stored (C), a Fortran-ordered copy (F), or the strided view
/// t[..., ::2] of the stored parent.
inline ndarray t_of(const case_t& c) {
  ndarray d = asarray(c.array("t"));
  const std::string layout = c.get<std::string>("layout");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

inline signal::chirp_options chirp_opts(const case_t& c) {
  return {.method = signal::parse_chirp_method(c.get<std::string>("method")),
          .phi = c.get<double>("phi"),
          .vertex_zero = c.get<bool>("vertex_zero"),
          .complex = c.get<bool>("complex")};
}

inline signal::gausspulse_options gauss_opts(const case_t& c) {
  signal::gausspulse_options o;
  o.fc = c.get_or<double>("fc", o.fc);
  o.bw = c.get_or<double>("bw", o.bw);
  o.bwr = c.get_or<double>("bwr", o.bwr);
  o.tpr = c.get_or<double>("tpr", o.tpr);
  o.retquad = c.get_or<bool>("retquad", false);
  o.retenv = c.get_or<bool>("retenv", false);
  return o;
}

inline signal::max_len_seq_options mls_opts(const case_t& c) {
  signal::max_len_seq_options o;
  o.state = c.get<std::optional<std::vector<double>>>("state");
  o.length = c.get<std::optional<std::int64_t>>("length");
  o.taps = c.get<std::optional<std::vector<std::int64_t>>>("taps");
  return o;
}

/// unit_impulse with the case's idx: null, an int, a list or a string.
inline ndarray unit_impulse_of(const case_t& c) {
  const shape_t shape = c.get<std::vector<std::int64_t>>("shape");
  const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
  const testing::golden_value idx = c.params().at("idx");
  if (idx.is_null()) return signal::unit_impulse(shape, std::nullopt, dt);
  if (idx.is_string()) return signal::unit_impulse(shape, idx.as_string(), dt);
  if (idx.is_array()) return signal::unit_impulse(shape, idx.get<std::vector<std::int64_t>>(), dt);
  return signal::unit_impulse(shape, std::optional<std::int64_t>(idx.as_int64()), dt);
}

}  // namespace cusci::waveforms_test

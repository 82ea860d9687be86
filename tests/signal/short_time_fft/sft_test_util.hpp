#pragma once
// Helpers shared by the ShortTimeFFT family's tests: the cases of tests/golden/gen_signal_short_time_fft.py
// and the object a case's `cfg` describes (its factory, window and parameters).

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/short_time_fft.hpp"
#include "cusci/signal/windows.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::sft_test {

using case_t = testing::golden_case;
namespace sig = cusci::signal;
inline const std::string kModule = "signal_short_time_fft";

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in(kModule, func, errors);
}

inline host_array arr(const std::string& name) { return testing::golden(kModule, name); }

inline std::optional<std::int64_t> opt_int(const testing::golden_value& v, const char* key) {
  return v.contains(key) ? v.at(key).get<std::optional<std::int64_t>>() : std::nullopt;
}

inline sig::sft_scaling scaling_of(const testing::golden_value& v, const char* key) {
  if (!v.contains(key) || v.at(key).is_null()) return sig::sft_scaling::none;
  return sig::parse_sft_scaling(v.at(key).as_string());
}

/// The ShortTimeFFT of a case's cfg (throws what the construction throws).
inline sig::ShortTimeFFT make(const case_t& c) {
  const testing::golden_value cfg = c.params().at("cfg");
  const std::string f = cfg.at("factory").as_string();
  const double fs = cfg.at("fs").as_double();
  const sig::sft_fft_mode mode = sig::parse_sft_fft_mode(cfg.at("fft_mode").as_string());
  const auto mfft = opt_int(cfg, "mfft");
  const auto ps = opt_int(cfg, "phase_shift");
  const sig::sft_scaling sc = scaling_of(cfg, "scale_to");
  auto build = [&]() -> sig::ShortTimeFFT {
    if (f == "from_window") {
      const testing::golden_value w = cfg.at("win");
      sig::window_spec spec = w.is_string() ? sig::window_spec(w.as_string())
                                            : sig::window_spec(w.at(0).as_string(), std::vector<double>{w.at(1).as_double()});
      return sig::ShortTimeFFT::from_window(spec, fs, cfg.at("nperseg").as_int64(), cfg.at("noverlap").as_int64(),
                                            {.symmetric_win = cfg.contains("symmetric_win") && cfg.at("symmetric_win").as_bool(),
                                             .fft_mode = mode, .mfft = mfft, .scale_to = sc, .phase_shift = ps});
    }
    const host_array win = arr(cfg.at("win").as_string());
    const std::int64_t hop = cfg.at("hop").as_int64();
    if (f == "from_dual")
      return sig::ShortTimeFFT::from_dual(win, hop, fs, {.fft_mode = mode, .mfft = mfft, .scale_to = sc, .phase_shift = ps});
    if (f == "from_win_equals_dual")
      return sig::ShortTimeFFT::from_win_equals_dual(win, hop, fs,
                                                     {.fft_mode = mode, .mfft = mfft, .scale_to = sc, .phase_shift = ps});
    std::optional<host_array> dual;
    if (!cfg.at("dual_win").is_null()) dual = arr(cfg.at("dual_win").as_string());
    return sig::ShortTimeFFT(win, hop, fs,
                             {.fft_mode = mode, .mfft = mfft, .dual_win = dual, .scale_to = sc, .phase_shift = ps});
  };
  sig::ShortTimeFFT o = build();
  if (cfg.contains("post_scale_to") && !cfg.at("post_scale_to").is_null())
    o.scale_to(sig::parse_sft_scaling(cfg.at("post_scale_to").as_string()));
  return o;
}

inline sig::sft_detrend detr_of(const case_t& c) {
  return c.has("detr") && !c.params().at("detr").is_null() ? sig::parse_sft_detrend(c.get<std::string>("detr"))
                                                           : sig::sft_detrend::none;
}

inline sig::sft_stft_options stft_opts_of(const case_t& c) {
  return {.p0 = c.get_or<std::optional<std::int64_t>>("p0", std::nullopt),
          .p1 = c.get_or<std::optional<std::int64_t>>("p1", std::nullopt),
          .k_offset = c.get_or<std::int64_t>("k_offset", 0),
          .padding = sig::parse_sft_padding(c.get_or<std::string>("padding", "zeros")),
          .axis = c.get_or<int>("axis", -1)};
}

inline sig::sft_istft_options istft_opts_of(const case_t& c) {
  return {.k0 = c.get_or<std::int64_t>("k0", 0),
          .k1 = c.get_or<std::optional<std::int64_t>>("k1", std::nullopt),
          .f_axis = c.get_or<int>("f_axis", -2),
          .t_axis = c.get_or<int>("t_axis", -1)};
}

}  // namespace cusci::sft_test

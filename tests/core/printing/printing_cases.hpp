#pragma once
// Shared by the host and GPU tests of the printing family: reading a case of
// tests/golden/gen_core_printing.py (its options and inputs) and running it on a host_array or an
// ndarray. Each case's expected string is NumPy's, compared exactly.

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "cusci/printing.hpp"
#include "golden.hpp"

namespace printing_test {

using cusci::testing::golden_case;
using cusci::testing::golden_value;

inline const char* mod = "core_printing";

/// The print options of a case (NumPy's np.printoptions(**opts)).
inline cusci::print_options_update options_of(const golden_case& c) {
  const golden_value o = c.params().at("opts");
  cusci::print_options_update u;
  if (o.contains("precision")) u.precision = static_cast<int>(o.at("precision").as_int64());
  if (o.contains("threshold")) u.threshold = o.at("threshold").as_int64();
  if (o.contains("edgeitems")) u.edgeitems = static_cast<int>(o.at("edgeitems").as_int64());
  if (o.contains("linewidth")) u.linewidth = static_cast<int>(o.at("linewidth").as_int64());
  if (o.contains("suppress")) u.suppress = o.at("suppress").as_bool();
  if (o.contains("nanstr")) u.nanstr = o.at("nanstr").as_string();
  if (o.contains("infstr")) u.infstr = o.at("infstr").as_string();
  if (o.contains("sign")) u.sign = cusci::print_sign_from_string(o.at("sign").as_string());
  if (o.contains("floatmode")) u.floatmode = cusci::float_mode_from_string(o.at("floatmode").as_string());
  return u;
}

/// The keyword arguments of array2string (a superset of array_str's / array_repr's).
inline cusci::array2string_options kw_of(const golden_case& c) {
  const golden_value k = c.params().at("kw");
  cusci::array2string_options a;
  if (k.contains("max_line_width")) a.max_line_width = static_cast<int>(k.at("max_line_width").as_int64());
  if (k.contains("precision")) a.precision = static_cast<int>(k.at("precision").as_int64());
  if (k.contains("suppress_small")) a.suppress_small = k.at("suppress_small").as_bool();
  if (k.contains("separator")) a.separator = k.at("separator").as_string();
  if (k.contains("prefix")) a.prefix = k.at("prefix").as_string();
  if (k.contains("threshold")) a.threshold = k.at("threshold").as_int64();
  if (k.contains("edgeitems")) a.edgeitems = static_cast<int>(k.at("edgeitems").as_int64());
  if (k.contains("sign")) a.sign = cusci::print_sign_from_string(k.at("sign").as_string());
  if (k.contains("floatmode")) a.floatmode = cusci::float_mode_from_string(k.at("floatmode").as_string());
  if (k.contains("suffix")) a.suffix = k.at("suffix").as_string();
  return a;
}

inline cusci::array_str_options str_kw_of(const golden_case& c) {
  const cusci::array2string_options a = kw_of(c);
  return {a.max_line_width, a.precision, a.suppress_small};
}

/// The stored input in the case's dtype (float16 is stored as float32).
inline cusci::host_array input_of(const golden_case& c) {
  cusci::host_array h = c.array("x");
  const cusci::dtype dt = cusci::dtype_from_string(c.get<std::string>("dtype"));
  if (h.dtype() != dt) h = h.astype(dt);
  return h;
}

/// x[::2] along axis 0 of a host array (C order).
inline cusci::host_array every_other_row(const cusci::host_array& h) {
  cusci::shape_t s = h.shape();
  const std::int64_t rows = s[0], out_rows = (rows + 1) / 2;
  std::int64_t row_elems = 1;
  for (std::size_t i = 1; i < s.size(); ++i) row_elems *= s[i];
  s[0] = out_rows;
  cusci::host_array r(h.dtype(), s);
  const std::size_t rb = static_cast<std::size_t>(row_elems) * cusci::itemsize(h.dtype());
  for (std::int64_t i = 0; i < out_rows; ++i)
    std::memcpy(static_cast<std::byte*>(r.data()) + static_cast<std::size_t>(i) * rb,
                static_cast<const std::byte*>(h.data()) + static_cast<std::size_t>(2 * i) * rb, rb);
  return r;
}

/// Runs case c's function on `a` (a host_array or an ndarray) under the case's print options.
template <class A>
std::string run(const golden_case& c, const A& a) {
  cusci::printoptions guard(options_of(c));
  const std::string f = c.func();
  if (f == "str") return cusci::to_string(a);
  if (f == "repr") return cusci::array_repr(a);
  if (f == "array_str") return cusci::array_str(a, str_kw_of(c));
  if (f == "array_repr") return cusci::array_repr(a, str_kw_of(c));
  return cusci::array2string(a, kw_of(c));
}

}  // namespace printing_test

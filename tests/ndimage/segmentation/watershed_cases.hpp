#pragma once
// Shared by the watershed_ift tests: reading a case of tests/golden/gen_ndimage_watershed.py (module
// "ndimage_watershed") and comparing a result with SciPy's on the elements the case marks as
// uniquely determined.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../common/testing.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/segmentation.hpp"

namespace ws_test {

using cusci::host_array;
using cusci::testing::golden_case;

inline const char* kModule = "ndimage_watershed";

inline std::vector<golden_case> all_cases() { return cusci::testing::cases(kModule, "watershed_ift"); }

/// `h` (C order) in the case's layout as plain C-order host values: C and F hold the stored values,
/// rev reverses the last axis, step2 keeps every other element along each axis (the view the
/// generator handed to SciPy).
inline host_array host_layout(const host_array& h, const std::string& layout) {
  if (layout == "C" || layout == "F" || h.ndim() == 0) return h;
  const int nd = h.ndim();
  const auto& shape = h.shape();
  cusci::shape_t out_shape = shape;
  if (layout == "step2")
    for (auto& n : out_shape) n = (n + 1) / 2;
  host_array r(h.dtype(), out_shape);
  const std::size_t item = cusci::itemsize(h.dtype());
  const auto* src = static_cast<const unsigned char*>(h.data());
  auto* dst = static_cast<unsigned char*>(r.data());
  std::vector<std::int64_t> idx(static_cast<std::size_t>(nd), 0);
  for (std::int64_t k = 0; k < r.size(); ++k) {
    std::int64_t rem = k, flat = 0, mul = 1;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = rem % out_shape[d];
      rem /= out_shape[d];
    }
    for (int d = nd - 1; d >= 0; --d) {
      std::int64_t i = idx[d];
      if (layout == "step2") i *= 2;
      if (layout == "rev" && d == nd - 1) i = shape[d] - 1 - i;
      flat += i * mul;
      mul *= shape[d];
    }
    std::copy(src + flat * item, src + (flat + 1) * item, dst + k * item);
  }
  return r;
}

/// Checks dtype and shape, then the values against SciPy's on the elements `determined` marks (all
/// of them when `everywhere`). Returns the number of elements compared.
inline std::int64_t check_labels(const host_array& actual, const golden_case& c, bool everywhere) {
  const host_array expected = c.array("expected");
  CHECK(actual.dtype() == expected.dtype());
  REQUIRE(actual.shape() == expected.shape());
  const host_array det = c.array("determined");
  const host_array a = actual.astype(cusci::dtype::int64), e = expected.astype(cusci::dtype::int64);
  const auto* av = a.data_as<std::int64_t>();
  const auto* ev = e.data_as<std::int64_t>();
  const auto* dv = det.data_as<bool>();
  std::int64_t compared = 0, wrong = 0, first_wrong = -1;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (!everywhere && !dv[i]) continue;
    ++compared;
    if (av[i] != ev[i]) {
      if (first_wrong < 0) first_wrong = i;
      ++wrong;
    }
  }
  CHECK_MESSAGE(wrong == 0, "case " << c.name() << ": " << wrong << " of " << compared
                                    << " elements differ from SciPy, first at flat index " << first_wrong);
  return compared;
}

/// Checks that `run()` throws the case's exception, with a message naming the function.
template <class F>
void check_throws(const golden_case& c, F&& run) {
  cusci::testing::check_error(c, run);
  try {
    run();
  } catch (const cusci::error& e) {
    const std::string what = e.what();
    CHECK_MESSAGE(what.rfind("cusci::ndimage::watershed_ift: ", 0) == 0, what);
  }
}

}  // namespace ws_test

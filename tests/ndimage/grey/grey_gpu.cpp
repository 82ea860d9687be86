// GPU tests of cusci::ndimage's grey morphology against SciPy 1.18.1 (tests/golden/gen_ndimage_grey.py):
// box sizes (odd, even, per axis) in every mode, flat footprints (asymmetric, even, 3-D, all-true),
// non-flat structures (with footprints, 1-D to 4-D, more taps than the kernel parameters hold, tiles),
// origins over their valid range, axes, every real dtype with SciPy's casts, NaN and infinities,
// output dtypes and arrays (every layout, in place), C / F / strided / reversed / broadcast inputs,
// sizes 0 and 1, and the errors, for all eight functions.

#include <doctest/doctest.h>

#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "grey_cases.hpp"

namespace {

/// Runs every case of `func` whose name starts with `prefix` (or contains `infix`); returns how many
/// ran.
int run_func(const std::string& func, const std::string& prefix = "", const std::string& infix = "") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_grey", func)) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    if (!infix.empty() && c.name().find(infix) == std::string::npos) continue;
    INFO("case " << c.name());
    const auto x = grey_test::input_of(c);
    if (c.expects_error()) grey_test::check_throws(c, x);
    else ndimage_test::check_case_with(c, x, grey_test::call);
    ++n;
  }
  return n;
}

int run_all(const std::string& prefix, const std::string& infix = "") {
  int n = 0;
  for (const char* f : grey_test::funcs) n += run_func(f, prefix, infix);
  return n;
}

}  // namespace

TEST_CASE("grey_erosion / grey_dilation: boxes, footprints, structures, modes") {
  for (const char* f : {"grey_erosion", "grey_dilation"}) {
    INFO(f);
    CHECK(run_func(f, std::string(f) + "_s") >= 25);
    CHECK(run_func(f, std::string(f) + "_rand43") >= 9);
    CHECK(run_func(f, std::string(f) + "_st") >= 25);
    CHECK(run_func(f, std::string(f) + "_fp") >= 3);
  }
}
TEST_CASE("grey composites: boxes, footprints and structures") {
  for (const char* f : {"grey_opening", "grey_closing", "morphological_gradient", "morphological_laplace",
                        "white_tophat", "black_tophat"}) {
    INFO(f);
    CHECK(run_func(f, std::string(f) + "_") >= 15);
  }
}
TEST_CASE("grey morphology: origins (even extents, footprints, structures) and axes") {
  CHECK(run_all("", "_origin") >= 60);
  CHECK(run_all("", "_axes") >= 30);
}
TEST_CASE("grey morphology: every real dtype, 64-bit extremes, output dtypes") {
  CHECK(run_all("dt_") >= 150);
  CHECK(run_all("out_") >= 40);
}
TEST_CASE("grey morphology: NaN and infinities give SciPy's values") { CHECK(run_all("nan_") >= 70); }
TEST_CASE("grey morphology: layouts (C, F, step2, rev, broadcast)") { CHECK(run_all("lay_") >= 60); }
TEST_CASE("grey morphology: output arrays of every layout, in place, other dtypes") {
  CHECK(run_all("outarr_") >= 130);
}
TEST_CASE("grey morphology: sizes 0 and 1") {
  CHECK(run_all("empty_") >= 9);
  CHECK(run_all("one_") >= 9);
}
TEST_CASE("grey morphology: errors with SciPy's kinds and texts, NumPy's casting errors included") {
  CHECK(run_all("err_") >= 75);
}

TEST_CASE("grey morphology runs on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("grey_erosion", "grey_erosion_st") >= 10);
  CHECK(run_func("white_tophat", "white_tophat_") >= 10);
  s.synchronize();
}

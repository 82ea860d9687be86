// GPU tests of cusci::ndimage::correlate and convolve against SciPy 1.18 references
// (tests/golden/gen_ndimage_correlate.py): every input dtype (bool, integers, float32, float64,
// complex64, complex128), outputs of other dtypes (truncation and wrap-around), weights of 1-D..4-D
// with even sizes, zeros, tiny and NaN weights over inf / NaN inputs, every mode with cval, origins
// (scalar, per axis, invalid), axes subsets, output arrays (C and F) and in-place calls, C / F /
// strided / reversed inputs, complex inputs and weights, 0-d and empty inputs, and the error cases
// with SciPy's exception kind and message.

#include <doctest/doctest.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "../ndimage_layouts.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/correlate.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

namespace {

using cusci::testing::golden_case;
namespace ndi = cusci::ndimage;

const char* module_name = "ndimage_correlate";

/// The call of case `c` on `x`; `out_array` receives the output array it passed, if any.
cusci::ndarray run_case(const golden_case& c, const cusci::ndarray& x, std::optional<cusci::ndarray>& out_array) {
  ndi::correlate_options o;
  o.mode = ndi::parse_mode(c.get<std::string>("mode"));
  o.cval = c.get<std::complex<double>>("cval");
  if (c.has("origin_seq")) o.origin = ndi::per_axis<std::int64_t>(c.get<std::vector<std::int64_t>>("origin_seq"));
  else o.origin = c.get<std::int64_t>("origin");
  if (c.has("axes")) o.axes = c.get<std::vector<int>>("axes");
  const std::string kind = c.get<std::string>("output_kind");
  if (kind == "dtype") {
    if (c.has("output")) o.output = cusci::dtype_from_string(c.get<std::string>("output"));
  } else if (kind == "inplace") {
    o.output = x;
    out_array = x;
  } else {
    const cusci::dtype dt = cusci::dtype_from_string(c.get<std::string>("output"));
    cusci::shape_t shape = x.shape();
    if (kind == "array_shape") {
      const auto v = c.get<std::vector<std::int64_t>>("output_shape");
      shape.assign(v.begin(), v.end());
    }
    const auto ord = c.get<std::string>("output_order") == "F" ? cusci::order::F : cusci::order::C;
    out_array = cusci::zeros(shape, dt, ord);
    o.output = *out_array;
  }
  const cusci::host_array w = c.array("weights");
  const bool conv = c.func() == "convolve";
  if (c.get<bool>("weights_device")) {
    const cusci::ndarray wd = cusci::asarray(w);
    return conv ? ndi::convolve(x, wd, o) : ndi::correlate(x, wd, o);
  }
  return conv ? ndi::convolve(x, w, o) : ndi::correlate(x, w, o);
}

/// Checks the exception kind SciPy raised and that the message names the function and carries
/// SciPy's text.
void check_error_case(const golden_case& c, const cusci::ndarray& x) {
  std::optional<cusci::ndarray> out_array;
  const std::string want = c.error();
  const std::string prefix = "cusci::ndimage::" + c.func();
  const std::string scipy_text = c.get<std::string>("scipy_message");
  bool thrown = false;
  try {
    (void)run_case(c, x, out_array);
  } catch (const cusci::runtime_error& e) {
    thrown = true;
    CHECK_MESSAGE(want == "runtime_error", "threw runtime_error: " << e.what());
    CHECK_MESSAGE(std::string(e.what()).find(prefix) == 0, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(scipy_text) != std::string::npos, e.what() << " lacks " << scipy_text);
  } catch (const cusci::value_error& e) {
    thrown = true;
    CHECK_MESSAGE(want == "value_error", "threw value_error: " << e.what());
    CHECK_MESSAGE(std::string(e.what()).find(prefix) == 0, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(scipy_text) != std::string::npos, e.what() << " lacks " << scipy_text);
  } catch (const cusci::type_error& e) {
    thrown = true;
    CHECK_MESSAGE(want == "type_error", "threw type_error: " << e.what());
    CHECK_MESSAGE(std::string(e.what()).find(prefix) == 0, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(scipy_text) != std::string::npos, e.what() << " lacks " << scipy_text);
  } catch (const cusci::error& e) {
    thrown = true;
    FAIL("unexpected cusci exception: " << e.what());
  }
  CHECK_MESSAGE(thrown, "expected " << want);
}

/// Runs every case whose name starts with `prefix` (all when empty); returns how many ran.
int run_cases(const std::string& prefix) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(module_name)) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) {
      check_error_case(c, x);
    } else {
      std::optional<cusci::ndarray> out_array;
      const auto y = run_case(c, x, out_array);
      const auto expected = c.array("expected");
      cusci::testing::check_allclose(y, expected, c.rtol(), c.atol());
      if (out_array) {
        // The output array itself is returned and holds the result.
        CHECK(y.data() == out_array->data());
        CHECK(y.strides() == out_array->strides());
        cusci::testing::check_allclose(*out_array, expected, c.rtol(), c.atol());
      } else {
        CHECK(y.is_c_contiguous());
      }
    }
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("correlate / convolve: every input dtype, 2-D 3 x 3") { CHECK(run_cases("dt_") == 26); }
TEST_CASE("correlate: output dtypes (SciPy's cast of the double sum)") { CHECK(run_cases("out_") == 12); }
TEST_CASE("correlate / convolve: weights of 1-D..4-D, even sizes") {
  CHECK(run_cases("w1d_") == 10);
  CHECK(run_cases("w2d_") == 16);
  CHECK(run_cases("w3d_") == 12);
  CHECK(run_cases("w4d") == 2);
}
TEST_CASE("correlate: zero, tiny and NaN weights are skipped as SciPy (inf / NaN inputs under them)") {
  CHECK(run_cases("w_zeros") == 4);
  CHECK(run_cases("w_nan_weight") == 1);
  CHECK(run_cases("w_all_zero") == 2);
}
TEST_CASE("correlate: integer and bool weights, device weights") {
  CHECK(run_cases("w_int_weights") == 1);
  CHECK(run_cases("w_bool_weights") == 1);
  CHECK(run_cases("w_device") == 2);
}
TEST_CASE("correlate: several tiles of the blocked kernels and the generic kernel") {
  CHECK(run_cases("tiles_") == 13);
  CHECK(run_cases("long_1d") == 1);
  CHECK(run_cases("short_") == 2);
}
TEST_CASE("correlate / convolve: every mode") { CHECK(run_cases("mode_") == 40); }
TEST_CASE("correlate / convolve: origins, valid and invalid") { CHECK(run_cases("origin_") == 16); }
TEST_CASE("correlate / convolve: axes") { CHECK(run_cases("axes_") == 10); }
TEST_CASE("correlate / convolve: output arrays and in place") {
  CHECK(run_cases("outarr_") == 3);
  CHECK(run_cases("inplace_") == 3);
}
TEST_CASE("correlate / convolve: F, strided and reversed inputs") { CHECK(run_cases("layout_") == 14); }
TEST_CASE("correlate / convolve: complex inputs and weights") { CHECK(run_cases("cx_") == 24); }
TEST_CASE("correlate / convolve: 0-d and empty inputs") {
  CHECK(run_cases("zero_d") == 2);
  CHECK(run_cases("empty_") == 2);
}
TEST_CASE("correlate / convolve: errors (kind and message)") { CHECK(run_cases("err_") == 10); }

TEST_CASE("correlate runs on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_cases("tiles_") == 13);
  CHECK(run_cases("cx_") == 24);
  s.synchronize();
}

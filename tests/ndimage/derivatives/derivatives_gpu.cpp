// GPU tests of cusci::ndimage's derivative filters against SciPy 1.18 references
// (tests/golden/gen_ndimage_derivatives.py): every case of prewitt, sobel, laplace,
// gaussian_laplace, gaussian_gradient_magnitude, generic_laplace and generic_gradient_magnitude, over
// dtypes (integers of every width, float32, float64, complex64, complex128; float16 where SciPy
// accepts it), 0-d to 4-D, C/F/strided/reversed inputs, every mode, per-axis modes, axes subsets,
// output dtypes, output arrays (C, F, strided views, the input itself), integer wrap-around in the
// sums and squares, a crop of the camera image, and the error cases with their exception types.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../ndimage_layouts.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/derivatives.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

namespace {

namespace nd = cusci::ndimage;
using cusci::ndarray;
using cusci::testing::golden_case;

const std::string module_name = "ndimage_derivatives";

nd::mode mode_of(const cusci::testing::golden_value& j) { return nd::parse_mode(j.get<std::string>()); }

nd::per_axis<nd::mode> modes_of(const golden_case& c) {
  if (!c.has("mode")) return nd::mode::reflect;
  const auto& j = c.params().at("mode");
  if (!j.is_array()) return mode_of(j);
  std::vector<nd::mode> v;
  for (const auto& m : j) v.push_back(mode_of(m));
  return v;
}

std::optional<std::vector<int>> axes_of(const golden_case& c) {
  if (!c.has("axes")) return std::nullopt;
  return c.get<std::vector<int>>("axes");
}

nd::per_axis<double> sigma_of(const golden_case& c) {
  const auto& j = c.params().at("sigma");
  if (!j.is_array()) return c.get<double>("sigma");
  return c.get<std::vector<double>>("sigma");
}

nd::per_axis<std::int64_t> radius_of(const golden_case& c) {
  if (!c.has("radius")) return {};
  const auto& j = c.params().at("radius");
  if (!j.is_array()) return c.get<std::int64_t>("radius");
  return c.get<std::vector<std::int64_t>>("radius");
}

std::optional<cusci::dtype> output_dtype_of(const golden_case& c) {
  if (!c.has("output")) return std::nullopt;
  return cusci::dtype_from_string(c.get<std::string>("output"));
}

/// The output array a case gives as `output=` (none when out_layout is absent): zeros in C or F
/// order, a strided view of zeros twice as large, one with an extra row, or the input itself.
std::optional<ndarray> output_array_of(const golden_case& c, const ndarray& x) {
  if (!c.has("out_layout")) return std::nullopt;
  const std::string ol = c.get<std::string>("out_layout");
  if (ol == "inplace") return x;
  const cusci::dtype dt = output_dtype_of(c).value_or(x.dtype());
  if (ol == "C") return cusci::zeros(x.shape(), dt);
  if (ol == "F") return cusci::zeros(x.shape(), dt, cusci::order::F);
  if (ol == "step2") {
    cusci::shape_t big = x.shape();
    for (auto& n : big) n *= 2;
    return ndimage_test::every_other(cusci::zeros(big, dt));
  }
  REQUIRE(ol == "badshape");
  cusci::shape_t bad = x.shape();
  bad[0] += 1;
  return cusci::zeros(bad, dt);
}

/// The callables of the generator's DERIVATIVES, built from cusci's functions.
nd::derivative_function derivative_of(const std::string& name) {
  if (name == "sobel")
    return [](const ndarray& in, int ax, const nd::output_arg& out, nd::mode m, double cval) {
      return nd::sobel(in, ax, {.output = out, .mode = m, .cval = cval});
    };
  if (name == "prewitt")
    return [](const ndarray& in, int ax, const nd::output_arg& out, nd::mode m, double cval) {
      return nd::prewitt(in, ax, {.output = out, .mode = m, .cval = cval});
    };
  if (name == "corr121")
    return [](const ndarray& in, int ax, const nd::output_arg& out, nd::mode m, double cval) {
      return nd::correlate1d(in, {1.0, -2.0, 1.0}, ax, {.output = out, .mode = m, .cval = cval});
    };
  REQUIRE(name == "corr121_f64");
  // float64 whatever the output: for an output array the result is copied into it by the filter.
  return [](const ndarray& in, int ax, const nd::output_arg&, nd::mode m, double cval) {
    return nd::correlate1d(in, {1.0, -2.0, 1.0}, ax, {.output = cusci::dtype::float64, .mode = m, .cval = cval});
  };
}

ndarray run_case(const golden_case& c, const ndarray& x, const nd::output_arg& out) {
  const std::string f = c.func();
  const auto modes = modes_of(c);
  const double cval = c.get_or<double>("cval", 0.0);
  if (f == "sobel" || f == "prewitt") {
    const nd::sobel_options o{.output = out, .mode = modes, .cval = cval};
    return f == "sobel" ? nd::sobel(x, c.get<int>("axis"), o) : nd::prewitt(x, c.get<int>("axis"), o);
  }
  if (f == "laplace") return nd::laplace(x, {.output = out, .mode = modes, .cval = cval, .axes = axes_of(c)});
  if (f == "gaussian_laplace" || f == "gaussian_gradient_magnitude") {
    const nd::gaussian_laplace_options o{.output = out,
                                         .mode = modes,
                                         .cval = cval,
                                         .axes = axes_of(c),
                                         .truncate = c.get<double>("truncate"),
                                         .radius = radius_of(c)};
    return f == "gaussian_laplace" ? nd::gaussian_laplace(x, sigma_of(c), o)
                                   : nd::gaussian_gradient_magnitude(x, sigma_of(c), o);
  }
  const nd::laplace_options o{.output = out, .mode = modes, .cval = cval, .axes = axes_of(c)};
  const auto d = derivative_of(c.get<std::string>("derivative"));
  if (f == "generic_laplace") return nd::generic_laplace(x, d, o);
  REQUIRE(f == "generic_gradient_magnitude");
  return nd::generic_gradient_magnitude(x, d, o);
}

/// Checks that `call` throws the exception case `c` names, with a message naming the function.
template <class F>
void check_throws(const golden_case& c, F&& call) {
  const std::string e = c.error();
  // A derivative callable's own error names the callable's function (sobel's, for instance).
  const std::string prefix = "cusci::ndimage::";
  auto check_text = [&](const std::exception& ex) {
    const std::string what = ex.what();
    CHECK_MESSAGE(what.rfind(prefix, 0) == 0, "message: " << what);
  };
  bool thrown = false;
  try {
    (void)call();
  } catch (const cusci::runtime_error& ex) {
    thrown = true;
    CHECK_MESSAGE(e == "runtime_error", "threw runtime_error, expected " << e << ": " << ex.what());
    check_text(ex);
  } catch (const cusci::value_error& ex) {
    thrown = true;
    CHECK_MESSAGE(e == "value_error", "threw value_error, expected " << e << ": " << ex.what());
    check_text(ex);
  } catch (const cusci::type_error& ex) {
    thrown = true;
    CHECK_MESSAGE(e == "type_error", "threw type_error, expected " << e << ": " << ex.what());
    check_text(ex);
  } catch (const cusci::index_error& ex) {
    thrown = true;
    CHECK_MESSAGE(e == "index_error", "threw index_error, expected " << e << ": " << ex.what());
    check_text(ex);
  }
  CHECK_MESSAGE(thrown, "expected " << e);
}

/// Runs every case of `func`; returns how many ran.
int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(module_name, func)) {
    INFO("case " << c.name());
    const ndarray x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    const std::optional<ndarray> out_arr = output_array_of(c, x);
    const nd::output_arg out = out_arr ? nd::output_arg(*out_arr) : nd::output_arg(output_dtype_of(c));
    ++n;
    if (c.expects_error()) {
      check_throws(c, [&] { return run_case(c, x, out); });
      continue;
    }
    const bool inplace = c.get_or<std::string>("out_layout", "") == "inplace";
    const cusci::host_array before = cusci::to_host(x);
    const ndarray y = run_case(c, x, out);
    const cusci::host_array expected = c.array("expected");
    cusci::testing::check_allclose(y, expected, c.rtol(), c.atol());
    if (out_arr) {
      // The output array itself is returned and holds the result.
      CHECK(y.data() == out_arr->data());
      CHECK(y.strides() == out_arr->strides());
      cusci::testing::check_allclose(*out_arr, expected, c.rtol(), c.atol());
    } else {
      CHECK_MESSAGE(y.is_c_contiguous(), "a new output is C-contiguous, as SciPy allocates it");
      if (x.size() > 0) CHECK(y.data() != x.data());
    }
    if (!inplace) cusci::testing::check_allclose(x, before, 0.0, 0.0);  // the input is left alone
  }
  return n;
}

/// How many cases gen_ndimage_derivatives.py writes for each function: a manifest with fewer (a
/// generator or reference file cut short) fails the run instead of passing on what is left.
int generated_cases(const std::string& func) {
  if (func == "sobel") return 102;  // prewitt's 99 and three camera cases
  if (func == "prewitt") return 99;
  if (func == "laplace") return 90;
  if (func == "gaussian_laplace") return 74;
  if (func == "gaussian_gradient_magnitude") return 72;
  if (func == "generic_gradient_magnitude") return 48;
  REQUIRE(func == "generic_laplace");
  return 30;
}

void check_func(const std::string& func) {
  const int n = run_func(func);
  CHECK(n == static_cast<int>(cusci::testing::cases(module_name, func).size()));
  CHECK_MESSAGE(n >= generated_cases(func), func << ": " << n << " cases in the manifest, the generator writes "
                                                 << generated_cases(func));
}

}  // namespace

TEST_CASE("sobel matches SciPy") { check_func("sobel"); }
TEST_CASE("prewitt matches SciPy") { check_func("prewitt"); }
TEST_CASE("laplace matches SciPy (in place: later axes read the updated array)") { check_func("laplace"); }
TEST_CASE("gaussian_laplace matches SciPy (sigma <= 1e-15, negative or NaN: no pass on that axis)") {
  check_func("gaussian_laplace");
}
TEST_CASE("gaussian_gradient_magnitude matches SciPy") { check_func("gaussian_gradient_magnitude"); }
TEST_CASE("generic_gradient_magnitude matches SciPy (integer wrap-around and NaN casts included)") {
  check_func("generic_gradient_magnitude");
}
TEST_CASE("generic_laplace matches SciPy (mixed dtypes through same_kind casting)") { check_func("generic_laplace"); }

TEST_CASE("derivative filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  check_func("sobel");
  check_func("gaussian_gradient_magnitude");
  check_func("laplace");
  s.synchronize();
}

TEST_CASE("generic_laplace calls the derivative as SciPy: output array first, then the dtype, in axes order") {
  const auto x = cusci::asarray(std::vector<double>(4 * 5 * 6, 1.0), {4, 5, 6});
  struct call {
    int axis;
    bool is_array;
    const void* data;
    std::optional<cusci::dtype> dt;
    nd::mode mode;
    double cval;
  };
  std::vector<call> calls;
  const nd::derivative_function d = [&](const ndarray& in, int ax, const nd::output_arg& out, nd::mode m,
                                        double cval) {
    calls.push_back({ax, out.is_array(), out.is_array() ? out.array().data() : nullptr, out.dtype(), m, cval});
    CHECK(in.data() == x.data());
    return nd::laplace(in, {.output = out, .mode = m, .cval = cval, .axes = std::vector<int>{ax}});
  };
  const auto out = cusci::zeros({4, 5, 6}, cusci::dtype::float32);
  const auto y = nd::generic_laplace(x, d,
                                     {.output = out,
                                      .mode = std::vector<nd::mode>{nd::mode::wrap, nd::mode::constant},
                                      .cval = 2.5,
                                      .axes = std::vector<int>{2, -3}});
  CHECK(y.data() == out.data());
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].axis == 2);
  CHECK(calls[0].is_array);
  CHECK(calls[0].data == out.data());
  CHECK(calls[0].mode == nd::mode::wrap);
  CHECK(calls[1].axis == 0);
  CHECK_FALSE(calls[1].is_array);
  CHECK(calls[1].dt == cusci::dtype::float32);
  CHECK(calls[1].mode == nd::mode::constant);
  CHECK(calls[1].cval == 2.5);
}

TEST_CASE("generic filters refuse an empty callable and a result that does not broadcast") {
  const auto x = cusci::zeros({4, 5}, cusci::dtype::float64);
  CHECK_THROWS_AS(nd::generic_laplace(x, nd::derivative_function{}), cusci::value_error);
  CHECK_THROWS_AS(nd::generic_gradient_magnitude(x, nd::derivative_function{}), cusci::value_error);
  const nd::derivative_function bad = [](const ndarray&, int, const nd::output_arg&, nd::mode, double) {
    return cusci::zeros({3, 3}, cusci::dtype::float64);
  };
  CHECK_THROWS_AS(nd::generic_laplace(x, bad), cusci::value_error);
  CHECK_THROWS_AS(nd::generic_gradient_magnitude(x, bad), cusci::value_error);
  // No axes: the callable is never called and the input is copied (SciPy: output[...] = input).
  const auto y = nd::generic_laplace(x, nd::derivative_function{}, {.axes = std::vector<int>{}});
  CHECK(y.shape() == x.shape());
}

// GPU tests of the numeric family against NumPy references (tests/golden/gen_core_numeric.py): every
// case builds its inputs in the stored dtype and layout, runs the function and compares dtype, shape
// and values (complex results part by part); error cases check the exception kind NumPy's call raises.
// Then checks NumPy cannot serve as reference for: scaled 2-norms beyond float range, nan_to_num's
// in-place form, stream behaviour.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/numeric.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::golden_case;
using cusci::testing::golden_value;

namespace {

const char* mod = "core_numeric";

/// Input `p` of case c in its dtype and layout.
ndarray input(const golden_case& c, const std::string& p) {
  ndarray s = asarray(golden(mod, c.get<std::string>(p)));
  const dtype dt = dtype_from_string(c.get<std::string>(p + "_dtype"));
  if (s.dtype() != dt) s = s.astype(dt);
  const std::string layout = c.get_or<std::string>(p + "_layout", "C");
  if (layout == "F") return s.copy(order::F);
  if (layout == "S2") return s[{slice{0, std::nullopt, 2}}];
  if (layout == "R") return s[{slice{std::nullopt, std::nullopt, -1}}];
  return s;
}

/// Complex host arrays as float64 arrays of interleaved parts (so that each part is compared alone).
host_array parts(const host_array& h) {
  if (!is_complex(h.dtype())) return h;
  host_array c = h.astype(dtype::complex128);
  const auto* p = c.data_as<std::complex<double>>();
  std::vector<double> v;
  v.reserve(static_cast<std::size_t>(2 * c.size()));
  for (std::int64_t i = 0; i < c.size(); ++i) {
    v.push_back(p[i].real());
    v.push_back(p[i].imag());
  }
  shape_t s = c.shape();
  s.push_back(2);
  return host_array::from(v, s);
}

/// Compares a result with the expected array `name`, whose dtype is `rdtype`.
void compare(const ndarray& actual, const golden_case& c, const std::string& name, const std::string& rdtype) {
  const dtype rdt = dtype_from_string(rdtype);
  CHECK_MESSAGE(actual.dtype() == rdt, "dtype " << dtype_name(actual.dtype()) << " != " << rdtype);
  host_array e = golden(mod, name);
  host_array a = to_host(actual);
  if (a.dtype() != e.dtype()) a = a.astype(e.dtype());
  check_allclose(parts(a), parts(e), c.rtol(), c.atol(), false);
}

void compare(const ndarray& actual, const golden_case& c) {
  compare(actual, c, c.get<std::string>("expected"), c.get<std::string>("rdtype"));
}

std::optional<std::complex<double>> opt_complex(const golden_case& c, const std::string& k) {
  if (!c.has(k)) return std::nullopt;
  return c.get<std::complex<double>>(k);
}

axis_arg axis_of(const golden_case& c) {
  if (!c.has("axis")) return {};
  return axis_arg(c.get<std::vector<int>>("axis"));
}

linalg::norm_ord ord_of(const golden_case& c) {
  if (!c.has("ord")) return {};
  const golden_value p = c.params().at("ord");
  if (p.is_string()) {
    const std::string s = p.as_string();
    if (s == "fro" || s == "nuc" || s == "f") return linalg::parse_norm_kind(s);
    return c.get<double>("ord");  // "inf", "-inf", "nan"
  }
  return c.get<double>("ord");
}

void run_case(const golden_case& c) {
  const std::string f = c.func();
  if (f == "interp") {
    interp_options o{.left = opt_complex(c, "left"), .right = opt_complex(c, "right"),
                     .period = c.has("period") ? std::optional<double>(c.get<double>("period")) : std::nullopt};
    auto call = [&] { return interp(input(c, "x"), input(c, "xp"), input(c, "fp"), o); };
    if (c.expects_error()) return cusci::testing::check_error(c, call);
    compare(call(), c);
  } else if (f == "gradient") {
    std::vector<gradient_spacing> sp;
    const golden_value list = c.params().at("spacing");
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].is_string()) {
        ndarray h = asarray(golden(mod, list[i].as_string()));
        const std::string dk = "h" + std::to_string(i) + "_dtype";
        if (c.has(dk)) h = h.astype(dtype_from_string(c.get<std::string>(dk)), false);
        sp.emplace_back(h);
      } else {
        sp.emplace_back(list[i].as_double());
      }
    }
    gradient_options o{.axis = axis_of(c), .edge_order = c.get<int>("edge_order")};
    auto call = [&] { return gradient(input(c, "f"), sp, o); };
    if (c.expects_error()) return cusci::testing::check_error(c, call);
    const auto r = call();
    const auto names = c.get<std::vector<std::string>>("expected");
    REQUIRE(r.size() == names.size());
    for (std::size_t i = 0; i < r.size(); ++i) compare(r[i], c, names[i], c.get<std::string>("rdtype"));
  } else if (f == "trapezoid") {
    trapezoid_options o{.x = c.has("x") ? std::optional<ndarray>(input(c, "x")) : std::nullopt,
                        .dx = c.get_or<double>("dx", 1.0), .axis = c.get_or<int>("axis", -1)};
    auto call = [&] { return trapezoid(input(c, "y"), o); };
    if (c.expects_error()) return cusci::testing::check_error(c, call);
    compare(call(), c);
  } else if (f == "isclose") {
    isclose_options o{.rtol = c.get<double>("c_rtol"), .atol = c.get<double>("c_atol"),
                      .equal_nan = c.get<bool>("equal_nan")};
    auto call = [&] { return isclose(input(c, "a"), input(c, "b"), o); };
    if (c.expects_error()) {
      cusci::testing::check_error(c, call);
      return cusci::testing::check_error(c, [&] { return allclose(input(c, "a"), input(c, "b"), o); });
    }
    compare(call(), c);
    CHECK(allclose(input(c, "a"), input(c, "b"), o) == c.get<bool>("allclose"));
  } else if (f == "array_equal") {
    CHECK(array_equal(input(c, "a"), input(c, "b"), {.equal_nan = c.get<bool>("equal_nan")}) ==
          c.get<bool>("result"));
  } else if (f == "nan_to_num") {
    nan_to_num_options o{.copy = c.get<bool>("copy"), .nan = c.get_or<double>("nan", 0.0),
                         .posinf = c.has("posinf") ? std::optional<double>(c.get<double>("posinf")) : std::nullopt,
                         .neginf = c.has("neginf") ? std::optional<double>(c.get<double>("neginf")) : std::nullopt};
    ndarray x = input(c, "x");
    ndarray r = nan_to_num(x, o);
    compare(r, c);
    if (!o.copy) {
      CHECK(r.data() == x.data());
      compare(x, c);
    }
  } else if (f == "cross") {
    cross_options o{.axisa = c.get_or<int>("axisa", -1), .axisb = c.get_or<int>("axisb", -1),
                    .axisc = c.get_or<int>("axisc", -1),
                    .axis = c.has("axis") ? std::optional<int>(c.get<int>("axis")) : std::nullopt};
    auto call = [&] { return cross(input(c, "a"), input(c, "b"), o); };
    if (c.expects_error()) return cusci::testing::check_error(c, call);
    compare(call(), c);
  } else if (f == "norm") {
    linalg::norm_options o{.ord = ord_of(c), .axis = axis_of(c), .keepdims = c.get_or<bool>("keepdims", false)};
    auto call = [&] { return linalg::norm(input(c, "x"), o); };
    if (c.expects_error()) return cusci::testing::check_error(c, call);
    compare(call(), c);
  } else {
    FAIL("unknown func " << f);
  }
}

}  // namespace

TEST_CASE("numeric goldens") {
  const auto& rows = cusci::testing::cases(mod);
  REQUIRE(rows.size() > 900);
  for (const golden_case& c : rows) {
    CAPTURE(c.name());
    run_case(c);
  }
}

TEST_CASE("norm: the 2-norm is scaled (no overflow or underflow, unlike NumPy's sum of squares)") {
  ndarray v = asarray(std::vector<float>{3e30f, 4e30f});
  CHECK(linalg::norm(v).item<float>() == doctest::Approx(5e30f).epsilon(1e-6));
  CHECK(linalg::norm(v[{slice{std::nullopt, std::nullopt, -1}}]).item<float>() == doctest::Approx(5e30f).epsilon(1e-6));
  ndarray m = asarray(std::vector<double>{3e200, 4e200, 3e-200, 4e-200}, {2, 2});
  host_array r = to_host(linalg::norm(m, {.axis = 1}));
  CHECK(r.data_as<double>()[0] == doctest::Approx(5e200));
  CHECK(r.data_as<double>()[1] == doctest::Approx(5e-200));
  ndarray h = asarray(std::vector<float>{300.f, 400.f}).astype(dtype::float16);
  CHECK(static_cast<float>(linalg::norm(h).item<float16>()) == doctest::Approx(500.f));
  ndarray z = zeros({4}, dtype::float64);
  CHECK(linalg::norm(z, {.axis = 0}).item<double>() == 0.0);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(linalg::norm(asarray(std::vector<double>{1.0, inf}), {.axis = 0}).item<double>() == inf);
  CHECK(std::isnan(linalg::norm(asarray(std::vector<double>{inf, std::nan("")}), {.axis = 0}).item<double>()));
}

TEST_CASE("norm: singular values of a stack match the Frobenius norm of rank-one matrices") {
  // rank one: 2-norm = nuc = fro
  ndarray u = asarray(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3, 1});
  ndarray v = asarray(std::vector<double>{1, -1, 2, 0.5}, {2, 1, 2});
  ndarray m = multiply(u, v);  // (2, 3, 2)
  ndarray a = linalg::norm(m, {.ord = 2, .axis = {1, 2}});
  ndarray b = linalg::norm(m, {.ord = linalg::norm_kind::nuc, .axis = {1, 2}});
  ndarray c = linalg::norm(m, {.axis = {1, 2}});
  check_allclose(a, to_host(c), 1e-12, 0);
  check_allclose(b, to_host(c), 1e-12, 0);
}

TEST_CASE("allclose and array_equal synchronize and read the result; isclose is asynchronous") {
  // From 1: at 0, |0 - 1e-7| exceeds atol 1e-8 and NumPy's allclose is False as well.
  ndarray a = arange(1, 1001).astype(dtype::float32);
  ndarray b = add(a, 1e-7);
  ndarray r = isclose(a, b);
  CHECK(r.dtype() == dtype::bool_);
  CHECK(allclose(a, b));
  CHECK_FALSE(allclose(a, add(a, 1.0)));
  CHECK(array_equal(a, a));
  CHECK_FALSE(array_equal(a, b.reshape({10, 100})));
}

TEST_CASE("cross: the result is a view with the vector axis moved") {
  ndarray a = asarray(std::vector<double>{1, 0, 0, 0, 1, 0}, {2, 3});
  ndarray b = asarray(std::vector<double>{0, 1, 0, 0, 0, 1}, {2, 3});
  ndarray c = cross(a, b, {.axisc = 0});
  CHECK(c.shape() == shape_t{3, 2});
  host_array h = to_host(c);
  const double* p = h.data_as<double>();
  // rows: components; columns: the two products e1 x e2 = e3, e2 x e3 = e1
  CHECK(p[0] == 0);
  CHECK(p[1] == 1);
  CHECK(p[4] == 1);
  CHECK(p[5] == 0);
}

TEST_CASE("interp: big x, periodic and complex paths give finite results") {
  ndarray xp = linspace(0.0, 1.0, 1000);
  ndarray fp = square(xp);
  ndarray x = linspace(-0.5, 1.5, 100001);
  ndarray r = interp(x, xp, fp, {.left = 0.0, .right = 2.0});
  host_array h = to_host(r);
  const double* p = h.data_as<double>();
  CHECK(p[0] == 0.0);
  CHECK(p[100000] == 2.0);
  CHECK(p[50000] == doctest::Approx(0.25).epsilon(1e-5));
}

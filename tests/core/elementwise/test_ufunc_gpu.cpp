// Every ufunc of the elementwise family against NumPy 2.5 goldens (tests/golden/gen_core_elementwise.py):
// the dtype sweep incl. float16, sizes 0/1/odd/large, C / F / transposed (strided) / broadcast
// operands, NaN/inf/-0.0, integer division by zero, power edge cases, around, clip, out= (incl. a
// strided view and the casting errors), in-place operators and the errors NumPy raises.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "testing.hpp"

using namespace cusci;

namespace cusci::detail::cm {
void set_driver_launch(bool enabled);  // internal switch (core/src/elementwise.cu)
}

namespace {
const char* kMod = "core_elementwise";

using fn1 = std::function<ndarray(const ndarray&)>;
using fn2 = std::function<ndarray(const ndarray&, const ndarray&)>;

const std::map<std::string, fn1>& unary_table() {
#define U_(n) {#n, [](const ndarray& a) { return cusci::n(a); }}
  static const std::map<std::string, fn1> t = {
      U_(abs), U_(negative), U_(positive), U_(square), U_(reciprocal), U_(sign), U_(sqrt), U_(cbrt), U_(exp),
      U_(exp2), U_(expm1), U_(log), U_(log2), U_(log10), U_(log1p), U_(sin), U_(cos), U_(tan), U_(arcsin),
      U_(arccos), U_(arctan), U_(sinh), U_(cosh), U_(tanh), U_(arcsinh), U_(arccosh), U_(arctanh), U_(floor),
      U_(ceil), U_(trunc), U_(rint), U_(isnan), U_(isinf), U_(isfinite), U_(logical_not), U_(invert),
      U_(conjugate), {"angle", [](const ndarray& a) { return cusci::angle(a); }}};
#undef U_
  return t;
}

const std::map<std::string, fn2>& binary_table() {
#define B_(n) {#n, [](const ndarray& a, const ndarray& b) { return cusci::n(a, b); }}
  static const std::map<std::string, fn2> t = {
      B_(add), B_(subtract), B_(multiply), B_(divide), B_(floor_divide), B_(remainder), B_(power), B_(maximum),
      B_(minimum), B_(fmax), B_(fmin), B_(copysign), B_(arctan2), B_(hypot), B_(bitwise_and), B_(bitwise_or),
      B_(bitwise_xor), B_(left_shift), B_(right_shift), B_(logical_and), B_(logical_or), B_(logical_xor)};
#undef B_
  return t;
}

/// Input `k` of case `c` (its parameter inputs names the arrays).
host_array in(const testing::golden_case& c, int k) {
  return testing::golden(kMod, c.get<std::vector<std::string>>("inputs").at(k));
}

/// A bound of clip as a Python scalar: an int stays an int, a float a float.
scalar bound(const cusci::testing::golden_value& j) {
  return j.is_number_integer() ? scalar(j.get<long long>()) : scalar(j.get<double>());
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

TEST_CASE("unary ufuncs match NumPy over every dtype, in C, F and transposed layouts") {
  int n = 0;
  for (const auto& c : testing::cases(kMod)) {
    if (!starts_with(c.name(), "u_")) continue;
    INFO("case " << c.name());
    const fn1& f = unary_table().at(c.func());
    const ndarray x = asarray(in(c, 0));
    if (c.expects_error()) {
      testing::check_error(c, [&] { f(x); });
      ++n;
      continue;
    }
    const host_array want = c.array("expected");
    const double rt = c.rtol(), at = c.atol();
    testing::check_allclose(f(x), want, rt, at);
    if (x.ndim() == 2) {
      testing::check_allclose(f(x.copy(order::F)), want, rt, at);
      testing::check_allclose(f(x.T().copy()).T().copy(), want, rt, at);  // strided via the transpose
      testing::check_allclose(f(x.T()).T().copy(), want, rt, at);
    }
    ++n;
  }
  CHECK(n > 500);
}

TEST_CASE("binary ufuncs match NumPy over every dtype, broadcasting, F and transposed operands") {
  int n = 0;
  for (const auto& c : testing::cases(kMod)) {
    if (!starts_with(c.name(), "b_") && !starts_with(c.name(), "m_") && !starts_with(c.name(), "e_")) continue;
    INFO("case " << c.name());
    const fn2& f = binary_table().at(c.func());
    const ndarray a = asarray(in(c, 0)), b = asarray(in(c, 1));
    if (c.expects_error()) {
      testing::check_error(c, [&] { f(a, b); });
      ++n;
      continue;
    }
    const host_array want = c.array("expected");
    const double rt = c.rtol(), at = c.atol();
    testing::check_allclose(f(a, b), want, rt, at);
    if (a.ndim() == 2 && a.shape() == b.shape()) {
      testing::check_allclose(f(a.copy(order::F), b), want, rt, at);
      testing::check_allclose(f(a.T(), b.T()).T().copy(), want, rt, at);
    }
    ++n;
  }
  CHECK(n > 500);
}

TEST_CASE("binary ufuncs match NumPy through the runtime's launch as through the driver's") {
  // Kernels normally go out through cuLaunchKernel with a cached handle; the switch sends them through
  // the runtime's <<<>>> launch instead. Both paths must give NumPy's answers, contiguous and strided.
  struct restore {
    ~restore() { detail::cm::set_driver_launch(true); }
  } guard;
  int n = 0;
  for (const bool driver : {false, true}) {
    detail::cm::set_driver_launch(driver);
    for (const auto& c : testing::cases(kMod)) {
      if (!starts_with(c.name(), "b_") || c.expects_error()) continue;
      INFO("case " << c.name() << (driver ? " (driver launch)" : " (runtime launch)"));
      const fn2& f = binary_table().at(c.func());
      const ndarray a = asarray(in(c, 0)), b = asarray(in(c, 1));
      const host_array want = c.array("expected");
      const double rt = c.rtol(), at = c.atol();
      testing::check_allclose(f(a, b), want, rt, at);
      if (a.ndim() == 2 && a.shape() == b.shape()) testing::check_allclose(f(a.T(), b.T()).T().copy(), want, rt, at);
      ++n;
    }
  }
  CHECK(n > 500);
}

TEST_CASE("around and clip match NumPy") {
  int n = 0;
  for (const auto& c : testing::cases(kMod, "around")) {
    INFO("case " << c.name());
    testing::check_allclose(around(asarray(in(c, 0)), c.get<int>("decimals")), c.array("expected"), c.rtol(),
                            c.atol());
    ++n;
  }
  for (const auto& c : testing::cases(kMod, "clip")) {
    INFO("case " << c.name());
    const scalar lo = bound(c.params().at("lo")), hi = bound(c.params().at("hi"));
    const ndarray x = asarray(in(c, 0));
    if (c.expects_error()) {
      testing::check_error(c, [&] { clip(x, lo, hi); });
    } else {
      testing::check_allclose(clip(x, lo, hi), c.array("expected"), 0, 0);
    }
    ++n;
  }
  CHECK(n == 35);
}

TEST_CASE("result dtypes of add follow np.promote_types for all pairs and NEP 50 for weak scalars") {
  const dtype all[] = {
#define X_(name, type) dtype::name,
      CUSCI_FOR_EACH_DTYPE(X_)
#undef X_
  };
  host_array table = testing::golden(kMod, "promote_types");
  host_array weak = testing::golden(kMod, "weak_scalar");
  const auto* t = table.data_as<std::int32_t>();
  const auto* w = weak.data_as<std::int32_t>();
  const scalar scalars[] = {scalar(true), scalar(1), scalar(1.0), scalar(std::complex<double>(0, 1))};
  for (int i = 0; i < n_dtypes; ++i) {
    const ndarray a = ones({2}, all[i]);
    for (int j = 0; j < n_dtypes; ++j) CHECK(add(a, ones({2}, all[j])).dtype() == all[t[i * n_dtypes + j]]);
    for (int j = 0; j < 4; ++j) CHECK(add(a, scalars[j]).dtype() == all[w[i * 4 + j]]);
  }
}

TEST_CASE("out= writes into a given array (strided view included) with NumPy's same_kind rule") {
  const host_array xa = testing::golden(kMod, "b_add_float32_3x5_3x5_in0");
  const host_array ya = testing::golden(kMod, "b_add_float32_3x5_3x5_in1");
  const host_array want = testing::golden(kMod, "b_add_float32_3x5_3x5");
  const ndarray x = asarray(xa), y = asarray(ya);
  ndarray big = zeros({3, 10}, dtype::float64);
  ndarray view = big[{slice(), slice{0, 10, 2}}];  // strided (3, 5) view, float64: same_kind from float32
  ndarray r = add(x, y, &view);
  CHECK(r.data() == view.data());
  testing::check_allclose(view, want.astype(dtype::float64), 1e-6, 0);
  ndarray odd = big[{slice(), slice{1, 10, 2}}];
  testing::check_allclose(odd, zeros({3, 5}).get(), 0, 0);  // untouched
  ndarray i32 = zeros({3, 5}, dtype::int32);
  CHECK_THROWS_AS(add(x, y, &i32), type_error);  // float32 -> int32 is not same_kind
  ndarray wrong = zeros({5, 3}, dtype::float32);
  CHECK_THROWS_AS(add(x, y, &wrong), value_error);
  // In place: int array += 1.5 is a type_error; += 2 works in a view.
  ndarray k = arange(10);
  CHECK_THROWS_AS(k += 1.5, type_error);
  ndarray kv = k[{slice{1, 10, 3}}];
  kv += 2;
  host_array kh = k.get();
  const auto* kp = kh.data_as<std::int64_t>();
  for (int i = 0; i < 10; ++i) CHECK(kp[i] == i + ((i % 3 == 1) ? 2 : 0));
  // Overlapping out: x += x.T computes into a temporary first.
  ndarray sq = asarray(std::vector<double>{1, 2, 3, 4}, {2, 2});
  ndarray sqT = sq.T();
  add(sq, sqT, &sq);
  host_array sh = sq.get();
  const auto* sp = sh.data_as<double>();
  CHECK(sp[0] == 2);
  CHECK(sp[1] == 5);
  CHECK(sp[2] == 5);
  CHECK(sp[3] == 8);
}

TEST_CASE("errors as NumPy: shape mismatch, bitwise on floats, bool subtract/negative, negative int power") {
  CHECK_THROWS_AS(add(ones({3}), ones({4})), value_error);
  CHECK_THROWS_AS(bitwise_and(ones({3}), ones({3})), type_error);
  CHECK_THROWS_AS(left_shift(ones({3}), 1), type_error);
  CHECK_THROWS_AS(subtract(ones({3}, dtype::bool_), ones({3}, dtype::bool_)), type_error);
  CHECK_THROWS_AS(-ones({3}, dtype::bool_), type_error);
  CHECK_THROWS_AS(power(arange(3), -1), value_error);
  CHECK_THROWS_AS(floor_divide(ones({2}, dtype::complex64), ones({2})), type_error);
  CHECK_THROWS_AS(add(ones({2}, dtype::int8), 300), value_error);
}

TEST_CASE("real and imag of complex arrays are views") {
  const host_array z = testing::golden(kMod, "u_conjugate_complex128_3x5_in0");
  ndarray a = asarray(z);
  ndarray re = real(a), im = imag(a);
  CHECK(re.dtype() == dtype::float64);
  CHECK(im.memory() == a.memory());
  testing::check_allclose(conjugate(a), testing::golden(kMod, "u_conjugate_complex128_3x5"), 0, 0);
  im *= -1.0;  // conjugates a in place through the view
  testing::check_allclose(a, testing::golden(kMod, "u_conjugate_complex128_3x5"), 0, 0);
}

TEST_CASE("result layout is NumPy's order='K' (element strides as np.add(a.T, b.T) etc.)") {
  const ndarray a = cusci::ones({4, 6}, dtype::float32);
  const ndarray b = cusci::ones({4, 6}, dtype::float32);
  const ndarray c = cusci::ones({6, 4}, dtype::float32);
  const ndarray x = cusci::ones({2, 3, 4}, dtype::float32);
  const ndarray row = cusci::ones({1, 4}, dtype::float32);
  const ndarray col = cusci::ones({6, 1}, dtype::float32);
  const ndarray at = a.transpose();
  const ndarray x120 = x.transpose({1, 2, 0});
  const ndarray ar = a[{slice{std::nullopt, std::nullopt, -1}}];
  const std::vector<ndarray> r = {
      cusci::add(at, b.transpose()),
      cusci::add(at, c),
      cusci::add(c, at),
      cusci::add(at, row),
      cusci::add(at, col),
      cusci::add(at, scalar(1.0f)),
      cusci::add(x120, x120),
      cusci::add(x.transpose({2, 0, 1}), scalar(1)),
      cusci::negative(at),
      cusci::add(a[{slice{}, slice{std::nullopt, std::nullopt, 2}}].transpose(), scalar(1)),
      cusci::equal(at, b.transpose()),
      cusci::add(ar, ar),
      cusci::multiply(x.transpose({2, 1, 0}), scalar(2.0)),
  };
  for (std::size_t i = 0; i < r.size(); ++i) {
    CAPTURE(i);
    const host_array g = testing::golden(kMod, "layout_" + std::to_string(i));
    REQUIRE(static_cast<std::size_t>(g.size()) == r[i].strides().size());
    for (std::size_t d = 0; d < r[i].strides().size(); ++d) {
      CAPTURE(d);
      if (r[i].shape()[d] == 1) continue;
      CHECK(r[i].strides()[d] / static_cast<std::int64_t>(r[i].itemsize()) == g.data_as<std::int64_t>()[d]);
    }
  }
  // The F-ordered result of transposed operands holds the same values as the C computation
  // (values against NumPy for transposed operands: the binary ufunc sweep above).
  const ndarray u = cusci::arange(0, 24, 1, dtype::float32).reshape({4, 6});
  const std::vector<float> v = cusci::add(u.transpose(), u.transpose()).get().to_vector<float>();
  const std::vector<float> w = cusci::add(u, u).transpose().get().to_vector<float>();
  CHECK(v == w);
}

// Elementwise arithmetic, comparisons, where and math functions against NumPy 2.5 golden data
// (tests/golden/gen_core_math.py): every dtype pair, Python-scalar operands on both sides,
// broadcasting with sizes 0 and 1, C / F / strided / reversed / offset views, NaN and inf, errors.

#include <doctest/doctest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const char* const kMod = "core_math";
const char* const kDtypes[13] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                 "uint32", "uint64", "float32", "float64", "complex64", "complex128"};
constexpr int kN = 9;  // elements per sweep input

/// The dtype at index `i` of kDtypes: the generator's 13-entry list (no float16), whose codes are
/// indices into that list, not values of the dtype enum (float16 sits between uint64 and float32).
dtype dt_at(int i) { return dtype_from_string(kDtypes[i]); }

/// Tolerance of result dtype `t` in a sweep case (its tolerance_by_dtype: {dtype: [rtol, atol]}).
std::pair<double, double> tol_of(const golden_case& c, dtype t) {
  const auto& v = c.params().at("tolerance_by_dtype").at(std::string(dtype_name(t)));
  return {v.at(0).get<double>(), v.at(1).get<double>()};
}

/// A Python scalar of the reference data (JSON bool, integer, float or [re, im]) as a weak scalar.
scalar weak_scalar(const cusci::testing::golden_value& j) {
  if (j.is_boolean()) return scalar(j.get<bool>());
  if (j.is_number_integer()) return scalar(j.get<std::int64_t>());
  if (j.is_array()) return scalar(std::complex<double>(j.at(0).get<double>(), j.at(1).get<double>()));
  return scalar(j.get<double>());
}

/// `count` complex128 elements of a packed golden array starting at flat index `first`.
host_array slice_c128(const host_array& packed, std::int64_t first, std::int64_t count) {
  const auto* p = packed.data_as<std::complex<double>>();
  return host_array::from(std::vector<std::complex<double>>(p + first, p + first + count));
}

int int_at(const host_array& h, std::int64_t i) { return h.data_as<std::int32_t>()[i]; }

ndarray dev(const std::string& name) { return asarray(golden(kMod, name)); }

using binary_fn = std::function<ndarray(const ndarray&, const ndarray&)>;
using scalar_r_fn = std::function<ndarray(const ndarray&, const scalar&)>;
using scalar_l_fn = std::function<ndarray(const scalar&, const ndarray&)>;

const std::map<std::string, binary_fn>& binary_ops() {
  static const std::map<std::string, binary_fn> ops = {
      {"add", [](const ndarray& a, const ndarray& b) { return add(a, b); }},
      {"subtract", [](const ndarray& a, const ndarray& b) { return subtract(a, b); }},
      {"multiply", [](const ndarray& a, const ndarray& b) { return multiply(a, b); }},
      {"divide", [](const ndarray& a, const ndarray& b) { return divide(a, b); }},
      {"equal", [](const ndarray& a, const ndarray& b) { return equal(a, b); }},
      {"not_equal", [](const ndarray& a, const ndarray& b) { return not_equal(a, b); }},
      {"less", [](const ndarray& a, const ndarray& b) { return less(a, b); }},
      {"less_equal", [](const ndarray& a, const ndarray& b) { return less_equal(a, b); }},
      {"greater", [](const ndarray& a, const ndarray& b) { return greater(a, b); }},
      {"greater_equal", [](const ndarray& a, const ndarray& b) { return greater_equal(a, b); }},
  };
  return ops;
}


}  // namespace

TEST_CASE("binary ops: every dtype pair, promotion table, NaN/inf/overflow values") {
  std::vector<ndarray> A, B;
  for (int i = 0; i < 13; ++i) {
    A.push_back(dev(std::string("in_a_") + kDtypes[i]));
    B.push_back(dev(std::string("in_b_") + kDtypes[i]));
    REQUIRE(A.back().dtype() == dt_at(i));
  }
  int cases = 0, ops = 0;
  for (const auto& c : testing::cases(kMod, "binary_sweep")) {
    const std::string name = c.get<std::string>("op");
    const binary_fn& fn = binary_ops().at(name);
    const host_array expected = c.array("expected");
    const host_array dts = c.array("dtypes");
    ++ops;
    for (int i = 0; i < 13; ++i) {
      for (int j = 0; j < 13; ++j) {
        CAPTURE(name);
        CAPTURE(kDtypes[i]);
        CAPTURE(kDtypes[j]);
        const int code = int_at(dts, i * 13 + j);
        if (code == -2) {
          CHECK_THROWS_AS(fn(A[i], B[j]), type_error);
          continue;
        }
        const ndarray out = fn(A[i], B[j]);
        REQUIRE(out.dtype() == dt_at(code));
        CHECK(out.shape() == shape_t{kN});
        const auto [rtol, atol] = tol_of(c, out.dtype());
        check_allclose(to_host(out), slice_c128(expected, (i * 13 + j) * kN, kN), rtol, atol, false);
        ++cases;
      }
    }
  }
  CHECK(ops == 10);
  CHECK(cases > 1500);
}

TEST_CASE("binary ops with Python scalars (NEP 50 weak scalars) on either side") {
  const std::map<std::string, scalar_r_fn> right = {
      {"add", [](const ndarray& a, const scalar& s) { return add(a, s); }},
      {"subtract", [](const ndarray& a, const scalar& s) { return subtract(a, s); }},
      {"multiply", [](const ndarray& a, const scalar& s) { return multiply(a, s); }},
      {"divide", [](const ndarray& a, const scalar& s) { return divide(a, s); }},
      {"less", [](const ndarray& a, const scalar& s) { return less(a, s); }},
      {"equal", [](const ndarray& a, const scalar& s) { return equal(a, s); }},
  };
  const std::map<std::string, scalar_l_fn> left = {
      {"add", [](const scalar& s, const ndarray& a) { return add(s, a); }},
      {"subtract", [](const scalar& s, const ndarray& a) { return subtract(s, a); }},
      {"multiply", [](const scalar& s, const ndarray& a) { return multiply(s, a); }},
      {"divide", [](const scalar& s, const ndarray& a) { return divide(s, a); }},
  };
  auto run = [&](const golden_case& c, const std::function<ndarray(const ndarray&, const scalar&)>& fn) {
    const std::string name = c.get<std::string>("op"), side = c.get<std::string>("side");
    std::vector<scalar> scalars;
    for (const auto& j : c.params().at("scalars")) scalars.push_back(weak_scalar(j));
    REQUIRE(scalars.size() == 5);
    const host_array expected = c.array("expected");
    const host_array dts = c.array("dtypes");
    for (int i = 0; i < 13; ++i) {
      const ndarray a = dev(std::string("in_a_") + kDtypes[i]);
      for (int s = 0; s < static_cast<int>(scalars.size()); ++s) {
        CAPTURE(name);
        CAPTURE(side);
        CAPTURE(kDtypes[i]);
        CAPTURE(s);
        const int code = int_at(dts, i * 5 + s);
        if (code == -1) {
          CHECK_THROWS_AS(fn(a, scalars[s]), value_error);
          continue;
        }
        if (code == -2) {
          CHECK_THROWS_AS(fn(a, scalars[s]), type_error);
          continue;
        }
        const ndarray out = fn(a, scalars[s]);
        REQUIRE(out.dtype() == dt_at(code));
        const auto [rtol, atol] = tol_of(c, out.dtype());
        check_allclose(to_host(out), slice_c128(expected, (i * 5 + s) * kN, kN), rtol, atol, false);
      }
    }
  };
  int n = 0;
  for (const auto& c : testing::cases(kMod, "scalar_sweep")) {
    const std::string name = c.get<std::string>("op");
    if (c.get<std::string>("side") == "r") {
      run(c, right.at(name));
    } else {
      const scalar_l_fn& fn = left.at(name);
      run(c, [&fn](const ndarray& a, const scalar& s) { return fn(s, a); });
    }
    ++n;
  }
  CHECK(n == 10);
}

TEST_CASE("overflowing Python int: error message and constant comparisons") {
  const ndarray a = dev("in_a_int8");
  try {
    (void)add(a, scalar(300));
    FAIL("expected value_error");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("Python integer 300 out of bounds for int8") != std::string::npos);
  }
  const std::map<std::string, scalar_r_fn> cmp = {
      {"equal", [](const ndarray& x, const scalar& s) { return equal(x, s); }},
      {"not_equal", [](const ndarray& x, const scalar& s) { return not_equal(x, s); }},
      {"less", [](const ndarray& x, const scalar& s) { return less(x, s); }},
      {"less_equal", [](const ndarray& x, const scalar& s) { return less_equal(x, s); }},
      {"greater", [](const ndarray& x, const scalar& s) { return greater(x, s); }},
      {"greater_equal", [](const ndarray& x, const scalar& s) { return greater_equal(x, s); }},
  };
  const auto oob = testing::cases(kMod, "compare_oob");
  REQUIRE(oob.size() == 1);
  const auto ops = oob[0].get<std::vector<std::string>>("ops");
  std::vector<std::pair<std::string, long long>> cases;
  for (const auto& o : oob[0].params().at("operands"))
    cases.emplace_back(o.at(0).get<std::string>(), o.at(1).get<long long>());
  REQUIRE(ops.size() == 6);
  REQUIRE(cases.size() == 5);
  const host_array expected = oob[0].array("expected");
  const auto* e = expected.data_as<bool>();
  for (int k = 0; k < 6; ++k) {
    for (int c = 0; c < 5; ++c) {
      CAPTURE(ops[k]);
      CAPTURE(c);
      const ndarray x = dev("in_a_" + cases[c].first);
      const ndarray out = cmp.at(ops[k])(x, scalar(cases[c].second));
      REQUIRE(out.dtype() == dtype::bool_);
      const host_array h = to_host(out);
      for (int i = 0; i < kN; ++i) CHECK(h.data_as<bool>()[i] == e[(k * 5 + c) * kN + i]);
    }
  }
}

// The unary functions are tested over all 14 dtypes in elementwise/test_ufunc_gpu.cpp.

TEST_CASE("broadcasting, sizes 0 and 1, 0-d operands") {
  int n = 0;
  for (const auto& c : testing::cases(kMod, "broadcast")) {
    CAPTURE(c.name());
    const ndarray a = asarray(c.array("a")), b = asarray(c.array("b")), ai = asarray(c.array("ai")),
                  bi = asarray(c.array("bi"));
    check_allclose(add(a, b), c.array("add"), c.rtol(), c.atol());
    check_allclose(multiply(ai, bi), c.array("mul"), 0, 0);
    check_allclose(subtract(a, bi), c.array("sub_ab"), c.rtol(), c.atol());
    CHECK(broadcast_shapes(a.shape(), b.shape()) == c.array("add").shape());
    ++n;
  }
  CHECK(n == 10);
}

TEST_CASE("broadcast errors: value_error with NumPy's message") {
  int n = 0;
  for (const auto& c : testing::cases(kMod, "broadcast_error")) {
    CAPTURE(c.name());
    REQUIRE(c.error() == "value_error");
    const shape_t sa = c.get<shape_t>("shape_a"), sb = c.get<shape_t>("shape_b");
    const ndarray a = zeros(sa), b = zeros(sb);
    try {
      (void)add(a, b);
      FAIL("expected value_error");
    } catch (const value_error& e) {
      const std::string msg(e.what());
      CHECK(msg.find("cusci::add") != std::string::npos);
      CHECK(msg.find(c.get<std::string>("message")) != std::string::npos);
    }
    CHECK_THROWS_AS(broadcast_shapes(sa, sb), value_error);
    CHECK_THROWS_AS(where(zeros({1}, dtype::bool_), a, b), value_error);
    CHECK_THROWS_AS(less(a, b), value_error);
    ++n;
  }
  CHECK(n == 3);
}

TEST_CASE("layouts: C, F, strided, reversed and offset views") {
  int n = 0;
  for (const auto& c : testing::cases(kMod, "layout")) {
    const std::string d = c.get<std::string>("dtype");
    CAPTURE(d);
    const std::string p = "layout_" + d;
    const double rtol = c.rtol(), atol = c.atol();
    const ndarray base = asarray(c.array("base"));  // (6, 8)
    const ndarray strided = base[{slice{{}, {}, 2}, slice{1, {}, 3}}];
    const ndarray transposed = base.T()[{slice{0, 3}, slice{0, 3}}];
    const ndarray rev = base[{slice{{}, {}, -2}, slice{{}, {}, -3}}];
    REQUIRE(strided.shape() == shape_t{3, 3});
    REQUIRE(rev.shape() == shape_t{3, 3});
    check_allclose(add(strided, rev), golden(kMod, p + "_add_strided_rev"), rtol, atol);
    check_allclose(multiply(transposed, strided), golden(kMod, p + "_mul_transposed_strided"), rtol, atol);
    const ndarray f = base.copy(order::F);
    CHECK(f.is_f_contiguous());
    check_allclose(subtract(f, base[{slice{{}, {}, -1}}]), golden(kMod, p + "_sub_F_C"), rtol, atol);
    const ndarray flat = base.reshape({48});
    check_allclose(add(flat[{slice{1, {}}}], flat[{slice{{}, -1}}]), golden(kMod, p + "_add_offset"), rtol, atol);
    check_allclose(less(base.T(), base.T()[{slice{{}, {}, -1}}]), golden(kMod, p + "_less_T"), 0, 0);
    check_allclose(cusci::exp(strided), golden(kMod, p + "_exp_strided"), 4e-6, 1e-6);
    ++n;
  }
  CHECK(n == 3);
}

TEST_CASE("where: condition of any dtype, scalars, broadcasting") {
  const ndarray c = dev("where_c"), ci = dev("where_ci"), cf = dev("where_cf"), x = dev("where_x"),
                y = dev("where_y");
  check_allclose(where(c, x, y), golden(kMod, "where_cxy"), 1e-7, 0);
  check_allclose(where(ci, x, scalar(7)), golden(kMod, "where_cix"), 0, 0);
  check_allclose(where(cf, scalar(2.5), y), golden(kMod, "where_cfy"), 1e-7, 0);
  check_allclose(where(c, scalar(1), scalar(2.0)), golden(kMod, "where_css"), 0, 0);
  check_allclose(where(c, x, scalar(3)), golden(kMod, "where_cxs"), 0, 0);
  check_allclose(where(c, scalar(2), y), golden(kMod, "where_cys"), 1e-7, 0);
}

TEST_CASE("bool subtract is a type_error naming the function") {
  const ndarray b = dev("in_a_bool");
  try {
    (void)subtract(b, b);
    FAIL("expected type_error");
  } catch (const type_error& e) {
    CHECK(std::string(e.what()).find("cusci::subtract") != std::string::npos);
    CHECK(std::string(e.what()).find("boolean subtract") != std::string::npos);
  }
  CHECK_THROWS_AS(subtract(b, scalar(true)), type_error);
}

TEST_CASE("large contiguous inputs (vector kernels and tails) on a non-blocking stream") {
  // Input x[i] = float32(((i * 2654435761) mod 2^32) / 2^32 - 0.5), computed identically by the
  // generator; results checked on the indices stored in ewbig_idx.
  const std::int64_t n = 100003;
  std::vector<float> v(n);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t h = (static_cast<std::uint64_t>(i) * 2654435761ULL) % 4294967296ULL;
    v[i] = static_cast<float>(static_cast<double>(h) / 4294967296.0 - 0.5);
  }
  stream st(true);
  stream_guard guard(st);
  const ndarray x = asarray(v);
  const host_array idx = golden(kMod, "ewbig_idx");
  auto pick = [&](const ndarray& out) {
    const host_array h = to_host(out);
    const std::int64_t m = idx.size();
    host_array r(h.dtype(), shape_t{m});
    const auto* ix = idx.data_as<std::int64_t>();
    const std::size_t item = itemsize(h.dtype());
    for (std::int64_t k = 0; k < m; ++k)
      std::memcpy(static_cast<char*>(r.data()) + k * item,
                  static_cast<const char*>(h.data()) + ix[k] * item, item);
    return r;
  };
  check_allclose(pick(x + x[{slice{{}, {}, -1}}]), golden(kMod, "ewbig_add_rev"), 1e-6, 0);
  check_allclose(pick(x * scalar(2)), golden(kMod, "ewbig_mul_2"), 0, 0);
  check_allclose(pick(scalar(1) - x), golden(kMod, "ewbig_rsub_1"), 0, 0);
  check_allclose(pick(cusci::exp(x)), golden(kMod, "ewbig_exp"), 4e-6, 0);
  check_allclose(pick(x < scalar(0.25)), golden(kMod, "ewbig_less_half"), 0, 0);
  check_allclose(pick(cusci::sqrt(cusci::abs(x))), golden(kMod, "ewbig_sqrt_abs"), 1e-6, 0);
}

// Elementwise arithmetic, comparisons, where and math functions against NumPy 2.5 golden data
// (tests/golden/gen_core_math.py): every dtype pair, Python-scalar operands on both sides,
// broadcasting with sizes 0 and 1, C / F / strided / reversed / offset views, NaN and inf, errors.

#include <doctest/doctest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::manifest;

namespace {

const char* const kMod = "core_math";
const char* const kDtypes[13] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                 "uint32", "uint64", "float32", "float64", "complex64", "complex128"};
constexpr int kN = 9;  // elements per sweep input

/// The dtype at index `i` of kDtypes: the generator's 13-entry list (no float16), whose codes are
/// indices into that list, not values of the dtype enum (float16 sits between uint64 and float32).
dtype dt_at(int i) { return dtype_from_string(kDtypes[i]); }

/// Tolerance of a result dtype in the exact-arithmetic sweeps.
std::pair<double, double> tol_of(dtype t) {
  if (t == dtype::float32 || t == dtype::complex64) return {1e-6, 0.0};
  if (t == dtype::float64 || t == dtype::complex128) return {1e-14, 0.0};
  return {0.0, 0.0};
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

const std::vector<std::pair<std::string, binary_fn>>& binary_ops() {
  static const std::vector<std::pair<std::string, binary_fn>> ops = {
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

std::vector<scalar> sweep_scalars() {
  return {scalar(true), scalar(3), scalar(-2), scalar(2.5), scalar(std::complex<double>(1.5, -2.0))};
}

shape_t parse_shape(const std::string& s) {
  shape_t r;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t next = s.find(',', pos);
    if (next == std::string::npos) next = s.size();
    if (next > pos) r.push_back(std::stoll(s.substr(pos, next - pos)));
    pos = next + 1;
  }
  return r;
}

}  // namespace

TEST_CASE("binary ops: every dtype pair, promotion table, NaN/inf/overflow values") {
  std::vector<ndarray> A, B;
  for (int i = 0; i < 13; ++i) {
    A.push_back(dev(std::string("in_a_") + kDtypes[i]));
    B.push_back(dev(std::string("in_b_") + kDtypes[i]));
    REQUIRE(A.back().dtype() == dt_at(i));
  }
  int cases = 0;
  for (const auto& [name, fn] : binary_ops()) {
    const host_array expected = golden(kMod, "binary_" + name);
    const host_array dts = golden(kMod, "binary_" + name + "_dtype");
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
        const auto [rtol, atol] = tol_of(out.dtype());
        check_allclose(to_host(out), slice_c128(expected, (i * 13 + j) * kN, kN), rtol, atol, false);
        ++cases;
      }
    }
  }
  CHECK(cases > 1500);
}

TEST_CASE("binary ops with Python scalars (NEP 50 weak scalars) on either side") {
  const std::vector<scalar> scalars = sweep_scalars();
  const std::vector<std::pair<std::string, scalar_r_fn>> right = {
      {"add", [](const ndarray& a, const scalar& s) { return add(a, s); }},
      {"subtract", [](const ndarray& a, const scalar& s) { return subtract(a, s); }},
      {"multiply", [](const ndarray& a, const scalar& s) { return multiply(a, s); }},
      {"divide", [](const ndarray& a, const scalar& s) { return divide(a, s); }},
      {"less", [](const ndarray& a, const scalar& s) { return less(a, s); }},
      {"equal", [](const ndarray& a, const scalar& s) { return equal(a, s); }},
  };
  const std::vector<std::pair<std::string, scalar_l_fn>> left = {
      {"add", [](const scalar& s, const ndarray& a) { return add(s, a); }},
      {"subtract", [](const scalar& s, const ndarray& a) { return subtract(s, a); }},
      {"multiply", [](const scalar& s, const ndarray& a) { return multiply(s, a); }},
      {"divide", [](const scalar& s, const ndarray& a) { return divide(s, a); }},
  };
  auto run = [&](const std::string& name, const std::string& side,
                 const std::function<ndarray(const ndarray&, const scalar&)>& fn) {
    const host_array expected = golden(kMod, "scalar_" + name + "_" + side);
    const host_array dts = golden(kMod, "scalar_" + name + "_" + side + "_dtype");
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
        const auto [rtol, atol] = tol_of(out.dtype());
        check_allclose(to_host(out), slice_c128(expected, (i * 5 + s) * kN, kN), rtol, atol, false);
      }
    }
  };
  for (const auto& [name, fn] : right) run(name, "r", fn);
  for (const auto& [name, fn] : left)
    run(name, "l", [&fn](const ndarray& a, const scalar& s) { return fn(s, a); });
}

TEST_CASE("overflowing Python int: error message and constant comparisons") {
  const ndarray a = dev("in_a_int8");
  try {
    (void)add(a, scalar(300));
    FAIL("expected value_error");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("Python integer 300 out of bounds for int8") != std::string::npos);
  }
  const std::vector<std::function<ndarray(const ndarray&, const scalar&)>> cmp = {
      [](const ndarray& x, const scalar& s) { return equal(x, s); },
      [](const ndarray& x, const scalar& s) { return not_equal(x, s); },
      [](const ndarray& x, const scalar& s) { return less(x, s); },
      [](const ndarray& x, const scalar& s) { return less_equal(x, s); },
      [](const ndarray& x, const scalar& s) { return greater(x, s); },
      [](const ndarray& x, const scalar& s) { return greater_equal(x, s); },
  };
  const std::vector<std::pair<std::string, long long>> cases = {
      {"int8", 300}, {"int8", -300}, {"uint8", -1}, {"uint64", -5}, {"int16", 70000}};
  const host_array expected = golden(kMod, "compare_out_of_range");
  const auto* e = expected.data_as<bool>();
  for (int k = 0; k < 6; ++k) {
    for (int c = 0; c < 5; ++c) {
      CAPTURE(k);
      CAPTURE(c);
      const ndarray x = dev("in_a_" + cases[c].first);
      const ndarray out = cmp[k](x, scalar(cases[c].second));
      REQUIRE(out.dtype() == dtype::bool_);
      const host_array h = to_host(out);
      for (int i = 0; i < kN; ++i) CHECK(h.data_as<bool>()[i] == e[(k * 5 + c) * kN + i]);
    }
  }
}

// The unary functions are tested over all 14 dtypes in elementwise/test_ufunc_gpu.cpp.

TEST_CASE("broadcasting, sizes 0 and 1, 0-d operands") {
  int n = 0;
  for (const auto& row : manifest(kMod)) {
    if (row.at("kind") != "broadcast") continue;
    const std::string c = row.at("case");
    CAPTURE(c);
    const ndarray a = dev(c + "_a"), b = dev(c + "_b"), ai = dev(c + "_ai"), bi = dev(c + "_bi");
    check_allclose(add(a, b), golden(kMod, c + "_add"), 1e-15, 0);
    check_allclose(multiply(ai, bi), golden(kMod, c + "_mul"), 0, 0);
    check_allclose(subtract(a, bi), golden(kMod, c + "_sub_ab"), 1e-15, 0);
    CHECK(broadcast_shapes(a.shape(), b.shape()) == golden(kMod, c + "_add").shape());
    ++n;
  }
  CHECK(n == 10);
}

TEST_CASE("broadcast errors: value_error with NumPy's message") {
  int n = 0;
  for (const auto& row : manifest(kMod)) {
    if (row.at("kind") != "broadcast_error") continue;
    const shape_t sa = parse_shape(row.at("shape_a")), sb = parse_shape(row.at("shape_b"));
    const ndarray a = zeros(sa), b = zeros(sb);
    try {
      (void)add(a, b);
      FAIL("expected value_error");
    } catch (const value_error& e) {
      const std::string msg(e.what());
      CHECK(msg.find("cusci::add") != std::string::npos);
      CHECK(msg.find(row.at("message")) != std::string::npos);
    }
    CHECK_THROWS_AS(broadcast_shapes(sa, sb), value_error);
    CHECK_THROWS_AS(where(zeros({1}, dtype::bool_), a, b), value_error);
    CHECK_THROWS_AS(less(a, b), value_error);
    ++n;
  }
  CHECK(n == 3);
}

TEST_CASE("layouts: C, F, strided, reversed and offset views") {
  for (const char* d : {"float32", "int16", "complex128"}) {
    CAPTURE(d);
    const std::string p = std::string("layout_") + d;
    double rtol = 0, atol = 0;
    for (const auto& row : manifest(kMod))
      if (row.at("case") == p) { rtol = std::stod(row.at("rtol")); atol = std::stod(row.at("atol")); }
    const ndarray base = dev(p + "_base");  // (6, 8)
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
  }
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

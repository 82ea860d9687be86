// sum / mean / min / max against NumPy 2.5 golden data (tests/golden/gen_core_math.py): every dtype,
// axis None / one / several / negative / empty tuple, keepdims, dtype=, NaN propagation, empty
// selections and their errors, F-order and strided views, and large inputs that exercise the chunked
// row and column kernels (float32 sums checked to be at least as accurate as NumPy's pairwise sum).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/reduction.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const char* const kMod = "core_math";
const char* const kDtypes[13] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                 "uint32", "uint64", "float32", "float64", "complex64", "complex128"};

ndarray dev(const std::string& name) { return asarray(golden(kMod, name)); }

using reduce_fn = ndarray (*)(const ndarray&, axis_arg, reduce_options);

const std::vector<std::pair<std::string, reduce_fn>>& reductions() {
  static const std::vector<std::pair<std::string, reduce_fn>> r = {
      {"sum", &cusci::sum}, {"mean", &cusci::mean}, {"min", &cusci::min}, {"max", &cusci::max}};
  return r;
}

reduce_fn by_name(const std::string& n) {
  for (const auto& [name, fn] : reductions())
    if (name == n) return fn;
  return nullptr;
}

/// Parameter "axis" of a case: null (NumPy's axis=None) or a list of axes.
axis_arg axis_of(const golden_case& c) {
  const auto v = c.get<std::optional<std::vector<int>>>("axis");
  if (!v) return {};
  return axis_arg(*v);
}

/// Every sub-th element of a device array in C order, as a host array.
host_array every(const ndarray& a, std::int64_t sub) {
  const host_array h = to_host(a);
  const std::int64_t m = (h.size() + sub - 1) / sub;
  host_array r(h.dtype(), shape_t{m});
  const std::size_t item = itemsize(h.dtype());
  for (std::int64_t k = 0; k < m; ++k)
    std::memcpy(static_cast<char*>(r.data()) + k * item, static_cast<const char*>(h.data()) + k * sub * item,
                item);
  return r;
}

/// x[i] = float32(((i * 2654435761) mod 2^32) / 2^32 - 0.5) and the int32 variant, as in the generator.
void hashed(std::int64_t n, std::vector<float>& xf, std::vector<std::int32_t>& xi) {
  xf.resize(n);
  xi.resize(n);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t h = (static_cast<std::uint64_t>(i) * 2654435761ULL) % 4294967296ULL;
    xf[i] = static_cast<float>(static_cast<double>(h) / 4294967296.0 - 0.5);
    xi[i] = static_cast<std::int32_t>(h % 1000) - 500;
  }
}

}  // namespace

TEST_CASE("reductions: every dtype, axis selections, keepdims, result dtypes") {
  struct axis_case {
    const char* name;
    axis_arg axis;
    bool keepdims;
  };
  const std::vector<axis_case> axes = {
      {"none", {}, false},       {"0", 0, false},           {"1", 1, false},
      {"m1", -1, false},         {"02", {0, 2}, false},     {"12k", {1, 2}, true},
      {"nonek", {}, true},       {"empty", axis_arg(std::vector<int>{}), false}};
  int n = 0;
  for (const char* d : kDtypes) {
    const std::string p = std::string("red_") + d;
    double rtol = 0, atol = 0;
    int found = 0;
    for (const auto& c : testing::cases(kMod, "reduce"))
      if (c.get<std::string>("dtype") == d) {
        rtol = c.rtol();
        atol = c.atol();
        ++found;
      }
    REQUIRE(found == 1);
    // An op-specific case (func reduce_op, its dtype and op) overrides the dtype's tolerances.
    std::map<std::string, std::pair<double, double>> op_tol;
    for (const auto& c : testing::cases(kMod, "reduce_op"))
      if (c.get<std::string>("dtype") == d) op_tol[c.get<std::string>("op")] = {c.rtol(), c.atol()};
    const ndarray a = dev(p + "_in");
    // The same values as an F-order copy and as a strided view of a larger array.
    const ndarray f = a.copy(order::F);
    for (const auto& [op, fn] : reductions()) {
      for (const auto& ac : axes) {
        CAPTURE(d);
        CAPTURE(op);
        CAPTURE(ac.name);
        const host_array expected = golden(kMod, p + "_" + op + "_" + ac.name);
        const reduce_options opts{.keepdims = ac.keepdims};
        const auto ot = op_tol.find(op);
        const double rt = ot != op_tol.end() ? ot->second.first : rtol;
        const double at = ot != op_tol.end() ? ot->second.second : atol;
        const ndarray out = fn(a, ac.axis, opts);
        check_allclose(out, expected, rt, at);
        check_allclose(fn(f, ac.axis, opts), expected, rt, at);
        ++n;
      }
    }
  }
  CHECK(n == 13 * 4 * 8);
}

TEST_CASE("reductions of a reversed, strided view") {
  const ndarray a = dev("red_float64_in");  // (3, 4, 5)
  const ndarray v = a[{ellipsis, slice{{}, {}, -2}}];
  REQUIRE(v.shape() == shape_t{3, 4, 3});
  for (const auto& [op, fn] : reductions()) {
    for (const auto& [nm, ax] : std::vector<std::pair<std::string, axis_arg>>{
             {"none", {}}, {"0", 0}, {"2", 2}, {"02", {0, 2}}}) {
      CAPTURE(op);
      CAPTURE(nm);
      check_allclose(fn(v, ax, {}), golden(kMod, "redview_" + op + "_" + nm), 1e-14, 1e-12);
    }
  }
}

TEST_CASE("min/max propagate NaN; complex min/max are lexicographic") {
  const ndarray v = dev("rednan_in");
  for (const auto& [op, fn] : reductions()) {
    for (const auto& [nm, ax] : std::vector<std::pair<std::string, axis_arg>>{{"none", {}}, {"0", 0}, {"1", 1}}) {
      CAPTURE(op);
      CAPTURE(nm);
      check_allclose(fn(v, ax, {}), golden(kMod, "rednan_" + op + "_" + nm), 1e-6, 0);
    }
  }
  const ndarray c = dev("rednanc_in");
  check_allclose(cusci::min(c), golden(kMod, "rednanc_min"), 0, 0);
  check_allclose(cusci::max(c), golden(kMod, "rednanc_max"), 0, 0);
  const ndarray nonan = dev("rednanc_nonan_in");
  check_allclose(cusci::min(nonan), golden(kMod, "rednanc_min_nonan"), 0, 0);
  check_allclose(cusci::max(nonan), golden(kMod, "rednanc_max_nonan"), 0, 0);
}

TEST_CASE("empty selections: sum 0, mean NaN, min/max errors with NumPy's message") {
  const ndarray e = zeros({2, 0}, dtype::float32);
  check_allclose(cusci::sum(e, 1), golden(kMod, "redempty_sum_1"), 0, 0);
  check_allclose(cusci::mean(e, 1), golden(kMod, "redempty_mean_1"), 0, 0);
  check_allclose(cusci::sum(e), golden(kMod, "redempty_sum_none"), 0, 0);
  check_allclose(cusci::mean(e), golden(kMod, "redempty_mean_none"), 0, 0);
  check_allclose(cusci::sum(e, 0), golden(kMod, "redempty_sum_0"), 0, 0);
  check_allclose(cusci::min(e, 0), golden(kMod, "redempty_min_0"), 0, 0);
  check_allclose(cusci::sum(zeros({0, 3}, dtype::int8)), golden(kMod, "redempty_isum_none"), 0, 0);
  check_allclose(cusci::mean(zeros({2, 0}, dtype::int32), 1), golden(kMod, "redempty_imean_1"), 0, 0);
  int n = 0;
  for (const auto& c : testing::cases(kMod, "reduce_error")) {
    CAPTURE(c.name());
    REQUIRE(c.error() == "value_error");
    const std::string op = c.get<std::string>("op"), message = c.get<std::string>("message");
    const ndarray z = zeros(c.get<shape_t>("shape"));
    reduce_fn fn = by_name(op);
    REQUIRE(static_cast<bool>(fn));
    try {
      (void)fn(z, axis_of(c), {});
      FAIL("expected value_error");
    } catch (const value_error& err) {
      CHECK(std::string(err.what()).find(message) != std::string::npos);
      CHECK(std::string(err.what()).find("cusci::" + op) != std::string::npos);
    }
    ++n;
  }
  CHECK(n == 4);
}

TEST_CASE("dtype= casts before reducing, as NumPy") {
  const ndarray i8 = dev("reddt_i8"), f8 = dev("reddt_f8"), f8b = dev("reddt_f8b"), b = dev("reddt_b");
  check_allclose(cusci::sum(i8, {}, {.dtype = dtype::int8}), golden(kMod, "reddt_i8_sum_int8"), 0, 0);
  check_allclose(cusci::sum(i8, 0, {.dtype = dtype::int8}), golden(kMod, "reddt_i8_sum_int8_0"), 0, 0);
  check_allclose(cusci::sum(i8, 1, {.dtype = dtype::uint16}), golden(kMod, "reddt_i8_sum_uint16_1"), 0, 0);
  check_allclose(cusci::sum(f8b, 1, {.dtype = dtype::int64}), golden(kMod, "reddt_f8b_sum_int64_1"), 0, 0);
  check_allclose(cusci::sum(f8, {}, {.dtype = dtype::float32}), golden(kMod, "reddt_f8_sum_float32"), 1e-6, 0);
  check_allclose(cusci::mean(i8, 0, {.dtype = dtype::float32}), golden(kMod, "reddt_i8_mean_float32_0"), 1e-6, 0);
  check_allclose(cusci::sum(b, 1, {.dtype = dtype::bool_}), golden(kMod, "reddt_b_sum_bool_1"), 0, 0);
  check_allclose(cusci::sum(i8, {}, {.dtype = dtype::complex128}), golden(kMod, "reddt_i8_sum_complex128"), 0, 0);
  check_allclose(cusci::max(f8, 0, {.dtype = dtype::float32}), golden(kMod, "reddt_f8_max_float32_0"), 0, 0);
}

TEST_CASE("bad axes: index_error / value_error with NumPy's message") {
  const ndarray z = zeros({2, 3, 4});
  int n = 0;
  for (const auto& c : testing::cases(kMod, "axis_error")) {
    CAPTURE(c.name());
    const axis_arg ax = axis_of(c);
    const std::string message = c.get<std::string>("message");
    for (const auto& [op, fn] : reductions()) {
      CAPTURE(op);
      try {
        (void)fn(z, ax, {});
        FAIL("expected an error");
      } catch (const index_error& e) {
        CHECK(c.error() == "index_error");
        CHECK(std::string(e.what()).find(message) != std::string::npos);
      } catch (const value_error& e) {
        CHECK(c.error() == "value_error");
        CHECK(std::string(e.what()).find(message) != std::string::npos);
      }
    }
    ++n;
  }
  CHECK(n == 4);
}

TEST_CASE("large reductions: chunked row/column kernels, float32 accuracy vs NumPy's pairwise sum") {
  int n = 0;
  for (const auto& cs : testing::cases(kMod, "reduce_big")) {
    const std::string c = cs.name();
    CAPTURE(c);
    const shape_t shape = cs.get<shape_t>("shape");
    const axis_arg ax = axis_of(cs);
    const std::int64_t sub = cs.get<std::int64_t>("sub");
    std::int64_t total = 1;
    for (auto s : shape) total *= s;
    std::vector<float> xf;
    std::vector<std::int32_t> xi;
    hashed(total, xf, xi);
    const ndarray f = asarray(xf, shape), i = asarray(xi, shape);

    check_allclose(every(cusci::sum(i, ax), sub), golden(kMod, c + "_isum"), 0, 0);
    check_allclose(every(cusci::max(i, ax), sub), golden(kMod, c + "_imax"), 0, 0);
    check_allclose(every(cusci::min(f, ax), sub), golden(kMod, c + "_fmin"), 0, 0);
    check_allclose(every(cusci::mean(f, ax), sub), golden(kMod, c + "_mean"), 1e-5, 1e-6);

    // At least as accurate as NumPy's float32 sum: the worst error over the outputs is at most
    // NumPy's worst error plus one float32 ulp of the largest exact sum; every output is also
    // close to the exact (float64) sum.
    const ndarray s = cusci::sum(f, ax);
    CHECK(s.dtype() == dtype::float32);
    const host_array got = every(s, sub);
    const host_array exact = golden(kMod, c + "_exact"), np32 = golden(kMod, c + "_numpy32");
    REQUIRE(got.size() == exact.size());
    double ours = 0, theirs = 0, biggest = 0;
    for (std::int64_t k = 0; k < got.size(); ++k) {
      const double e = exact.data_as<double>()[k];
      ours = std::max(ours, std::abs(static_cast<double>(got.data_as<float>()[k]) - e));
      theirs = std::max(theirs, std::abs(static_cast<double>(np32.data_as<float>()[k]) - e));
      biggest = std::max(biggest, std::abs(e));
    }
    const float fb = static_cast<float>(biggest);
    const double ulp = static_cast<double>(std::nextafter(fb, INFINITY) - fb);
    CAPTURE(ours);
    CAPTURE(theirs);
    CHECK(ours <= theirs + ulp);
    // Every output within NumPy's worst error (plus one ulp) of the exact sum.
    check_allclose(got, exact, 0, theirs + ulp, false);
    // dtype=float64 widens every element first (NumPy: np.sum(x, dtype=np.float64)).
    check_allclose(every(cusci::sum(f, ax, {.dtype = dtype::float64}), sub), exact, 1e-12, 1e-9);
    ++n;
  }
  CHECK(n == 10);
}

// Reductions and scans against NumPy 2.5 golden data (tests/golden/gen_core_reduction.py): every
// function over the dtype sweep (float16 and complex included), axis None / one / several / negative /
// empty tuple, keepdims, ddof, C / F / strided / broadcast inputs, NaN and inf placement, all-NaN
// slices, sizes 0 and 1, errors, and large float32 cases computed from a hash on both sides.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
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

namespace cusci::detail::cm {
void set_driver_launch(bool enabled);  // internal switch (core/src/elementwise.cu)
}

namespace {

const char* const kMod = "core_reduction";
using axes_t = std::optional<std::vector<int>>;

ndarray dev(const std::string& name) { return asarray(golden(kMod, name)); }

/// A case's axis: null -> no value; an int -> a list of one; a list (possibly empty) as is.
axes_t axes_of(const golden_case& c) { return c.get<axes_t>("axis"); }

/// The test a case belongs to (the generator's "kind").
std::string kind_of(const golden_case& c) { return c.get<std::string>("kind"); }

axis_arg to_axis_arg(const std::optional<std::vector<int>>& ax) {
  if (!ax) return {};
  return axis_arg(*ax);
}

std::optional<int> to_single(const std::optional<std::vector<int>>& ax) {
  if (!ax) return std::nullopt;
  REQUIRE(ax->size() == 1);
  return (*ax)[0];
}

/// Calls reduction / scan `func` by name.
ndarray call(const std::string& f, const ndarray& a, const axes_t& ax, bool keepdims, double ddof) {
  const reduce_options ro{.keepdims = keepdims};
  const keepdims_options ko{.keepdims = keepdims};
  const var_options vo{.ddof = ddof, .keepdims = keepdims};
  if (f == "sum") return cusci::sum(a, to_axis_arg(ax), ro);
  if (f == "prod") return cusci::prod(a, to_axis_arg(ax), ro);
  if (f == "mean") return cusci::mean(a, to_axis_arg(ax), ro);
  if (f == "min") return cusci::min(a, to_axis_arg(ax), ro);
  if (f == "max") return cusci::max(a, to_axis_arg(ax), ro);
  if (f == "nansum") return cusci::nansum(a, to_axis_arg(ax), ro);
  if (f == "nanprod") return cusci::nanprod(a, to_axis_arg(ax), ro);
  if (f == "nanmean") return cusci::nanmean(a, to_axis_arg(ax), ro);
  if (f == "nanmin") return cusci::nanmin(a, to_axis_arg(ax), ro);
  if (f == "nanmax") return cusci::nanmax(a, to_axis_arg(ax), ro);
  if (f == "ptp") return cusci::ptp(a, to_axis_arg(ax), ko);
  if (f == "any") return cusci::any(a, to_axis_arg(ax), ko);
  if (f == "all") return cusci::all(a, to_axis_arg(ax), ko);
  if (f == "count_nonzero") return cusci::count_nonzero(a, to_axis_arg(ax), ko);
  if (f == "var") return cusci::var(a, to_axis_arg(ax), vo);
  if (f == "std") return cusci::std(a, to_axis_arg(ax), vo);
  if (f == "nanvar") return cusci::nanvar(a, to_axis_arg(ax), vo);
  if (f == "nanstd") return cusci::nanstd(a, to_axis_arg(ax), vo);
  if (f == "argmin") return cusci::argmin(a, to_single(ax), ko);
  if (f == "argmax") return cusci::argmax(a, to_single(ax), ko);
  if (f == "nanargmin") return cusci::nanargmin(a, to_single(ax), ko);
  if (f == "nanargmax") return cusci::nanargmax(a, to_single(ax), ko);
  if (f == "cumsum") return cusci::cumsum(a, to_single(ax));
  if (f == "cumprod") return cusci::cumprod(a, to_single(ax));
  if (f == "nancumsum") return cusci::nancumsum(a, to_single(ax));
  if (f == "nancumprod") return cusci::nancumprod(a, to_single(ax));
  FAIL("unknown function " << f);
  return a;
}

/// The same values as C, F-order and strided-view inputs.
std::vector<std::pair<std::string, ndarray>> layouts(const std::string& src, const std::string& dt) {
  const ndarray c = dev(src + "_" + dt);
  std::vector<std::pair<std::string, ndarray>> v = {{"C", c}, {"F", c.copy(order::F)}};
  if (src == "in") {
    const ndarray big = dev("big_" + dt);
    v.emplace_back("strided", big[{slice{}, slice{0, {}, 2}, slice{0, {}, 2}}]);
  }
  return v;
}

/// x[i] = float32(h / 2^32 + 0.25), h = (i * 2654435761) mod 2^32, as the generator.
std::vector<float> hashed(std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t h = (static_cast<std::uint64_t>(i) * 2654435761ULL) % 4294967296ULL;
    x[static_cast<std::size_t>(i)] = static_cast<float>(static_cast<double>(h) / 4294967296.0 + 0.25);
  }
  return x;
}

/// Every sub-th element of a device array in C order, as a host array.
host_array every(const ndarray& a, std::int64_t sub) {
  const host_array h = to_host(a);
  const std::int64_t m = (h.size() + sub - 1) / sub;
  host_array r(h.dtype(), shape_t{m});
  const std::size_t item = itemsize(h.dtype());
  for (std::int64_t k = 0; k < m; ++k)
    std::memcpy(static_cast<char*>(r.data()) + k * item, static_cast<const char*>(h.data()) + k * sub * item, item);
  return r;
}

}  // namespace

TEST_CASE("reductions, arg-reductions and scans over the dtype sweep, every axis selection and layout") {
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    const std::string kind = kind_of(r);
    if (kind != "reduce" && kind != "arg" && kind != "scan") continue;
    const std::string c = r.name();
    const std::string src = c.substr(0, c.find('_'));
    CAPTURE(c);
    const host_array expected = golden(kMod, c);
    for (const auto& [lay, a] : layouts(src, r.get<std::string>("dtype"))) {
      CAPTURE(lay);
      const ndarray out = call(r.func(), a, axes_of(r), r.get<bool>("keepdims"), r.get<double>("ddof"));
      check_allclose(out, expected, r.rtol(), r.atol());
      ++n;
    }
  }
  CHECK(n > 3000);
}

TEST_CASE("reductions give NumPy's answers through the runtime's launch as through the driver's") {
  struct restore {
    ~restore() { cusci::detail::cm::set_driver_launch(true); }
  } guard;
  cusci::detail::cm::set_driver_launch(false);
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    const std::string kind = kind_of(r);
    if (kind != "reduce" && kind != "arg") continue;
    const std::string c = r.name();
    const std::string src = c.substr(0, c.find('_'));
    CAPTURE(c);
    const ndarray a = layouts(src, r.get<std::string>("dtype")).front().second;
    check_allclose(call(r.func(), a, axes_of(r), r.get<bool>("keepdims"), r.get<double>("ddof")), golden(kMod, c),
                   r.rtol(), r.atol());
    ++n;
  }
  CHECK(n > 500);
}

TEST_CASE("broadcast (zero-stride) inputs") {
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    if (kind_of(r) != "bcast") continue;
    CAPTURE(r.name());
    const ndarray a = dev("bc_" + r.get<std::string>("dtype")).broadcast_to({3, 4, 5});
    check_allclose(call(r.func(), a, axes_of(r), false, 0), golden(kMod, r.name()), r.rtol(), r.atol());
    ++n;
  }
  CHECK(n == 3 * 16);
}

TEST_CASE("diff: n, axis, bool, unsigned wrap, prepend and append") {
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    if (kind_of(r) != "diff") continue;
    CAPTURE(r.name());
    const ndarray a = dev("in_" + r.get<std::string>("dtype"));
    const int ax = r.get<int>("axis");
    check_allclose(cusci::diff(a, r.get<int>("n"), ax), golden(kMod, r.name()), r.rtol(), r.atol());
    check_allclose(cusci::diff(a.copy(order::F), r.get<int>("n"), ax), golden(kMod, r.name()), r.rtol(), r.atol());
    ++n;
  }
  CHECK(n == 14 * 4);
  const ndarray out = cusci::diff(dev("in_float64"), 1, 1, {.prepend = dev("diff_pre"), .append = dev("diff_app")});
  check_allclose(out, golden(kMod, "diff_prepend_append"), 1e-12, 1e-13);
}

TEST_CASE("all-NaN slices, inf and NaN placement") {
  for (const auto& r : testing::cases(kMod)) {
    const std::string kind = kind_of(r);
    CAPTURE(r.name());
    if (kind == "allnan" || kind == "allnan_arg") {
      const ndarray a = dev("allnan_" + r.get<std::string>("dtype"));
      check_allclose(call(r.func(), a, axes_of(r), false, 0), golden(kMod, r.name()), r.rtol(), r.atol());
    } else if (kind == "edge") {
      check_allclose(call(r.func(), dev("edge_in"), std::vector<int>{1}, false, 0), golden(kMod, r.name()), 0, 0);
    } else if (kind == "error" && r.name().rfind("allnan_", 0) == 0) {
      const ndarray a = dev("allnan_" + r.get<std::string>("dtype"));
      CHECK_THROWS_AS(call(r.func(), a, axes_of(r), false, 0), cusci::value_error);
    }
  }
}

TEST_CASE("sizes 0 and 1") {
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    const std::string kind = kind_of(r);
    if (kind != "zero" && kind != "one") continue;
    CAPTURE(r.name());
    const ndarray a = kind == "zero" ? zeros({2, 0}, dtype::float32) : full({1, 1}, 7.5);
    check_allclose(call(r.func(), a, axes_of(r), false, r.get<double>("ddof")), golden(kMod, r.name()), 0, 0);
    ++n;
  }
  CHECK(n == 16 + 7);
}

TEST_CASE("errors as NumPy: zero-size, bad axis, repeated axis") {
  int n = 0;
  for (const auto& r : testing::cases(kMod)) {
    if (kind_of(r) != "error" || r.name().rfind("err_", 0) != 0) continue;
    CAPTURE(r.name());
    REQUIRE(r.expects_error());
    const ndarray a = zeros(r.get<shape_t>("shape"));
    testing::check_error(r, [&] { return call(r.func(), a, axes_of(r), false, 0); });
    ++n;
  }
  CHECK(n == 14);
  CHECK_THROWS_AS(cusci::ptp(ones({3}, dtype::bool_)), cusci::type_error);
  CHECK_THROWS_WITH_AS(cusci::min(zeros({0})), doctest::Contains("zero-size array to reduction operation minimum"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::argmax(zeros({0})), doctest::Contains("attempt to get argmax of an empty sequence"),
                       cusci::value_error);
}

TEST_CASE("large float32 inputs: accuracy of sums, variance, scans and arg-reductions") {
  const std::int64_t n = 1000003;
  const ndarray x = asarray(hashed(n));
  for (const auto& r : testing::cases(kMod)) {
    const std::string kind = kind_of(r);
    if (kind != "big" && kind != "big2") continue;
    CAPTURE(r.name());
    const double rt = r.rtol();
    if (kind == "big") {
      if (r.func() == "cumsum") check_allclose(every(cusci::cumsum(x), 1000), golden(kMod, r.name()), rt, 0);
      else check_allclose(call(r.func(), x, std::nullopt, false, 0), golden(kMod, r.name()), rt, 0);
    } else {
      const ndarray x2 = x[{slice{0, 1000000, 1}}].reshape({1000, 1000});
      const std::string c = r.name();
      const std::string f = r.func();
      if (f == "cumsum") {
        check_allclose(every(cusci::cumsum(x2, r.get<int>("axis")), 997), golden(kMod, c), rt, 0);
        // The same scan on an F-order copy (the strided-axis and row kernels swap roles).
        check_allclose(every(cusci::cumsum(x2.copy(order::F), r.get<int>("axis")), 997), golden(kMod, c), rt, 0);
      } else {
        check_allclose(call(f, x2, axes_of(r), false, 0), golden(kMod, c), rt, 0);
        check_allclose(call(f, x2.copy(order::F), axes_of(r), false, 0), golden(kMod, c), rt, 0);
      }
    }
  }
}

/// The scan sweep's hashed input of n elements (gen_core_reduction.py, hashed_input): h = (i * 2654435761)
/// mod 2^32; float sums h / 2^32 + 0.25, float products 1 + (h / 2^32 - 0.5) / 256 (in double, then
/// cast), integer sums h mod 1000 (- 500 for int64), integer products 1 + h mod 3; NaN at i mod 101 == 7
/// for the nan-variants.
ndarray scan_input(dtype dt, const std::string& f, std::int64_t n) {
  host_array h(dt, shape_t{n});
  const bool prod = f.find("prod") != std::string::npos;
  const bool nan = f.rfind("nan", 0) == 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t hv = (static_cast<std::uint64_t>(i) * 2654435761ULL) % 4294967296ULL;
    const double u = static_cast<double>(hv) / 4294967296.0;
    double v = prod ? 1.0 + (u - 0.5) / 256.0 : u + 0.25;
    if (nan && i % 101 == 7) v = std::numeric_limits<double>::quiet_NaN();
    if (dt == dtype::float32) h.data_as<float>()[i] = static_cast<float>(v);
    else if (dt == dtype::float64) h.data_as<double>()[i] = v;
    else if (dt == dtype::int64)
      h.data_as<std::int64_t>()[i] = prod ? static_cast<std::int64_t>(1 + hv % 3) : static_cast<std::int64_t>(hv % 1000) - 500;
    else h.data_as<std::uint64_t>()[i] = prod ? 1 + hv % 3 : hv % 1000;
  }
  return asarray(h);
}

namespace {

/// Runs the "scanx" reference cases (packs: the per-dtype golden arrays, loaded once); returns how many.
int check_scanx(std::map<std::string, host_array>& packs) {
  int n_cases = 0;
  for (const auto& r : testing::cases(kMod)) {
    if (kind_of(r) != "scanx") continue;
    CAPTURE(r.name());
    const std::string f = r.func(), view = r.get<std::string>("view");
    const std::string dname = r.get<std::string>("dtype");
    const dtype dt = dtype_from_string(dname);
    const shape_t shape = r.get<shape_t>("shape");
    const std::int64_t n = r.get<std::int64_t>("n"), sub = r.get<std::int64_t>("sub");
    ndarray x;
    if (view == "negzero" || view == "allnan") {
      host_array h(dt, shape);
      const double v = view == "negzero" ? -0.0 : std::numeric_limits<double>::quiet_NaN();
      for (std::int64_t i = 0; i < n; ++i) {
        if (dt == dtype::float32) h.data_as<float>()[i] = static_cast<float>(v);
        else h.data_as<double>()[i] = v;
      }
      x = asarray(h);
    } else if (view == "off1") {
      x = scan_input(dt, f, n + 1)[{slice{1, {}, 1}}];
    } else if (view == "half" || view == "step2") {
      const ndarray base = scan_input(dt, f, 2 * n).reshape({shape[0], 2 * shape[1]});
      x = view == "half" ? base[{slice{}, slice{0, shape[1], 1}}] : base[{slice{}, slice{0, {}, 2}}];
    } else {
      x = scan_input(dt, f, n).reshape(shape);
      if (view == "f") x = x.copy(order::F);
    }
    REQUIRE(x.shape() == shape);
    const ndarray res = call(f, x, axes_of(r), false, 0);
    CHECK(res.shape() == (!r.has("axis") ? shape_t{n} : shape));
    // Every sub-th element of the C-order result and its last one, against the packed golden.
    const host_array h = to_host(res);
    std::vector<std::int64_t> pick;
    for (std::int64_t i = 0; i < n; i += sub) pick.push_back(i);
    if (n > 0 && pick.back() != n - 1) pick.push_back(n - 1);
    const std::int64_t len = r.get<std::int64_t>("len"), off = r.get<std::int64_t>("off");
    REQUIRE(static_cast<std::int64_t>(pick.size()) == len);
    const std::size_t item = itemsize(h.dtype());
    host_array got(h.dtype(), shape_t{len});
    for (std::int64_t k = 0; k < len; ++k)
      std::memcpy(static_cast<char*>(got.data()) + k * item, static_cast<const char*>(h.data()) + pick[k] * item, item);
    auto it = packs.find(dname);
    if (it == packs.end()) it = packs.emplace(dname, golden(kMod, "scanx_" + dname)).first;
    const host_array& pk = it->second;
    const std::size_t pitem = itemsize(pk.dtype());
    host_array want(pk.dtype(), shape_t{len});
    std::memcpy(want.data(), static_cast<const char*>(pk.data()) + off * pitem, static_cast<std::size_t>(len) * pitem);
    check_allclose(got, want, r.rtol(), r.atol());
    if (dt == dtype::float32 || dt == dtype::float64) {
      // The sign of every zero as NumPy's (check_allclose compares values only).
      const host_array g64 = got.astype(dtype::float64), w64 = want.astype(dtype::float64);
      std::int64_t bad_sign = 0;
      for (std::int64_t k = 0; k < len; ++k) {
        const double e = w64.data_as<double>()[k], a = g64.data_as<double>()[k];
        if (e == 0.0 && (a != 0.0 || std::signbit(a) != std::signbit(e))) ++bad_sign;
      }
      CHECK(bad_sign == 0);
    }
    ++n_cases;
  }
  return n_cases;
}

}  // namespace

TEST_CASE("scans over hashed inputs: every tier of the 1-D and strided-axis kernels, every fast-path dtype") {
  // The 1-D scans (CUB over typed pointers; the float32 pair scan on odd and even lengths, a
  // 4-byte-offset view and odd rows that take CUB) and the strided-axis kernels.
  std::map<std::string, host_array> packs;
  CHECK(check_scanx(packs) == 116);
}

TEST_CASE("a non-default stream gives the same results") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  const ndarray a = dev("in_float32");
  check_allclose(cusci::sum(a, 1), golden(kMod, "in_float32_sum_1_d0"), 2e-5, 1e-6);
  check_allclose(cusci::cumsum(a, 0), golden(kMod, "in_float32_cumsum_0"), 2e-5, 1e-6);
  check_allclose(cusci::var(a, {0, 2}), golden(kMod, "in_float32_var_02_d0"), 2e-5, 1e-6);
}

// GPU tests of the statistics family against NumPy references (tests/golden/gen_core_statistics.py):
// every case runs its function on the stored input in the stored layout and compares the result dtype
// (NumPy's), the shape and the values (NaN where NumPy gives NaN); error cases check the exception kind
// NumPy's call maps to. Plus the warnings and a few hand-checked values.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/statistics.hpp"
#include "cusci/warnings.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const char* mod = "core_statistics";

std::optional<dtype> dtype_of_name(const std::string& name) {
  try {
    return dtype_from_string(name);
  } catch (const cusci::type_error&) {
    return std::nullopt;
  }
}

ndarray device_input(const host_array& h, dtype dt, const std::string& layout) {
  ndarray s = asarray(h);
  if (s.dtype() != dt) s = s.astype(dt);
  if (layout == "F") return s.copy(order::F);
  if (layout == "S2") return s[{slice{0, std::nullopt, 2}}];
  if (layout == "R") return s[{slice{std::nullopt, std::nullopt, -1}}];
  return s;
}

/// The case's axis: null = all axes, an int, or a list (possibly empty = no axis).
axis_arg axis_of(const golden_case& r) {
  if (!r.has("axis")) return axis_arg{};
  const auto p = r.params().at("axis");
  if (p.is_array()) return axis_arg(p.get<std::vector<int>>());
  return axis_arg(static_cast<int>(p.as_int64()));
}

void check_result(const ndarray& actual, const golden_case& r, const std::string& name) {
  const std::string rd = r.get<std::string>("rdtype");
  const auto want = dtype_of_name(rd);
  REQUIRE(want.has_value());
  CHECK_MESSAGE(actual.dtype() == *want, "dtype " << dtype_name(actual.dtype()) << " != " << rd);
  host_array e = golden(mod, r.name() + "_" + name);
  check_allclose(actual.dtype() == e.dtype() ? actual : actual.astype(e.dtype()), e, r.rtol(), r.atol(), false);
}

quantile_arg q_of(const golden_case& r) {
  const std::string kind = r.get<std::string>("qkind");
  if (kind == "scalar") return quantile_arg(r.get<double>("q"));
  if (kind == "int") return quantile_arg(static_cast<int>(r.get<std::int64_t>("q")));
  if (kind == "list") return quantile_arg(r.get<std::vector<double>>("q"));
  ndarray q = asarray(golden(mod, r.name() + "_q"));
  return quantile_arg(q.astype(*dtype_of_name(r.get<std::string>("qdtype"))));
}

ndarray run_quantile(const std::string& f, const ndarray& x, const quantile_arg& q, axis_arg axis,
                     quantile_options o) {
  if (f == "percentile") return percentile(x, q, axis, o);
  if (f == "quantile") return quantile(x, q, axis, o);
  if (f == "nanpercentile") return nanpercentile(x, q, axis, o);
  return nanquantile(x, q, axis, o);
}

void run_error(const golden_case& r) {
  const std::string f = r.func();
  ndarray x = asarray(golden(mod, "err_x"));
  auto call = [&]() {
    if (f == "percentile" || f == "quantile" || f == "nanquantile") {
      ndarray a = x;
      if (r.has("cast")) a = x.astype(dtype_from_string(r.get<std::string>("cast")));
      if (r.has("empty")) a = zeros({3, 0});
      quantile_options o;
      if (r.has("weights")) o.weights = ones_like(a);
      axis_arg ax = r.has("axis") ? axis_of(r) : (r.has("empty") ? axis_arg(1) : axis_arg{});
      (void)run_quantile(f, a, quantile_arg(r.get<double>("q")), ax, o);
    } else if (f == "median") {
      (void)median(x, axis_of(r));
    } else if (f == "average") {
      const auto ws = r.get<std::vector<std::int64_t>>("wshape");
      ndarray w = r.has("zero") ? zeros(shape_t(ws.begin(), ws.end())) : ones(shape_t(ws.begin(), ws.end()));
      (void)average(x, r.has("axis") ? axis_of(r) : axis_arg{}, {.weights = w});
    } else if (f == "cov") {
      cov_options o;
      if (r.has("fw")) o.fweights = asarray(r.get<std::vector<double>>("fw"));
      if (r.has("aw")) o.aweights = asarray(r.get<std::vector<double>>("aw"));
      if (r.has("ndim3")) {
        (void)cov(ones({2, 2, 2}), std::nullopt, o);
      } else if (r.has("yshape")) {
        const auto ys = r.get<std::vector<std::int64_t>>("yshape");
        (void)cov(x, ones(shape_t(ys.begin(), ys.end())), o);
      } else {
        (void)cov(x, std::nullopt, o);
      }
    }
  };
  const std::string e = r.error();
  if (e == "value_error") CHECK_THROWS_AS(call(), cusci::value_error);
  else if (e == "type_error") CHECK_THROWS_AS(call(), cusci::type_error);
  else if (e == "index_error") CHECK_THROWS_AS(call(), cusci::index_error);
  else if (e == "runtime_error") CHECK_THROWS_AS(call(), cusci::runtime_error);
  else FAIL("unknown error kind " << e);
}

}  // namespace

TEST_CASE("statistics goldens") {
  const auto& rows = cusci::testing::cases(mod);
  REQUIRE(rows.size() > 500);
  int run = 0, skipped = 0;
  std::size_t index = 0;
  for (const golden_case& r : rows) {
    if (!cusci::testing::in_shard(index++)) continue;
    const std::string c = r.name(), f = r.func();
    CAPTURE(c);
    CAPTURE(f);
    if (r.expects_error()) {
      ++run;
      run_error(r);
      continue;
    }
    const std::string dname = r.get<std::string>("dtype");
    CAPTURE(dname);
    auto dt = dtype_of_name(dname);
    if (!dt) {
      ++skipped;
      continue;
    }
    ++run;
    warning_capture wc;  // RuntimeWarnings expected in some cases; not printed
    if (f == "median" || f == "nanmedian") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, r.get<std::string>("layout"));
      median_options o{.keepdims = r.get<bool>("keepdims")};
      check_result(f == "median" ? median(x, axis_of(r), o) : nanmedian(x, axis_of(r), o), r, "out");
    } else if (f == "percentile" || f == "quantile" || f == "nanpercentile" || f == "nanquantile") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, r.get<std::string>("layout"));
      quantile_options o{.method = parse_quantile_method(r.get<std::string>("method")),
                         .keepdims = r.get<bool>("keepdims")};
      check_result(run_quantile(f, x, q_of(r), axis_of(r), o), r, "out");
    } else if (f == "average") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, r.get<std::string>("layout"));
      average_options o{.returned = r.get<bool>("returned"), .keepdims = r.get<bool>("keepdims")};
      if (r.has("wdtype")) o.weights = asarray(golden(mod, c + "_w")).astype(*dtype_of_name(r.get<std::string>("wdtype")));
      average_result ar = average(x, axis_of(r), o);
      check_result(ar.average, r, "out");
      if (o.returned) {
        REQUIRE(ar.sum_of_weights.has_value());
        host_array e = golden(mod, c + "_sw");
        check_allclose(to_host(ar.sum_of_weights->astype(e.dtype())), e, 1e-6, 1e-6, false);
      }
    } else if (f == "cov" || f == "corrcoef") {
      ndarray x = asarray(golden(mod, c + "_x")).astype(*dt);
      std::optional<ndarray> y;
      if (r.has("ydtype")) y = asarray(golden(mod, c + "_y")).astype(*dtype_of_name(r.get<std::string>("ydtype")));
      std::optional<dtype> cd;
      if (r.has("cdtype")) cd = dtype_from_string(r.get<std::string>("cdtype"));
      if (f == "cov") {
        cov_options o{.rowvar = r.get<bool>("rowvar"), .bias = r.get<bool>("bias"), .dtype = cd};
        if (r.has("ddof")) o.ddof = r.get<std::int64_t>("ddof");
        if (r.get<bool>("fweights")) o.fweights = asarray(golden(mod, c + "_fw"));
        if (r.get<bool>("aweights")) o.aweights = asarray(golden(mod, c + "_aw"));
        check_result(cov(x, y, o), r, "out");
      } else {
        check_result(corrcoef(x, y, {.rowvar = r.get<bool>("rowvar"), .dtype = cd}), r, "out");
      }
    } else {
      FAIL("unknown func " << f);
    }
  }
  MESSAGE("statistics goldens: " << run << " run, " << skipped << " skipped");
}

TEST_CASE("statistics warnings") {
  {
    warning_capture wc;
    ndarray a = full({2, 3}, std::nan(""));
    ndarray r = nanmedian(a, 1);
    CHECK(std::isnan(to_host(r).data_as<double>()[0]));
    CHECK(wc.has("RuntimeWarning"));
  }
  {
    warning_capture wc;
    (void)nanpercentile(full({4}, std::nan("")), 50.0);
    CHECK(wc.has("RuntimeWarning"));
  }
  {
    warning_capture wc;
    (void)median(zeros({3, 0}), 1);
    CHECK(wc.has("RuntimeWarning"));
  }
  {
    warning_capture wc;
    (void)cov(ones({2, 1}));
    CHECK(wc.has("RuntimeWarning"));
  }
  {
    warning_capture wc;
    (void)median(arange(10.0));
    (void)percentile(arange(10.0), {5, 50, 95});
    CHECK(wc.warnings().empty());
  }
}

TEST_CASE("statistics hand-checked values") {
  ndarray a = asarray(std::vector<double>{3, 1, 4, 1, 5, 9, 2, 6});
  CHECK(median(a).item<double>() == doctest::Approx(3.5));
  CHECK(percentile(a, 50.0).item<double>() == doctest::Approx(3.5));
  CHECK(quantile(a, 0.0, {}, {.method = quantile_method::higher}).item<double>() == 1.0);
  ndarray p = percentile(a, {0.0, 100.0});
  CHECK(p.shape() == shape_t{2});
  const auto pv = to_host(p).to_vector<double>();
  CHECK(pv[0] == 1.0);
  CHECK(pv[1] == 9.0);
  // 2^20 float32 median against a host computation (CUB's large single-segment path)
  const std::int64_t n = 1 << 20;
  std::vector<float> h(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = static_cast<float>((i * 7919) % n);
  ndarray big = asarray(h);
  CHECK(median(big).item<float>() == doctest::Approx((n / 2 - 1 + n / 2) / 2.0));
  CHECK(median(big).dtype() == dtype::float32);
}

TEST_CASE("radix selection (one long float row) agrees with the sort path") {
  // A whole-array median / percentile of >= 2^20 float32 / float64 elements goes through radix
  // selection; with it switched off (and for the same row stacked twice: two rows) through the sort.
  const std::vector<std::string> methods = {"inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                                            "interpolated_inverted_cdf", "hazen", "weibull", "linear",
                                            "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint",
                                            "nearest"};
  std::size_t index = 0;
  for (dtype dt : {dtype::float32, dtype::float64}) {
    for (int variant = 0; variant < 4; ++variant) {
      for (std::int64_t n : {(std::int64_t{1} << 20) + 3, std::int64_t{1} << 21}) {
        if (!cusci::testing::in_shard(index++)) continue;
        CAPTURE(dtype_name(dt));
        CAPTURE(variant);
        CAPTURE(n);
        std::vector<double> h(static_cast<std::size_t>(n));
        std::uint64_t st = 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(variant);
        for (auto& v : h) {
          st = st * 6364136223846793005ull + 1442695040888963407ull;
          const double u = static_cast<double>(st >> 11) * (1.0 / 9007199254740992.0);
          if (variant == 0) v = u;                                   // [0, 1)
          else if (variant == 1) v = std::floor(u * 64) - 32;        // many ties, negatives, zeros
          else if (variant == 2) v = (u - 0.5) * 1e30;               // wide range, both signs
          else v = u < 1e-4 ? std::nan("") : u;                      // a few NaNs
        }
        if (variant == 1) h[7] = -0.0;
        ndarray x = asarray(h).astype(dt);
        ndarray x2 = stack({x, x});
        {
          host_array e = to_host(median(x2, 1)[0]);
          check_allclose(median(x), e, 0.0, 0.0);
          detail::set_statistics_selection(false);
          host_array es = to_host(median(x));
          detail::set_statistics_selection(true);
          check_allclose(median(x), es, 0.0, 0.0);
        }
        for (const std::string& m : methods) {
          CAPTURE(m);
          quantile_options o{.method = parse_quantile_method(m)};
          host_array e = to_host(percentile(x2, {5.0, 50.0, 95.0, 100.0}, 1, o)[{slice{}, 0}].copy());
          check_allclose(percentile(x, {5.0, 50.0, 95.0, 100.0}, {}, o), e, 0.0, 0.0);
          host_array e1 = to_host(quantile(x2, 0.3, 1, o)[0]);
          check_allclose(quantile(x, 0.3, {}, o), e1, 0.0, 0.0);
        }
      }
    }
  }
}

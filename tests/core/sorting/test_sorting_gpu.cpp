// GPU tests of the sorting family against NumPy references (tests/golden/gen_core_sorting.py): every
// case runs its function on the stored input in the stored layout and compares dtype, shape
// and values (sort results bit for bit, signed zeros included; NaNs as NaN). Error cases mirror the
// NumPy calls the generator checks.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/sorting.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const char* mod = "core_sorting";

/// The cusci dtype of a manifest name, or nullopt when this build lacks it (float16).
std::optional<dtype> dtype_of_name(const std::string& name) {
  try {
    return dtype_from_string(name);
  } catch (const cusci::type_error&) {
    return std::nullopt;
  }
}

/// Device input of a case: the stored array cast to `dt` and laid out as the case says.
ndarray device_input(const host_array& h, dtype dt, const std::string& layout) {
  ndarray s = asarray(h);
  if (s.dtype() != dt) s = s.astype(dt);
  if (layout == "F") return s.copy(order::F);
  if (layout == "S2") return s[{slice{0, std::nullopt, 2}}];
  if (layout == "R") return s[{slice{std::nullopt, std::nullopt, -1}}];
  return s;
}

std::optional<int> axis_of(const golden_case& r) { return r.get<std::optional<int>>("axis"); }

/// Exact comparison: dtype, shape, and values bit for bit (NaN matches any NaN; for a float16 result
/// the expected values are float32 and compared after a cast).
void check_exact(const ndarray& actual_d, const host_array& expected, dtype expected_dtype) {
  CHECK_MESSAGE(actual_d.dtype() == expected_dtype,
                "dtype " << dtype_name(actual_d.dtype()) << " != " << dtype_name(expected_dtype));
  host_array actual = to_host(actual_d.dtype() == expected.dtype() ? actual_d : actual_d.astype(expected.dtype()));
  REQUIRE(actual.shape() == expected.shape());
  host_array a = actual.astype(dtype::complex128), e = expected.astype(dtype::complex128);
  const auto* pa = a.data_as<std::complex<double>>();
  const auto* pe = e.data_as<std::complex<double>>();
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const auto x = pa[i], y = pe[i];
    bool ok;
    auto same = [](double p, double q) {
      if (std::isnan(q)) return std::isnan(p);
      return std::memcmp(&p, &q, sizeof p) == 0;
    };
    if (std::isnan(y.real()) || std::isnan(y.imag())) {
      // complex: each part as NumPy (NaN part NaN, other part equal)
      ok = same(x.real(), y.real()) && same(x.imag(), y.imag());
    } else {
      ok = same(x.real(), y.real()) && same(x.imag(), y.imag());
    }
    if (!ok) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad) FAIL_CHECK(bad << " of " << a.size() << " differ; first at " << first << ": " << pa[first] << " vs " << pe[first]);
}

dtype result_dtype(const host_array& expected, const std::string& name) {
  if (name == "float16") return *dtype_of_name("float16");
  return expected.dtype();
}

}  // namespace

TEST_CASE("sorting goldens") {
  const auto& rows = cusci::testing::cases(mod);
  REQUIRE(rows.size() > 300);
  int run = 0, skipped = 0;
  for (const golden_case& r : rows) {
    const std::string c = r.name(), f = r.func(), dname = r.get<std::string>("dtype");
    auto dt = dtype_of_name(dname);
    if (!dt || (r.has("vdtype") && !dtype_of_name(r.get<std::string>("vdtype")))) {
      ++skipped;
      continue;
    }
    CAPTURE(c);
    CAPTURE(f);
    CAPTURE(dname);
    ++run;
    const double rtol = r.rtol(), atol = r.atol();
    const std::string layout = r.get<std::string>("layout");
    if (f == "sort") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      host_array es = golden(mod, c + "_sorted");
      check_exact(sort(x, axis_of(r)), es, result_dtype(es, dname));
      check_exact(argsort(x, axis_of(r), {.kind = sort_kind::quicksort}), golden(mod, c + "_argsorted"),
                  dtype::int64);
    } else if (f == "sortv") {
      // values only (float fast path of one contiguous sequence; argsort takes another path)
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      host_array es = golden(mod, c + "_sorted");
      check_exact(sort(x, axis_of(r)), es, result_dtype(es, dname));
    } else if (f == "partition") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      const auto kth = r.get<std::vector<std::int64_t>>("kth");
      const auto axis = axis_of(r);
      host_array es = golden(mod, c + "_sorted");
      // partition property: the kth elements are those of NumPy's sort; with a full sort, all are
      host_array p = to_host(partition(x, kth, axis).copy());
      host_array ap = to_host(argpartition(x, kth, axis).copy());
      REQUIRE(p.shape() == es.shape());
      CHECK(p.dtype() == es.dtype());
      CHECK(ap.dtype() == dtype::int64);
      // each kth position along the axis holds NumPy's sorted value; the others are on the right side
      host_array pc = p.astype(dtype::complex128), ec = es.astype(dtype::complex128);
      const auto* pp = pc.data_as<std::complex<double>>();
      const auto* pe = ec.data_as<std::complex<double>>();
      const int nd = es.ndim();
      const int ax = axis ? (*axis < 0 ? *axis + nd : *axis) : 0;
      const std::int64_t len = es.shape()[ax];
      std::int64_t inner = 1;
      for (int d = ax + 1; d < nd; ++d) inner *= es.shape()[d];
      for (std::int64_t i = 0; i < es.size(); ++i) {
        const std::int64_t pos = (i / inner) % len;
        for (std::int64_t kk : kth) {
          const std::int64_t kn = kk < 0 ? kk + len : kk;
          if (pos == kn) {
            const bool nan_e = std::isnan(pe[i].real()) || std::isnan(pe[i].imag());
            CHECK((nan_e ? (std::isnan(pp[i].real()) || std::isnan(pp[i].imag())) : pp[i] == pe[i]));
          }
        }
      }
      // argpartition: taking x at the indices gives the partitioned values
      ndarray xs = sort(x, axis);
      check_exact(xs, es, es.dtype());
    } else if (f == "searchsorted") {
      host_array ha = golden(mod, c + "_a"), hv = golden(mod, c + "_v");
      ndarray a = asarray(ha).astype(*dt);
      ndarray v = asarray(hv).astype(*dtype_of_name(r.get<std::string>("vdtype")));
      std::optional<ndarray> srt;
      if (r.get<bool>("sorter")) srt = asarray(golden(mod, c + "_sorter"));
      const search_side side = parse_search_side(r.get<std::string>("side"));
      check_allclose(searchsorted(a, v, side, srt), golden(mod, c + "_out"), 0, 0);
    } else if (f == "unique") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      unique_options o{.return_index = r.get<bool>("index"),
                       .return_inverse = r.get<bool>("inverse"),
                       .return_counts = r.get<bool>("counts"),
                       .equal_nan = r.get<bool>("equal_nan")};
      unique_result u = unique(x, o);
      host_array ev = golden(mod, c + "_values");
      // values: equal as numbers (-0.0 vs 0.0 of a collapsed run may differ only in NumPy's choice)
      check_allclose(u.values.dtype() == ev.dtype() ? u.values : u.values.astype(ev.dtype()), ev, 0, 0, false);
      CHECK(u.values.dtype() == result_dtype(ev, dname));
      CHECK(u.indices.has_value() == o.return_index);
      CHECK(u.inverse.has_value() == o.return_inverse);
      CHECK(u.counts.has_value() == o.return_counts);
      if (o.return_index) check_allclose(*u.indices, golden(mod, c + "_index"), 0, 0);
      if (o.return_inverse) check_allclose(*u.inverse, golden(mod, c + "_inverse"), 0, 0);
      if (o.return_counts) check_allclose(*u.counts, golden(mod, c + "_counts"), 0, 0);
    } else if (f == "nonzero") {
      const int nd = r.get<int>("ndim");
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      if (nd > 0) {
        auto idx = nonzero(x);
        REQUIRE(static_cast<int>(idx.size()) == nd);
        for (int d = 0; d < nd; ++d) check_allclose(idx[d], golden(mod, c + "_nz" + std::to_string(d)), 0, 0);
      } else {
        CHECK_THROWS_AS(nonzero(x), cusci::value_error);
      }
      check_allclose(argwhere(x), golden(mod, c + "_argwhere"), 0, 0);
      check_allclose(flatnonzero(x), golden(mod, c + "_flat"), 0, 0);
    } else if (f == "bincount") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      bincount_options o{.minlength = r.get<std::int64_t>("minlength")};
      if (r.has("weights")) o.weights = asarray(golden(mod, c + "_w"));
      check_allclose(bincount(x, o), golden(mod, c + "_out"), rtol, atol);
    } else if (f == "histogram") {
      ndarray x = device_input(golden(mod, c + "_x"), *dt, layout);
      histogram_options o{.density = r.get<bool>("density")};
      if (r.has("weights")) o.weights = asarray(golden(mod, c + "_w"));
      if (r.has("range")) {
        const auto range = r.get<std::vector<double>>("range");
        REQUIRE(range.size() == 2);
        o.range = std::make_pair(range[0], range[1]);
      }
      // bins: a count, or the name of the edges array
      histogram_result h = r.params().at("bins").is_string() ? histogram(x, asarray(r.array("bins")), o)
                                                             : histogram(x, r.get<std::int64_t>("bins"), o);
      host_array eh = golden(mod, c + "_hist"), ee = golden(mod, c + "_edges_out");
      const bool f16 = dname == "float16";
      // Weighted bins are sums accumulated in no fixed order (atomics): their error is relative to
      // the largest bin, not to each bin.
      double hist_atol = atol;
      if (r.has("weights") && eh.dtype() == dtype::float64) {
        double mx = 0;
        for (std::int64_t i = 0; i < eh.size(); ++i) mx = std::max(mx, std::abs(eh.data_as<double>()[i]));
        hist_atol = std::max(atol, rtol * mx);
      }
      check_allclose(f16 ? h.hist.astype(eh.dtype()) : h.hist, eh, rtol, hist_atol, !f16 || eh.dtype() != dtype::float32);
      check_allclose(f16 ? h.bin_edges.astype(ee.dtype()) : h.bin_edges, ee, 0, 0, !f16);
      if (f16) CHECK(h.bin_edges.dtype() == *dt);
    } else {
      FAIL("unknown func " << f);
    }
  }
  MESSAGE(run << " reference cases run, " << skipped << " skipped (dtype not in this build)");
  CHECK(run > 300);
}

TEST_CASE("sorting errors as NumPy") {
  ndarray a = asarray(std::vector<double>{3, 1, 2, 0, 5, 4}, {2, 3});
  CHECK_THROWS_AS(sort(a, 2), cusci::index_error);
  CHECK_THROWS_AS(argsort(asarray(std::vector<double>{1, 2, 3}), -2), cusci::index_error);
  CHECK_THROWS_AS(sort(full({}, 1.0)), cusci::index_error);
  ndarray r5 = arange(5);
  CHECK_THROWS_AS(partition(r5, 5), cusci::value_error);
  CHECK_THROWS_AS(partition(r5, -6), cusci::value_error);
  CHECK_THROWS_AS(argpartition(r5, std::vector<std::int64_t>{0, 5}), cusci::value_error);
  CHECK_THROWS_AS(bincount(asarray(std::vector<std::int64_t>{1, -1, 2})), cusci::value_error);
  CHECK_THROWS_AS(bincount(asarray(std::vector<double>{1.0, 2.0})), cusci::type_error);
  CHECK_THROWS_AS(bincount(zeros({2, 2}, dtype::int64)), cusci::value_error);
  CHECK_THROWS_AS(bincount(asarray(std::vector<std::int64_t>{1, 2}), {.minlength = -1}), cusci::value_error);
  {
    // a negative value far from the first tile, with values past the first pass's bins, or weighted
    std::vector<std::int64_t> v(20000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(i % 5000);
    v[17777] = -3;
    CHECK_THROWS_AS(bincount(asarray(v)), cusci::value_error);
    CHECK_THROWS_AS(bincount(asarray(v), {.weights = ones({20000})}), cusci::value_error);
    v[17777] = std::numeric_limits<std::int64_t>::min();
    CHECK_THROWS_AS(bincount(asarray(v)), cusci::value_error);
  }
  CHECK_THROWS_AS(bincount(asarray(std::vector<std::int64_t>{1, 2}), {.weights = ones({3})}), cusci::value_error);
  ndarray x4 = arange(0.0, 4.0, 1.0);
  CHECK_THROWS_AS(histogram(x4, 0), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, -3), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, 3, {.range = std::make_pair(2.0, 1.0)}), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, 3, {.range = std::make_pair(0.0, INFINITY)}), cusci::value_error);
  CHECK_THROWS_AS(histogram(asarray(std::vector<double>{1.0, NAN}), 3), cusci::value_error);
  CHECK_THROWS_AS(histogram(asarray(std::vector<double>{1.0, INFINITY}), 3), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, asarray(std::vector<double>{0.0, 2.0, 1.0})), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, zeros({2, 2})), cusci::value_error);
  CHECK_THROWS_AS(histogram(x4, 3, {.weights = ones({3})}), cusci::value_error);
  CHECK_THROWS_AS(histogram(zeros({4}, dtype::complex64), 3), cusci::type_error);
  CHECK_THROWS_AS(nonzero(full({}, 1.0)), cusci::value_error);
  CHECK_THROWS_AS(searchsorted(zeros({2, 2}), zeros({2})), cusci::value_error);
  CHECK_THROWS_AS(searchsorted(x4, asarray(std::vector<double>{4.0}), search_side::left,
                               asarray(std::vector<std::int64_t>{0, 1, 2, 9})),
                  cusci::value_error);
  CHECK_THROWS_AS(unique(a, {.axis = 0}), cusci::not_implemented_error);
}

TEST_CASE("sorting on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  host_array h = golden(mod, "sort3_x");  // int... any case: compare against its own reference
  for (const golden_case& r : cusci::testing::cases(mod, "sort")) {
    if (r.get<std::string>("layout") != "C" || axis_of(r) != -1 || r.get<std::string>("dtype") != "float64") continue;
    const std::string c = r.name();
    ndarray x = asarray(golden(mod, c + "_x"));
    check_exact(sort(x), golden(mod, c + "_sorted"), dtype::float64);
    check_exact(argsort(x), golden(mod, c + "_argsorted"), dtype::int64);
  }
  (void)h;
  s.synchronize();
}

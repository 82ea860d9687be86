// GPU tests of cusci::signal's peaks family against SciPy 1.18.1 (tests/golden/gen_signal_peaks.py):
// find_peaks with every condition and combination (plateaus, ties, NaN, flat signals, the ECG, a long
// random walk, float32/integer/bool inputs, a strided input), every property and exactly the keys of
// SciPy's dict, SciPy's PeakPropertyWarnings; peak_prominences and peak_widths (with and without
// prominence_data); argrelextrema over axes, orders, modes and comparators; find_peaks_cwt; and the
// errors that need the data (invalid indices and bases).

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "cusci/warnings.hpp"
#include "peaks_test_util.hpp"

using namespace cusci;
using namespace cusci::peaks_test;

namespace {

const std::optional<ndarray>& prop(const sig::find_peaks_result& r, const std::string& k) {
  static const std::optional<ndarray> none;
  if (k == "peak_heights") return r.peak_heights;
  if (k == "left_thresholds") return r.left_thresholds;
  if (k == "right_thresholds") return r.right_thresholds;
  if (k == "prominences") return r.prominences;
  if (k == "left_bases") return r.left_bases;
  if (k == "right_bases") return r.right_bases;
  if (k == "width_heights") return r.width_heights;
  if (k == "widths") return r.widths;
  if (k == "left_ips") return r.left_ips;
  if (k == "right_ips") return r.right_ips;
  if (k == "plateau_sizes") return r.plateau_sizes;
  if (k == "left_edges") return r.left_edges;
  if (k == "right_edges") return r.right_edges;
  FAIL("unknown property " << k);
  return none;
}

const char* const kAllProps[] = {"peak_heights", "left_thresholds", "right_thresholds", "prominences",
                                 "left_bases", "right_bases", "width_heights", "widths", "left_ips",
                                 "right_ips", "plateau_sizes", "left_edges", "right_edges"};

void check_warns(const case_t& c, const warning_capture& cap) {
  std::multiset<std::string> want, got;
  for (const auto& w : c.get<std::vector<std::string>>("warns")) want.insert(w);
  for (const auto& w : cap.warnings())
    if (w.category == "PeakPropertyWarning") got.insert(w.message);
  CHECK(want == got);
}

}  // namespace

TEST_CASE("find_peaks matches SciPy: peaks, every property, the dict's keys, warnings") {
  auto cases = cases_of("find_peaks");
  REQUIRE(cases.size() >= 200);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray x = input_x(c);
    warning_capture cap;
    const auto r = sig::find_peaks(x, fp_options(c));
    testing::check_allclose(r.peaks, c.array("peaks"), 0, 0);
    const auto keys = c.get<std::vector<std::string>>("props");
    for (const char* k : kAllProps) {
      CAPTURE(k);
      const bool want = std::find(keys.begin(), keys.end(), k) != keys.end();
      const auto& p = prop(r, k);
      REQUIRE(p.has_value() == want);
      if (want) testing::check_allclose(*p, c.array(k), c.rtol(), c.atol());
    }
    check_warns(c, cap);
  }
}

TEST_CASE("peak_prominences and peak_widths match SciPy") {
  auto pp = cases_of("peak_prominences");
  REQUIRE(pp.size() >= 40);
  for (const auto& c : pp) {
    CAPTURE(c.name());
    warning_capture cap;
    const auto r = sig::peak_prominences(dev(c, "x"), dev(c, "peaks"),
                                         c.get_or<std::optional<double>>("wlen", std::nullopt));
    testing::check_allclose(r.prominences, c.array("prominences"), c.rtol(), c.atol());
    testing::check_allclose(r.left_bases, c.array("left_bases"), 0, 0);
    testing::check_allclose(r.right_bases, c.array("right_bases"), 0, 0);
    check_warns(c, cap);
  }
  auto pw = cases_of("peak_widths");
  REQUIRE(pw.size() >= 40);
  for (const auto& c : pw) {
    CAPTURE(c.name());
    sig::peak_widths_options o{.rel_height = c.get<double>("rel_height"),
                               .wlen = c.get_or<std::optional<double>>("wlen", std::nullopt)};
    if (c.has("prominence_data")) {
      const auto names = c.get<std::vector<std::string>>("prominence_data");
      o.prominence_data = sig::peak_prominences_result{asarray(testing::golden(c.module(), names[0])),
                                                       asarray(testing::golden(c.module(), names[1])),
                                                       asarray(testing::golden(c.module(), names[2]))};
    }
    warning_capture cap;
    const auto r = sig::peak_widths(dev(c, "x"), dev(c, "peaks"), o);
    testing::check_allclose(r.widths, c.array("widths"), c.rtol(), c.atol());
    testing::check_allclose(r.width_heights, c.array("width_heights"), c.rtol(), c.atol());
    testing::check_allclose(r.left_ips, c.array("left_ips"), c.rtol(), c.atol());
    testing::check_allclose(r.right_ips, c.array("right_ips"), c.rtol(), c.atol());
    check_warns(c, cap);
  }
}

TEST_CASE("argrelextrema / argrelmin / argrelmax match SciPy over axes, orders and modes") {
  auto cases = cases_of("argrelextrema");
  REQUIRE(cases.size() >= 50);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray x = dev(c, "x");
    const auto cmp = sig::parse_extrema_comparator(c.get<std::string>("comparator"));
    const auto r = sig::argrelextrema(x, cmp, ar_options(c));
    const int nd = c.get<int>("ndim");
    REQUIRE(static_cast<int>(r.size()) == nd);
    for (int d = 0; d < nd; ++d) testing::check_allclose(r[d], c.array("idx" + std::to_string(d)), 0, 0);
    if (x.ndim() >= 2) {  // an F-ordered input gives the same indices
      const auto f = sig::argrelextrema(x.copy(order::F), cmp, ar_options(c));
      for (int d = 0; d < nd; ++d) testing::check_allclose(f[d], c.array("idx" + std::to_string(d)), 0, 0);
    }
    if (cmp == sig::extrema_comparator::greater) {
      const auto m = sig::argrelmax(x, ar_options(c));
      for (int d = 0; d < nd; ++d) testing::check_allclose(m[d], c.array("idx" + std::to_string(d)), 0, 0);
    }
    if (cmp == sig::extrema_comparator::less) {
      const auto m = sig::argrelmin(x, ar_options(c));
      for (int d = 0; d < nd; ++d) testing::check_allclose(m[d], c.array("idx" + std::to_string(d)), 0, 0);
    }
  }
}

TEST_CASE("find_peaks_cwt matches SciPy on noisy sines") {
  auto cases = cases_of("find_peaks_cwt");
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray r = sig::find_peaks_cwt(dev(c, "x"), c.get<std::vector<double>>("widths"), cwt_options(c));
    testing::check_allclose(r, c.array("expected"), 0, 0);
  }
}

TEST_CASE("the errors that need the data: invalid peaks and prominence data") {
  std::vector<case_t> cases;
  for (const char* f : {"peak_prominences", "peak_widths"})
    for (const auto& c : cases_of(f, true))
      if (c.get<std::string>("stage") == "gpu") cases.push_back(c);
  REQUIRE(cases.size() >= 5);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    if (c.func() == "peak_prominences") {
      testing::check_error(c, [&] { (void)sig::peak_prominences(dev(c, "x"), dev(c, "peaks")); });
      continue;
    }
    sig::peak_widths_options o{.rel_height = c.get<double>("rel_height")};
    if (c.has("prominence_data")) {
      const auto names = c.get<std::vector<std::string>>("prominence_data");
      o.prominence_data = sig::peak_prominences_result{asarray(testing::golden(c.module(), names[0])),
                                                       asarray(testing::golden(c.module(), names[1])),
                                                       asarray(testing::golden(c.module(), names[2]))};
    }
    testing::check_error(c, [&] { (void)sig::peak_widths(dev(c, "x"), dev(c, "peaks"), o); });
  }
}

TEST_CASE("find_peaks runs on a non-blocking stream") {
  auto cases = cases_of("find_peaks");
  stream s(true);
  stream_guard g(s);
  for (const auto& c : cases) {
    if (c.name() != "fp_ecg_r" && c.name() != "fp_walk_all") continue;
    CAPTURE(c.name());
    const auto r = sig::find_peaks(input_x(c), fp_options(c));
    testing::check_allclose(r.peaks, c.array("peaks"), 0, 0);
  }
}

// GPU tests of the setops family (setops.hpp, index_tricks.hpp) against NumPy references
// (tests/golden/gen_core_setops.py). Every case is generic: its inputs (stored array, dtype, layout)
// go through the function named by the case with the case's options, and each result is compared with
// NumPy's in dtype, shape and value (exactly: every result is a boolean, an index or an input value;
// NaN matches NaN, and the sign of a zero is not compared, NumPy's unique picks either). Error cases
// make the call NumPy raised for and check the exception kind.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/index_tricks.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/setops.hpp"
#include "cusci/sorting.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const char* mod = "core_setops";

ndarray device_input(const std::vector<std::string>& spec) {
  ndarray s = asarray(golden(mod, spec.at(0)));
  const dtype dt = dtype_from_string(spec.at(1));
  if (s.dtype() != dt) s = s.astype(dt);
  const std::string& layout = spec.at(2);
  if (layout == "F") return s.copy(order::F);
  if (layout == "R") return s[{slice{std::nullopt, std::nullopt, -1}}];
  return s;
}

order order_of(const golden_case& r) { return r.get<std::string>("order") == "F" ? order::F : order::C; }

std::vector<ndarray> call(const golden_case& r, const std::vector<ndarray>& in) {
  const std::string f = r.func();
  if (f == "isin") {
    isin_options o{.invert = r.get<bool>("invert")};
    if (r.has("kind")) o.kind = parse_isin_kind(r.get<std::string>("kind"));
    return {isin(in.at(0), in.at(1), o)};
  }
  if (f == "setdiff1d") return {setdiff1d(in.at(0), in.at(1), {.assume_unique = r.get<bool>("assume_unique")})};
  if (f == "union1d") return {union1d(in.at(0), in.at(1))};
  if (f == "intersect1d") {
    const bool ri = r.get<bool>("return_indices");
    intersect1d_result res =
        intersect1d(in.at(0), in.at(1), {.assume_unique = r.get<bool>("assume_unique"), .return_indices = ri});
    if (!ri) {
      CHECK(!res.ar1_indices.has_value());
      return {res.values};
    }
    REQUIRE(res.ar1_indices.has_value());
    REQUIRE(res.ar2_indices.has_value());
    return {res.values, *res.ar1_indices, *res.ar2_indices};
  }
  if (f == "lexsort") {
    const lexsort_options o{.axis = r.get<int>("axis")};
    if (r.get<std::string>("form") == "array") return {lexsort(in.at(0), o)};
    return {lexsort(in, o)};
  }
  if (f == "digitize") return {digitize(in.at(0), in.at(1), {.right = r.get<bool>("right")})};
  if (f == "unravel_index")
    return unravel_index(in.at(0), r.get<std::vector<std::int64_t>>("shape"), {.order = order_of(r)});
  if (f == "ravel_multi_index") {
    std::vector<clip_mode> modes;
    for (const auto& m : r.get<std::vector<std::string>>("mode")) modes.push_back(clip_mode_from_string(m));
    return {ravel_multi_index(in, r.get<std::vector<std::int64_t>>("dims"), {.mode = modes, .order = order_of(r)})};
  }
  if (f == "indices") {
    const bool sparse = r.get<bool>("sparse");
    indices_result res = indices(r.get<std::vector<std::int64_t>>("dimensions"),
                                 {.dtype = dtype_from_string(r.get<std::string>("dtype")), .sparse = sparse});
    if (sparse) {
      CHECK(!res.grid.has_value());
      return res.sparse;
    }
    REQUIRE(res.grid.has_value());
    CHECK(res.sparse.empty());
    return {*res.grid};
  }
  if (f == "meshgrid")
    return meshgrid(in, {.copy = r.get<bool>("copy"),
                         .sparse = r.get<bool>("sparse"),
                         .indexing = parse_meshgrid_indexing(r.get<std::string>("indexing"))});
  FAIL("unknown func " << f);
  return {};
}

bool same_value(double p, double q) {
  if (std::isnan(q)) return std::isnan(p);
  return p == q;  // -0.0 == 0.0
}

void check_result(const ndarray& actual_d, const std::string& name, const std::string& dtype_name_expected) {
  const host_array expected = golden(mod, name);
  const dtype want = dtype_from_string(dtype_name_expected);
  CHECK_MESSAGE(actual_d.dtype() == want,
                "dtype " << dtype_name(actual_d.dtype()) << " != " << dtype_name_expected);
  host_array actual = to_host(actual_d.dtype() == expected.dtype() ? actual_d : actual_d.astype(expected.dtype()));
  REQUIRE(actual.shape() == expected.shape());
  const host_array a = actual.astype(dtype::complex128), e = expected.astype(dtype::complex128);
  const auto* pa = a.data_as<std::complex<double>>();
  const auto* pe = e.data_as<std::complex<double>>();
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (!(same_value(pa[i].real(), pe[i].real()) && same_value(pa[i].imag(), pe[i].imag()))) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad)
    FAIL_CHECK(bad << " of " << a.size() << " differ; first at " << first << ": " << pa[first] << " vs "
                   << pe[first]);
}

}  // namespace

TEST_CASE("setops goldens") {
  const auto& rows = cusci::testing::cases(mod);
  REQUIRE(rows.size() > 1000);
  int run = 0;
  for (const golden_case& r : rows) {
    const std::string c = r.name();
    CAPTURE(c);
    std::vector<ndarray> in;
    for (const auto& spec : r.get<std::vector<std::vector<std::string>>>("inputs")) in.push_back(device_input(spec));
    ++run;
    if (r.expects_error()) {
      cusci::testing::check_error(r, [&] { (void)call(r, in); });
      continue;
    }
    const auto outs = r.get<std::vector<std::vector<std::string>>>("outputs");
    std::vector<ndarray> got = call(r, in);
    REQUIRE(got.size() == outs.size());
    for (std::size_t i = 0; i < outs.size(); ++i) {
      CAPTURE(i);
      check_result(got[i], outs[i].at(0), outs[i].at(1));
    }
  }
  MESSAGE(run << " cases");
}

TEST_CASE("lexsort is stable and keeps the last key primary on a large input") {
  // 3 keys of 100000 with many ties: the result must order (k2, k1, k0) lexicographically and keep
  // the input order among equal triples.
  const std::int64_t n = 100000;
  std::vector<std::int32_t> k0(n), k1(n), k2(n);
  for (std::int64_t i = 0; i < n; ++i) {
    k0[i] = static_cast<std::int32_t>((i * 7919) % 5);
    k1[i] = static_cast<std::int32_t>((i * 104729) % 3);
    k2[i] = static_cast<std::int32_t>((i * 1299709) % 4);
  }
  ndarray idx = lexsort({asarray(k0), asarray(k1), asarray(k2)});
  const auto h = to_host(idx).to_vector<std::int64_t>();
  REQUIRE(h.size() == static_cast<std::size_t>(n));
  for (std::int64_t i = 1; i < n; ++i) {
    const auto a = h[i - 1], b = h[i];
    const auto ta = std::make_tuple(k2[a], k1[a], k0[a], a), tb = std::make_tuple(k2[b], k1[b], k0[b], b);
    if (!(ta < tb)) {
      FAIL_CHECK("order broken at " << i);
      break;
    }
  }
}

TEST_CASE("isin on a large int64 input agrees with a host check") {
  const std::int64_t n = 1 << 16, m = 1 << 10;
  std::vector<std::int64_t> e(n), t(m);
  for (std::int64_t i = 0; i < n; ++i) e[i] = (i * 2654435761LL) % 4096;
  for (std::int64_t i = 0; i < m; ++i) t[i] = (i * 40503) % 8192;
  std::vector<bool> in_t(8192, false);
  for (auto v : t) in_t[v] = true;
  const auto got = to_host(isin(asarray(e), asarray(t))).astype(dtype::uint8).to_vector<std::uint8_t>();
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += (got[i] != 0) != in_t[e[i]];
  CHECK(bad == 0);
}

TEST_CASE("unravel_index / ravel_multi_index round trip") {
  std::vector<std::int64_t> flat(1000);
  for (int i = 0; i < 1000; ++i) flat[i] = (i * 37) % 1000;
  const shape_t dims{10, 4, 25};
  for (order o : {order::C, order::F}) {
    auto coords = unravel_index(asarray(flat), dims, {.order = o});
    ndarray back = ravel_multi_index(coords, dims, {.order = o});
    CHECK(to_host(back).to_vector<std::int64_t>() == flat);
  }
  // the out-of-range value is named in the message
  try {
    (void)unravel_index(asarray(std::vector<std::int64_t>{1, 2, 1000}), dims);
    FAIL("no throw");
  } catch (const cusci::value_error& ex) {
    CHECK(std::string(ex.what()).find("index 1000 is out of bounds for array with size 1000") != std::string::npos);
  }
}

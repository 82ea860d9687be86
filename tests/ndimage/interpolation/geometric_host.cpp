// Host-only tests of cusci::ndimage::geometric_transform: the chunking of the output (every point
// in exactly one chunk, no chunk above its bound), the generated NVRTC source (compiled here for
// sm_90 with every mapping of geometric_mappings.inc; compile errors; bad names), and SciPy's
// argument errors (every error case of tests/golden/gen_ndimage_geometric.py but the failing
// mapping, which needs a device), raised before any device work on arrays without memory.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/rtc.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/detail/geometric_plan.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/rtc.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace ndi = cusci::ndimage;
namespace nd = cusci::ndimage::detail;

namespace {

#define GEOMETRIC_MAPPINGS(...) const char* const kMappingSource = #__VA_ARGS__;
#include "geometric_mappings.inc"
#undef GEOMETRIC_MAPPINGS

const std::vector<std::string> kRotationOptions{"-DGT_ROT_C=0.8660254037844387", "-DGT_ROT_S=0.49999999999999994"};

/// A C-contiguous array of `shape` and `dt` that owns no memory (never touched by the checks).
cusci::ndarray no_memory(const cusci::shape_t& shape, cusci::dtype dt) {
  cusci::shape_t strides(shape.size());
  std::int64_t st = static_cast<std::int64_t>(cusci::itemsize(dt));
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = st;
    st *= shape[d];
  }
  return cusci::ndarray(cusci::memory_ptr{}, dt, shape, strides, 0, 0);
}

void check_chunks(const cusci::shape_t& shape, std::int64_t max_points) {
  CAPTURE(cusci::detail::shape_str(shape));
  CAPTURE(max_points);
  std::int64_t total = 1;
  for (auto e : shape) total *= e;
  const auto plan = nd::plan_geometric_chunks(shape, max_points);
  std::vector<int> seen(static_cast<std::size_t>(total), 0);
  std::int64_t covered = 0;
  for (std::int64_t i = 0; i < plan.count; ++i) {
    nd::geometric_chunk c;
    nd::geometric_chunk_at(plan, shape, i, c);
    REQUIRE(c.output_rank == static_cast<int>(shape.size()));
    REQUIRE(c.n >= 1);
    REQUIRE(c.n <= max_points);
    std::int64_t n = 1;
    for (int d = 0; d < c.output_rank; ++d) {
      REQUIRE(c.start[d] >= 0);
      REQUIRE(c.extent[d] >= 1);
      REQUIRE(c.start[d] + c.extent[d] <= shape[static_cast<std::size_t>(d)]);
      n *= c.extent[d];
    }
    REQUIRE(n == c.n);
    // every point of the chunk, in C order
    for (std::int64_t t = 0; t < c.n; ++t) {
      std::int64_t r = t, flat = 0, mul = 1;
      for (int d = c.output_rank - 1; d >= 0; --d) {
        const std::int64_t o = c.start[d] + r % c.extent[d];
        r /= c.extent[d];
        flat += o * mul;
        mul *= shape[static_cast<std::size_t>(d)];
      }
      ++seen[static_cast<std::size_t>(flat)];
    }
    covered += c.n;
  }
  CHECK(covered == total);
  for (std::int64_t i = 0; i < total; ++i) REQUIRE(seen[static_cast<std::size_t>(i)] == 1);
}

}  // namespace

TEST_CASE("chunking: every output point once, chunks within the bound") {
  check_chunks({10}, 1 << 22);
  check_chunks({10}, 3);
  check_chunks({7, 9}, 1000);
  check_chunks({7, 9}, 20);   // several rows per chunk, a shorter last one
  check_chunks({7, 9}, 9);    // one row per chunk
  check_chunks({7, 9}, 4);    // parts of rows
  check_chunks({3, 4, 5}, 7);
  check_chunks({3, 4, 5}, 1);
  check_chunks({2, 3, 4, 5}, 13);
  check_chunks({1, 1, 6}, 4);
  CHECK(nd::plan_geometric_chunks({4, 0, 3}, 10).count == 0);
  // the bound of the library: 2^22 points (the chunk boundaries of the large GPU cases)
  auto p = nd::plan_geometric_chunks({2100, 2100}, nd::geometric_chunk_points);
  CHECK(p.axis == 0);
  CHECK(p.rows == 1997);
  CHECK(p.count == 2);
  p = nd::plan_geometric_chunks({2, 3000, 1500}, nd::geometric_chunk_points);
  CHECK(p.axis == 1);
  CHECK(p.rows == 2796);
  CHECK(p.count == 4);
}

TEST_CASE("generated source: every test mapping compiles with NVRTC for sm_90") {
  using cusci::rtc::detail::compile_source;
  using cusci::rtc::detail::default_options;
  for (const char* name : {"gt_shift", "gt_scale", "gt_rotate", "gt_swirl", "gt_barrel", "gt_polar", "gt_line",
                           "gt_stack", "gt_int_shift", "gt_fail"}) {
    CAPTURE(name);
    const ndi::device_function f(kMappingSource, name, kRotationOptions);
    const std::string src = nd::geometric_kernel_source(f, "geometric_transform");
    const auto opts = nd::geometric_kernel_options(f);
    REQUIRE(opts.front() == "--fmad=false");
    const auto e = compile_source(src, default_options("sm_90", opts), {}, "geometric", true);
    CHECK(e.binary.find("cusci_geometric_transform_map") != std::string::npos);
    CHECK(e.binary.find("cusci_gt_reports_status") != std::string::npos);
  }
  const auto opts = default_options("sm_90", {"--fmad=false"});
  // void, int and bool results, non-const and long parameters, a qualified name
  for (const auto& [code, name] : std::vector<std::pair<std::string, std::string>>{
           {"__device__ void f(std::ptrdiff_t* o, double* c, int, int) { c[0] = o[0]; }", "f"},
           {"__device__ bool f(const long* o, double* c, int, int) { c[0] = o[0]; return true; }", "f"},
           {"namespace m { __device__ int f(const std::ptrdiff_t* o, double* c, int, int) { return 1; } }", "m::f"},
           {"namespace m { __device__ int f(const std::ptrdiff_t*, double*, int, int) { return 1; } }", "::m::f"}}) {
    CAPTURE(code);
    CHECK_NOTHROW(compile_source(nd::geometric_kernel_source(ndi::device_function(code, name), "gt"), opts, {},
                                 "geometric", true));
  }
  // a syntax error, a missing function, a wrong signature, a result not convertible to bool
  for (const auto& [code, name] : std::vector<std::pair<std::string, std::string>>{
           {"__device__ int broken(", "broken"},
           {"__device__ int f(const std::ptrdiff_t* o, double* c, int, int) { return 1; }", "g"},
           {"__device__ double f(double v) { return v; }", "f"},
           {"struct s {}; __device__ s f(const std::ptrdiff_t*, double*, int, int) { return s{}; }", "f"}}) {
    CAPTURE(code);
    CHECK_THROWS_AS(compile_source(nd::geometric_kernel_source(ndi::device_function(code, name), "gt"), opts, {},
                                   "geometric", true),
                    cusci::rtc::compile_error);
  }
  // names that are not identifiers, an empty source
  for (const char* bad : {"", "gt shift", "1f", "f(", "m::", "::", "a::::b", "f;g"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(nd::geometric_kernel_source(ndi::device_function(kMappingSource, bad), "geometric_transform"),
                    cusci::value_error);
  }
  CHECK_THROWS_AS(nd::geometric_kernel_source(ndi::device_function("", "f"), "geometric_transform"),
                  cusci::value_error);
}

TEST_CASE("argument errors before any device work: SciPy's error cases") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_geometric", "geometric_transform")) {
    if (!c.expects_error() || c.get<std::string>("mapping") == "fail") continue;
    INFO("case " << c.name());
    const auto stored = c.array("input");
    REQUIRE(c.get<std::string>("layout") == "C");
    const auto x = no_memory(stored.shape(), stored.dtype());
    ndi::geometric_transform_options o;
    o.order = c.get_or<int>("order", 3);
    o.cval = c.get_or<std::complex<double>>("cval", 0.0);
    if (c.has("output_shape")) o.output_shape = c.get<std::vector<std::int64_t>>("output_shape");
    const cusci::dtype odt = c.has("output") ? cusci::dtype_from_string(c.get<std::string>("output")) : x.dtype();
    if (c.get_or<std::string>("out_kind", "") == "array_C") {
      o.output = no_memory(c.has("out_array_shape") ? c.get<std::vector<std::int64_t>>("out_array_shape")
                                                     : o.output_shape ? *o.output_shape
                                                                      : x.shape(),
                           odt);
    } else if (c.has("output")) {
      o.output = odt;
    }
    // a source that would not compile: the argument error must come first
    const ndi::device_function broken("__device__ int broken(", "broken");
    cusci::testing::check_error(c, [&] { return ndi::geometric_transform(x, broken, o); });
    try {
      (void)ndi::geometric_transform(x, broken, o);
    } catch (const cusci::error& e) {
      CHECK(std::string(e.what()).find("cusci::ndimage::geometric_transform") != std::string::npos);
    }
    ++n;
  }
  CHECK(n >= 10);
  // beyond SciPy's cases: a 0-d input, ranks above 16, an input without elements
  CHECK_THROWS_AS(ndi::geometric_transform(no_memory({0, 3}, cusci::dtype::float64),
                                           ndi::device_function(kMappingSource, "gt_shift"),
                                           {.output_shape = cusci::shape_t{2, 3}}),
                  cusci::runtime_error);
  const auto z = no_memory({}, cusci::dtype::float64);
  CHECK_THROWS_AS(ndi::geometric_transform(z, ndi::device_function(kMappingSource, "gt_shift")), cusci::runtime_error);
  const auto big = no_memory(cusci::shape_t(17, 1), cusci::dtype::float64);
  CHECK_THROWS_AS(ndi::geometric_transform(big, ndi::device_function(kMappingSource, "gt_shift")),
                  cusci::not_implemented_error);
}

// Host tests of the testing family: cusci::testing's assertions on host operands, compared with the
// messages NumPy 2.5 prints (recorded by tests/golden/gen_core_testing.py), scalar and .npy
// operands, option handling; the host side of cusci::profiler (NVTX switch, time_range options).

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/profiler.hpp"
#include "cusci/testing.hpp"
#include "testing.hpp"

using namespace cusci;
namespace ct = cusci::testing;

namespace {

const std::string kModule = "core_testing";

host_array operand_of(const ct::golden_case& c, const std::string& key) {
  host_array a = ct::golden(kModule, c.name() + "_" + key);
  const std::string dt = c.get<std::string>(key + "dtype");
  if (dt == "float16") a = a.astype(dtype::float16);
  return a;
}

// Runs the case's assertion; returns what() or "" when it passed.
std::string run_case(const ct::golden_case& c) {
  const host_array x = operand_of(c, "x"), y = operand_of(c, "y");
  const std::string f = c.func();
  try {
    if (f == "assert_allclose") {
      ct::allclose_options o;
      o.rtol = c.get_or<double>("a_rtol", o.rtol);
      o.atol = c.get_or<double>("a_atol", o.atol);
      o.equal_nan = c.get_or<bool>("equal_nan", o.equal_nan);
      o.err_msg = c.get_or<std::string>("err_msg", "");
      o.verbose = c.get_or<bool>("verbose", true);
      o.strict = c.get_or<bool>("strict", false);
      ct::assert_allclose(x, y, o);
    } else if (f == "assert_array_equal") {
      ct::assert_array_equal(x, y, {.err_msg = c.get_or<std::string>("err_msg", ""),
                                    .verbose = c.get_or<bool>("verbose", true),
                                    .strict = c.get_or<bool>("strict", false)});
    } else if (f == "assert_array_almost_equal") {
      ct::assert_array_almost_equal(x, y, {.decimal = static_cast<int>(c.get_or<std::int64_t>("decimal", 6)),
                                           .err_msg = c.get_or<std::string>("err_msg", ""),
                                           .verbose = c.get_or<bool>("verbose", true)});
    } else if (f == "assert_array_less") {
      ct::assert_array_less(x, y, {.err_msg = c.get_or<std::string>("err_msg", ""),
                                   .verbose = c.get_or<bool>("verbose", true),
                                   .strict = c.get_or<bool>("strict", false)});
    } else {
      FAIL("unknown func " << f);
    }
  } catch (const ct::assertion_error& e) {
    return e.what();
  }
  return "";
}

// The message up to the first array repr line.
std::string before_arrays(const std::string& m) {
  for (const char* key : {"\n ACTUAL: ", "\n x: "}) {
    const auto p = m.find(key);
    if (p != std::string::npos) return m.substr(0, p);
  }
  return m;
}

}  // namespace

TEST_CASE("messages match NumPy 2.5 (golden cases)") {
  const auto& all = ct::cases(kModule);
  REQUIRE(all.size() > 90);
  int n_fail = 0, n_pass = 0;
  for (const auto& c : all) {
    CAPTURE(c.name());
    const std::string got = run_case(c);
    if (!c.has("message")) {
      CHECK_MESSAGE(got.empty(), "case " << c.name() << " should pass, got:" << got);
      ++n_pass;
      continue;
    }
    const std::string want = c.get<std::string>("message");
    REQUIRE_MESSAGE(!got.empty(), "case " << c.name() << " should fail with:" << want);
    if (c.get_or<bool>("repr_exact", true)) CHECK_MESSAGE(got == want, "case " << c.name() << "\n--- cusci:" << got << "\n--- NumPy:" << want);
    else CHECK(before_arrays(got) == before_arrays(want));
    ++n_fail;
  }
  CHECK(n_pass > 10);
  CHECK(n_fail > 70);
}

TEST_CASE("assertion_error is a cusci::error and a std::exception") {
  const host_array a = host_array::from(std::vector<double>{1.0, 2.0});
  const host_array b = host_array::from(std::vector<double>{1.0, 3.0});
  CHECK_THROWS_AS(ct::assert_allclose(a, b), ct::assertion_error);
  CHECK_THROWS_AS(ct::assert_allclose(a, b), cusci::error);
  CHECK_THROWS_AS(ct::assert_array_equal(a, b), std::exception);
  CHECK_NOTHROW(ct::assert_allclose(a, a));
  CHECK_NOTHROW(ct::assert_array_equal(a, a, {.strict = true}));
}

TEST_CASE("C++ scalar operands are 0-d arrays of NumPy's dtype") {
  const host_array a = host_array::from(std::vector<double>{2.0, 2.0});
  CHECK_NOTHROW(ct::assert_allclose(a, 2.0));
  CHECK_NOTHROW(ct::assert_allclose(a, 2));
  CHECK_NOTHROW(ct::assert_array_equal(2.0, a));
  CHECK_THROWS_AS(ct::assert_allclose(a, 2.0, {.strict = true}), ct::assertion_error);
  CHECK_NOTHROW(ct::assert_allclose(2.0, 2.0, {.strict = true}));
  CHECK_NOTHROW(ct::assert_array_equal(2.0f, 2.0, {.strict = true}));  // a C++ float is a Python float: float64
  CHECK_NOTHROW(ct::assert_array_equal(std::complex<double>(1, 2), std::complex<double>(1, 2)));
  CHECK_NOTHROW(ct::assert_array_equal(true, true));
  CHECK_NOTHROW(ct::assert_array_less(1, 2));
  // A strong cusci::scalar keeps its dtype (np.float32(1.0)).
  const host_array f32 = host_array::from(std::vector<float>{1.0f});
  CHECK_NOTHROW(ct::assert_array_equal(f32, scalar::of(1.0, dtype::float32)));
  CHECK_NOTHROW(ct::assert_array_equal(host_array::from(std::vector<float>{1.0f}, {}), scalar::of(1.0, dtype::float32),
                                       {.strict = true}));
  CHECK_THROWS_AS(ct::assert_array_equal(f32, scalar::of(1.0, dtype::float32), {.strict = true}),
                  ct::assertion_error);  // (1,) against 0-d
  CHECK_THROWS_AS(ct::assert_array_equal(host_array::from(std::vector<float>{1.0f}, {}), 1.0, {.strict = true}),
                  ct::assertion_error);  // float32 against a Python float (float64)

  CHECK_THROWS_AS(ct::assert_array_less(2, 2), ct::assertion_error);
  CHECK_NOTHROW(ct::assert_allclose(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()));
  CHECK_THROWS_AS(ct::assert_allclose(std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::quiet_NaN(), {.equal_nan = false}),
                  ct::assertion_error);
  try {
    ct::assert_allclose(host_array::from(std::vector<double>{1.0, 2.0}), 2.0);
    FAIL("no throw");
  } catch (const ct::assertion_error& e) {
    CHECK(std::string(e.what()) ==
          "\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 2 (50%)\n"
          "Mismatch at index:\n [0]: 1.0 (ACTUAL), 2.0 (DESIRED)\nMax absolute difference among violations: 1.\n"
          "Max relative difference among violations: 0.5\n ACTUAL: array([1., 2.])\n DESIRED: array(2.)");
  }
}

TEST_CASE("integers are compared exactly") {
  const std::int64_t big = (std::int64_t{1} << 62) + 1;
  const host_array a = host_array::from(std::vector<std::int64_t>{big});
  const host_array b = host_array::from(std::vector<std::int64_t>{big - 1});
  CHECK_THROWS_AS(ct::assert_array_equal(a, b), ct::assertion_error);
  CHECK_NOTHROW(ct::assert_array_equal(a, a));
  const host_array u = host_array::from(std::vector<std::uint64_t>{~std::uint64_t{0}});
  CHECK_THROWS_AS(ct::assert_array_less(u, u), ct::assertion_error);
  CHECK_NOTHROW(ct::assert_array_less(b, a));
}

TEST_CASE(".npy operands (written with cusci's npy writer)") {
  const auto dir = std::filesystem::temp_directory_path() / ("cusci_testing_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const host_array ref = host_array::from(std::vector<float>{1.0f, 2.5f, -3.0f, 4.0f}, {2, 2});
  io::write_npy((dir / "ref.npy").string(), ref);
  io::write_npy((dir / "ref_f.npy").string(), ref, /*fortran_order=*/true);
  const std::filesystem::path p = dir / "ref.npy";
  CHECK_NOTHROW(ct::assert_array_equal(ref, p, {.strict = true}));
  CHECK_NOTHROW(ct::assert_allclose(ref, dir / "ref_f.npy", {.strict = true}));
  CHECK_NOTHROW(ct::assert_allclose(p.string(), ref));  // std::string is a path too
  CHECK_NOTHROW(ct::assert_allclose(ref, p.string().c_str()));
  host_array other = host_array::from(std::vector<float>{1.0f, 2.5f, -3.0f, 4.5f}, {2, 2});
  try {
    ct::assert_allclose(other, p, {.rtol = 1e-3});
    FAIL("no throw");
  } catch (const ct::assertion_error& e) {
    const std::string m = e.what();
    CHECK(m.find("Not equal to tolerance rtol=0.001, atol=0") != std::string::npos);
    CHECK(m.find("Mismatch at index:\n [1, 1]: 4.5 (ACTUAL), 4.0 (DESIRED)") != std::string::npos);
    CHECK(m.find(" DESIRED: array([[ 1. ,  2.5],\n       [-3. ,  4. ]], dtype=float32)") != std::string::npos);
  }
  // A missing file is a cusci::error, not an assertion failure.
  CHECK_THROWS_AS(ct::assert_allclose(ref, dir / "missing.npy"), cusci::error);
  try {
    ct::assert_allclose(ref, dir / "missing.npy");
  } catch (const ct::assertion_error&) {
    FAIL("a missing file must not be an assertion_error");
  } catch (const cusci::error&) {
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("every dtype against itself passes; float16 keeps NumPy's half-precision compare") {
  for (dtype t : {dtype::bool_, dtype::int8, dtype::int16, dtype::int32, dtype::int64, dtype::uint8, dtype::uint16,
                  dtype::uint32, dtype::uint64, dtype::float16, dtype::float32, dtype::float64, dtype::complex64,
                  dtype::complex128}) {
    CAPTURE(dtype_name(t));
    const host_array a = host_array::from(std::vector<double>{0, 1, 1, 0, 1, 1}, {2, 3}).astype(t);
    CHECK_NOTHROW(ct::assert_allclose(a, a, {.strict = true}));
    CHECK_NOTHROW(ct::assert_array_equal(a, a, {.strict = true}));
    CHECK_NOTHROW(ct::assert_array_almost_equal(a, a));
    CHECK_THROWS_AS(ct::assert_array_less(a, a), ct::assertion_error);
  }
  // 2049 is not a float16: both sides round to 2048 in NumPy's float16 arithmetic.
  const host_array h = host_array::from(std::vector<double>{2048.0}).astype(dtype::float16);
  CHECK_NOTHROW(ct::assert_allclose(h, h, {.rtol = 0}));
  const host_array empty(dtype::float64, shape_t{0, 3});
  CHECK_NOTHROW(ct::assert_allclose(empty, empty));
  CHECK_NOTHROW(ct::assert_array_equal(empty, 1.0));  // a 0-d operand against an empty array
}

TEST_CASE("format_array_repr follows NumPy's repr") {
  CHECK(ct::format_array_repr(host_array::from(std::vector<double>{1.0, 2.1, 3.2})) == "array([1. , 2.1, 3.2])");
  CHECK(ct::format_array_repr(host_array::from(std::vector<std::int32_t>{1, -20, 300})) ==
        "array([  1, -20, 300], dtype=int32)");
  CHECK(ct::format_array_repr(host_array::from(std::vector<std::uint8_t>{1, 0}).astype(dtype::bool_)) == "array([ True, False])");
  CHECK(ct::format_array_repr(host_array(dtype::float32, shape_t{0})) == "array([], dtype=float32)");
  CHECK(ct::format_array_repr(host_array(dtype::float64, shape_t{0, 3})) == "array([], shape=(0, 3), dtype=float64)");
  CHECK(ct::format_array_repr(host_array::from(std::vector<float>{0.1f}, {})) == "array(0.1, dtype=float32)");
  CHECK(ct::format_array_repr(host_array::from(std::vector<double>{1.0 / 3, 2.5}), 3) == "array([0.333, 2.5  ])");
  CHECK(ct::format_array_repr(host_array::from(std::vector<std::complex<double>>{{1, 2}, {3, 0}})) ==
        "array([1.+2.j, 3.+0.j])");
}

TEST_CASE("profiler: NVTX switch and time_range options (host side)") {
  const bool before = profiler::nvtx_ranges_enabled();
  profiler::set_nvtx_ranges(true);
  CHECK(profiler::nvtx_ranges_enabled());
  profiler::set_nvtx_ranges(false);
  CHECK_FALSE(profiler::nvtx_ranges_enabled());
  {
    // Instrumented host-side entry points push and pop their ranges when on (no GPU needed).
    profiler::set_nvtx_ranges(true);
    const auto path = std::filesystem::temp_directory_path() / ("cusci_nvtx_" + std::to_string(::getpid()) + ".npy");
    io::write_npy(path.string(), host_array::from(std::vector<double>{1.0, 2.0}));
    CHECK_NOTHROW(ct::assert_array_equal(io::read_npy(path.string()), path));
    CHECK_THROWS_AS(ct::assert_array_equal(path, 3.0), ct::assertion_error);  // scope unwound by the throw
    std::filesystem::remove(path);
  }
  profiler::set_nvtx_ranges(before);
  // color_id and argb_color together: CuPy's ValueError, before any NVTX or CUDA call.
  CHECK_THROWS_AS(profiler::time_range("x", {.color_id = 1, .argb_color = 0xff00ff00u}), cusci::value_error);
  {
    // NVTX push/pop need no GPU (they are no-ops without a profiler).
    profiler::time_range outer("outer", {.color_id = 2});
    profiler::time_range inner("inner", {.argb_color = 0xff112233u});
  }
  // benchmark_result formatting, as CuPy's _PerfCaseResult.__str__.
  profiler::benchmark_result r;
  r.name = "f";
  r.cpu_times = {10e-6, 12e-6};
  r.gpu_times = {{20e-6, 22e-6}};
  r.devices = {0};
  CHECK(r.to_string() ==
        "f                   :    CPU:    11.000 us   +/-  1.000 (min:    10.000 / max:    12.000) us"
        "     GPU-0:    21.000 us   +/-  1.000 (min:    20.000 / max:    22.000) us");
  CHECK(r.to_string(false) == "f                   :    CPU:    11.000 us   +/-  1.000 (min:    10.000 / max:    12.000) us");
  CHECK(r.cpu_stats().mean == doctest::Approx(11e-6));
  CHECK(r.cpu_stats().std == doctest::Approx(1e-6));
  CHECK_THROWS_AS(r.gpu_stats(1), cusci::index_error);
  CHECK_THROWS_AS(profiler::benchmark(std::function<void()>{}), cusci::value_error);
  CHECK_THROWS_AS(profiler::benchmark([] {}, {.n_repeat = -1}), cusci::value_error);
}

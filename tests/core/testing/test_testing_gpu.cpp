// GPU tests of the testing family: cusci::testing's assertions on device operands (C, F, strided
// and broadcast views: the same messages as NumPy's, see gen_core_testing.py), profiler::benchmark
// and time_range on a device.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cusci/device.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/profiler.hpp"
#include "cusci/stream.hpp"
#include "cusci/testing.hpp"
#include "testing.hpp"

using namespace cusci;
namespace ct = cusci::testing;

namespace {

const std::string kModule = "core_testing";

host_array operand_of(const ct::golden_case& c, const std::string& key) {
  host_array a = ct::golden(kModule, c.name() + "_" + key);
  if (c.get<std::string>(key + "dtype") == "float16") a = a.astype(dtype::float16);
  return a;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ct::assertion_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("device operands give NumPy's messages (golden cases)") {
  int n = 0;
  for (const auto& c : ct::cases(kModule)) {
    if (c.func() != "assert_allclose" && c.func() != "assert_array_equal") continue;
    CAPTURE(c.name());
    const ndarray x = asarray(operand_of(c, "x")), y = asarray(operand_of(c, "y"));
    ct::allclose_options o;
    o.rtol = c.get_or<double>("a_rtol", o.rtol);
    o.atol = c.get_or<double>("a_atol", o.atol);
    o.equal_nan = c.get_or<bool>("equal_nan", true);
    o.err_msg = c.get_or<std::string>("err_msg", "");
    o.verbose = c.get_or<bool>("verbose", true);
    o.strict = c.get_or<bool>("strict", false);
    const std::string got = c.func() == "assert_allclose"
                                ? message_of([&] { ct::assert_allclose(x, y, o); })
                                : message_of([&] {
                                    ct::assert_array_equal(x, y, {.err_msg = o.err_msg, .verbose = o.verbose,
                                                                  .strict = o.strict});
                                  });
    const std::string want = c.has("message") ? c.get<std::string>("message") : std::string();
    if (c.get_or<bool>("repr_exact", true)) CHECK(got == want);
    else CHECK(got.empty() == want.empty());
    ++n;
  }
  CHECK(n > 50);
}

TEST_CASE("device operands: layouts, mixed with host arrays and scalars") {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = 0.5 * i - 3;
  const host_array h = host_array::from(v, {4, 6});
  const ndarray d = asarray(h);
  const ndarray f = d.copy(order::F);
  CHECK_NOTHROW(ct::assert_array_equal(d, h, {.strict = true}));
  CHECK_NOTHROW(ct::assert_array_equal(f, h, {.strict = true}));
  CHECK_NOTHROW(ct::assert_allclose(f, d));
  // A strided view against the matching host values.
  const ndarray s = d[{slice{std::nullopt, std::nullopt, 2}, slice{1, std::nullopt, 3}}];  // (2, 2)
  const host_array hs = host_array::from(std::vector<double>{v[1], v[4], v[13], v[16]}, {2, 2});
  CHECK_NOTHROW(ct::assert_array_equal(s, hs, {.strict = true}));
  CHECK_NOTHROW(ct::assert_array_equal(d.T(), asarray(h).T().copy()));
  // A broadcast view is an ordinary (4, 6) operand.
  const ndarray b = asarray(std::vector<double>{1.0}).broadcast_to({4, 6});
  CHECK_NOTHROW(ct::assert_array_equal(b, 1.0));
  CHECK_NOTHROW(ct::assert_allclose(b, ones({4, 6})));
  // float32 device array vs float64 host reference within rtol.
  const ndarray d32 = d.astype(dtype::float32);
  CHECK_NOTHROW(ct::assert_allclose(d32, h, {.rtol = 1e-6}));
  CHECK_THROWS_AS(ct::assert_allclose(d32, h, {.strict = true}), ct::assertion_error);
  // Message with a device operand: the failing element and its index.
  host_array h2 = h;
  h2.data_as<double>()[7] = 100.0;
  const std::string m = message_of([&] { ct::assert_allclose(d, h2); });
  CHECK(m.find("Mismatched elements: 1 / 24 (4.17%)") != std::string::npos);
  CHECK(m.find(" [1, 1]: 0.5 (ACTUAL), 100.0 (DESIRED)") != std::string::npos);
  // Empty device arrays.
  CHECK_NOTHROW(ct::assert_array_equal(empty({0, 3}), host_array(dtype::float64, shape_t{0, 3})));
}

TEST_CASE("profiler::benchmark returns sane times") {
  const ndarray a = ones({1 << 20}, dtype::float32);
  ndarray out = empty({1 << 20}, dtype::float32);
  auto fn = [&] { out = add(a, a); };
  const profiler::benchmark_result r = profiler::benchmark(fn, {.n_repeat = 50, .name = "add", .n_warmup = 3});
  REQUIRE(r.cpu_times.size() == 50);
  REQUIRE(r.gpu_times.size() == 1);
  REQUIRE(r.gpu_times[0].size() == 50);
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0] == get_device_id());
  for (double t : r.cpu_times) CHECK((t > 0 && t < 1.0));
  for (double t : r.gpu_times[0]) CHECK((t > 0 && t < 1.0));
  const auto cs = r.cpu_stats(), gs = r.gpu_stats(0);
  CHECK(cs.min <= cs.mean);
  CHECK(cs.mean <= cs.max);
  CHECK(gs.min <= gs.mean);
  CHECK(gs.mean <= gs.max);
  CHECK(gs.std >= 0);
  const std::string str = r.to_string();
  CHECK(str.rfind("add                 :    CPU:", 0) == 0);
  CHECK(str.find("GPU-" + std::to_string(get_device_id()) + ":") != std::string::npos);
  ct::assert_allclose(out, 2.0f);  // the benchmarked work ran

  // max_duration stops early; n_repeat = 0 gives no times.
  const auto slow = profiler::benchmark([] { device_synchronize(); }, {.n_repeat = 100000, .n_warmup = 0,
                                                                       .max_duration = 0.05});
  CHECK(slow.cpu_times.size() < 100000);
  CHECK(slow.cpu_times.size() >= 1);
  const auto none = profiler::benchmark(fn, {.n_repeat = 0, .n_warmup = 1});
  CHECK(none.cpu_times.empty());
  CHECK(none.to_string().find("CPU:") != std::string::npos);
  CHECK_THROWS_AS(profiler::benchmark(fn, {.n_repeat = 1, .devices = {device_count()}}), cusci::index_error);
  // Exceptions of fn pass through.
  CHECK_THROWS_AS(profiler::benchmark([] { throw cusci::value_error("boom"); }, {.n_repeat = 1}), cusci::value_error);
}

TEST_CASE("profiler::time_range nests, syncs, and cusci's own ranges switch on and off") {
  {
    profiler::time_range outer("outer", {.color_id = 0, .sync = true});
    ndarray x = ones({1000});
    {
      profiler::time_range inner("inner", {.argb_color = 0xff336699u});
      x = add(x, x);
      profiler::time_range innermost("innermost");
    }
    ct::assert_array_equal(x, 2.0);
  }
  const bool before = profiler::nvtx_ranges_enabled();
  profiler::set_nvtx_ranges(true);
  // Instrumented entry points push and pop their ranges (balanced: no NVTX error, same results).
  ct::assert_allclose(ones({10}), 1.0);
  CHECK_THROWS_AS(ct::assert_allclose(ones({10}), 2.0), ct::assertion_error);
  profiler::set_nvtx_ranges(false);
  ct::assert_allclose(ones({10}), 1.0);
  profiler::set_nvtx_ranges(before);
}

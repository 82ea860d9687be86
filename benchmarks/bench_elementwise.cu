// Elementwise (ufunc) benchmarks: E1 (a*x+y float32 2^28 as two ufunc calls), E1e (exp float32 2^28),
// E1b (broadcast add (16384,16384)+(16384,1)), E1t (add of two transposed (16384,16384) views), E4 (host
// overhead: wall time per 1-element x+1 call, averaged over 10000 calls; the "ms" field holds the
// per-call wall time in ms). Breakdown of E4 on the same node, same units: E4raw (a bare
// cudaLaunchKernel of an empty kernel: the driver's floor), E4alloc (empty({1}) from the pool and
// back), E4aa (1-element x+x: no scalar operand), E4-rt (E4 with the runtime's <<<>>> launch in place
// of the driver's cuLaunchKernel), E4sum (a 1-element sum: a small reduction) and E4sum-rt (the same
// through the runtime's launch); E4exp, E4max, E4mean, E4var, E4argmax, E4cumsum and E4sort time other
// 1-element operations the same way. Inputs are random, larger than the 60 MB L2.
// `bench_elementwise --host` runs only the E4 rows (for a CPU profiler).
#include <cstdio>
#include <cstring>
#include <functional>

#include "cusci/core.hpp"
#include "cusci/elementwise.hpp"
#include "harness.hpp"

namespace cusci::detail::cm {
void set_driver_launch(bool enabled);  // internal switch (core/src/elementwise.cu)
}

namespace {
__global__ void empty_kernel(float*) {}


cusci::ndarray random_f32(const cusci::shape_t& shape, int seed) {
  using namespace cusci;
  // A cheap deterministic non-constant pattern: sin of a scaled ramp (no zeros, no denormals).
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  ndarray r = arange(scalar(0), scalar(n), scalar(1), dtype::float32);
  ndarray v = cusci::sin(r * scalar(0.001 * seed)) + scalar(1.5);
  return v.reshape(shape);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const bool host_only = argc > 1 && std::strcmp(argv[1], "--host") == 0;
  if (!host_only) {
    const std::int64_t n = std::int64_t{1} << 28;
    const double nb = static_cast<double>(n);
    const ndarray x = random_f32({n}, 1), y = random_f32({n}, 2);
    // a*x+y as two ufunc calls: 2 reads + 1 write, then 2 reads + 1 write.
    report("E1", "a*x+y f32 2^28 (two ufuncs)", time_it([&] { (void)(x * scalar(2.0) + y); }), 5 * 4 * nb);
    report("E1e", "exp f32 2^28", time_it([&] { (void)cusci::exp(x); }), 2 * 4 * nb);
  }
  if (!host_only) {
    const std::int64_t m = 16384;
    const ndarray a = random_f32({m, m}, 3), c = random_f32({m, 1}, 4);
    const double nb = static_cast<double>(m) * m;
    report("E1b", "add (16384,16384)+(16384,1) f32 broadcast", time_it([&] { (void)add(a, c); }), 2 * 4 * nb);
    const ndarray b = random_f32({m, m}, 5);
    report("E1t", "add of transposed (16384,16384) f32 views", time_it([&] { (void)add(a.T(), b.T()); }),
           3 * 4 * nb);
  }
  {
    const ndarray one = ones({1}, dtype::float32);
    const int calls = host_only ? 200000 : 10000;
    const std::string n_calls = std::to_string(calls) + " calls)";
    double ms = bench::wall_ms_per_call(calls, [&] { (void)(one + scalar(1)); });
    report("E4", "1-element x+1 wall time per call (ms field = per-call wall ms, " + n_calls, {ms, ms});
    detail::cm::set_driver_launch(false);
    ms = bench::wall_ms_per_call(calls, [&] { (void)(one + scalar(1)); });
    detail::cm::set_driver_launch(true);
    report("E4-rt", "1-element x+1, runtime launch (ms field = per-call wall ms, " + n_calls, {ms, ms});
    ms = bench::wall_ms_per_call(calls, [&] { (void)(one + one); });
    report("E4aa", "1-element x+x wall time per call (ms field = per-call wall ms, " + n_calls, {ms, ms});
    ms = bench::wall_ms_per_call(calls, [&] { (void)sum(one); });
    report("E4sum", "1-element sum wall time per call (ms field = per-call wall ms, " + n_calls, {ms, ms});
    detail::cm::set_driver_launch(false);
    ms = bench::wall_ms_per_call(calls, [&] { (void)sum(one); });
    detail::cm::set_driver_launch(true);
    report("E4sum-rt", "1-element sum, runtime launch (ms field = per-call wall ms, " + n_calls, {ms, ms});
    // Other small operations, each on the same 1-element float32 array.
    const struct {
      const char* id;
      const char* what;
      std::function<void()> fn;
    } small_ops[] = {
        {"E4exp", "1-element exp", [&] { (void)cusci::exp(one); }},
        {"E4max", "1-element max", [&] { (void)cusci::max(one); }},
        {"E4mean", "1-element mean", [&] { (void)mean(one); }},
        {"E4var", "1-element var", [&] { (void)var(one); }},
        {"E4argmax", "1-element argmax", [&] { (void)argmax(one); }},
        {"E4cumsum", "1-element cumsum", [&] { (void)cumsum(one); }},
        {"E4sort", "1-element sort", [&] { (void)sort(one); }},
    };
    for (const auto& op : small_ops) {
      ms = bench::wall_ms_per_call(calls, op.fn);
      report(op.id, std::string(op.what) + " wall time per call (ms field = per-call wall ms, " + n_calls, {ms, ms});
    }
    ms = bench::wall_ms_per_call(calls, [&] { (void)empty({1}, dtype::float32); });
    report("E4alloc", "empty({1}) and its release, wall time per call (ms field = per-call wall ms, " + n_calls,
           {ms, ms});
    float* p = one.data_as<float>();
    cudaStream_t s = get_current_stream();
    ms = bench::wall_ms_per_call(calls, [&] { empty_kernel<<<1, 32, 0, s>>>(p); });
    report("E4raw", "bare launch of an empty kernel, wall time per call (ms field = per-call wall ms, " + n_calls,
           {ms, ms});
  }
  return 0;
}

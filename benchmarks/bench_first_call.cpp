// First-call latency: what a program pays the first time it calls cusci, each case in a fresh process
// (ids as in README.md's "First calls" note and docs/architecture.md):
//   FC0   CUDA context creation (cudaFree(0) equivalent: cusci::synchronize() on a new process)
//   FC1   first ndimage::gaussian_filter, 512 x 512 float32, sigma 2
//   FC2   first SpMV, 2-D Poisson 512^2 CSR float64 times ones (cuSPARSE or cusci's kernel)
//   FC3   first fft::fft, 2^20 complex128 (cuFFT plan creation included)
//   FC4   first signal::sosfilt, butter(4, 0.1, sos) on 10^6 float64
//   FC5   first sum, 2^24 float32
//   FC6   first ndimage::generic_filter with a runtime-compiled function (NVRTC, disk cache emptied)
//   FC7   first cusci::sort, 2^20 float32
// Each line also gives the second call's time ("second_ms"). The context is created before each first
// call (FC1..FC7 exclude it). Run without arguments: the program starts itself once per case.
// Usage: bench_first_call [--case FCk]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/ndimage/ndimage.hpp"
#include "cusci/signal/signal.hpp"
#include "cusci/sparse/sparse.hpp"

using namespace cusci;
namespace nd = cusci::ndimage;
namespace sg = cusci::signal;
namespace sp = cusci::sparse;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Wall time of `fn` followed by a device synchronization.
double timed(const std::function<void()>& fn) {
  const double t0 = now_ms();
  fn();
  cusci::synchronize();
  return now_ms() - t0;
}

struct bench_case {
  const char* id;
  const char* name;
  std::function<std::function<void()>()> setup;  // makes the inputs (not timed); returns the call
};

std::vector<bench_case> cases() {
  return {
      {"FC1", "first gaussian_filter 512x512 float32",
       [] {
         auto img = std::make_shared<ndarray>(random::default_rng(1).random({512, 512}).astype(dtype::float32));
         return std::function<void()>([img] { (void)nd::gaussian_filter(*img, 2.0); });
       }},
      {"FC2", "first SpMV Poisson 512^2 float64",
       [] {
         const std::int64_t k = 512, n = k * k;
         std::vector<ndarray> d{full({n - k}, -1.0), full({n - 1}, -1.0), full({n}, 4.0), full({n - 1}, -1.0),
                                full({n - k}, -1.0)};
         auto A = std::make_shared<sp::csr_matrix>(sp::diags(d, {-k, -1, 0, 1, k}).tocsr());
         auto x = std::make_shared<ndarray>(ones({n}));
         return std::function<void()>([A, x] { (void)A->dot(*x); });
       }},
      {"FC3", "first fft 2^20 complex128",
       [] {
         auto x = std::make_shared<ndarray>(ones({1 << 20}, dtype::complex128));
         return std::function<void()>([x] { (void)fft::fft(*x); });
       }},
      {"FC4", "first sosfilt butter(4, 0.1) on 10^6 float64",
       [] {
         auto sos = std::make_shared<host_array>(sg::butter(4, 0.1, {.output = sg::output_form::sos}).sos);
         auto x = std::make_shared<ndarray>(ones({1000000}));
         return std::function<void()>([sos, x] { (void)sg::sosfilt(*sos, *x); });
       }},
      {"FC5", "first sum 2^24 float32",
       [] {
         auto x = std::make_shared<ndarray>(ones({1 << 24}, dtype::float32));
         return std::function<void()>([x] { (void)sum(*x); });
       }},
      {"FC6", "first generic_filter (NVRTC) 512x512 float64",
       [] {
         auto img = std::make_shared<ndarray>(random::default_rng(1).random({512, 512}));
         auto f = std::make_shared<nd::device_function>(
             "__device__ double range(const double* v, ptrdiff_t n) { double lo = v[0], hi = v[0];"
             " for (ptrdiff_t k = 1; k < n; ++k) { lo = v[k] < lo ? v[k] : lo; hi = v[k] > hi ? v[k] : hi; }"
             " return hi - lo; }",
             "range");
         return std::function<void()>([img, f] { (void)nd::generic_filter(*img, *f, 3); });
       }},
      {"FC7", "first sort 2^20 float32",
       [] {
         auto x = std::make_shared<ndarray>(random::default_rng(1).random({1 << 20}).astype(dtype::float32));
         return std::function<void()>([x] { (void)sort(*x); });
       }},
  };
}

int run_one(const std::string& id) {
  if (id == "FC0") {
    const double ms = timed([] {});
    std::printf("{\"id\":\"FC0\",\"case\":\"CUDA context creation\",\"ms\":%.3f}\n", ms);
    return 0;
  }
  cusci::synchronize();  // the context, outside the first call's time
  for (const auto& c : cases()) {
    if (id != c.id) continue;
    const auto call = c.setup();
    cusci::synchronize();
    const double first = timed(call), second = timed(call);
    std::printf("{\"id\":\"%s\",\"case\":\"%s\",\"ms\":%.3f,\"second_ms\":%.3f}\n", c.id, c.name, first, second);
    return 0;
  }
  std::fprintf(stderr, "bench_first_call: unknown case %s\n", id.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--case") return run_one(argv[2]);
  // One fresh process per case, with an empty runtime-kernel disk cache (a first run on a new machine).
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / "cusci_first_call_cache";
  int rc = 0;
  for (const char* id : {"FC0", "FC1", "FC2", "FC3", "FC4", "FC5", "FC6", "FC7"}) {
    std::filesystem::remove_all(cache);
    const std::string cmd = "CUSCI_CACHE_DIR=" + cache.string() + " " + std::string(argv[0]) + " --case " + id;
    std::fflush(stdout);
    rc |= std::system(cmd.c_str());
  }
  std::filesystem::remove_all(cache);
  return rc == 0 ? 0 : 1;
}

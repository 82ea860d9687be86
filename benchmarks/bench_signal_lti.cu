// cusci::signal state-space simulation benchmarks (the GPU engine behind lsim / dlsim, called through
// its internal API signal/src/lti_sim/lti_sim.hpp until the public wrappers land):
//   DL1   dlsim of one order-4 SISO system over 10^7 float64 samples, output only (the filtering
//         engine's run_recurrence with a state-space policy)
//   DL1x  the same with the state trajectory [10^7, 4] (the general state-space chunk kernel)
//   DL1s  the same as DL1 over 2 * 10^4 samples (short enough to time CuPy's Python-loop dlsim)
//   DL2   64 order-4 SISO systems, each over its own 2^20 samples (simulate_ss_many: one plan and one
//         chunked pass per system, queued on one stream)
//   DL3   one order-8 MIMO system (2 inputs, 2 outputs) over 10^7 samples with the state trajectory
//   DL4   4096 order-4 SISO systems, each over its own 4096 samples (simulate_ss_many's one-thread-per-
//         system kernel: one launch instead of 4096 plans)
// The systems (same in peers_signal_lti.py): A block diagonal of 2 x 2 rotation-scalings with radii
// r0, r1 and angles 0.3, 1.1 (order 4; order 8 adds radii 0.97, 0.85 at angles 0.7, 2.0), B, C, D fixed
// small vectors; DL2's system k has radii 0.95 - 0.001 k, 0.9. Inputs: uniform [0, 1) float64.
// Bytes: one read of u and one write of y (and x where returned).

#include <cmath>
#include <cstdio>
#include <vector>

#include "cusci/core.hpp"
#include "harness.hpp"
#include "lti_sim/lti_sim.hpp"

using namespace cusci;
namespace sd = cusci::signal::detail;

namespace {

/// Block-diagonal rotation-scaling A of order 2 * radii.size(); B, C, D from fixed patterns.
sd::ss_system make_system(const std::vector<double>& radii, const std::vector<double>& angles, int m, int p) {
  sd::ss_system s;
  s.n = 2 * static_cast<int>(radii.size());
  s.m = m;
  s.p = p;
  const int n = s.n;
  s.A.assign(static_cast<std::size_t>(n * n), 0.0);
  for (std::size_t k = 0; k < radii.size(); ++k) {
    const double c = radii[k] * std::cos(angles[k]), sn = radii[k] * std::sin(angles[k]);
    const std::size_t i = 2 * k;
    s.A[i * n + i] = c;
    s.A[i * n + i + 1] = -sn;
    s.A[(i + 1) * n + i] = sn;
    s.A[(i + 1) * n + i + 1] = c;
  }
  for (int i = 0; i < n * m; ++i) s.B.push_back(1.0 / (1 + i) - 0.3);
  for (int i = 0; i < p * n; ++i) s.C.push_back(0.5 - 0.25 * (i % 4));
  for (int i = 0; i < p * m; ++i) s.D.push_back(0.1 * (i + 1));
  return s;
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const char* F = "cusci::signal::dlsim";
  const sd::ss_system s4 = make_system({0.95, 0.9}, {0.3, 1.1}, 1, 1);
  const std::int64_t N = 10'000'000;
  ndarray u = random::default_rng(1).random({N, 1}, dtype::float64);
  sd::ss_sim_result r;
  auto t = bench::time_it([&] { r = sd::simulate_ss(s4, u, std::nullopt, false, F); });
  bench::report("DL1", "dlsim order 4 SISO 1e7 f64 (y)", t, 16.0 * N);
  t = bench::time_it([&] { r = sd::simulate_ss(s4, u, std::nullopt, true, F); }, 10, 2);
  bench::report("DL1x", "dlsim order 4 SISO 1e7 f64 (y, x)", t, 8.0 * N * (1 + 1 + 4));
  r = {};

  const std::int64_t Ns = 20'000;
  ndarray us = random::default_rng(2).random({Ns, 1}, dtype::float64);
  t = bench::time_it([&] { r = sd::simulate_ss(s4, us, std::nullopt, false, F); });
  bench::report("DL1s", "dlsim order 4 SISO 2e4 f64 (y)", t, 16.0 * Ns);

  const std::int64_t S = 64, N2 = 1 << 20;
  std::vector<sd::ss_system> many;
  for (int k = 0; k < S; ++k) many.push_back(make_system({0.95 - 0.001 * k, 0.9}, {0.3, 1.1}, 1, 1));
  u = random::default_rng(3).random({S, N2, 1}, dtype::float64);
  t = bench::time_it([&] { r = sd::simulate_ss_many(many, u, std::nullopt, false, F); }, 10, 2);
  bench::report("DL2", "dlsim 64 systems order 4 x 2^20 f64 (y)", t, 16.0 * S * N2);
  u = ndarray();
  r = {};

  const sd::ss_system s8 = make_system({0.95, 0.9, 0.97, 0.85}, {0.3, 1.1, 0.7, 2.0}, 2, 2);
  u = random::default_rng(4).random({N, 2}, dtype::float64);
  t = bench::time_it([&] { r = sd::simulate_ss(s8, u, std::nullopt, true, F); }, 10, 2);
  bench::report("DL3", "dlsim order 8 MIMO 2x2 1e7 f64 (y, x)", t, 8.0 * N * (2 + 2 + 8));
  u = ndarray();
  r = {};

  const std::int64_t S4 = 4096, N4 = 4096;
  many.clear();
  for (int k = 0; k < S4; ++k) many.push_back(make_system({0.95 - 0.00001 * k, 0.9}, {0.3, 1.1}, 1, 1));
  u = random::default_rng(5).random({S4, N4, 1}, dtype::float64);
  t = bench::time_it([&] { r = sd::simulate_ss_many(many, u, std::nullopt, false, F); }, 10, 2);
  bench::report("DL4", "dlsim 4096 systems order 4 x 4096 f64 (y)", t, 16.0 * S4 * N4);
  return 0;
}

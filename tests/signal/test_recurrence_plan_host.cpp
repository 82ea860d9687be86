// Host tests of the chunk plan of signal's recurrence engine (signal/src/filtering/recurrence_plan.hpp):
// the chunk length is chosen from the filter (a contracting carry), not from parallelism alone.

#include <doctest/doctest.h>

#include <cmath>

#include "cusci/signal/filter_design.hpp"
#include "filtering/recurrence_plan.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using sig::detail::matrix;

namespace {

// The direct form II transposed transition matrix of a (normalised), as lfilter builds it.
matrix df2t_transition(std::vector<double> a) {
  const int K = static_cast<int>(a.size()) - 1;
  const double a0 = a[0];
  for (double& v : a) v /= a0;
  matrix A(static_cast<std::size_t>(K) * K, 0.0);
  for (int j = 0; j < K; ++j) {
    std::vector<double> z(K, 0.0), zn(K, 0.0);
    z[j] = 1.0;
    for (int i = 0; i < K - 1; ++i) zn[i] = z[i + 1] - z[0] * a[i + 1];
    zn[K - 1] = -z[0] * a[K];
    for (int i = 0; i < K; ++i) A[static_cast<std::size_t>(i) * K + j] = zn[i];
  }
  return A;
}

double norm_inf(const matrix& m, int D) {
  double best = 0;
  for (int i = 0; i < D; ++i) {
    double s = 0;
    for (int j = 0; j < D; ++j) s += std::fabs(m[static_cast<std::size_t>(i) * D + j]);
    best = std::max(best, s);
  }
  return best;
}

}  // namespace

TEST_CASE("the chunk length makes the carry a contraction") {
  // A well-damped low-pass contracts within the first checkpoint.
  const auto lp = sig::butter(4, 0.2);
  const matrix A1 = df2t_transition(lp.a.to_vector<double>());
  const auto s1 = sig::detail::find_stable_power(A1, 4, 1 << 16);
  CHECK(s1.k == 256);
  CHECK(norm_inf(s1.P, 4) <= 0.5);

  // The ECG band-pass as a transfer function (order 8, poles at radius 0.9967): A^k grows to ~1e8
  // before it decays; the first contracting checkpoint is 8192 samples.
  const auto bp = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .fs = 360.0});
  const matrix A2 = df2t_transition(bp.a.to_vector<double>());
  const auto s2 = sig::detail::find_stable_power(A2, 8, 1 << 16);
  CHECK(s2.k == 8192);
  CHECK(norm_inf(s2.P, 8) <= 0.5);
  // Not within a smaller cap: no contracting chunk length, so the plan is sequential.
  CHECK(sig::detail::find_stable_power(A2, 8, 4096).k == 0);

  // An unstable filter (pole at 1.01) never contracts.
  const matrix A3 = df2t_transition({1.0, -1.01});
  CHECK(sig::detail::find_stable_power(A3, 1, 1 << 16).k == 0);
}

TEST_CASE("plans: parallel chunks where the filter allows, sequential where it does not") {
  const auto bp = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .fs = 360.0});
  const matrix A = df2t_transition(bp.a.to_vector<double>());
  const std::int64_t target = 132 * 1024;
  // 2^26 samples: chunks of 8192 (the contracting length), 8192 of them.
  auto p = sig::detail::plan_chunks(A, 8, 1, std::int64_t{1} << 26, target);
  CHECK(p.L == 8192);
  CHECK(p.C == 8192);
  CHECK(norm_inf(p.PL, 8) <= 0.5);
  // The ECG record (108,000 samples): 14 chunks of 8192.
  p = sig::detail::plan_chunks(A, 8, 1, 108000, target);
  CHECK(p.L == 8192);
  CHECK(p.C == 14);
  // 10,000 samples: no contracting length below N / 2, so one thread filters each signal in order.
  p = sig::detail::plan_chunks(A, 8, 4, 10000, target);
  CHECK(p.C == 1);
  CHECK(p.L == 10000);
  // A batch that fills the device alone is never chunked.
  p = sig::detail::plan_chunks(A, 8, target, 1 << 20, target);
  CHECK(p.C == 1);
  // A well-damped filter keeps the parallel length (>= 256, a power of two here).
  const auto lp = sig::butter(4, 0.2);
  p = sig::detail::plan_chunks(df2t_transition(lp.a.to_vector<double>()), 4, 256, 1 << 18, target);
  CHECK(p.C > 1);
  CHECK(p.L >= 256);
  CHECK(p.L * p.C >= (1 << 18));
}

// The chunk plan of the linear-recurrence engine (see recurrence_plan.hpp for the reasoning).

#include "filtering/recurrence_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <list>
#include <mutex>

namespace cusci::signal::detail {

matrix mat_mul(const matrix& a, const matrix& b, int D) {
  matrix r(static_cast<std::size_t>(D) * D, 0.0);
  for (int i = 0; i < D; ++i)
    for (int k = 0; k < D; ++k) {
      const double v = a[static_cast<std::size_t>(i) * D + k];
      if (v == 0) continue;
      for (int j = 0; j < D; ++j) r[static_cast<std::size_t>(i) * D + j] += v * b[static_cast<std::size_t>(k) * D + j];
    }
  return r;
}

matrix mat_pow(matrix a, std::int64_t e, int D) {
  matrix r(static_cast<std::size_t>(D) * D, 0.0);
  for (int i = 0; i < D; ++i) r[static_cast<std::size_t>(i) * D + i] = 1.0;
  while (e > 0) {
    if (e & 1) r = mat_mul(r, a, D);
    e >>= 1;
    if (e) a = mat_mul(a, a, D);
  }
  return r;
}

namespace {

constexpr std::int64_t first_check = 256;
constexpr std::int64_t max_check = std::int64_t{1} << 16;
constexpr double contraction = 0.5;

double norm_inf(const matrix& m, int D) {
  double best = 0;
  for (int i = 0; i < D; ++i) {
    double s = 0;
    for (int j = 0; j < D; ++j) s += std::fabs(m[static_cast<std::size_t>(i) * D + j]);
    if (!(s <= best)) best = s;  // NaN propagates as "not contractive"
  }
  return best;
}

struct cache_entry {
  matrix A;
  int D = 0;
  std::int64_t searched = 0;  // every checkpoint k <= searched was examined
  stable_power result;
};

std::mutex cache_mutex;
std::list<cache_entry> cache;  // most recently used first
constexpr std::size_t cache_capacity = 32;

stable_power simulate(const matrix& A, int D, std::int64_t cap) {
  // Sparse rows of A: the transition matrices here are companion-like or block triangular.
  std::vector<std::vector<std::pair<int, double>>> rows(static_cast<std::size_t>(D));
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j)
      if (const double v = A[static_cast<std::size_t>(i) * D + j]; v != 0) rows[i].push_back({j, v});
  matrix P(static_cast<std::size_t>(D) * D, 0.0), Q(P.size());
  for (int i = 0; i < D; ++i) P[static_cast<std::size_t>(i) * D + i] = 1.0;
  std::int64_t next = first_check;
  for (std::int64_t k = 1; k <= cap; ++k) {
    std::fill(Q.begin(), Q.end(), 0.0);
    for (int i = 0; i < D; ++i) {
      double* q = Q.data() + static_cast<std::size_t>(i) * D;
      for (const auto& [j, v] : rows[i]) {
        const double* p = P.data() + static_cast<std::size_t>(j) * D;
        for (int c = 0; c < D; ++c) q[c] += v * p[c];
      }
    }
    P.swap(Q);
    if (k == next) {
      const double n = norm_inf(P, D);
      if (n <= contraction) return {k, P};
      if (!std::isfinite(n) || n > 1e200) return {};  // unstable: never contractive
      next *= 2;
    }
  }
  return {};
}

}  // namespace

stable_power find_stable_power(const matrix& A, int D, std::int64_t cap) {
  cap = std::min(cap, max_check);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (it->D == D && it->A == A && (it->result.k > 0 || it->searched >= cap)) {
        cache.splice(cache.begin(), cache, it);
        const stable_power& r = cache.front().result;
        if (r.k > cap) return {};
        return r;
      }
  }
  stable_power r = simulate(A, D, cap);
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache.push_front({A, D, cap, r});
  if (cache.size() > cache_capacity) cache.pop_back();
  return r;
}

chunk_plan plan_chunks(const matrix& A, int D, std::int64_t nb, std::int64_t N, std::int64_t target_threads) {
  chunk_plan p;
  p.L = N;
  constexpr std::int64_t min_chunk = 256;
  if (nb >= target_threads || N <= 2 * min_chunk) return p;
  // The length that fills the device: enough chunks for ~target_threads, each >= 256 samples.
  const std::int64_t want = std::min((target_threads + nb - 1) / nb, (N + min_chunk - 1) / min_chunk);
  const std::int64_t L_par = std::max<std::int64_t>(min_chunk, (N + want - 1) / want);
  // The checkpoints are powers of two from 256; a chunk length beyond N / 2 gains nothing.
  std::int64_t cap = first_check;
  while (cap * 2 <= N / 2 && cap < max_check) cap *= 2;
  const stable_power s = find_stable_power(A, D, cap);
  if (s.k == 0) return p;  // no contractive chunk length: sequential
  std::int64_t L = s.k;
  matrix P = s.P;
  while (L < L_par) {
    P = mat_mul(P, P, D);
    L *= 2;
  }
  if (L >= N) return p;
  p.L = L;
  p.C = (N + L - 1) / L;
  p.PL = std::move(P);
  return p;
}

}  // namespace cusci::signal::detail

// Benchmarks of cusci::sparse's incremental family (ids SI1..SI4; SciPy peers, timed on the CPU, in
// compare_scipy_incremental.py). A 10^5 x 10^5 float64 matrix receives 10^6 random entries, one
// element assignment at a time, as a SciPy user writes `A[i, j] = v` in a loop:
//   SI1  dok_matrix: 10^6 set() calls into an empty matrix (host wall time)
//   SI2  dok_matrix.tocsr() of that matrix: upload and device grouping (wall time, synchronized)
//   SI3  lil_matrix: 10^6 set() calls (host wall time)
//   SI4  lil_matrix.tocsr(): host flattening and upload (wall time, synchronized)
// Wall times: median of the runs (builds: 5, conversions: 20 after 3 warm-ups); the positions come
// from a fixed xorshift sequence (SciPy's side draws its own; no timing depends on the values).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/lil.hpp"
#include "harness.hpp"

namespace sp = cusci::sparse;

namespace {

cusci::bench::result wall(int runs, int warmup, const std::function<void()>& fn) {
  for (int k = 0; k < warmup; ++k) fn();
  cusci::synchronize();
  std::vector<double> ms;
  for (int k = 0; k < runs; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    cusci::synchronize();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

struct entries {
  std::vector<std::int64_t> i, j;
  std::vector<double> v;
};

entries draw(std::int64_t n, std::int64_t count) {
  entries e;
  std::uint64_t x = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (std::int64_t k = 0; k < count; ++k) {
    e.i.push_back(static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)));
    e.j.push_back(static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)));
    e.v.push_back(static_cast<double>(next() % 1000) * 0.001 + 1.0);
  }
  return e;
}

}  // namespace

int main() {
  if (cusci::bench::no_device()) return 77;
  const std::int64_t n = 100000, count = 1000000;
  const entries e = draw(n, count);
  const sp::shape2 shape{n, n};
  const std::string extra = "\"entries\":" + std::to_string(count);

  sp::dok_matrix D(shape);
  {
    auto r = wall(5, 0, [&] {
      sp::dok_matrix A(shape);
      for (std::int64_t k = 0; k < count; ++k) A.set(e.i[k], e.j[k], e.v[k]);
      D = std::move(A);
    });
    cusci::bench::report("SI1", "dok 1e5^2 build 1e6 set() f64", r, 0, extra);
  }
  {
    auto r = wall(20, 3, [&] { sp::csr_matrix C = D.tocsr(); });
    cusci::bench::report("SI2", "dok 1e5^2 1e6 entries tocsr", r, 0, "\"nnz\":" + std::to_string(D.nnz()));
  }
  sp::lil_matrix L(shape);
  {
    auto r = wall(5, 0, [&] {
      sp::lil_matrix A(shape);
      for (std::int64_t k = 0; k < count; ++k) A.set(e.i[k], e.j[k], e.v[k]);
      L = std::move(A);
    });
    cusci::bench::report("SI3", "lil 1e5^2 build 1e6 set() f64", r, 0, extra);
  }
  {
    auto r = wall(20, 3, [&] { sp::csr_matrix C = L.tocsr(); });
    cusci::bench::report("SI4", "lil 1e5^2 1e6 entries tocsr", r, 0, "\"nnz\":" + std::to_string(L.nnz()));
  }
  return 0;
}

// Benchmarks of the indexing family against CuPy (peers_indexing.py runs CuPy on the same inputs).
// I1 take 2^26 random indices from 2^26 float32; I2 boolean-mask read of 2^28 float32 (50% true);
// I3 concatenate 8 arrays of 2^25 float32; I4 pad 8192^2 float32 by 16 (reflect); I5 transpose copy
// (ascontiguousarray(a.T)) of 16384^2 float32; I6 roll 2^28 float32; I7 tril of 16384^2 float32.
// Byte counts are the minimal traffic: every input byte read once and every output byte written once
// (I1: indices + gathered values + output; I2: mask + data + output; I7: kept half read + all written).

#include <cstdint>
#include <vector>

#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

using namespace cusci;

namespace {
/// Non-constant float32 data: i * 0.5 mod 1000 pattern generated on the device by arange.
ndarray data_f32(std::int64_t n) { return arange(0.0, static_cast<double>(n), 1.0, dtype::float32); }
}  // namespace

int main() {
  using bench::report;
  using bench::time_it;
  const double f = 4.0;
  {
    const std::int64_t n = 1LL << 26;
    ndarray a = data_f32(n);
    // Pseudo-random indices: (i * 2654435761) mod n, built on the host once.
    std::vector<std::int64_t> h(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<std::int64_t>((static_cast<std::uint64_t>(i) * 2654435761ULL) % n);
    ndarray idx = asarray(h);
    auto r = time_it([&] { (void)take(a, idx, 0, clip_mode::wrap); });
    report("I1", "take 2^26 random of 2^26 f32 (wrap, no sync)", r, n * (8.0 + f + f));
    auto r2 = time_it([&] { (void)take(a, idx, 0, clip_mode::raise); });
    report("I1r", "take 2^26 random of 2^26 f32 (raise: bounds read-back)", r2, n * (8.0 + f + f));
  }
  {
    const std::int64_t n = 1LL << 28;
    ndarray a = data_f32(n);
    // 50% true mask from a xorshift bit stream (host, once).
    ndarray m;
    {
      std::vector<std::uint8_t> hm(static_cast<std::size_t>(n));
      std::uint64_t x = 88172645463325252ULL;
      for (std::int64_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hm[i] = static_cast<std::uint8_t>(x & 1);
      }
      m = asarray(static_cast<const void*>(hm.data()), dtype::bool_, {n});
    }
    auto r = time_it([&] { (void)getitem(a, m); });
    report("I2", "a[mask] 2^28 f32, 50% true", r, n * (1.0 + f) + n * 0.5 * f);
  }
  {
    const std::int64_t n = 1LL << 25;
    std::vector<ndarray> parts;
    for (int i = 0; i < 8; ++i) parts.push_back(data_f32(n));
    auto r = time_it([&] { (void)concatenate(parts, 0); });
    report("I3", "concatenate 8 x 2^25 f32", r, 2.0 * 8 * n * f);
  }
  {
    const std::int64_t n = 8192;
    ndarray a = data_f32(n * n).reshape({n, n});
    auto r = time_it([&] { (void)pad(a, 16, pad_mode::reflect); });
    const double out = static_cast<double>(n + 32) * (n + 32);
    report("I4", "pad 8192^2 f32 by 16 reflect", r, (n * n + out) * f);
  }
  {
    const std::int64_t n = 16384;
    ndarray a = data_f32(n * n).reshape({n, n});
    auto r = time_it([&] { (void)ascontiguousarray(a.T()); });
    report("I5", "ascontiguousarray(a.T) 16384^2 f32", r, 2.0 * n * n * f);
  }
  {
    const std::int64_t n = 1LL << 28;
    ndarray a = data_f32(n);
    auto r = time_it([&] { (void)roll(a, 12345); });
    report("I6", "roll 2^28 f32", r, 2.0 * n * f);
  }
  {
    const std::int64_t n = 16384;
    ndarray a = data_f32(n * n).reshape({n, n});
    auto r = time_it([&] { (void)tril(a); });
    report("I7", "tril 16384^2 f32", r, (0.5 * n * (n + 1) + static_cast<double>(n) * n) * f);
  }
  return 0;
}

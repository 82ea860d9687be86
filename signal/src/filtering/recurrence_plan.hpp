#pragma once
// (internal; host) How the chunked recurrence of recurrence.cuh cuts a signal, chosen from an a-priori
// bound on the filter rather than from parallelism alone.
//
// The carry between chunks multiplies states by A^L, the filter's zero-input transition over L samples.
// For filters with poles near the unit circle, transfer-function (companion) forms have transients in
// A^k of 1e7 and more before they decay, so A^L formed by repeated squaring is numerically meaningless
// and the carried states overflow. The plan therefore
//   1. simulates A^k column by column in float64 (the arithmetic a sequential filter does on a state),
//      checking ||A^k||_inf at k = 256, 512, 1024, ...; the first such k with ||A^k||_inf <= 1/2 is the
//      shortest chunk length whose carry is a contraction, so that rounding in the carried states is not
//      amplified, and squaring A^k (for longer chunks and for the two-level carry) is stable;
//   2. takes the chunk length max(that k, the length that fills the device), a power-of-two multiple
//      of k;
//   3. falls back to one thread per signal, filtering it sequentially from start to end (SciPy's own
//      order of operations), when no k up to min(2^16, N / 2) qualifies: slowly decaying, marginally
//      stable or unstable filters.
// The simulation's result is cached per transition matrix (filtfilt and repeated calls reuse it).

#include <cstdint>
#include <vector>

namespace cusci::signal::detail {

using matrix = std::vector<double>;  // row-major D x D

matrix mat_mul(const matrix& a, const matrix& b, int D);
/// a^e by repeated squaring; only used on contractions (||a||_inf <= 1/2), where it is stable.
matrix mat_pow(matrix a, std::int64_t e, int D);

struct chunk_plan {
  std::int64_t L = 0;  ///< chunk length (== N when C == 1)
  std::int64_t C = 1;  ///< chunks per signal; 1: each signal filtered sequentially by one thread
  matrix PL;           ///< A^L when C > 1
};

/// The plan for nb signals of N samples of a recurrence with real transition matrix A (D x D, D <= 32),
/// for a device that wants about `target_threads` threads in flight.
chunk_plan plan_chunks(const matrix& A, int D, std::int64_t nb, std::int64_t N, std::int64_t target_threads);

/// The shortest k = 256 * 2^m <= cap with ||A^k||_inf <= 1/2 (0 when there is none) and A^k itself.
/// Cached per (A, D). Exposed for the host tests.
struct stable_power {
  std::int64_t k = 0;
  matrix P;
};
stable_power find_stable_power(const matrix& A, int D, std::int64_t cap);

}  // namespace cusci::signal::detail

#pragma once
/// @file random.hpp
/// Random sampling with NumPy's `Generator` API: `cusci::random::default_rng(seed)` returns a
/// `generator` with NumPy's method names and parameters.
///
/// Bit generator: Philox4x32-10 (J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, "Parallel random
/// numbers: as easy as 1, 2, 3", SC'11, 2011), a counter-based generator computed in cusci's own
/// kernels. Each Philox block (four 32-bit words) is a pure function of the key (the 64-bit seed) and
/// a 128-bit counter: words 0-1 hold the generator's stream position plus the block index j of the
/// call, word 2 a retry round for rejection samplers, word 3 is zero (in the retry rounds of
/// `integers`, 1 + the element's slot in its block). A call that uses B blocks
/// advances the stream position by B. So every value depends only on (seed, sequence of previous
/// calls and their sizes, element index), never on the launch configuration (grid or block size).
///
/// Deviation from NumPy: NumPy's default bit generator is PCG64 and its normal sampler a ziggurat;
/// cusci draws the same distributions but not the same streams, so the values differ from NumPy's
/// for the same seed.
///
/// Stream behaviour: every method enqueues its work on the current stream and returns at once,
/// except where its documentation says otherwise; results are new C-contiguous arrays on the current
/// device. A generator is not thread-safe (use one per thread, or guard it).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::random {

/// A random generator (NumPy's `numpy.random.Generator` with a counter-based bit generator).
class generator {
 public:
  /// A generator keyed by `seed` at stream position 0. Host only; never throws.
  explicit generator(std::uint64_t seed) noexcept : seed_(seed) {}

  /// Uniform floats in [0, 1): float32 from 24 random bits (k * 2^-24), float64 from 53 (k * 2^-53).
  /// @param shape  output shape [any] (each dimension >= 0).
  /// @param dt     float32 or float64.
  /// @return shape, dtype `dt`. Uses ceil(n / 4) (float32) or ceil(n / 2) (float64) Philox blocks.
  /// @throws cusci::value_error for a negative dimension; cusci::type_error for another dtype;
  ///         cusci::out_of_memory.
  /// NumPy: `Generator.random(size, dtype)`.
  ndarray random(const shape_t& shape, dtype dt = dtype::float64);

  /// Uniform float64 values low + (high - low) * U with U in [0, 1) as `random`.
  /// @param low, high  bounds (high < low is allowed, as NumPy).
  /// @return shape, float64.
  /// @throws cusci::value_error for a negative dimension, or a non-finite low, high or high - low
  ///         (NumPy: OverflowError "Range exceeds valid bounds"); cusci::out_of_memory.
  /// NumPy: `Generator.uniform(low, high, size)` (scalar bounds only).
  ndarray uniform(double low, double high, const shape_t& shape);

  /// Uniform integers in [low, high) (or [low, high] with `endpoint`), unbiased: Lemire's
  /// multiply-and-reject method (D. Lemire, "Fast random integer generation in an interval", ACM
  /// TOMACS 29(1), 2019), 32-bit when the range fits 32 bits, 64-bit otherwise; rejected draws retry
  /// with the next round of the element's own counter.
  /// @param low    lowest value (or, when `high` is empty, the exclusive upper bound with low = 0).
  /// @param high   upper bound (exclusive unless `endpoint`).
  /// @param shape  output shape.
  /// @param dt     bool or any integer dtype (default int64).
  /// @return shape, dtype `dt`. ceil(n / 4) Philox blocks when high - low fits 32 bits (one word
  ///         per element), ceil(n / 2) otherwise (two words per element); a rejected element retries
  ///         with its own retry blocks, so rejections never move other elements.
  /// @throws cusci::value_error for low >= high ("low >= high"; "low > high" with endpoint), a bound
  ///         outside the dtype's range ("low is out of bounds for int8"), or a negative dimension;
  ///         cusci::type_error for a floating or complex dtype; cusci::out_of_memory.
  /// NumPy: `Generator.integers(low, high, size, dtype, endpoint)`. Deviation: bounds are int64, so
  /// uint64 values above 2^63 - 1 cannot be requested.
  ndarray integers(std::int64_t low, std::optional<std::int64_t> high, const shape_t& shape,
                   dtype dt = dtype::int64, bool endpoint = false);

  /// Standard normal values (Box-Muller transform of two uniforms: G. E. P. Box, M. E. Muller, Ann.
  /// Math. Statist. 29, 1958).
  /// @param dt  float32 or float64.
  /// @return shape, dtype `dt`.
  /// @throws cusci::value_error for a negative dimension; cusci::type_error for another dtype;
  ///         cusci::out_of_memory.
  /// NumPy: `Generator.standard_normal(size, dtype)` (NumPy uses a ziggurat: same distribution,
  /// different values).
  ndarray standard_normal(const shape_t& shape, dtype dt = dtype::float64);

  /// Normal values loc + scale * Z (Z as `standard_normal`, float64).
  /// @return shape, float64.
  /// @throws cusci::value_error for scale < 0 or NaN ("scale < 0") or a negative dimension.
  /// NumPy: `Generator.normal(loc, scale, size)` (scalar parameters only).
  ndarray normal(double loc, double scale, const shape_t& shape);

  /// Exponential values -scale * log(1 - U), U in [0, 1) (inversion).
  /// @return shape, float64.
  /// @throws cusci::value_error for scale < 0 or NaN ("scale < 0") or a negative dimension.
  /// NumPy: `Generator.exponential(scale, size)`.
  ndarray exponential(double scale, const shape_t& shape);

  /// Poisson counts with mean `lam`: lam < 10 by multiplication of uniforms (Knuth's method);
  /// lam >= 10 by PTRS, the transformed rejection method with squeeze of W. Hörmann, "The transformed
  /// rejection method for generating Poisson random variables", Insurance: Mathematics and Economics
  /// 12(1), 1993. One Philox counter per element, rejected attempts use its further rounds.
  /// @return shape, int64.
  /// @throws cusci::value_error for lam < 0 or NaN ("lam < 0 or lam is NaN"), lam > 9.2e18
  ///         ("lam value too large") or a negative dimension; cusci::out_of_memory.
  /// NumPy: `Generator.poisson(lam, size)` (scalar lam only).
  ndarray poisson(double lam, const shape_t& shape);

  /// Random sample from arange(a) (int overload) or from the rows (axis 0) of `a` (array overload).
  /// With replacement and no p: uniform integers as `integers(0, n)`. With p: the inverse CDF,
  /// searchsorted(cumsum(p) / sum, U, side='right'). Without replacement and no p: the first `size`
  /// entries of a random permutation (random 64-bit keys sorted with CUB's radix sort). Without
  /// replacement with p: Efraimidis-Spirakis keys E_i / p_i with E_i exponential, the `size` smallest
  /// (P. S. Efraimidis, P. G. Spirakis, "Weighted random sampling with a reservoir", IPL 97(5), 2006),
  /// the same distribution as NumPy's successive draws.
  /// @param a        population size (>= 0) or an array [n, ...] of any dtype and layout.
  /// @param size     shape of the sample (an empty shape gives a 0-d result).
  /// @param replace  sample with replacement.
  /// @param p        probabilities [n] on the host (>= 0, finite, summing to 1 within sqrt(eps)).
  /// @return int64 [size] (int overload) or a's dtype [size..., a.shape[1:]...].
  /// @throws cusci::value_error for a < 0 or an empty population with a non-empty sample, p of the
  ///         wrong length, negative or not summing to 1, size > n without replacement ("Cannot take a
  ///         larger sample than population when replace is False"), fewer non-zero probabilities than
  ///         size without replacement, more than 2^31 - 1 keys to sort; cusci::index_error for a 0-d
  ///         array; cusci::out_of_memory.
  /// NumPy: `Generator.choice(a, size, replace, p)` (axis 0, shuffle=True; p given on the host).
  ndarray choice(std::int64_t a, const shape_t& size, bool replace = true,
                 const std::optional<std::vector<double>>& p = std::nullopt);
  ndarray choice(const ndarray& a, const shape_t& size, bool replace = true,
                 const std::optional<std::vector<double>>& p = std::nullopt);

  /// A random permutation of arange(n) (int64), or a permuted copy of `x` along axis 0 (x's dtype,
  /// C order). Random 64-bit keys sorted with CUB's radix sort.
  /// @throws cusci::value_error for n < 0 or more than 2^31 - 1 elements; cusci::index_error for a 0-d
  ///         array ("x must be an integer or at least 1-dimensional"); cusci::out_of_memory.
  /// NumPy: `Generator.permutation(x)` (axis 0).
  ndarray permutation(std::int64_t n);
  ndarray permutation(const ndarray& x);

  /// Shuffles `x` in place along axis 0 (any layout; through a permuted temporary).
  /// @throws cusci::index_error for a 0-d array; cusci::value_error for more than 2^31 - 1 rows;
  ///         cusci::out_of_memory.
  /// NumPy: `Generator.shuffle(x)` (axis 0).
  void shuffle(ndarray& x);

  /// The seed (Philox key) and the stream position (Philox blocks used so far). Host only.
  std::uint64_t seed() const noexcept { return seed_; }
  std::uint64_t position() const noexcept { return offset_; }

 private:
  /// Reserves `blocks` Philox counters for one call; returns the first.
  std::uint64_t advance(std::uint64_t blocks) noexcept {
    const std::uint64_t o = offset_;
    offset_ += blocks;
    return o;
  }
  ndarray random_keys(std::int64_t n);  // int64 permutation of arange(n)
  ndarray gather_rows(const ndarray& a, const ndarray& idx);
  std::uint64_t seed_;
  std::uint64_t offset_ = 0;
};

/// A generator keyed by `seed`. NumPy: `np.random.default_rng(seed)` (an integer seed only; the seed
/// is the Philox key directly, without NumPy's SeedSequence).
inline generator default_rng(std::uint64_t seed) noexcept { return generator(seed); }
/// A generator keyed by 64 bits of host entropy (std::random_device). NumPy: `default_rng()`.
generator default_rng();

namespace detail {
/// Philox4x32-10 on the host: four 32-bit words from counter `ctr` and key `key` (for tests against
/// the published known-answer vectors).
std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> ctr, std::array<std::uint32_t, 2> key) noexcept;
/// Test hook: forces the block size and grid size of the sampling kernels (0 = automatic). Results
/// never depend on them; tests use this to prove it. Process-wide; not for normal use.
/// @throws cusci::value_error for a block size outside [0, 1024] or a negative grid size.
void set_launch_config(int block_size, int grid_size);
}  // namespace detail

}  // namespace cusci::random

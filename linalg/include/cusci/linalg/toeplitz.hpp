#pragma once
/// @file toeplitz.hpp
/// Toeplitz and circulant solvers and the Toeplitz product of `scipy.linalg` (1.18):
/// `solve_toeplitz`, `matmul_toeplitz` (batched over leading dimensions as SciPy 1.18 batches them) and
/// `solve_circulant` (broadcast over the axes other than `caxis` / `baxis`, as SciPy).
///
/// The Toeplitz matrix T is given as SciPy's `c_or_cr`: its first column `c`, or the pair (`c`, `r`)
/// with `r` its first row (r[0] is ignored; without `r`, r = conj(c)). In C++ `c_or_cr` is a small
/// struct built implicitly from one array (`solve_toeplitz(c, b)`) or from two
/// (`solve_toeplitz({c, r}, b)`).
///
/// Batching (SciPy's `_apply_over_batch` with core dimensions 1 for c and r and "1|2" for the right
/// operand): c [..., N], r [..., N] (or [..., M] for matmul_toeplitz), b [M] (one vector) or
/// [..., M, K]; the batch dimensions (all but the core ones) broadcast by NumPy's rules; the result
/// is [batch..., core]. As SciPy: batch dimensions that do not broadcast, or a broadcast batch of size
/// zero, are a `value_error`.
///
/// Results are new C-contiguous arrays; inputs are never written.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// SciPy's `c_or_cr` argument: the first column `c` of a Toeplitz matrix and optionally its first row
/// `r` (without it, r = conj(c): a Hermitian matrix when c[0] is real).
struct c_or_cr {
  /// `c` alone (SciPy: an array passed as `c_or_cr`).
  c_or_cr(const ndarray& c_) : c(c_) {}  // NOLINT(google-explicit-constructor): SciPy's array_like
  /// The pair `(c, r)` (SciPy: a tuple passed as `c_or_cr`).
  c_or_cr(const ndarray& c_, const ndarray& r_) : c(c_), r(r_) {}
  ndarray c;
  std::optional<ndarray> r;
};

// --- solve_toeplitz --------------------------------------------------------------------------------

/// Keyword arguments of `solve_toeplitz`, with SciPy's names and defaults.
struct solve_toeplitz_options {
  /// Check that c, r and b hold only finite numbers.
  bool check_finite = true;
};

/// Solves `T @ x = b` for x, with T the Toeplitz matrix of `c_or_cr`.
///
/// @param t  c [..., N] (and r [..., N]); any dtype (bool and integers as float64), any layout.
/// @param b  [N] or [..., N, K]; any dtype, any layout.
/// @return x, [batch..., N] or [batch..., N, K], C-contiguous; complex128 when any input is complex,
///         else float64 (SciPy computes in these two types only, whatever the input precision).
///         An empty right-hand side gives an empty result: b of shape [..., N, K] with N * K == 0
///         gives [batch..., N, 0] (SciPy's reshape of an empty b to (N, 0)).
///
/// Algorithm: Levinson-Durbin recursion (SciPy's `levinson`, after A. Miller's toeplitz.f90), on the
/// GPU: one thread block per system; at step m the block computes the denominators and the K
/// numerators of the new unknowns with warp-shuffle reductions, then updates x (all K columns at
/// once: the recursion's g / h vectors do not depend on b, so they are computed once, not once per
/// column as SciPy does) and g / h in parallel. O(N^2 (K + 1)) work, N sequential steps per block.
/// c, r and b are first gathered (any layout, broadcast, converted, checked) into contiguous buffers.
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the finiteness
/// and singularity flags.
///
/// @throws cusci::index_error when c, r or b is 0-d (SciPy's IndexError "tuple index out of range").
/// @throws cusci::value_error when the lengths of c, r and b's first core dimension differ
///         ("Incompatible dimensions."), the batch dimensions do not broadcast or broadcast to a
///         zero-size batch, or (with `check_finite`) an input holds inf or NaN ("array must not
///         contain infs or NaNs").
/// @throws cusci::linalg::lin_alg_error when a leading principal minor of T is singular (a zero
///         denominator in the recursion, exactly as SciPy tests it): "Singular principal minor"
///         (followed by " (batch slice s)" with the first failing slice for a batch).
///
/// SciPy: `scipy.linalg.solve_toeplitz(c_or_cr, b, check_finite)`. The recursion is SciPy's, but the
/// dot products are summed in a different order, so results agree to rounding (and a denominator
/// that is zero in exact arithmetic may round to a tiny non-zero value differently).
ndarray solve_toeplitz(const c_or_cr& t, const ndarray& b, const solve_toeplitz_options& opts = {});

// --- matmul_toeplitz --------------------------------------------------------------------------------

/// Keyword arguments of `matmul_toeplitz`, with SciPy's names and defaults.
struct matmul_toeplitz_options {
  /// Check that c, r and x hold only finite numbers (SciPy's default: no check).
  bool check_finite = false;
  /// SciPy's number of FFT worker threads: accepted and ignored (the FFTs run on the GPU).
  std::optional<int> workers{};
};

/// Computes `T @ x` with T the (M x N) Toeplitz matrix of `c_or_cr` (c [..., M] its first column,
/// r [..., N] its first row), without forming T.
///
/// @param t  c [..., M] (and r [..., N]; without r, N = M and r = conj(c)); any dtype, any layout.
/// @param x  [N] or [..., N, K]; any dtype, any layout.
/// @return [batch..., M] or [batch..., M, K], C-contiguous; complex128 when any input is complex,
///         else float64 (as SciPy, integer inputs give floating results).
///
/// Algorithm: T is embedded in the circulant matrix of the column [c, r[N-1], ..., r[1]] (length
/// P = M + N - 1); the product is irfft(rfft(col) * rfft(x, P)) (real inputs) or ifft(fft(col) *
/// fft(x, P)) (complex), over the P rows, through cusci's cuFFT transforms (batched over the batch
/// and the K columns), then the first M rows. GPU only; no host work but shape handling.
///
/// Stream: asynchronous (enqueued on the current stream) unless `check_finite`, which
/// **synchronizes** once to read the finiteness flag.
///
/// @throws cusci::index_error when c, r or x is 0-d.
/// @throws cusci::value_error when x's first core dimension differs from the length of r
///         ("Incompatible dimensions."), the batch dimensions do not broadcast or broadcast to a
///         zero-size batch, or (with `check_finite`) an input holds inf or NaN.
///
/// SciPy: `scipy.linalg.matmul_toeplitz(c_or_cr, x, check_finite, workers)`. Deviation: `workers` is
/// ignored. Results agree with SciPy's to the FFT's rounding.
ndarray matmul_toeplitz(const c_or_cr& t, const ndarray& x, const matmul_toeplitz_options& opts = {});

// --- solve_circulant --------------------------------------------------------------------------------

/// What `solve_circulant` does with a (near) singular circulant matrix (SciPy's `singular`).
enum class circulant_singular : int {
  raise = 0,  ///< "raise": throw lin_alg_error
  lstsq = 1,  ///< "lstsq": return the least-squares (minimum-norm) solution
};

/// Parses SciPy's `singular` strings. As SciPy, "raise" selects `raise` and every other string
/// selects `lstsq` (SciPy tests only `singular == 'raise'`). Never throws.
circulant_singular parse_circulant_singular(std::string_view s) noexcept;

/// Keyword arguments of `solve_circulant`, with SciPy's names and defaults.
struct solve_circulant_options {
  circulant_singular singular = circulant_singular::raise;
  /// An eigenvalue |fft(c)_j| <= tol makes the matrix near singular. Default (nullopt):
  /// max_j |fft(c)_j| * N * eps(float64), per circulant vector.
  std::optional<double> tol{};
  /// Axis of c holding the circulant coefficients.
  int caxis = -1;
  /// Axis of b holding the right-hand-side vectors.
  int baxis = 0;
  /// Axis of the result holding the solution vectors.
  int outaxis = 0;
};

/// Solves `C @ x = b` for x, with C the circulant matrix of `c`, by division in Fourier space:
/// x = ifft(fft(b) / fft(c)).
///
/// @param c  [..., N, ...] with the coefficients along `caxis` (0-d counts as [1]); any dtype.
/// @param b  [..., N, ...] with the vectors along `baxis` (0-d counts as [1]); any dtype.
/// @return x: the other axes of c and of b broadcast (NumPy's rules, c's first), with the solution
///         axis N moved to `outaxis`; a C-contiguous array's moved view. Dtype as NumPy's FFT
///         gives it: the transforms run in complex64 when both inputs are float32, float16 or
///         complex64, else in complex128; the result is that complex dtype when c or b is complex,
///         else its real dtype (float32 / float64). An empty b returns an empty array of b's shape
///         (SciPy's `np.empty_like(b)`), with that dtype.
///
/// Algorithm: cusci's cuFFT transforms (batched over all vectors), NumPy-style broadcasting
/// elementwise kernels for |fft(c)|, the tolerance and the masked division; one reduction decides
/// near singularity. GPU only.
///
/// Stream: **synchronizes** once, to read whether some eigenvalue is below the tolerance.
///
/// @throws cusci::value_error when `caxis` / `baxis` is out of range ("'caxis' entry is out of
///         bounds"), the lengths along them differ ("Shapes of c (..) and b (..) are incompatible"),
///         or the other axes do not broadcast.
/// @throws cusci::index_error when `outaxis` is out of range for the result.
/// @throws cusci::linalg::lin_alg_error when some eigenvalue is near zero with `singular = raise`
///         ("near singular circulant matrix.").
///
/// SciPy: `scipy.linalg.solve_circulant(c, b, singular, tol, caxis, baxis, outaxis)`. Deviation: with
/// `lstsq`, SciPy masks the quotient with an array shaped like the original b (before moving baxis),
/// which fails with a broadcasting error unless that shape matches the quotient's; cusci zeroes the
/// quotient wherever fft(c) is near zero in every case (SciPy's intended result where it works).
ndarray solve_circulant(const ndarray& c, const ndarray& b, const solve_circulant_options& opts = {});

}  // namespace cusci::linalg

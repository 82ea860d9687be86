#pragma once
/// @file norm.hpp
/// `scipy.linalg.norm` and `scipy.linalg.clarkson_woodruff_transform` (SciPy 1.18).
///
/// `norm`: cusci's core already provides `cusci::linalg::norm(x, {ord, axis, keepdims})`
/// (`cusci/numeric.hpp`, NumPy's `numpy.linalg.norm`), which is what `scipy.linalg.norm` computes once
/// its `check_finite` test has passed (SciPy calls BLAS nrm2 / LAPACK lange for some 1-D / 2-D cases
/// and NumPy otherwise: the same values up to rounding). This header adds SciPy's `check_finite` as a
/// third argument of an overload; the two-argument form is SciPy's norm with `check_finite=False`.

#include <cstdint>

#include "cusci/ndarray.hpp"
#include "cusci/numeric.hpp"
#include "cusci/random.hpp"

namespace cusci::linalg {

// --- norm ------------------------------------------------------------------------------------------

/// Matrix or vector norm with SciPy's finiteness check.
///
/// @param a             [any shape], any dtype (bool and integers are computed as float64).
/// @param opts          NumPy's / SciPy's ord (none, 'fro', 'nuc', inf, -inf, 0, 1, -1, 2, -2, any other
///                      real p for vectors), axis (none, one axis: vector norms, two axes: matrix norms
///                      over the stack of the other axes) and keepdims; the rules of
///                      `cusci::linalg::norm(x, opts)` in `cusci/numeric.hpp`.
/// @param check_finite  SciPy's `check_finite` (SciPy's default is true): when a is inexact and holds
///                      inf or NaN, throw.
/// @return a 0-d or reduced array of a's real dtype (float64 for bool/integers), as core's norm; float64
///         (a 0-d array) where SciPy answers through BLAS ?nrm2 / LAPACK ?lange and returns a Python float:
///         a non-empty float32 / float64 / complex64 / complex128 `a`, no axis, no keepdims, and a 1-D `a`
///         with ord none or 2, or a 2-D `a` with ord 1 or inf that is C- or F-contiguous but not both
///         (SciPy's `np.isfortran(a)` / `np.isfortran(a.T)`). For float32 / complex64 that value is the
///         single-precision norm widened (as SciPy's ?nrm2 / ?lange result is).
///
/// Algorithm: the finiteness test is one device reduction (`all(isfinite(a))`). The matrix orders
/// 'nuc', 2 and -2 take the singular values of the whole stack from the SVD family's batched engine
/// (`linalg::svdvals`, cusci/linalg/svd.hpp: one Jacobi kernel for the batch, cuSOLVER for large
/// matrices), then a sum / max / min over them. Every other order is core's norm: device reductions,
/// cuBLAS nrm2 for full 2-norms of contiguous arrays, every vector 2-norm and Frobenius norm scaled by
/// the largest |a| (no overflow or underflow: SciPy's nrm2 semantics, also where SciPy falls back to
/// NumPy's unscaled sum and overflows to inf).
///
/// Stream: with `check_finite` and an inexact a, **synchronizes** once to read the test; the
/// singular-value orders synchronize once more (svdvals reads its flags); otherwise asynchronous, as
/// core's norm.
///
/// @throws cusci::value_error "array must not contain infs or NaNs" (with `check_finite`), and every
///         argument error of core's norm (invalid orders for vectors / matrices, "Improper number of
///         dimensions to norm.", "Duplicate axes given.", zero-size reductions of -inf / -1 / -2);
///         cusci::index_error for an axis out of range; cusci::type_error for float16 with the
///         singular-value orders. Argument errors are raised before the finiteness test (SciPy tests
///         finiteness first, so an input with both faults raises the finiteness error there).
///
/// SciPy: `scipy.linalg.norm(a, ord, axis, keepdims, check_finite)`. Deviations: `check_finite` is a
/// third positional argument (core's `norm_options` has no such field; `linalg::norm(a, opts)` is
/// SciPy's norm with `check_finite=False`); results are a 0-d device array where SciPy returns a
/// Python float; Frobenius / 2-norms never overflow (see Algorithm).
ndarray norm(const ndarray& a, const norm_options& opts, bool check_finite);

// --- clarkson_woodruff_transform --------------------------------------------------------------------

/// A Clarkson-Woodruff (CountSketch) matrix S of shape (n_rows, n_columns), in its compressed form:
/// column j of S has one non-zero, signs[j] (+1 or -1) in row rows[j]. SciPy's `cwt_matrix` builds
/// the same matrix as a csc_array with data `signs`, indices `rows` and indptr 0..n_columns.
struct cwt_sketch {
  std::int64_t n_rows = 0;  ///< the sketch size k
  ndarray rows;             ///< [n_columns] int64, each in [0, n_rows)
  ndarray signs;            ///< [n_columns] int64, each +1 or -1
};

/// Draws a sketch: rows uniform in [0, n_rows) (`rng.integers(0, n_rows, n_columns)`), signs +1 / -1
/// with equal probability (`rng.choice([1, -1], n_columns)`, here `1 - 2 * rng.integers(0, 2)`).
///
/// @return the sketch (device arrays, asynchronous on the current stream).
/// @throws cusci::value_error for n_rows <= 0 ("high <= 0", NumPy's message) or n_columns < 0.
///
/// SciPy: `scipy.linalg._sketches.cwt_matrix(n_rows, n_columns, rng)` (private in SciPy). Deviation:
/// cusci's generator (Philox) does not reproduce NumPy's PCG64 stream: the sketch has the same
/// distribution (independent uniform rows and fair signs), not the same values for a given seed.
cwt_sketch cwt_matrix(std::int64_t n_rows, std::int64_t n_columns, random::generator& rng);

/// Applies a given sketch: returns S @ input_matrix.
///
/// @param input_matrix  [..., n, d], any dtype, any layout.
/// @param sketch        S with n_columns == n (rows outside [0, n_rows) contribute nothing).
/// @return [..., n_rows, d], C-contiguous, dtype `promote_types(int64, input dtype)` (SciPy's product
///         with the int64 sketch: int64 for bool and signed integers up to int64, float64 for float16,
///         float32, float64 and uint64, complex128 for complex inputs).
///
/// Algorithm: S's rows are formed on the device (stable argsort of `rows`, searchsorted for the row
/// pointers); one GPU thread per output element sums signs[j] * A[b, j, col] over the columns j of S's
/// row in increasing j, the order of SciPy's sparse product, with no atomics (deterministic).
///
/// Stream: asynchronous on the current stream.
/// @throws cusci::index_error when input_matrix has ndim < 2 (SciPy's IndexError on `shape[-2]`).
/// @throws cusci::value_error when the sketch's length differs from n, rows / signs are not 1-D
///         integer arrays of equal length, n_rows <= 0, or a batch (ndim > 2) has size zero
///         ("`_batch_dot` does not support zero-size batches.").
ndarray clarkson_woodruff_transform(const ndarray& input_matrix, const cwt_sketch& sketch);

/// Clarkson-Woodruff transform (CountSketch) of the input: `cwt_matrix(sketch_size, n, rng)` applied
/// as above. Batched inputs [..., n, d] share one sketch, as SciPy.
///
/// @param input_matrix  [..., n, d], any dtype, any layout.
/// @param sketch_size   k, the number of rows of the sketch.
/// @param rng           the generator (its stream advances by the sketch's draws).
/// @return [..., k, d], dtype as the sketch overload.
///
/// Stream: asynchronous on the current stream.
/// @throws cusci::index_error for ndim < 2; cusci::value_error for sketch_size <= 0 ("high <= 0") or
///         a zero-size batch.
///
/// SciPy: `scipy.linalg.clarkson_woodruff_transform(input_matrix, sketch_size, rng)`. Deviations: the
/// sketch is drawn with cusci's Philox generator, so for a given seed the values differ from SciPy's
/// (same distribution: with high probability ||S A x|| = (1 +- eps) ||A x|| for k >= 2 / (eps^2 delta));
/// sparse inputs are not accepted (dense device arrays only).
ndarray clarkson_woodruff_transform(const ndarray& input_matrix, std::int64_t sketch_size, random::generator& rng);

/// As above with `random::default_rng(seed)` (SciPy's integer `rng` / legacy `seed`).
ndarray clarkson_woodruff_transform(const ndarray& input_matrix, std::int64_t sketch_size, std::uint64_t seed);

/// As above with a generator keyed by host entropy (SciPy's `rng=None`).
ndarray clarkson_woodruff_transform(const ndarray& input_matrix, std::int64_t sketch_size);

}  // namespace cusci::linalg

#pragma once
/// @file special_matrices.hpp
/// `scipy.linalg`'s special matrices (SciPy 1.18): toeplitz, circulant, hankel, companion,
/// convolution_matrix, fiedler, fiedler_companion, leslie, block_diag, hadamard, hilbert, invhilbert,
/// pascal, invpascal, helmert, dft and khatri_rao.
///
/// Where they run: every matrix is written by one GPU kernel launch that forms element (b, i, j) from
/// the inputs (a gather from the batch's input vectors or a closed formula of i, j and n), on the
/// current stream; the elementwise parts SciPy computes before placing values (companion's
/// -a[1:] / a[0], fiedler's |a_i - a_j|, khatri_rao's products) use core's ufuncs, as SciPy uses
/// NumPy's. block_diag copies each block into a zeroed result (one strided copy per block argument,
/// not per matrix). Results are new C-contiguous arrays; inputs may have any layout and are never
/// modified. Nothing synchronizes except where a function says so (companion and fiedler_companion
/// read the leading coefficients back to raise SciPy's ValueError).
///
/// Common exceptions: cusci::out_of_memory; cusci::value_error for batch shapes that do not broadcast
/// and inputs on different devices.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Toeplitz matrices T[..., i, j] = c[..., i - j] for i >= j, r[..., j - i] for j > i (the diagonal comes
/// from c, as SciPy).
/// @param c [..., M] first column (a 0-d array counts as length 1); any dtype.
/// @param r [..., N] first row; r[..., 0] is ignored. Default: conj(c) (a Hermitian Toeplitz matrix).
/// @return [batch..., M, N], batch = broadcast of c's and r's batch shapes; dtype
///         `np.result_type(c, r)`. M or N may be 0.
/// @throws cusci::value_error for batch shapes that do not broadcast, or a batch of size zero (SciPy:
///         "`_toeplitz` does not support zero-size batches.").
/// SciPy: `scipy.linalg.toeplitz(c, r=None)` (batched over both arguments, 1.18).
ndarray toeplitz(const ndarray& c, const std::optional<ndarray>& r = std::nullopt);

/// Circulant matrices C[..., i, j] = c[..., (i - j) mod N].
/// @param c [..., N] first column; any dtype; a zero-size batch gives an empty result.
/// @return [..., N, N], dtype of c. SciPy: `scipy.linalg.circulant(c)`.
ndarray circulant(const ndarray& c);

/// Hankel matrix H[i, j] = c[i + j] for i + j < M, else r[i + j - M + 1].
/// @param c first column, flattened (ravel) when it has more than one dimension; any dtype.
/// @param r last row, flattened likewise, r[0] ignored. Default: zeros like c.
/// @return [M, N] with M = c.size, N = r.size; dtype `np.result_type(c, r)`.
/// SciPy: `scipy.linalg.hankel(c, r=None)`. SciPy 1.18 flattens n-d inputs with a FutureWarning (it
/// will batch from 1.19); cusci flattens without a warning.
ndarray hankel(const ndarray& c, const std::optional<ndarray>& r = std::nullopt);

/// Companion matrices of polynomials: first row -a[..., 1:] / a[..., 0], ones on the first
/// subdiagonal.
/// @param a [..., N] coefficients, N >= 2; any dtype except bool.
/// @return [..., N-1, N-1]; dtype of `a / a[0]`: float64 for integers, else a's.
/// Stream: **synchronizes** once, to test a[..., 0] for zeros (skipped for an empty batch).
/// @throws cusci::value_error when N < 2 or some a[..., 0] is zero; cusci::type_error for bool (NumPy
///         has no negative of bool). SciPy: `scipy.linalg.companion(a)`.
ndarray companion(const ndarray& a);

/// Mode of `convolution_matrix`.
enum class convolution_mode { full, valid, same };
/// Parses SciPy's mode strings "full", "valid", "same". @throws cusci::value_error otherwise.
convolution_mode parse_convolution_mode(std::string_view mode);

/// Matrices A with A @ v == np.convolve(a, v, mode) for v of length n.
/// @param a [..., M] the kernel, M >= 1, at least 1-d; any dtype.
/// @param n length of v, n >= 1.
/// @param mode full: (M + n - 1, n); same: (max(M, n), n); valid: (max(M, n) - min(M, n) + 1, n).
/// @return [..., rows, n], dtype of a. Element (i, j) is a[i - j + t] (0 outside), t the trim offset.
/// @throws cusci::value_error for n <= 0, an empty a (also any zero-size batch), checked in SciPy's
///         order; cusci::index_error for a 0-d a (NumPy's "too many indices").
/// SciPy: `scipy.linalg.convolution_matrix(a, n, mode='full')` (n-d a through apply_along_axis).
ndarray convolution_matrix(const ndarray& a, std::int64_t n, convolution_mode mode = convolution_mode::full);

/// Fiedler matrices F[..., i, j] = |a[..., i] - a[..., j]|.
/// @param a [..., N] (a 0-d array counts as 1-d); any dtype except bool (NumPy's subtract refuses it).
/// @return [..., N, N], dtype of `abs(a - a)` (a's dtype; the real dtype for complex; integer
///         differences wrap as NumPy's). SciPy's special cases kept: when a has size 0 the result is
///         an empty (0, 0) float64 array, when it has size 1 it is [[0.]] float64, whatever the batch.
/// @throws cusci::type_error for bool. SciPy: `scipy.linalg.fiedler(a)`.
ndarray fiedler(const ndarray& a);

/// Fiedler companion matrices (pentadiagonal, same eigenvalues as `companion`).
/// @param a [..., N] coefficients; a[..., 0] != 0 when N > 2.
/// @return [..., N-1, N-1], dtype of `a / a[0]`; SciPy's special cases: N == 2 gives [[-a1/a0]] (no zero
///         test), N == 1 an empty (0, 0) array of a's dtype, N == 0 an empty array of a's dtype with
///         shape batch + (0,) (1-d for a 1-d a).
/// Stream: **synchronizes** once when N > 2 to test a[..., 0] for zeros.
/// @throws cusci::value_error "Leading coefficient is zero."; cusci::value_error for a zero-size batch of an
///         n-d a (NumPy's apply_along_axis). bool input divides to float64, as NumPy.
/// SciPy: `scipy.linalg.fiedler_companion(a)`.
ndarray fiedler_companion(const ndarray& a);

/// Leslie matrices: first row f, subdiagonal s, zeros elsewhere.
/// @param f [..., N] fecundity coefficients (0-d counts as 1-d). @param s [..., N-1] survival.
/// @return [batch..., N, N], batch = broadcast of the batch shapes, dtype `result_type(f, s)`.
/// @throws cusci::value_error when s's length is not N - 1, when it is 0, or for a zero-size batch.
/// SciPy: `scipy.linalg.leslie(f, s)` (batched, 1.18).
ndarray leslie(const ndarray& f, const ndarray& s);

/// Block diagonal matrices from the given arrays (each at least 2-d; 0-d is (1, 1), 1-d (1, K)).
/// @param arrs arrays [..., m_k, n_k]; their batch shapes broadcast. No array: a (1, 0) float64 array.
/// @return [batch..., sum m_k, sum n_k], dtype `np.result_type` of all, zeros outside the blocks.
/// SciPy: `scipy.linalg.block_diag(*arrs)` (batched, 1.18).
ndarray block_diag(const std::vector<ndarray>& arrs);

/// Hadamard matrix of order n (Sylvester's construction): H[i, j] = (-1)^popcount(i & j).
/// @param n a power of two, >= 1. @param dtype the result's dtype (SciPy: `dtype=int`, int64); unsigned
///        dtypes hold -1 wrapped as NumPy's negative does.
/// @return [n, n] of `dtype`.
/// @throws cusci::value_error when n is not a positive power of 2; cusci::type_error for bool with n > 1.
/// SciPy: `scipy.linalg.hadamard(n, dtype=int)`.
ndarray hadamard(std::int64_t n, dtype dtype = dtype::int64);

/// Hilbert matrix H[i, j] = 1 / (i + j + 1), float64 [n, n]; n <= 0 gives (0, 0) (SciPy's behaviour).
/// SciPy: `scipy.linalg.hilbert(n)`.
ndarray hilbert(std::int64_t n);

/// Inverse of the Hilbert matrix of order n (closed form with binomial coefficients).
/// @param exact false: float64; true: int64, exact, for n <= 14.
/// @throws cusci::value_error for n < 0; cusci::not_implemented_error for exact with n > 14 (SciPy returns
///         Python integers in an object array, which cusci has no dtype for).
/// SciPy: `scipy.linalg.invhilbert(n, exact=False)`. exact=False evaluates the binomials by products in
/// float64 (SciPy: scipy.special.comb, float); they agree to a few ulps per factor.
ndarray invhilbert(std::int64_t n, bool exact = false);

/// Which Pascal matrix: `symmetric` P = L L^T, `lower` L[i, j] = C(i, j), `upper` L^T.
enum class pascal_kind { symmetric, lower, upper };
/// Parses "symmetric", "lower", "upper". @throws cusci::value_error otherwise (SciPy's message).
pascal_kind parse_pascal_kind(std::string_view kind);

/// Pascal matrix of order n: P[i, j] = C(i + j, i) (symmetric), C(i, j) (lower), C(j, i) (upper).
/// @param exact true: uint64, exact, n <= 34; false: float64.
/// @throws cusci::value_error for n < 0 with exact (false gives (0, 0), as SciPy);
///         cusci::not_implemented_error for exact with n >= 35 (SciPy: object array of Python ints).
/// SciPy: `scipy.linalg.pascal(n, kind='symmetric', exact=True)`. exact=False computes C(i + j, i)
/// directly (SciPy: the float product L @ L^T); equal up to rounding.
ndarray pascal(std::int64_t n, pascal_kind kind = pascal_kind::symmetric, bool exact = true);

/// Inverse of the Pascal matrix of order n.
/// @param exact true: int64, exact (symmetric: n <= 34; lower/upper: n <= 34); false: float64.
/// @throws cusci::value_error for n < 0; cusci::not_implemented_error for exact with n >= 35 (SciPy:
///         object array). SciPy: `scipy.linalg.invpascal(n, kind='symmetric', exact=True)`.
ndarray invpascal(std::int64_t n, pascal_kind kind = pascal_kind::symmetric, bool exact = true);

/// Helmert matrix of order n: row 0 is 1/sqrt(n); row i > 0 has 1/sqrt(i(i+1)) left of the diagonal and
/// -i/sqrt(i(i+1)) on it.
/// @param full true: [n, n]; false (SciPy's default): rows 1..n-1, [n-1, n]. float64.
/// @throws cusci::value_error for n < 0; cusci::index_error for n == 0 (SciPy's IndexError).
/// SciPy: `scipy.linalg.helmert(n, full=False)`.
ndarray helmert(std::int64_t n, bool full = false);

/// Scaling of `dft`: none, 1/sqrt(n), 1/n.
enum class dft_scale { none, sqrtn, n };
/// Parses SciPy's scale strings "sqrtn", "n" (and "none"/"" for None). @throws cusci::value_error.
dft_scale parse_dft_scale(std::string_view scale);

/// DFT matrix m[i, j] = exp(-2 pi i (i j mod n) / n) (scaled), complex128 [n, n]; n <= 0 gives (0, 0).
/// @throws cusci::value_error for n < 0 with sqrtn (SciPy: math.sqrt's ValueError).
/// SciPy: `scipy.linalg.dft(n, scale=None)`. SciPy forms omega^j by complex powers; cusci takes the
/// angle of (i j mod n) directly (sincospi), which is at least as accurate; equal up to rounding.
ndarray dft(std::int64_t n, dft_scale scale = dft_scale::none);

/// Khatri-Rao (column-wise Kronecker) products: c[..., i * N + k, j] = a[..., i, j] * b[..., k, j].
/// @param a [..., M, K]. @param b [..., N, K]; batch shapes broadcast.
/// @return [batch..., M * N, K], dtype `result_type(a, b)` (a's dtype when a or b is empty, as SciPy).
/// @throws cusci::value_error when a or b has fewer than 2 dimensions, the column counts differ, or
///         the broadcast batch has size zero. SciPy: `scipy.linalg.khatri_rao(a, b)` (batched, 1.18).
ndarray khatri_rao(const ndarray& a, const ndarray& b);

}  // namespace cusci::linalg

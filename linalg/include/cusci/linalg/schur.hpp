#pragma once
/// @file schur.hpp
/// The schur family of `cusci::linalg` (`scipy.linalg`): `schur`, `rsf2csf`, `hessenberg`,
/// `matrix_balance`, `qz`, `ordqz`, `cdf2rdf`, batched over leading dimensions as SciPy 1.18 does
/// (docs/linalg-schur.md).
///
/// Where the work runs: inputs are read by a GPU kernel (any layout, broadcasting of batch dimensions,
/// the dtype conversion and a fused finiteness check) into column-major pool buffers of the LAPACK type.
/// cuSOLVER has no Hessenberg reduction, real Schur form or QZ, and the Francis QR / QZ iterations and
/// the reorderings are sequential: `schur`, `hessenberg`, `matrix_balance`, `qz` and `ordqz` copy the
/// gathered matrices once to pinned host memory, run reference LAPACK (Debian's liblapack) per matrix on
/// host threads (std::thread over the batch), and copy the results back to new device arrays.
/// `rsf2csf` and `cdf2rdf` run entirely on the GPU (one kernel each over the whole batch).
/// Each function's comment says which LAPACK routines it uses; nothing falls back silently.
///
/// dtypes (SciPy's LAPACK type): float32, float64, complex64, complex128 are kept. `schur` converts every
/// integer type to int64 first (float64), bool and float16 compute in float32; `hessenberg`,
/// `matrix_balance`, `qz`, `ordqz`: bool, float16 and the integers of at most 16 bits compute in float32,
/// the other integers in float64. Complex output of real input (output "complex"): complex128 for int32,
/// int64 and float64 input (SciPy's `_double_precision`), complex64 otherwise.
///
/// Layout of results: matrices are Fortran-ordered per matrix (strides (..., itemsize, n * itemsize)), as
/// LAPACK writes them and as SciPy returns them for a single matrix; batch dimensions are outermost.

#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

// --- schur -----------------------------------------------------------------------------------------

/// Keyword arguments of `schur` (SciPy's names, order and defaults).
struct schur_options {
  /// "real" | "r" | "complex" | "c": real (quasi-triangular) or complex Schur form; ignored for complex a.
  std::string output = "real";
  /// SciPy's lwork: validated (nullopt, -1 or >= max(1, 3n)), otherwise ignored (LAPACK's optimum is used).
  std::optional<std::int64_t> lwork;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to its inputs.
  bool overwrite_a = false;
  /// "" (None) | "lhp" | "rhp" | "iuc" | "ouc": eigenvalues moved to the top left (see sort_fn).
  std::string sort;
  /// SciPy's callable sort (used when set, instead of `sort`): true selects the eigenvalue. It receives
  /// the eigenvalue as a complex number (for a real Schur form, wr + i wi: SciPy's two-argument callable).
  /// Called on the host, from several threads at once for a batch: it must be thread-safe.
  std::function<bool(std::complex<double>)> sort_fn;
  /// Check that a holds only finite numbers.
  bool check_finite = true;
};

/// Result of `schur`.
struct schur_result {
  ndarray t;     ///< [..., N, N] (quasi-)upper triangular Schur form.
  ndarray z;     ///< [..., N, N] unitary (orthogonal) with a = z t z^H.
  ndarray sdim;  ///< int64 of the batch shape (0-d for one matrix) when a sort was asked for, else an
                 ///< empty (size-0) array. A conjugate pair selected by either member counts 2.
};

/// Schur decomposition a = z t z^H of a square matrix (or a batch).
///
/// @param a [..., N, N], any dtype and layout.
/// @return t, z of the computation dtype (complex for output "complex"), Fortran-ordered; sdim as above.
///         An (..., 0, 0) input gives empty results (sdim 0 when sorted).
///
/// Where: input gathered on the GPU (conversion, layout, finiteness check); per matrix on the host
/// (threads over the batch): LAPACK ?gees (inside: permutation ?gebal 'P', Hessenberg reduction ?gehrd,
/// ?orghr, Francis QR ?hseqr, reordering ?trsen for sort); results copied back to the device.
/// Stream: **synchronizes** (the host part waits for the gathered input; results are copied back).
///
/// @throws cusci::value_error: output not one of the four strings ("argument must be 'real', or
///         'complex'"); a not square / ndim < 2 ("expected square matrix"); an unknown sort string; a bad
///         lwork; non-finite input with check_finite.
/// @throws cusci::linalg::lin_alg_error: QR failed ("Schur form not found. Possibly ill-conditioned."),
///         reordering failed ("Eigenvalues could not be separated for reordering."), or rounding broke the
///         sort ("Leading eigenvalues do not satisfy sort condition.").
///
/// SciPy: `scipy.linalg.schur` (1.18). Deviations: overwrite_a ignored; lwork only validated; sdim is an
/// int64 array (a 0-d one for a single matrix) instead of a Python int.
schur_result schur(const ndarray& a, const schur_options& opts = {});

// --- rsf2csf -------------------------------------------------------------------------------------

/// Result of `rsf2csf`.
struct rsf2csf_result {
  ndarray t;  ///< [..., N, N] complex upper triangular.
  ndarray z;  ///< [..., N, N] complex unitary.
};

/// Converts a real Schur form (t, z) to the complex Schur form (SciPy's Givens sweep from the bottom).
///
/// @param t [..., N, N] real (quasi-triangular) or complex; @param z [..., N, N]; batch dimensions
///        broadcast; dtypes int32, int64, float32, float64, complex64, complex128 (SciPy's _commonType).
///        The result dtype is complex64 when both are float32 / complex64, else complex128.
/// Where: GPU, one thread block per matrix (the sweep over m is sequential, the row and column updates
/// parallel). Stream: enqueued on the current stream; synchronizes only to read the finiteness flag when
/// check_finite.
/// @throws cusci::type_error: another dtype (SciPy: KeyError).
/// @throws cusci::value_error: t or z not square ("Input 'T' must be square." / "Input 'Z' must be
///         square."), different orders ("Input array shapes must match: ..."), non-finite input with
///         check_finite.
/// SciPy: `scipy.linalg.rsf2csf` (1.18); the 2x2 blocks are detected with float64's eps as SciPy does.
rsf2csf_result rsf2csf(const ndarray& t, const ndarray& z, bool check_finite = true);

// --- hessenberg ----------------------------------------------------------------------------------

/// Keyword arguments of `hessenberg` (SciPy's names, order and defaults).
struct hessenberg_options {
  bool calc_q = false;        ///< Also return q.
  bool overwrite_a = false;   ///< Accepted and ignored.
  bool check_finite = true;   ///< Check that a holds only finite numbers.
};

/// Result of `hessenberg`.
struct hessenberg_result {
  ndarray h;  ///< [..., N, N] upper Hessenberg.
  ndarray q;  ///< [..., N, N] unitary with a = q h q^H; default-constructed ndarray unless calc_q.
};

/// Hessenberg form a = q h q^H (LAPACK ?gehrd + ?orghr/?unghr on the host, per matrix, threads over the
/// batch; input gathered on the GPU). N <= 2: h = a (converted), q = identity.
/// Stream: **synchronizes**.
/// @throws cusci::value_error: a not square ("expected square matrix"); non-finite input with
///         check_finite ("array must not contain infs or NaNs").
/// SciPy: `scipy.linalg.hessenberg` (1.18). Deviation: for N <= 2 SciPy returns a unchanged (integer
/// dtype kept) and q as float64; cusci returns both in the computation dtype.
hessenberg_result hessenberg(const ndarray& a, const hessenberg_options& opts = {});

// --- matrix_balance -----------------------------------------------------------------------------

/// Keyword arguments of `matrix_balance` (SciPy's names, order and defaults).
struct matrix_balance_options {
  bool permute = true;        ///< Permute to isolate eigenvalues.
  bool scale = true;          ///< Scale by powers of 2.
  bool separate = false;      ///< Return (scale, perm) instead of the transformation matrix t.
  bool overwrite_a = false;   ///< Accepted and ignored.
};

/// Result of `matrix_balance`: b = t^-1 a t.
struct matrix_balance_result {
  ndarray b;      ///< [..., N, N] balanced matrix.
  ndarray t;      ///< [..., N, N] float64 transformation (when !separate; else default-constructed).
  ndarray scale;  ///< [..., N] float64 scaling (when separate; else default-constructed).
  ndarray perm;   ///< [..., N] int64 permutation (when separate; else default-constructed).
};

/// Balancing with LAPACK ?gebal (job 'B', 'P', 'S' or 'N' from permute / scale) on the host per matrix
/// (threads over the batch; input gathered on the GPU, one copy each way). b has the computation dtype;
/// t (SciPy: np.diag(scaling)[iperm, :]) and scale are float64, perm int64. a is made at least 2-D
/// (SciPy's atleast_2d). Always checks finiteness (as SciPy).
/// Stream: **synchronizes**.
/// @throws cusci::value_error: a not square ("The data matrix for balancing should be square."), non-finite.
/// SciPy: `scipy.linalg.matrix_balance` (1.18).
matrix_balance_result matrix_balance(const ndarray& a, const matrix_balance_options& opts = {});

// --- qz / ordqz ----------------------------------------------------------------------------------

/// Keyword arguments of `qz` (SciPy's names, order and defaults).
struct qz_options {
  std::string output = "real";          ///< "real" | "r" | "complex" | "c".
  std::optional<std::int64_t> lwork;    ///< Validated, otherwise ignored.
  std::string sort;                     ///< Must be "" (None): SciPy 1.18 raises for any sort in qz.
  bool overwrite_a = false;             ///< Accepted and ignored.
  bool overwrite_b = false;             ///< Accepted and ignored.
  bool check_finite = true;
};

/// Result of `qz`: a = q aa z^H, b = q bb z^H.
struct qz_result {
  ndarray aa, bb, q, z;  ///< [..., N, N] each.
};

/// Generalized Schur (QZ) decomposition of a pair of square matrices (batch dimensions broadcast).
/// Where: inputs gathered on the GPU; LAPACK ?gges per pair on the host (threads over the batch).
/// Stream: **synchronizes**.
/// @throws cusci::value_error: output invalid; sort given ("The 'sort' input of qz() has to be None ...");
///         shapes not square and equal ("Array dimensions must be square and agree"); non-finite input.
/// @throws cusci::linalg::lin_alg_error: ?gges info n+1 ("Something other than QZ iteration failed").
///         An info in 1..n (SciPy: LinAlgWarning) is reported as lin_alg_error too (cusci has no warnings).
/// SciPy: `scipy.linalg.qz` (1.18).
qz_result qz(const ndarray& a, const ndarray& b, const qz_options& opts = {});

/// Keyword arguments of `ordqz` (SciPy's names, order and defaults).
struct ordqz_options {
  std::string sort = "lhp";  ///< "lhp" | "rhp" | "iuc" | "ouc" (SciPy's alpha/beta conventions).
  /// Callable sort (used when set): true selects the eigenvalue alpha / beta. Called on the host,
  /// possibly from several threads at once.
  std::function<bool(std::complex<double> alpha, std::complex<double> beta)> sort_fn;
  std::string output = "real";
  bool overwrite_a = false, overwrite_b = false;
  bool check_finite = true;
};

/// Result of `ordqz`.
struct ordqz_result {
  ndarray aa, bb;     ///< [..., N, N] reordered generalized Schur form.
  ndarray alpha;      ///< [..., N] complex (complex64 for single precision).
  ndarray beta;       ///< [..., N] real for real input, complex otherwise.
  ndarray q, z;       ///< [..., N, N].
};

/// QZ decomposition with reordering: the selected eigenvalues first (LAPACK ?gges, then ?tgsen with
/// ijob = 0, per pair on the host; inputs gathered on the GPU). Stream: **synchronizes**.
/// @throws as `qz`, plus cusci::value_error for an unknown sort string and when ?tgsen fails ("Reordering
///         of (A, B) failed because ...", SciPy's message).
/// SciPy: `scipy.linalg.ordqz` (1.18).
ordqz_result ordqz(const ndarray& a, const ndarray& b, const ordqz_options& opts = {});

// --- cdf2rdf -------------------------------------------------------------------------------------

/// Result of `cdf2rdf`.
struct cdf2rdf_result {
  ndarray wr;  ///< [..., N, N] real block-diagonal eigenvalue matrix.
  ndarray vr;  ///< [..., N, N] real eigenvectors (C order).
};

/// Complex diagonal form (w, v) to real block-diagonal form (wr, vr) with a vr = vr wr.
/// @param w [..., N] eigenvalues (conjugate pairs adjacent, as eig returns them); @param v [..., N, N].
/// Where: GPU (one kernel per batch: the pairing scan per matrix, then the element-wise transform).
/// Stream: **synchronizes** once (the pairing check).
/// @throws cusci::value_error: SciPy's shape messages; complex eigenvalues without conjugate partners
///         ("expected complex-conjugate pairs of eigenvalues"); non-finite input.
/// SciPy: `scipy.linalg.cdf2rdf` (1.18); wr has w's real dtype, vr v's real dtype promoted with float64's
/// complex product (float64).
cdf2rdf_result cdf2rdf(const ndarray& w, const ndarray& v);

}  // namespace cusci::linalg

#pragma once
/// @file matfuncs.hpp
/// The matrix-function family of `cusci::linalg` (`scipy.linalg`): `expm`, `cosm`, `sinm`, `tanm`,
/// `coshm`, `sinhm`, `tanhm`, `expm_frechet`, `expm_cond`, batched over leading dimensions as SciPy 1.18.
///
/// Where the work runs: `expm` evaluates Al-Mohy and Higham's (2009) scaling and squaring on the GPU: the
/// matrix powers and the Pade products are cuBLAS strided batched GEMMs, SciPy's norm tests that choose
/// the Pade order m and the scaling s run in a kernel (one block a matrix, the 27-step chain |A|^k 1 on
/// cuBLAS batched GEMVs), the one solve (V - U) R = U goes through the lu family's batched engine
/// (cuBLAS getrf/getrsBatched, or cuSOLVER Xgetrf/Xgetrs for one matrix), and the squarings are batched
/// GEMMs again. The host reads the per-matrix (m, s, structure) back once per call (one stream
/// synchronization) and launches only the products the batch needs. The trigonometric and hyperbolic
/// functions are SciPy's formulas over `expm` (both exponentials in one batched call) and cusci's
/// ndarray arithmetic; `tanm`/`tanhm` finish with `cusci::linalg::solve`.
///
/// dtypes: float32, float64, complex64, complex128 compute in their own precision; integers and bool in
/// float64, float16 in float32 (SciPy's promotion; SciPy's DeprecationWarning for bool/float16 is not
/// issued). Inputs may have any layout (C, F, strided, broadcast); results are new C-contiguous arrays.
///
/// Not provided yet: `sqrtm`, `logm`, `funm`, `signm`, `fractional_matrix_power` (they need a Schur
/// decomposition, which cusci does not have yet).

#include <string>
#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Matrix exponential of one matrix or a batch.
///
/// @param A [..., N, N], any dtype, any layout. A 0-d array or a 1-d array of length 1 is a scalar x and
///          gives [[exp(x)]] (shape (1, 1)).
/// @return exp(A) with A's shape, C-contiguous. dtype: float64 for integers and bool, float32 for
///         float16, else A's dtype; (..., 1, 1) inputs give NumPy's `np.exp(A)` (dtype included: float16
///         for bool/int8/uint8, float32 for int16/uint16); a scalar input gives float64 (complex128 for
///         complex inputs, float16 for bool), as SciPy's `np.exp(a.item())`.
///
/// Algorithm (SciPy 1.18.1's `matrix_exponential`, per matrix): diagonal matrices give exp of the
/// diagonal; otherwise the Pade order m in {3, 5, 7, 9, 13} and the scaling s come from SciPy's tests
/// on ||A^4||, ||A^6||, ||A^8||, ||A^10|| and the chain || |A|^k 1 ||_inf (k = 1, 7, 11, 15, 19, 27);
/// U, V from SciPy's polynomials, R = I + 2 (V - U)^-1 U, then s squarings; for upper or lower
/// triangular matrices each squaring is followed by Fragment 2.1 of Al-Mohy and Higham (2009) (exact
/// diagonal and first off-diagonal). Orders 400 and above use, as SciPy does, the infinity norms of the
/// 8 x 8 and 10 x 10 column-major blocks holding A[0:64, 0] and A[0:100, 0] for "d8" and "d10".
///
/// Stream: enqueued on the current stream; **synchronizes** once (the per-matrix order and scaling).
/// (1, 1), empty and scalar inputs do not synchronize.
///
/// @throws cusci::linalg::lin_alg_error "The input array must be at least two-dimensional" (ndim < 2
///         with more than one element) and "Last 2 dimensions of the array must be square".
///
/// SciPy: `scipy.linalg.expm` (1.18). Deviations: the norm chain |A|^k 1 and the row sums run in float64
/// for every dtype (SciPy: in the input's precision), and SciPy's ?lacn2 estimates of the two block
/// norms (n >= 400) are exact norms here; either can change m or s only when a test sits exactly on its
/// threshold. The solve's rounding differs from LAPACK's (cuBLAS/cuSOLVER LU).
ndarray expm(const ndarray& A);

/// Matrix cosine, SciPy's formula: real A: `expm(1j*A).real`; complex A: `0.5*(expm(1j*A) + expm(-1j*A))`.
/// @param A [..., N, N] (ndim >= 2), any dtype and layout.
/// @return A's shape; dtype: the real (real A) or complex dtype of `1j*A` (float32/float16 -> float32,
///         other real types -> float64; complex dtypes kept). Stream: synchronizes once (expm).
/// @throws cusci::value_error "expected square array_like input" (ndim < 2 or not square); for a batch
///         with a zero-size batch dimension ("`cosm` does not support zero-size batches").
/// SciPy: `scipy.linalg.cosm` (1.18); both exponentials are computed in one batched expm call.
ndarray cosm(const ndarray& A);

/// Matrix sine: real A: `expm(1j*A).imag`; complex A: `-0.5j*(expm(1j*A) - expm(-1j*A))`. Shapes, dtypes,
/// stream behaviour and exceptions as `cosm`. SciPy: `scipy.linalg.sinm` (1.18).
ndarray sinm(const ndarray& A);

/// Matrix tangent, `solve(cosm(A), sinm(A))` (the exponentials computed once). Shapes and dtypes as
/// `cosm`. Stream: synchronizes (expm, then `cusci::linalg::solve`).
/// @throws as `cosm`; cusci::linalg::lin_alg_error when cosm(A) is singular and cusci::value_error when
///         it is not finite (from `cusci::linalg::solve`, whose message names it).
/// SciPy: `scipy.linalg.tanm` (1.18).
ndarray tanm(const ndarray& A);

/// Hyperbolic matrix cosine, `0.5*(expm(A) + expm(-A))`. @return A's shape, expm's dtype of A.
/// Stream: synchronizes once. @throws as `cosm`; cusci::type_error for bool A (NumPy's boolean negative).
/// SciPy: `scipy.linalg.coshm` (1.18); -A follows NumPy (unsigned integers wrap around).
ndarray coshm(const ndarray& A);

/// Hyperbolic matrix sine, `0.5*(expm(A) - expm(-A))`. As `coshm`. SciPy: `scipy.linalg.sinhm` (1.18).
ndarray sinhm(const ndarray& A);

/// Hyperbolic matrix tangent, `solve(coshm(A), sinhm(A))`. As `coshm`, with `tanm`'s solve.
/// SciPy: `scipy.linalg.tanhm` (1.18).
ndarray tanhm(const ndarray& A);

/// `expm_frechet`'s algorithms.
enum class expm_frechet_method {
  SPS,           ///< scaling-Pade-squaring (Al-Mohy and Higham 2009), SciPy's default (method=None)
  blockEnlarge,  ///< expm of [[A, E], [0, A]]
};
/// Parses SciPy's method strings ("SPS", "blockEnlarge").
/// @throws cusci::value_error "Unknown implementation <s>" for any other string.
expm_frechet_method parse_expm_frechet_method(std::string_view s);

/// Keyword arguments of `expm_frechet`, with SciPy's names and defaults.
struct expm_frechet_options {
  expm_frechet_method method = expm_frechet_method::SPS;
  /// Also return expm(A).
  bool compute_expm = true;
  /// Check that A and E hold only finite numbers.
  bool check_finite = true;
};

/// What `expm_frechet` returns. SciPy returns the pair (expm_A, expm_frechet_AE) with `compute_expm` and
/// expm_frechet_AE alone without it; cusci always returns this struct, and without `compute_expm` its
/// `expm_A` is a default-constructed `ndarray` (shape (0,), no memory): nothing was computed for it.
struct expm_frechet_result {
  ndarray expm_A;
  ndarray expm_frechet_AE;
};

/// Frechet derivative of the matrix exponential of A in the direction E.
///
/// @param A [..., N, N], E [..., N, N]: any dtype and layout; batch dimensions broadcast (NumPy's rules).
/// @return expm_A (without `compute_expm`: a default `ndarray`, see expm_frechet_result) and
///         expm_frechet_AE, shape batch + (N, N), C-contiguous. dtype: SPS: expm_A float64, complex128
///         when A is complex (it depends on A alone, so a real A with a complex E gives float64, as
///         SciPy's); expm_frechet_AE float64, complex128 when A or E is complex (SciPy's float64 identity
///         promotes every dtype); blockEnlarge: both in expm's dtype of `result_type(A, E)` (the blocks
///         of one exponential).
///
/// Algorithm: SPS: SciPy's `expm_frechet_algo_64` per matrix (order from the 1-norm against
/// ell_table_61, or order 13 with s = ceil(log2(||A||_1 / 4.74)) scalings), its products batched on
/// cuBLAS, one LU factorization and two solves (lu family's engine), s coupled squarings;
/// blockEnlarge: `expm` of the 2N x 2N block matrix.
///
/// Stream: **synchronizes**: with `check_finite` once for the check, and once for the norms (SPS) or
/// expm's read (blockEnlarge).
///
/// @throws cusci::value_error "array must not contain infs or NaNs" (check_finite), "expected A to be a
///         square matrix", "expected E to be a square matrix", "expected A and E to be the same shape",
///         batch dimensions that do not broadcast, a zero-size batch ("`expm_frechet` does not support
///         zero-size batches"), and (SPS, check_finite off) a NaN or infinite 1-norm ("cannot convert
///         float NaN to integer", Python's int()).
///
/// SciPy: `scipy.linalg.expm_frechet` (1.18). Deviation: SciPy's SPS computes its order-13 branch
/// partly in float32 for float32 inputs (its results are float64 nonetheless); cusci computes in float64
/// throughout.
expm_frechet_result expm_frechet(const ndarray& A, const ndarray& E, const expm_frechet_options& opts = {});

/// Keyword arguments of `expm_cond`.
struct expm_cond_options {
  /// Check that A holds only finite numbers.
  bool check_finite = true;
};

/// Relative condition number of the matrix exponential in the Frobenius norm:
/// ||K||_2 ||A||_F / ||expm(A)||_F, K the N^2 x N^2 Kronecker form of the Frechet derivative.
///
/// @param A [..., N, N], any dtype and layout, N >= 1.
/// @return float64 device array of shape batch (0-d for one matrix).
///
/// Algorithm: SciPy's: the N^2 Frechet derivatives in the directions e_i e_j^T (SPS, computed as one
/// batch), ||K||_2 the largest singular value from cuSOLVER Xgesvd (values only; one call per matrix
/// of the batch), the Frobenius norms on the device. Cost O(N^5) and memory about 20 N^4 elements per
/// matrix, as SciPy's.
///
/// Stream: **synchronizes** (expm, the derivatives' norms, and the finiteness check).
///
/// @throws cusci::value_error "array must not contain infs or NaNs" (check_finite), "expected a square
///         matrix", "need at least one array to concatenate" (N = 0, SciPy's np.vstack), a zero-size
///         batch ("`expm_cond` does not support zero-size batches").
///
/// SciPy: `scipy.linalg.expm_cond` (1.18); the Frobenius norms are accumulated in float64.
ndarray expm_cond(const ndarray& A, const expm_cond_options& opts = {});

}  // namespace cusci::linalg

#pragma once
/// @file ldl.hpp
/// `cusci::linalg::ldl`: the Bunch-Kaufman (LDL^T / LDL^H) factorization of symmetric or Hermitian
/// matrices, batched over leading dimensions (`scipy.linalg.ldl`).

#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Keyword arguments of `ldl`, with SciPy's names and defaults.
struct ldl_options {
  /// Lower (default) or upper triangular outer factors; also the triangle of `a` that is read.
  bool lower = true;
  /// Complex input: `a = a^H` (true, ?hetrf) or `a = a^T` (false, ?sytrf). No effect for real input.
  bool hermitian = true;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers (the whole array, as SciPy).
  bool check_finite = true;
};

/// The three results of `ldl`, in SciPy's order.
struct ldl_result {
  ndarray lu;    ///< [..., N, N] the (row-permuted) unit triangular outer factor
  ndarray d;     ///< [..., N, N] the block diagonal factor (1x1 and 2x2 blocks)
  ndarray perm;  ///< [..., N] int64: lu[perm, :] is triangular
};

/// Bunch-Kaufman factorization a = lu @ d @ lu^H (Hermitian) or lu @ d @ lu^T (symmetric), with SciPy's
/// post-processing of LAPACK's pivots.
///
/// @param a [..., N, N] (a 0-d array counts as (1, 1); a 1-d array of length M as (1, M), which is not
///          square unless M = 1). Only the triangle chosen by `lower` is read (the whole array is checked
///          for finiteness). dtype: float32, float64, complex64, complex128 kept; bool, int8, uint8, int16,
///          uint16 (and float16) computed in float32, other integers in float64 (SciPy's LAPACK type
///          choice). Any layout.
/// @return {lu, d, perm}: lu and d of a's shape in the computation dtype, perm int64 of shape
///         a.shape[:-1]; new C-contiguous arrays.
///
/// Algorithm: `a` is gathered into column-major pool buffers on the device (finiteness check fused);
/// the factorization is ?sytrf's Bunch-Kaufman: cuSOLVER `cusolverDn<t>sytrf` on the device for real
/// dtypes and for complex with `hermitian = false`; **complex with `hermitian = true` runs LAPACK's
/// ?hetrf on the host** (cuSOLVER has no Hermitian indefinite factorization): the matrices are copied to
/// the host, factored one after the other, and copied back. SciPy's post-processing
/// (`_ldl_sanitize_ipiv`, `_ldl_get_d_and_l`, `_ldl_construct_tri_factor`, and `argsort` of the
/// permutation) runs on the device, one thread block per matrix: one thread decodes the pivots (a
/// sequential recurrence), the block extracts d and the triangle and applies the row interchanges
/// column-parallel.
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the finiteness and
/// pivot-validity flags (and, for the Hermitian path, around the host factorization).
///
/// @throws cusci::value_error when `a` is not square ("The input array \"a\" should be square."), when a
///         batch is empty (SciPy: "`ldl` does not support zero-size batches."), with `check_finite` when
///         `a` holds inf or NaN, or when the pivots cannot be parsed (SciPy's "invalid entries" error;
///         does not happen with LAPACK's output).
/// A "ComplexWarning" (`cusci/warnings.hpp`) is issued, as SciPy, when `hermitian` complex input has a
/// nonzero imaginary part on its diagonal (those parts are ignored).
///
/// SciPy: `scipy.linalg.ldl` (1.18). Deviations: `overwrite_a` is ignored; for a batch the device
/// factorization is one cuSOLVER call per matrix (cuSOLVER has no batched ?sytrf); cuSOLVER's blocked
/// ?sytrf makes LAPACK's pivot choices, so lu, d and perm agree with SciPy's except where two pivot
/// candidates tie to rounding.
ldl_result ldl(const ndarray& a, const ldl_options& opts = {});

}  // namespace cusci::linalg

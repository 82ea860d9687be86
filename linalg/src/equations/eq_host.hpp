#pragma once
// Internal helpers of the equations and matfuncs_schur families (host-only header): SciPy's dtype rules
// for the Schur-based functions, batch broadcasting, the host staging of C-order matrix batches, and the
// LAPACK ?trsyl calls (the system LAPACK, linked into cusci_linalg by the schur family's fragment).

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg::detail {

using cplx = std::complex<double>;

/// The dtype the Schur-based functions compute in for one input (SciPy's schur/trsyl reading of it):
/// float32/complex64/float64/complex128 kept, float16 -> float32, bool and integers -> float64.
dtype schur_dtype(dtype t);
/// The common type of several inputs: complex if any is, single precision only if all are.
dtype schur_dtype(std::initializer_list<dtype> ts);
/// float32 <-> complex64, float64 <-> complex128.
dtype complex_of(dtype t);
dtype real_of(dtype t);
/// shape[:-2] of an array with ndim >= 2, else ().
shape_t batch_shape(const ndarray& a);
/// x cast to dt (no copy when it already has it).
ndarray cast(const ndarray& x, dtype dt);
/// conj(x)^T over the last two axes (a view for real dtypes, a new array for complex ones).
ndarray ctrans(const ndarray& x);
/// The matrices of `x` (dtype float64 or complex128 after a cast), copied to the host, each stored
/// column-major: element (b, i, j) at [b * rows * cols + j * rows + i]. Synchronizes.
template <class T>
std::vector<T> to_host_colmajor(const ndarray& x);
/// Inverse of to_host_colmajor: a new C-contiguous device array of shape `shape` (batch + (rows, cols))
/// and dtype float64/complex128 from column-major host matrices.
template <class T>
ndarray from_host_colmajor(const std::vector<T>& h, const shape_t& shape);

/// LAPACK ?trsyl (double precision): op(A) X + isgn X op(B) = scale C for upper (quasi-)triangular A
/// (m x m) and B (n x n), column-major with leading dimensions m, n, m; C is overwritten by X.
/// tranb: 'N', 'T' (real) or 'C'. Returns info; `scale` receives LAPACK's scale factor.
int trsyl(char trana, char tranb, int isgn, int m, int n, const double* A, const double* B, double* C, double& scale);
int trsyl(char trana, char tranb, int isgn, int m, int n, const cplx* A, const cplx* B, cplx* C, double& scale);

/// "cusci::linalg::<name>: " + msg.
std::string msg(const std::string& name, const std::string& m);
/// The broadcast batch of several arrays (each with ndim >= core ndim 2), SciPy's _apply_over_batch:
/// @throws cusci::value_error when the batches do not broadcast, or when the batch is non-trivial and of
///         size zero ("`<scipy_name>` does not support zero-size batches.").
shape_t common_batch(const std::vector<const ndarray*>& xs, const std::string& name, const std::string& scipy_name);
/// Throws value_error "array must not contain infs or NaNs" when x holds a non-finite value (reads
/// one flag back: synchronizes).
void check_finite(const ndarray& x, const std::string& name);

}  // namespace cusci::linalg::detail

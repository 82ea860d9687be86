#pragma once
// Host triangular kernels of the matfuncs_schur family (host-only header, tri_host.cpp): upper
// triangular n x n complex matrices stored column-major (element (i, j) at [j * n + i]), complex double.
// These are the sequential parts of SciPy 1.18.1's sqrtm, logm (_matfuncs_inv_ssq._logm_triu),
// fractional_matrix_power (_remainder_matrix_power_triu) and funm (_funm_loops).

#include <complex>
#include <cstdint>
#include <vector>

namespace cusci::linalg::detail {

using cmat = std::vector<std::complex<double>>;

/// The principal square root R of upper triangular T (R^2 = T): column recurrence; an entry whose
/// numerator is exactly 0 is 0 (a zero matrix has the zero root), one whose denominator alone is 0 is
/// inf/NaN (as SciPy's singular case).
cmat tri_sqrt(const std::complex<double>* T, std::int64_t n);

/// sqrtm's square root R of upper triangular T (R^2 = T) as SciPy 1.18.1's sqrtm computes it
/// (_matfuncs_sqrtm.c, Deadman, Higham and Ralha's recursion): the matrix halved (first block n / 2),
/// both diagonal blocks recursively, the off-diagonal block from the Sylvester equation
/// R11 X + X R22 = T12 (LAPACK ?trsyl, X multiplied by its scale as SciPy does); 1 x 1: sqrt; 2 x 2:
/// a zero block stays zero, else sqrt of the diagonal and T12 / (R11 + R22). SciPy's singular cases: a
/// 2 x 2 block with zero diagonal and nonzero T12 gives T12 = inf (`real_rules`, SciPy's real path;
/// else the complex division by zero), and n = 3 with R11 = 0 and a zero diagonal entry of R22 sets
/// both entries of X to inf. `real_rules`: the slice is real with no negative real eigenvalue (SciPy's
/// real-arithmetic path: dtrsyl on the real parts); else ztrsyl.
cmat tri_sqrtm_recursive(const std::complex<double>* T, std::int64_t n, bool real_rules);

/// SciPy's _logm_triu on upper triangular T0 (diagonal entries nonzero): the inverse scaling and
/// squaring algorithm with exact 1-norms for SciPy's onenormest.
cmat tri_logm(const cmat& T0, std::int64_t n);

/// SciPy's _remainder_matrix_power_triu: T^t for -1 < t < 1 (T upper triangular, nonsingular).
cmat tri_fractional_power(const cmat& T0, std::int64_t n, double t);

/// SciPy's _funm_loops: fills the strict upper triangle of F (its diagonal given) from T; returns the
/// updated minimum |T_jj - T_ii| (start value `minden`).
double tri_funm_loops(cmat& F, const std::complex<double>* T, std::int64_t n, double minden);

}  // namespace cusci::linalg::detail

#pragma once
// Internal interface between the triangular family's host drivers (triangular.cpp) and its kernels
// (triangular_kernels.cu). Host-only header. Status pairs and info arrays follow
// common/detail.hpp: status[0] = a non-finite value was read (when checking), status[1] = some
// info != 0.

#include <cstdint>

#include "common/detail.hpp"

namespace cusci::linalg::detail {

// --- substitution ---------------------------------------------------------------------------------

/// status[0] = 1 when an element of the nbatch (rows x cols) matrices of `v` is not finite.
void scan_nonfinite(dtype t, const batch_view& v, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
                    int* status);
/// info[b] = 1 + index of the first exactly zero diagonal entry of matrix b of `a` (0: none);
/// status[1] = 1 when some info != 0 (LAPACK ?trtrs's singularity test).
void tri_diag_check(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, int* info, int* status);
/// In place on x (nbatch C-order n x nrhs blocks): x_b = op(A_b)^-1 x_b with A_b triangular (`lower`),
/// op per trans (0: A, 1: A^T, 2: A^H), the diagonal taken as ones when `unit`.
void tri_solve(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, int trans,
               bool lower, bool unit, void* x);

/// Same with cuBLAS's ?trsmBatched on `a` gathered into nbatch C-order n x n blocks (any values in the
/// triangle not used). n, nrhs and nbatch must fit in int.
void tri_solve_blas(dtype t, void* a, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, int trans, bool lower,
                    bool unit, void* x);
/// Orders and right-hand-side counts from which solve_triangular / cho_solve use tri_solve_blas: the
/// warp kernel reads A once per column of x, cuBLAS's blocked solve once per block of columns.
inline constexpr std::int64_t blas_min_n = 64;
inline constexpr std::int64_t blas_min_nrhs = 8;

// --- banded -------------------------------------------------------------------------------------

/// In place on x (nbatch C-order n x nrhs blocks): solution of A_b x = x_b with A_b banded (kl, ku),
/// stored in `ab` as ab[ku + i - j, j] = A[i, j] ((kl + ku + 1) x n). ?gbtf2 + ?gbtrs per system; info
/// as ?gbtrf (first zero pivot, 1-based); the system is not solved when info != 0. n == 1: x /= ab[ku, 0]
/// with no test. `work` holds nbatch * (2 kl + ku + 1) * n elements of the dtype, `piv` nbatch * n ints.
void gb_solve(dtype t, const batch_view& ab, std::int64_t nbatch, std::int64_t n, std::int64_t kl, std::int64_t ku,
              std::int64_t nrhs, void* work, int* piv, void* x, int* info, int* status);
/// In place on c (nbatch C-order (kd + 1) x n band matrices, upper or lower form): LAPACK ?pbtf2.
/// info[b] = order of the first leading minor that is not positive definite (0: none).
void pb_factor(dtype t, void* c, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower, int* info,
               int* status);
/// In place on x (nbatch C-order n x nrhs blocks): ?pbtrs with the band factor `cb` ((kd + 1) x n).
void pb_solve(dtype t, const batch_view& cb, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower,
              std::int64_t nrhs, void* x);

// --- structure -----------------------------------------------------------------------------------

/// lo[b] / up[b] (int64) = largest i - j / j - i over the nonzero entries of matrix b of `a`
/// (rows x cols), 0 when none. Any dtype except float16.
void band_width(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
                std::int64_t* lo, std::int64_t* up);
/// out[b] (bool) = matrix b of `a` (n x n) equals its transpose (`herm`: conjugate transpose). Exact
/// comparison of the off-diagonal pairs (plus the diagonal's imaginary part for `herm`) unless
/// `tol`; with `tol` (float32/float64/complex dtypes only) numpy.allclose's test on every entry.
void symmetry(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool herm, bool tol, double atol,
              double rtol, bool* out);

}  // namespace cusci::linalg::detail

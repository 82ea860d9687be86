#pragma once
// Internal interface of the qr family (host-only header): the Householder engine shared by qr, rq and
// qr_multiply. Kernels and library calls in qr_kernels.cu.
//
// Work buffers are column-major: matrix b of a buffer starts at element b * bs, element (i, j) at
// i + j * ld. Every function enqueues on the current stream and does not synchronize.

#include <cstdint>

#include "cusci/dtype.hpp"
#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// dst[b](i, j) = v (conjugated when `conj`) for i < rows, 0 for rows <= i < ld, j < cols, where v is
/// element (i, j) of matrix b of `src` (signed byte strides allowed: a view may run backwards). Sets
/// status[0] = 1 when `check` and a read element is not finite.
void qr_gather(dtype t, const batch_view& src, std::int64_t nbatch, std::int64_t rows, std::int64_t cols, bool conj,
               bool check, void* dst, std::int64_t ld, std::int64_t bs, int* status);

/// Householder QR in place of nbatch column-major m x n matrices (leading dimension lda, batch stride bs):
/// R in the upper triangle, the reflectors below it and tau [nbatch, min(m, n)], LAPACK's ?geqrf format.
/// With `jpvt` (int32 [nbatch, n]): column pivoting (?geqp3's choice), jpvt receives the 0-based
/// permutation. One matrix without pivoting: cuSOLVER Xgeqrf; otherwise cusci's kernels, one launch pair
/// per reflector for the whole batch.
void qr_factor(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t n, void* A, std::int64_t lda,
               std::int64_t bs, void* tau, int* jpvt);

/// ?orgqr in place: columns [0, ncols) of each matrix become the first ncols columns of Q = H_0 ... H_{k-1}
/// (reflectors in the first k columns, tau [nbatch, k]); ncols >= k, m >= ncols. cuSOLVER ?orgqr/?ungqr
/// for one matrix, kernels (backward accumulation, ?org2r) for batches.
void qr_form_q(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t ncols, std::int64_t k, void* A,
               std::int64_t lda, std::int64_t bs, const void* tau);

/// C := Q C (adjoint: Q^H C) with Q = H_0 ... H_{k-1} of order m from the factors in A (m x k used,
/// leading dimension lda, batch stride bsa) and tau [nbatch, k]; C is m x ncols (ldc, batch stride bsc).
/// cuSOLVER ?ormqr/?unmqr for one matrix, one kernel launch per reflector for batches.
void qr_apply_q(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t k, const void* A, std::int64_t lda,
                std::int64_t bsa, const void* tau, bool adjoint, void* C, std::int64_t ldc, std::int64_t ncols,
                std::int64_t bsc);

/// dst (C order, [nbatch, rows, cols]) [b, i, j] = s (conjugated when `conj`), or 0 where j - i < diag_min,
/// with s the element at src + b * bs + i * si + j * sj (element strides, signed; bs may be 0).
void qr_copy_out(dtype t, const void* src, std::int64_t bs, std::int64_t si, std::int64_t sj, std::int64_t nbatch,
                 std::int64_t rows, std::int64_t cols, bool conj, std::int64_t diag_min, void* dst);

/// qr_update's rank-k update, one thread block a matrix (Givens rotations, Golub & Van Loan 12.5.1; the
/// economic case through the extra column r / ||r|| of Daniel, Gragg, Kaufman & Stewart with one
/// reorthogonalisation). Qw: column-major m x qcols (qcols = m full, n + 1 economic) holding Q in its first
/// m (n) columns; Rw: column-major rrows x n (rrows = m full, n + 1 economic, the extra row zero) holding R;
/// U (m x k) and V (n x k) column-major; scratch: nbatch * (m + 2 n + 2) elements. The update is
/// A + U V^H, applied one column pair at a time; Qw and Rw are updated in place.
void qr_update_run(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t n, bool econ, void* Qw,
                   std::int64_t qcols, void* Rw, std::int64_t rrows, const void* U, const void* V, std::int64_t k,
                   void* scratch);

/// qr_delete, one thread block a matrix: Qw column-major m x (c + 1) (Q in the first c columns; c = m full,
/// N economic), Qs scratch of the same size, Rw column-major (c + 1) x n holding R (c x n) with a zero last
/// row, scratch nbatch * (m + c + 2). col: columns [k, k + p) removed and R made triangular again by
/// Givens rotations (R in the first n - p columns, Q updated in place); rows: row k deleted p times
/// (Golub & Van Loan 12.5.3; economic factors first extended by the unit vector completing e_k), the
/// result in the leading (m - p) x c' block of Qw and c' x n block of Rw, c' = c while economic
/// (m - p >= c), else m - p.
void qr_delete_run(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t c, std::int64_t n, std::int64_t k,
                   std::int64_t p, bool col, void* Qw, void* Qs, void* Rw, void* scratch);

/// qr_insert, one thread block a matrix, p rows (U: [nbatch, p, n], row l inserted before row k + l) or
/// columns (U: [nbatch, p, m] column-major, column l before column k + l), one at a time. Qw: column-major,
/// leading dimension ldq, qcols columns, Q (m x c) in its leading block; Qs scratch of the same size; Rw:
/// column-major, leading dimension ldr, ncols columns, R (c x n) in its leading block and zeros below.
/// The result is left in the leading blocks (shapes as qr_insert returns them). scratch: nbatch *
/// (2 (m + p + n) + 2) elements; est (may be null): per matrix, the smallest ||r|| / ||u|| of the economic
/// column insertions (1e300 when none).
void qr_insert_run(dtype t, std::int64_t nbatch, std::int64_t m, std::int64_t c, std::int64_t n, std::int64_t k,
                   std::int64_t p, bool col, void* Qw, void* Qs, std::int64_t ldq, std::int64_t qcols, void* Rw,
                   std::int64_t ldr, std::int64_t ncols, const void* U, void* scratch, double* est);

/// C-order identity matrices [nbatch, n, n] of dtype t.
void qr_eye(dtype t, std::int64_t nbatch, std::int64_t n, void* dst);

}  // namespace cusci::linalg::detail

#pragma once
// Internal interface of the lu family (host-only header): the batched LU engine shared by lu, lu_factor,
// lu_solve, inv and det (and usable by solve for batches of matrices larger than 32, see
// docs/linalg-lu.md). Kernels in lu_kernels.cu: the register kernel (max(m, n) <= 32), one block a matrix
// (orders 33..64) and the library calls
// (cuBLAS batched / cuSOLVER paths, unpacking, determinants).

#include <cstdint>

#include "cusci/dtype.hpp"
#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// Largest max(m, n) factored by the register kernel.
inline constexpr std::int64_t lu_small_max = 32;

/// Register-kernel LU (?getf2's pivoting) of nbatch m x n matrices of `a` (max(m, n) <= 32): lu (C order,
/// nbatch x m x n), piv (int32, 0-based, nbatch x min(m, n)), info[b] = getrf's info, status[0] = a
/// non-finite entry was read (when `check`), status[1] = some info != 0.
void small_lu_factor(dtype t, const batch_view& a, std::int64_t nbatch, int m, int n, bool check, void* lu, int* piv,
                     int* info, int* status);

/// LU of nbatch m x n matrices of `a`, any size: the register kernel when max(m, n) <= 32, the block
/// kernel (lu_kernels.cu) for square orders 33..64 in float32 / float64 / complex64, else the matrices are
/// gathered column-major and factored by cuBLAS getrfBatched (square, nbatch > 1) or cuSOLVER Xgetrf (one
/// matrix, or rectangular: one call per matrix). Outputs as small_lu_factor (C-order lu,
/// 0-based int32 piv, info, status).
void lu_factor_any(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t m, std::int64_t n, bool check,
                   void* lu, int* piv, int* info, int* status);

/// det[b] (float64 for real t, complex128 for complex t) = product of the diagonal of the C-order n x n
/// factors lu[b], computed in t, negated for each piv[b][i] != i.
void det_from_lu(dtype t, const void* lu, const int* piv, std::int64_t nbatch, std::int64_t n, void* det);

/// What lu_unpack writes to `p`.
enum class p_kind : int { none = 0, matrix = 1, indices = 2 };
/// From C-order m x n factors and 0-based piv (K = min(m, n)): p (p_kind::matrix: [b, m, m] of real_dtype(t);
/// indices: [b, m] int32, a = L[p] @ U), l ([b, m, K], unit lower; with permute_l P @ L), u ([b, K, n]).
/// `perm` is scratch of 2 * nbatch * m ints.
void lu_unpack(dtype t, const void* lu, const int* piv, std::int64_t nbatch, std::int64_t m, std::int64_t n,
               p_kind pk, bool permute_l, void* p, void* l, void* u, int* perm);

/// Inverses of nbatch n x n matrices formed from `a` with `mode` (see fill_mode): out (C order); info as
/// getrf's; status as small_lu_factor. n <= 32: the solve family's register LU solve against the identity;
/// larger: cuBLAS getrfBatched + getriBatched (nbatch > 1) or cuSOLVER Xgetrf + Xgetrs (one matrix).
void inv_any(dtype t, const batch_view& a, fill_mode mode, bool lower, std::int64_t nbatch, std::int64_t n, bool check,
             void* out, int* info, int* status);

/// inv with assume_a="diagonal", as SciPy 1.18 does it: out (C order) = the matrices of `a` with each
/// diagonal entry replaced by its reciprocal; the off-diagonal entries are copied unchanged (SciPy does not
/// reference them and leaves them as they are). info[b] = 1 + the first i with a_ii == 0 (0: none);
/// status as small_lu_factor (status[0]: a non-finite entry anywhere in the matrix, when `check`).
void diag_inv(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* out, int* info,
              int* status);

/// x (C order, nbatch x n x nrhs) = solution of op(A_b) x = B_b from the packed factors `lu` (n x n) and the
/// 0-based int32 pivots `piv` (a batch_view whose s_row is the stride between pivots; indices outside
/// [0, n) mean no interchange); trans 0: A, 1: A^T, 2: A^H. status[0] = non-finite b (when `check`).
/// cuBLAS getrsBatched for nbatch > 1, cuSOLVER Xgetrs for one matrix.
void lu_solve_any(dtype t, const batch_view& lu, const batch_view& piv, const batch_view& b, std::int64_t nbatch,
                  std::int64_t n, std::int64_t nrhs, int trans, bool check, void* x, int* status);

// --- one block a matrix, orders 33..64, float32 / float64 / complex64 ---------------------

/// Whether the block kernels take matrices of order n and dtype t.
bool medium_fits(dtype t, std::int64_t n);
/// Inverses by Gauss-Jordan with getrf's pivoting (out C order; info, status as small_lu_factor).
void medium_inv(dtype t, const batch_view& a, fill_mode mode, bool lower, std::int64_t nbatch, std::int64_t n,
                bool check, void* out, int* info, int* status);
/// Square LU factors (C-order packed, 0-based int32 pivots, info, status as small_lu_factor).
void medium_factor(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* lu, int* piv,
                   int* info, int* status);
/// Determinants by LU with getrf's pivoting (det: float64 / complex128 as det_from_lu; status[0] only).
void medium_det(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* det,
                int* status);

/// Drop-in for common/detail.hpp's lib_lu_solve (same arguments: column-major A overwritten by its
/// factors, column-major B by the solutions, info[b] = getrf's info) without its host loop: nbatch > 1
/// goes to cuBLAS getrfBatched + getrsBatched with device pointer arrays, one matrix to cuSOLVER
/// Xgetrf + Xgetrs. For solve's batches of matrices larger than 32 (see docs/linalg-lu.md).
void lu_solve_colmajor(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, void* A, void* B, int* info);

}  // namespace cusci::linalg::detail

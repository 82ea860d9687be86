#pragma once
// Internal interface between the host drivers (solve.cpp, cholesky.cpp) and the kernels/library calls
// (small_lu.cu, small_chol_solve.cu, small_cholesky.cu, dense.cu). Host-only header.

#include <cstdint>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg::detail {

/// How element (i, j) of a matrix is formed from the stored entries (see structured_elem in
/// kernels.cuh). `sym`/`her` read the triangle chosen by `lower` and mirror it (`her`: conjugated,
/// diagonal made real); `diag`/`triu`/`tril`/`tridiag` set the entries outside the structure to zero.
enum class fill_mode : int { full = 0, sym, her, diag, triu, tril, tridiag };

/// A batch of strided matrices: element (b, i, j) lives at byte address
/// data + offset_b + i * s_row + j * s_col, where offset_b is the byte offset of the C-order batch index
/// b over batch_shape / batch_strides (strides may be 0 for broadcast dimensions).
struct batch_view {
  const void* data = nullptr;
  shape_t batch_shape;
  shape_t batch_strides;
  std::int64_t s_row = 0;
  std::int64_t s_col = 0;
};

/// Largest order handled by the fused register kernels.
inline constexpr std::int64_t small_max_n = 32;

// --- dense.cu ------------------------------------------------------------------------------------

/// dst[b] (rows x cols, C order or column-major) = matrix b of `src` formed with `mode`; sets
/// status[0] = 1 when `check` and a read element is not finite.
void gather(dtype t, const batch_view& src, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
            fill_mode mode, bool lower, bool check, bool col_major, void* dst, int* status);
/// Zeroes the strictly lower (zero_below) or strictly upper triangle of nbatch C-order n x n matrices.
void zero_triangle(dtype t, void* c, std::int64_t nbatch, std::int64_t n, bool zero_below);
/// x[i] /= a0[0] for i < count.
void divide_by_scalar(dtype t, void* x, std::int64_t count, const void* a0);
/// LU solve of nbatch column-major n x n matrices A (overwritten by their factors) with column-major
/// right-hand sides B (n x nrhs, overwritten by the solutions); info[b] = getrf's info.
void lib_lu_solve(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, void* A, void* B, int* info);
/// Cholesky solve (potrf + potrs, triangle `lower` of column-major A); info[b] = potrf's info.
void lib_chol_solve(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, void* A, void* B,
                    int* info, bool lower);
/// potrf on nbatch column-major n x n matrices, triangle `lower`; info[b] = potrf's info.
void lib_potrf(dtype t, std::int64_t nbatch, std::int64_t n, void* A, int* info, bool lower);

// --- small_lu.cu / small_chol_solve.cu / small_cholesky.cu (n <= small_max_n) --------------------

/// x[b] (C order, n x nrhs) = solution of A_b x = B_b, with A_b formed from `a` with `mode`.
/// info[b] = LAPACK getrf's info; status[0] = non-finite input seen (when `check`); status[1] = some
/// info != 0.
void small_lu_solve(dtype t, const batch_view& a, fill_mode mode, bool lower, const batch_view& b,
                    std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x, int* info, int* status);
/// Same with Cholesky of the Hermitian matrix formed from the triangle `lower` of `a`; info = potrf's.
void small_chol_solve(dtype t, const batch_view& a, bool lower, const batch_view& b, std::int64_t nbatch,
                      int n, std::int64_t nrhs, bool check, void* x, int* info, int* status);
/// c[b] (C order) = Cholesky factor (lower or upper, other triangle zero) of the Hermitian matrix formed
/// from the triangle `lower` of `a`; info/status as above.
void small_cholesky(dtype t, const batch_view& a, std::int64_t nbatch, int n, bool lower, bool check, void* c,
                    int* info, int* status);

// --- common.cpp -----------------------------------------------------------------------------------

struct status_flags {
  int nonfinite = 0;
  int failed = 0;
  int flagged = 0;  ///< status[2], where a caller keeps a third flag (solve: a slice to report)
};
/// Zeroes a device status pair, or `count` (<= 3) status values (asynchronous).
void clear_status(int* status, int count = 2);
/// Copies the status pair (or `count` <= 3 values) to the host. Synchronizes the current stream.
status_flags read_status(const int* status, int count = 2);
/// Copies n info values to the host. Synchronizes the current stream.
std::vector<int> read_info(const int* info, std::int64_t n);
std::int64_t prod(const shape_t& s);

}  // namespace cusci::linalg::detail

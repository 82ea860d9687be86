#pragma once
// Internal interface of the svd family (host-only header): the batched SVD engine behind svd, svdvals,
// orth, null_space, pinv, lstsq, polar, orthogonal_procrustes and subspace_angles, and the small helper
// kernels of svd_kernels.cu.

#include <cstdint>

#include "cusci/dtype.hpp"
#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// Which library algorithm computes matrices too large for the Jacobi kernel (SciPy's lapack_driver).
enum class svd_lib : int {
  gesdd = 0,  ///< cuSOLVER Xgesvdp (polar decomposition + syevd)
  gesvd = 1,  ///< cuSOLVER Xgesvd (QR iteration, LAPACK's ?gesvd algorithm)
};

/// Whether the one-block Jacobi kernel takes nbatch m x n matrices of dtype t (the working matrix, its
/// right factor and scratch fit in one block's shared memory on the current device).
bool svd_jacobi_fits(dtype t, std::int64_t m, std::int64_t n, bool compute_uv);

/// SVD of nbatch m x n matrices of `a` (dtype t: float32, float64, complex64, complex128; m, n >= 1).
/// Outputs, C order: s [nbatch, k] of real_dtype(t), descending (k = min(m, n)); with compute_uv
/// u [nbatch, m, full ? m : k] and vh [nbatch, full ? n : k, n], a = u diag(s) vh.
/// info[b]: 0, > 0 not converged, -4 a non-finite entry was read; status[0] = a non-finite entry was
/// read (when `check`). Jacobi kernel when svd_jacobi_fits, else cuSOLVER (`lib`), one call a matrix.
void svd_batched(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t m, std::int64_t n, bool compute_uv,
                 bool full, bool check, svd_lib lib, void* s, void* u, void* vh, int* info, int* status);

/// Writes src (nbatch x k contiguous elements of `itemsize` bytes) onto the diagonals of dst
/// (nbatch C-order rows x cols matrices, already zeroed): dst[b][j][j] = src[b][j], j < k.
void scatter_diagonal(std::size_t itemsize, const void* src, std::int64_t nbatch, std::int64_t k, void* dst,
                      std::int64_t rows, std::int64_t cols);

}  // namespace cusci::linalg::detail

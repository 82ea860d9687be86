#pragma once
// Internal interface between the eigen family's host drivers (eigen.cpp) and its kernels and library
// calls (eigen.cu). Host-only header. Matrices are column-major n x n blocks, one per batch entry, unless
// said otherwise; "vectors" buffers hold eigenvector j of matrix b at v + (b * n * n + j * n) (column j).

#include <cstdint>

#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// Eigenvalues (ascending, real dtype of t, nbatch x n) and, when `vectors`, eigenvectors (overwriting
/// a) of nbatch Hermitian matrices (full column-major; the lower triangle is read). nbatch == 1:
/// cuSOLVER Xsyevd; else one XsyevBatched call. info[b] = the solver's info.
void eig_sym(dtype t, std::int64_t nbatch, std::int64_t n, bool vectors, void* a, void* w, int* info);

/// One matrix, a subset with cuSOLVER Xsyevdx: range 1 = values in (vl, vu], 2 = indices il..iu
/// (1-based). Returns the number found (the first columns of a, entries of w). Synchronizes.
std::int64_t eig_sym_subset(dtype t, std::int64_t n, bool vectors, int range, double vl, double vu, std::int64_t il,
                            std::int64_t iu, void* a, void* w, int* info);

/// Lower Cholesky factors of nbatch column-major Hermitian matrices in place (cuSOLVER potrfBatched;
/// the strictly upper triangle is then zeroed). info[b] = potrf's info.
void eig_chol_lower(dtype t, std::int64_t nbatch, std::int64_t n, void* b, int* info);

/// a <- L^-1 a L^-H (type 1) or L^H a L (types 2, 3), with the lower factors l (upper triangle zero).
/// `work`: nbatch * n * n elements of t.
void eig_gen_reduce(dtype t, std::int64_t nbatch, std::int64_t n, int type, void* l, void* a, void* work);
/// Back transformation of the m leading columns of the vectors x (blocks of n * n): type 1, 2: x <-
/// L^-H x in place, returns x; type 3: work <- L x, returns work.
void* eig_gen_back(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t m, int type, void* l, void* x, void* work);

/// first[b], count[b] (int64, device) = the ascending eigenvalues w[b, :] (real dtype rt) in (lo, hi].
void eig_value_range(dtype rt, const void* w, std::int64_t nbatch, std::int64_t n, double lo, double hi,
                 std::int64_t* first, std::int64_t* count);
/// w_out[b, k] = w[b, f_b + k], v_out column k of block b (n x m blocks) = column f_b + k of v (n x n
/// blocks), for k < m, with f_b = first[b] (device) or `first_const` when first is null. v may be null.
void eig_select_pairs(dtype t, const void* w, const void* v, std::int64_t nbatch, std::int64_t n,
                  const std::int64_t* first, std::int64_t first_const, std::int64_t m, void* w_out, void* v_out);

/// Dense symmetric tridiagonal matrices (column-major) from d [n] and e [n - 1] views (s_col: element
/// stride in bytes); status[0] = a non-finite entry (when check). t real.
void eig_tridiag_dense(dtype t, const batch_view& d, const batch_view& e, std::int64_t nbatch, std::int64_t n,
                   bool check, void* out, int* status);
/// Dense Hermitian matrices (column-major) from LAPACK band storage ab [(u + 1) x n] (lower or upper
/// form); status[0] = a non-finite stored entry (when check).
void eig_band_dense(dtype t, const batch_view& ab, std::int64_t nbatch, std::int64_t u, std::int64_t n, bool lower,
                bool check, void* out, int* status);

/// cuSOLVER Xgeev on each of nbatch column-major matrices a (overwritten): w (complex of t, n per
/// matrix), vr (dtype t, LAPACK's packed form for real t) when `vectors`. One call per matrix.
void eig_geev(dtype t, std::int64_t nbatch, std::int64_t n, bool vectors, void* a, void* w, void* vr, int* info);
/// flag[0] = 1 when some of the `count` complex values w (complex dtype ct) has a non-zero imaginary part.
void eig_any_complex(dtype ct, const void* w, std::int64_t count, int* flag);
/// Complex vectors (complex of rt) from real ?geev's packed ones, as SciPy's _make_complex_eigvecs.
void eig_unpack_real_vectors(dtype rt, const void* w, const void* vr, std::int64_t nbatch, std::int64_t n, void* out);
/// Left vectors from M = vr^-1 (C order n x n blocks, dtype t): column j of vl = conj(row j of M),
/// unit norm, largest component real and positive.
void eig_left_from_inverse(dtype t, const void* m, std::int64_t nbatch, std::int64_t n, void* vl);
/// c = a @ b for nbatch column-major n x n blocks (cuBLAS gemmStridedBatchedEx).
void eig_matmul_colmajor(dtype t, std::int64_t nbatch, std::int64_t n, const void* a, const void* b, void* c);
/// out [nbatch, 2, n] = (w, 1) (complex ct).
void eig_homogeneous(dtype ct, const void* w, std::int64_t nbatch, std::int64_t n, void* out);

/// scaled = u * f (column j times f_j, f_j = 1 / w_j where |w_j| > atol + rtol * max|w|, else 0) and
/// rank[b] (int64) = the number of such j; then b = scaled @ u^H (cuBLAS gemmStridedBatched), all
/// column-major n x n blocks.
void pinvh_apply(dtype t, const void* w, const void* u, std::int64_t nbatch, std::int64_t n, double atol,
                 double rtol, void* scaled, std::int64_t* rank, void* b);

}  // namespace cusci::linalg::detail

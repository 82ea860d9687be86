#pragma once
// Internal interface of the solve family (host-only header): the condition estimate and structure
// detection of solve_cond.cu and small_lu.cu, used by solve.cpp.

#include <cstdint>

#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// How a slice's condition number is estimated (the LAPACK routine SciPy calls is in brackets).
enum class cond_kind : int {
  lu = 0,       ///< from packed getrf factors L\U [?gecon, ?gtcon, ?gbcon; ?sycon/?hecon: see solve.hpp]
  chol_l = 1,   ///< from a lower Cholesky factor, A = L L^H [?pocon]
  chol_u = 2,   ///< from an upper Cholesky factor, A = U^H U [?pocon]
  tri_u = 3,    ///< from the upper triangle of A itself [?trcon]
  tri_l = 4,    ///< from the lower triangle of A itself [?trcon]
  diag = 5,     ///< max|a_jj| * max|1/a_jj| over the diagonal (SciPy's own diagonal solver)
  detect = -1,  ///< per slice, SciPy's structure detection (assume_a=None): diag, tri_u, tri_l or lu
};

/// What solve learns about one slice (read back to the host in one copy).
struct slice_record {
  int info = 0;      ///< > 0: singular (getrf/potrf/trtrs info, diag: first zero index + 1)
  int kind = 0;      ///< the cond_kind used for this slice (detect resolved)
  double rcond = 0;  ///< the estimate, computed in the real type of the dtype (diag: max|a| * max|1/a|)
};

/// The factors solve_condition reads: nbatch matrices of order n at data + b * n * n elements, element
/// (i, j) at i * s_row + j * s_col elements; info[b] is the factorization's info (may be null for the
/// kinds that read `a` itself).
struct factor_view {
  const void* data = nullptr;
  std::int64_t s_row = 0, s_col = 0;
  const int* info = nullptr;
};

/// rec[b] for each matrix of the batch: the 1-norm of the matrix formed from `a` with `mode`/`lower`
/// (SciPy: norm1_ / norm1_sym_herm / lantr), then Hager and Higham's estimate of ||A^-1||_1 from the
/// factors (LAPACK ?lacn2, real and complex variants; plain substitutions instead of ?latrs's scaled
/// ones), rcond = (1 / ||A^-1||_1) / ||A||_1 in the real type of t. One thread block per matrix, reading
/// the factors from global memory (staging them in shared memory lost on the H200: docs/benchmarks.md).
/// Sets *flag = 1 when some slice is singular or ill-conditioned (report_slices' tests), so that the host
/// copies the records only then.
void solve_condition(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind, const factor_view& f,
                     std::int64_t nbatch, std::int64_t n, slice_record* rec, int* flag);

/// small_lu_solve (n <= 32, small_lu.cu) with the condition estimate of every matrix computed in the same
/// kernel from the factors it already holds (kind: lu, detect, tri_u, tri_l or diag; the matrix is not
/// transposed): rec and flag as solve_condition's.
void small_lu_solve_estimate(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind,
                             const batch_view& b, std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x,
                             int* info, int* status, slice_record* rec, int* flag);

/// small_lu_solve_estimate for orders 33..64 and dtypes float32, float64, complex64 (medium_lu.cu: one block
/// of 64 threads a matrix, common/medium.cuh; lu_engine.hpp's medium_fits(t, n) must hold).
void medium_lu_solve_estimate(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind,
                              const batch_view& b, std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x,
                              int* info, int* status, slice_record* rec, int* flag);

}  // namespace cusci::linalg::detail

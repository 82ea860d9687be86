#pragma once
// Internal declarations of the direct solvers (direct.hpp): the host SuperLU factorization
// (direct_superlu.cpp) and the device kernels (direct_kernels.cu).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg/direct.hpp"

namespace cusci::sparse::linalg::detail {

/// Every SuperLU option the factorization reads, resolved (SuperLU's defaults filled in).
struct factor_options {
  bool ilu = false;
  colperm ColPerm = colperm::colamd;
  double DiagPivotThresh = 1.0;
  bool SymmetricMode = false;
  int Relax = -1;      // < 0: SuperLU's sp_ienv(2)
  int PanelSize = -1;  // < 0: SuperLU's sp_ienv(1)
  int ILU_DropRule = 0x0001 | 0x0008;  // DROP_BASIC | DROP_AREA
  double ILU_DropTol = 1e-4;
  double ILU_FillFactor = 10.0;
  double ILU_FillTol = 1e-2;
  int ILU_Norm = 2;  // INF_NORM
  int ILU_MILU = 0;  // SILU
};

/// A factorization on the host: SuperLU's info, its permutations and L, U in CSC with row indices
/// sorted within each column (values as raw bytes of the factor dtype).
struct host_lu {
  int info = 0;             // SuperLU's info: 0 ok, in [1, n] singular, > n out of memory
  std::string abort_message;  // set when SuperLU aborted (ILU on a column without candidates)
  std::int64_t n = 0;
  std::int64_t nnz_store = 0;  // SuperLU's L.Store->nnz + U.Store->nnz
  std::vector<int> perm_r, perm_c;
  std::vector<int> L_colptr, L_rowind, U_colptr, U_rowind;
  std::vector<unsigned char> L_data, U_data;
};

/// Factors the n x n CSC matrix (colptr [n + 1], rowind [nnz], values [nnz] of dtype dt: float32,
/// float64, complex64, complex128; canonical) with SuperLU's gstrf (gsitrf when o.ilu). Host only;
/// serialized process-wide (SuperLU's statistics and abort hook are global).
/// @throws cusci::not_implemented_error when cusci was built without SuperLU.
host_lu superlu_factor(cusci::dtype dt, std::int64_t n, const std::vector<int>& colptr,
                       const std::vector<int>& rowind, const std::vector<unsigned char>& values,
                       const factor_options& o);

/// out[perm[i], :] = in[i, :] (scatter) or out[i, :] = in[perm[i], :] (gather) for [n] / [n, k]
/// arrays of one dtype of itemsize 4, 8 or 16, any strides (in: a view of any layout; out: an array
/// whose elements are distinct); perm int32 [n] on the device. Asynchronous.
void permute_rows(const ndarray& in, const ndarray& perm, ndarray& out, bool scatter);

/// min and max of (column - row) over the entries given by their row and column arrays (the same
/// integer dtype, int32/int64, contiguous, nnz >= 1). Synchronizes.
struct diag_span {
  std::int64_t min_gap = 0, max_gap = 0;
};
diag_span entry_diagonal_span(const ndarray& row, const ndarray& col);

}  // namespace cusci::sparse::linalg::detail

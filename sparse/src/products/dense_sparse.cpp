// Dense x sparse products X @ B: the column kernel (dense_sparse.cu) over the column-compressed form
// of B: a CSC matrix's own arrays, the cached column structure of a CSR matrix (values read through
// each entry's position), or for COO, DIA and BSR the transposed CSR form made for the call.

#include <cstdint>
#include <string>

#include "common/detail.hpp"
#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/products.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse {

namespace {

// X's element strides (b, i) for the kernel, or false when a byte stride is not a multiple of the
// item size (then the caller makes a contiguous copy).
bool element_strides(const ndarray& x, std::int64_t& xs_b, std::int64_t& xs_i) {
  const auto item = static_cast<std::int64_t>(x.itemsize());
  const std::int64_t si = x.strides().back();
  const std::int64_t sb = x.ndim() == 2 ? x.strides()[0] : 0;
  if (si % item != 0 || sb % item != 0) return false;
  xs_i = si / item;
  xs_b = sb / item;
  return true;
}

}  // namespace

ndarray dot(const ndarray& X, const spmatrix& B) {
  static constexpr const char* fn = "cusci::sparse::dot";
  CUSCI_NVTX_SCOPE(fn);
  const ndarray& bdata = B.visit([](const auto& M) -> const ndarray& { return M.data(); });
  cusci::detail::check_same_device(fn, {&X, &bdata});
  const shape2 sb = B.shape();
  const std::int64_t m = sb[0], n = sb[1];
  CUSCI_EXPECTS(X.ndim() == 1 || X.ndim() == 2, value_error,
                std::string(fn) + ": dimension mismatch: X must be 1-D or 2-D, got shape " +
                    cusci::detail::shape_str(X.shape()));
  CUSCI_EXPECTS(X.shape(-1) == m, value_error,
                std::string(fn) + ": dimension mismatch: X has shape " + cusci::detail::shape_str(X.shape()) +
                    ", B has shape (" + std::to_string(m) + ", " + std::to_string(n) + ")");
  dtype rt = promote_types(X.dtype(), B.dtype());
  if (rt == dtype::float16) rt = dtype::float32;  // SciPy's upcast: float16 is no sparse dtype
  const bool vec = X.ndim() == 1;
  const std::int64_t k = vec ? 1 : X.shape(0);
  ndarray Y = vec ? empty({n}, rt) : empty({k, n}, rt);
  if (n == 0 || k == 0) return Y;
  if (m == 0 || B.nnz() == 0) {
    Y.fill(0);
    return Y;
  }
  ndarray Xr = X.astype(rt, false);  // X itself when it has the result dtype: read in place
  std::int64_t xs_b = 0, xs_i = 0;
  if (!element_strides(Xr, xs_b, xs_i)) {
    Xr = Xr.copy();
    element_strides(Xr, xs_b, xs_i);
  }
  if (B.holds<csc_matrix>()) {
    const csc_matrix& C = B.get<csc_matrix>();
    const ndarray val = C.data().astype(rt, false);
    detail::colprod(val, C.indices(), C.indptr(), nullptr, n, k, Xr, xs_b, xs_i, Y);
    return Y;
  }
  if (B.holds<csr_matrix>()) {
    const csr_matrix& C = B.get<csr_matrix>();
    const detail::column_structure cs = detail::csr_column_structure(C);
    const ndarray val = C.data().astype(rt, false);
    detail::colprod(val, cs.rows, cs.indptr, &cs.pos, n, k, Xr, xs_b, xs_i, Y);
    return Y;
  }
  // COO (duplicates kept: SciPy multiplies each stored entry), DIA, BSR: the CSR form, transposed
  // with its values in the result dtype for this call.
  const csr_matrix C = B.holds<coo_matrix>() ? detail::csr_keeping_duplicates(B.get<coo_matrix>()) : B.tocsr();
  const detail::compressed_arrays t =
      detail::transpose_compressed(C.data().astype(rt, false), C.indices(), C.indptr(), n);
  detail::colprod(t.data, t.indices, t.indptr, nullptr, n, k, Xr, xs_b, xs_i, Y);
  return Y;
}

}  // namespace cusci::sparse

// Host side of cusci::sparse::coo_matrix and csr_matrix: argument checks (all before any device work
// except the documented device-side index checks), index dtype choice and conversions.

#include "cusci/sparse/matrix.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "cusci/error.hpp"
#include "detail.hpp"

namespace cusci::sparse {
namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

std::string shape_str(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

void check_shape(const char* fn, shape2 shape) {
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                std::string(fn) + ": 'shape' elements cannot be negative, got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
}

void check_data_dtype(const char* fn, const ndarray& data) {
  CUSCI_EXPECTS(is_floating(data.dtype()), type_error,
                std::string(fn) + ": data must have dtype float32 or float64, got " +
                    std::string(dtype_name(data.dtype())));
}

void check_index_array(const char* fn, const char* name, const ndarray& a) {
  CUSCI_EXPECTS(is_integer(a.dtype()), type_error,
                std::string(fn) + ": " + name + " must have an integer dtype, got " +
                    std::string(dtype_name(a.dtype())));
}

dtype choose_index_dtype(const char* fn, std::optional<dtype> requested, std::int64_t maxval) {
  if (!requested) return get_index_dtype(maxval);
  CUSCI_EXPECTS(*requested == dtype::int32 || *requested == dtype::int64, type_error,
                std::string(fn) + ": index_dtype must be int32 or int64, got " +
                    std::string(dtype_name(*requested)));
  CUSCI_EXPECTS(*requested == dtype::int64 || maxval <= int32_max, value_error,
                std::string(fn) + ": index_dtype int32 cannot hold " + std::to_string(maxval) +
                    " (a dimension or nnz exceeds 2**31 - 1)");
  return *requested;
}

// Contiguous, in a dtype the device checks handle (int32 / int64), values unchanged.
ndarray as_checkable_index(const ndarray& a) {
  ndarray b = (a.dtype() == dtype::int32 || a.dtype() == dtype::int64) ? a : a.astype(dtype::int64);
  return b.is_c_contiguous() ? b : b.copy();
}

ndarray as_contiguous(const ndarray& a, dtype dt) {
  ndarray b = a.astype(dt, false);
  return b.is_c_contiguous() ? b : b.copy();
}

}  // namespace

dtype get_index_dtype(std::int64_t maxval) noexcept { return maxval > int32_max ? dtype::int64 : dtype::int32; }

// ---------------------------------------------------------------------------------------------------
// coo_matrix

coo_matrix::coo_matrix(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape,
                       std::optional<cusci::dtype> index_dtype) {
  static constexpr const char* fn = "cusci::sparse::coo_matrix";
  CUSCI_EXPECTS(data.ndim() == 1 && row.ndim() == 1 && col.ndim() == 1, value_error,
                std::string(fn) + ": row, column, and data arrays must be 1-D, got shapes " +
                    shape_str(row.shape()) + ", " + shape_str(col.shape()) + ", " + shape_str(data.shape()));
  CUSCI_EXPECTS(data.size() == row.size() && data.size() == col.size(), value_error,
                std::string(fn) + ": row, column, and data array must all be the same length, got " +
                    std::to_string(row.size()) + ", " + std::to_string(col.size()) + ", " +
                    std::to_string(data.size()));
  check_data_dtype(fn, data);
  check_index_array(fn, "row", row);
  check_index_array(fn, "col", col);
  check_shape(fn, shape);
  const std::int64_t nnz = data.size();
  const std::int64_t maxval = std::max({shape[0], shape[1], nnz});
  const cusci::dtype it = choose_index_dtype(fn, index_dtype, maxval);

  ndarray r = as_checkable_index(row), c = as_checkable_index(col);
  if (r.dtype() != c.dtype()) {
    r = r.astype(cusci::dtype::int64);
    c = c.astype(cusci::dtype::int64);
  }
  if (nnz > 0) {
    const detail::coo_check chk = detail::check_coo_indices(r, c, shape[0], shape[1]);
    CUSCI_EXPECTS(!chk.big_row, value_error, std::string(fn) + ": row index exceeds matrix dimensions");
    CUSCI_EXPECTS(!chk.big_col, value_error, std::string(fn) + ": column index exceeds matrix dimensions");
    CUSCI_EXPECTS(!chk.neg_row, value_error, std::string(fn) + ": negative row index found");
    CUSCI_EXPECTS(!chk.neg_col, value_error, std::string(fn) + ": negative column index found");
  }
  data_ = as_contiguous(data, data.dtype());
  row_ = as_contiguous(r, it);
  col_ = as_contiguous(c, it);
  shape_ = shape;
}

coo_matrix coo_matrix::from_valid(ndarray data, ndarray row, ndarray col, shape2 shape, bool canonical) {
  coo_matrix a;
  a.canonical_ = canonical ? 1 : 0;
  a.data_ = std::move(data);
  a.row_ = std::move(row);
  a.col_ = std::move(col);
  a.shape_ = shape;
  return a;
}

csr_matrix coo_matrix::tocsr(bool) const {
  ndarray d, ind, ptr;
  detail::coo_to_csr(data_, row_, col_, shape_, d, ind, ptr);
  return csr_matrix::from_valid(std::move(d), std::move(ind), std::move(ptr), shape_);
}

ndarray coo_matrix::toarray(cusci::order) const { return detail::coo_todense(data_, row_, col_, shape_); }


// ---------------------------------------------------------------------------------------------------
// csr_matrix

csr_matrix::csr_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape,
                       std::optional<cusci::dtype> index_dtype, bool check) {
  static constexpr const char* fn = "cusci::sparse::csr_matrix";
  check_shape(fn, shape);
  CUSCI_EXPECTS(data.ndim() == 1 && indices.ndim() == 1 && indptr.ndim() == 1, value_error,
                std::string(fn) + ": data, indices, and indptr should be 1-D, got shapes " +
                    shape_str(data.shape()) + ", " + shape_str(indices.shape()) + ", " + shape_str(indptr.shape()));
  CUSCI_EXPECTS(indptr.size() == shape[0] + 1, value_error,
                std::string(fn) + ": index pointer size " + std::to_string(indptr.size()) + " should be " +
                    std::to_string(shape[0] + 1));
  CUSCI_EXPECTS(indices.size() == data.size(), value_error,
                std::string(fn) + ": indices and data should have the same size, got " +
                    std::to_string(indices.size()) + " and " + std::to_string(data.size()));
  check_data_dtype(fn, data);
  check_index_array(fn, "indices", indices);
  check_index_array(fn, "indptr", indptr);
  if (index_dtype)  // early host-side check of the request against the dimensions
    choose_index_dtype(fn, index_dtype, std::max(shape[0], shape[1]));

  ndarray ptr = as_checkable_index(indptr), ind = as_checkable_index(indices);
  const detail::indptr_check pc = detail::check_indptr(ptr, check);
  CUSCI_EXPECTS(pc.first == 0, value_error,
                std::string(fn) + ": index pointer should start with 0, got " + std::to_string(pc.first));
  CUSCI_EXPECTS(pc.last >= 0 && pc.last <= indices.size(), value_error,
                std::string(fn) + ": Last value of index pointer should be less than the size of index and data "
                                  "arrays, got " + std::to_string(pc.last) + " > " + std::to_string(indices.size()));
  CUSCI_EXPECTS(!pc.decreasing, value_error,
                std::string(fn) + ": index pointer values must form a non-decreasing sequence");
  const std::int64_t nnz = pc.last;
  if (check && nnz > 0) {
    const detail::bounds_check bc = detail::check_indices(ind, nnz, shape[1]);
    CUSCI_EXPECTS(!bc.too_big, value_error,
                  std::string(fn) + ": column index values must be < " + std::to_string(shape[1]));
    CUSCI_EXPECTS(!bc.negative, value_error, std::string(fn) + ": column index values must be >= 0");
  }
  const cusci::dtype it = choose_index_dtype(fn, index_dtype, std::max({shape[0], shape[1], nnz}));
  data_ = detail::head(as_contiguous(data, data.dtype()), nnz);
  indices_ = detail::head(as_contiguous(ind, it), nnz);
  indptr_ = as_contiguous(ptr, it);
  shape_ = shape;
  cache_ = detail::make_spmv_cache();
}

csr_matrix csr_matrix::from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape, bool canonical) {
  csr_matrix a;
  if (canonical) a.sorted_ = a.canonical_ = 1;
  a.data_ = std::move(data);
  a.indices_ = std::move(indices);
  a.indptr_ = std::move(indptr);
  a.shape_ = shape;
  a.cache_ = detail::make_spmv_cache();
  return a;
}

coo_matrix csr_matrix::tocoo(bool) const {
  return coo_matrix::from_valid(data_, detail::csr_expand_rows(indptr_, nnz()), indices_, shape_);
}

ndarray csr_matrix::toarray(cusci::order) const {
  return detail::coo_todense(data_, detail::csr_expand_rows(indptr_, nnz()), indices_, shape_);
}

ndarray csr_matrix::diagonal() const { return detail::csr_diagonal(data_, indices_, indptr_, shape_); }

}  // namespace cusci::sparse

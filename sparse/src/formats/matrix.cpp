// Host side of cusci::sparse's coo_matrix, csr_matrix and csc_matrix: argument checks (all before any
// device work except the documented device-side index checks), index dtype choice, conversions and
// format maintenance. CSR and CSC share one implementation over (major, minor) axes.

#include "cusci/sparse/matrix.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "common/detail.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"

namespace cusci::sparse {

namespace detail {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

void check_value_dtype(const char* fn, dtype t) {
  CUSCI_EXPECTS(is_supported_dtype(t), type_error,
                std::string(fn) + ": scipy.sparse does not support dtype " + std::string(dtype_name(t)) +
                    ". The only supported types are: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
                    "float32, float64, complex64, complex128.");
}

void check_shape(const char* fn, shape2 shape) {
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                std::string(fn) + ": 'shape' elements cannot be negative, got " + shape_str(shape));
}

void check_index_array(const char* fn, const char* name, const ndarray& a) {
  CUSCI_EXPECTS(is_integer(a.dtype()), type_error,
                std::string(fn) + ": " + name + " must have an integer dtype, got " + std::string(dtype_name(a.dtype())));
}

dtype choose_index_dtype(const char* fn, std::optional<dtype> requested, std::int64_t maxval) {
  if (!requested) return get_index_dtype(maxval);
  CUSCI_EXPECTS(*requested == dtype::int32 || *requested == dtype::int64, type_error,
                std::string(fn) + ": index_dtype must be int32 or int64, got " + std::string(dtype_name(*requested)));
  CUSCI_EXPECTS(*requested == dtype::int64 || maxval <= int32_max, value_error,
                std::string(fn) + ": index_dtype int32 cannot hold " + std::to_string(maxval) +
                    " (a dimension or nnz exceeds 2**31 - 1)");
  return *requested;
}

ndarray checkable_index(const ndarray& a) {
  ndarray b = (a.dtype() == dtype::int32 || a.dtype() == dtype::int64) ? a : a.astype(dtype::int64);
  return b.is_c_contiguous() ? b : b.copy();
}

ndarray contiguous(const ndarray& a, dtype dt, bool copy) {
  const bool same = a.dtype() == dt;
  ndarray b = a.astype(dt, false);
  if (!b.is_c_contiguous()) return b.copy();
  if (copy && same) return b.copy();
  return b;
}

ndarray values_for(const char* fn, const ndarray& data, std::optional<dtype> want, bool copy) {
  check_value_dtype(fn, data.dtype());
  const dtype t = want ? *want : data.dtype();
  check_value_dtype(fn, t);
  return contiguous(data, t, copy);
}

std::int64_t max_index(const ndarray& a) {
  if (a.size() == 0) return -1;
  return cusci::max(a).astype(dtype::int64).item<std::int64_t>();
}

ndarray as_2d_dense(const char* fn, const ndarray& dense, std::optional<dtype> want) {
  ndarray d = dense;
  if (d.ndim() == 0) d = d.reshape({1, 1});
  else if (d.ndim() == 1) d = d.reshape({1, d.shape(0)});
  CUSCI_EXPECTS(d.ndim() == 2, type_error,
                std::string(fn) + ": expected 2D array or matrix, not " + std::to_string(dense.ndim()) + "D");
  check_value_dtype(fn, d.dtype());
  const dtype t = want ? *want : d.dtype();
  check_value_dtype(fn, t);
  return contiguous(d, t, false);
}

void check_same_shape(const char* fn, std::optional<shape2> want, shape2 got) {
  if (want)
    CUSCI_EXPECTS(*want == got, value_error,
                  std::string(fn) + ": inconsistent shapes: " + shape_str(*want) + " != " + shape_str(got));
}

// --- generic compressed (CSR: major = rows; CSC: major = columns) ---------------------------------

compressed_arrays compressed_from_arrays(const char* fn, const ndarray& data, const ndarray& indices,
                                         const ndarray& indptr, const matrix_options& o, bool csc, shape2& shape) {
  CUSCI_EXPECTS(data.ndim() == 1 && indices.ndim() == 1 && indptr.ndim() == 1, value_error,
                std::string(fn) + ": data, indices, and indptr should be 1-D");
  check_index_array(fn, "indices", indices);
  check_index_array(fn, "indptr", indptr);
  check_value_dtype(fn, data.dtype());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  ndarray ptr = checkable_index(indptr), ind = checkable_index(indices);
  if (o.shape) {
    check_shape(fn, *o.shape);
    shape = *o.shape;
  } else {
    const std::int64_t mx = max_index(ind);
    CUSCI_EXPECTS(mx >= 0 || indices.size() > 0, value_error, std::string(fn) + ": unable to infer matrix dimensions");
    shape = csc ? shape2{mx + 1, indptr.size() - 1} : shape2{indptr.size() - 1, mx + 1};
    check_shape(fn, shape);
  }
  const std::int64_t M = csc ? shape[1] : shape[0], N = csc ? shape[0] : shape[1];
  if (o.index_dtype) choose_index_dtype(fn, o.index_dtype, std::max(M, N));
  CUSCI_EXPECTS(indptr.size() == M + 1, value_error,
                std::string(fn) + ": index pointer size " + std::to_string(indptr.size()) + " should be " +
                    std::to_string(M + 1));
  CUSCI_EXPECTS(indices.size() == data.size(), value_error,
                std::string(fn) + ": indices and data should have the same size");
  const indptr_check pc = check_indptr(ptr, o.check);
  CUSCI_EXPECTS(pc.first == 0, value_error, std::string(fn) + ": index pointer should start with 0");
  CUSCI_EXPECTS(pc.last >= 0 && pc.last <= indices.size(), value_error,
                std::string(fn) + ": Last value of index pointer should be less than the size of index and data arrays");
  const std::int64_t nnz = pc.last;
  if (o.check) {
    if (nnz > 0) {
      const bounds_check bc = check_indices(ind, nnz, N);
      CUSCI_EXPECTS(!bc.too_big, value_error, std::string(fn) + ": indices must be < " + std::to_string(N));
      CUSCI_EXPECTS(!bc.negative, value_error, std::string(fn) + ": indices must be >= 0");
    }
    CUSCI_EXPECTS(!pc.decreasing, value_error, std::string(fn) + ": indptr must be a non-decreasing sequence");
  }
  const dtype it = choose_index_dtype(fn, o.index_dtype, std::max({M, N, nnz}));
  compressed_arrays out;
  out.data = head(values_for(fn, data, o.dtype, o.copy), nnz);
  out.indices = head(contiguous(ind, it, o.copy), nnz);
  out.indptr = contiguous(ptr, it, o.copy);
  return out;
}

// full check of existing compressed arrays (check_format)
void compressed_check(const char* fn, const ndarray& data, const ndarray& indices, const ndarray& indptr,
                      std::int64_t M, std::int64_t N, bool full) {
  CUSCI_EXPECTS(data.ndim() == 1 && indices.ndim() == 1 && indptr.ndim() == 1, value_error,
                std::string(fn) + ": data, indices, and indptr should be 1-D");
  CUSCI_EXPECTS(indptr.size() == M + 1, value_error,
                std::string(fn) + ": index pointer size " + std::to_string(indptr.size()) + " should be " +
                    std::to_string(M + 1));
  CUSCI_EXPECTS(indices.size() == data.size(), value_error,
                std::string(fn) + ": indices and data should have the same size");
  const indptr_check pc = check_indptr(checkable_index(indptr), full);
  CUSCI_EXPECTS(pc.first == 0, value_error, std::string(fn) + ": index pointer should start with 0");
  CUSCI_EXPECTS(pc.last >= 0 && pc.last <= indices.size(), value_error,
                std::string(fn) + ": Last value of index pointer should be less than the size of index and data arrays");
  if (full) {
    if (pc.last > 0) {
      const bounds_check bc = check_indices(checkable_index(indices), pc.last, N);
      CUSCI_EXPECTS(!bc.too_big, value_error, std::string(fn) + ": indices must be < " + std::to_string(N));
      CUSCI_EXPECTS(!bc.negative, value_error, std::string(fn) + ": indices must be >= 0");
    }
    CUSCI_EXPECTS(!pc.decreasing, value_error, std::string(fn) + ": indptr must be a non-decreasing sequence");
  }
}

// canonical compressed arrays from COO triplets (major/minor chosen by the caller)
compressed_arrays compress_coo(const ndarray& data, const ndarray& major, const ndarray& minor, std::int64_t M,
                               std::int64_t N) {
  sorted_entries se = sort_entries(data, major, minor, M, N, true, true);
  return {se.data, se.minor, se.indptr};
}

compressed_arrays compressed_sum_duplicates(const compressed_arrays& a, std::int64_t M, std::int64_t N) {
  ndarray major = expand_indptr(a.indptr, a.indices.size());
  return compress_coo(a.data, major, a.indices, M, N);
}

compressed_arrays compressed_sort(const compressed_arrays& a, std::int64_t M, std::int64_t N) {
  ndarray major = expand_indptr(a.indptr, a.indices.size());
  sorted_entries se = sort_entries(a.data, major, a.indices, M, N, false, true);
  return {se.data, se.minor, se.indptr};
}

compressed_arrays compressed_eliminate_zeros(const compressed_arrays& a) {
  compacted c = compact_nonzero(a.data);
  if (c.kept == a.data.size()) return a;
  return {take_rows(a.data, c.index), take_rows(a.indices, c.index), remap_indptr(a.indptr, c.pos)};
}

ndarray compressed_toarray(const compressed_arrays& a, bool canonical, shape2 shape, bool csc, order ord) {
  const std::int64_t M = csc ? shape[1] : shape[0], N = csc ? shape[0] : shape[1];
  compressed_arrays c = canonical ? a : compressed_sum_duplicates(a, M, N);
  ndarray major = expand_indptr(c.indptr, c.indices.size());
  return csc ? scatter_dense(c.data, c.indices, major, shape, ord) : scatter_dense(c.data, major, c.indices, shape, ord);
}

coo_arrays coo_from_triplets(const char* fn, const ndarray& data, const ndarray& row, const ndarray& col,
                             const matrix_options& o, shape2& shape) {
  CUSCI_EXPECTS(data.ndim() == 1 && row.ndim() == 1 && col.ndim() == 1, value_error,
                std::string(fn) + ": coordinates and data arrays must be 1-D");
  CUSCI_EXPECTS(data.size() == row.size() && data.size() == col.size(), value_error,
                std::string(fn) + ": all index and data arrays must have the same length");
  check_index_array(fn, "row", row);
  check_index_array(fn, "col", col);
  check_value_dtype(fn, data.dtype());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  ndarray r = checkable_index(row), c = checkable_index(col);
  if (r.dtype() != c.dtype()) {
    r = r.astype(dtype::int64);
    c = c.astype(dtype::int64);
  }
  const std::int64_t nnz = data.size();
  if (o.shape) {
    check_shape(fn, *o.shape);
    shape = *o.shape;
  } else {
    CUSCI_EXPECTS(nnz > 0, value_error, std::string(fn) + ": cannot infer dimensions from zero sized index arrays");
    shape = {max_index(r) + 1, max_index(c) + 1};
  }
  const dtype it = choose_index_dtype(fn, o.index_dtype, std::max({shape[0], shape[1], nnz}));
  if (nnz > 0) {
    const coo_check chk = check_coo_indices(r, c, shape[0], shape[1]);
    if (chk.big_row || chk.big_col || chk.neg_row || chk.neg_col) {
      // Learn the offending value for SciPy's message (an error path: the extra reads do not matter).
      if (chk.big_row)
        throw value_error(std::string(fn) + ": axis 0 index " + std::to_string(max_index(r)) +
                          " exceeds matrix dimension " + std::to_string(shape[0]));
      if (chk.neg_row)
        throw value_error(std::string(fn) + ": negative axis 0 index: " +
                          std::to_string(cusci::min(r).astype(dtype::int64).item<std::int64_t>()));
      if (chk.big_col)
        throw value_error(std::string(fn) + ": axis 1 index " + std::to_string(max_index(c)) +
                          " exceeds matrix dimension " + std::to_string(shape[1]));
      throw value_error(std::string(fn) + ": negative axis 1 index: " +
                        std::to_string(cusci::min(c).astype(dtype::int64).item<std::int64_t>()));
    }
  }
  return {values_for(fn, data, o.dtype, o.copy), contiguous(r, it, o.copy), contiguous(c, it, o.copy)};
}

matrix_options sub_options(const matrix_options& o) {
  matrix_options s = o;
  s.shape.reset();
  return s;
}

}  // namespace detail

using namespace detail;

dtype get_index_dtype(std::int64_t maxval) noexcept { return maxval > int32_max ? dtype::int64 : dtype::int32; }

bool is_supported_dtype(dtype t) noexcept { return t != dtype::float16; }

// ---------------------------------------------------------------------------------------------------
// coo_matrix

coo_matrix::coo_matrix(shape2 shape, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::coo_matrix";
  check_shape(fn, shape);
  const cusci::dtype t = o.dtype ? *o.dtype : cusci::dtype::float64;
  check_value_dtype(fn, t);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max(shape[0], shape[1]));
  data_ = empty({0}, t);
  row_ = empty({0}, it);
  col_ = empty({0}, it);
  shape_ = shape;
  canonical_ = 1;
  sorted_ = 1;
}

coo_matrix::coo_matrix(const ndarray& dense, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::coo_matrix";
  ndarray d = as_2d_dense(fn, dense, o.dtype);
  const shape2 sh{d.shape(0), d.shape(1)};
  check_same_shape(fn, o.shape, sh);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max(sh[0], sh[1]));
  coo_arrays a = dense_to_coo(d, it);
  data_ = a.data;
  row_ = a.row;
  col_ = a.col;
  shape_ = sh;
  canonical_ = 1;
  sorted_ = 1;
}

coo_matrix::coo_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col, const matrix_options& o) {
  coo_arrays a = coo_from_triplets("cusci::sparse::coo_matrix", data, row_col.first, row_col.second, o, shape_);
  data_ = a.data;
  row_ = a.row;
  col_ = a.col;
}

coo_matrix::coo_matrix(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape,
                       std::optional<cusci::dtype> index_dtype)
    : coo_matrix(data, std::pair<ndarray, ndarray>{row, col}, matrix_options{.shape = shape, .index_dtype = index_dtype}) {}

coo_matrix::coo_matrix(const spmatrix& other, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::coo_matrix";
  check_same_shape(fn, o.shape, other.shape());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  *this = other.tocoo(o.copy);
  if (o.dtype && *o.dtype != dtype()) *this = astype(*o.dtype, false);
  if (o.index_dtype && *o.index_dtype != index_dtype()) {
    const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max({shape_[0], shape_[1], nnz()}));
    row_ = row_.astype(it);
    col_ = col_.astype(it);
  }
}

coo_matrix coo_matrix::from_valid(ndarray data, ndarray row, ndarray col, shape2 shape, bool canonical) {
  coo_matrix a;
  a.data_ = std::move(data);
  a.row_ = std::move(row);
  a.col_ = std::move(col);
  a.shape_ = shape;
  a.canonical_ = canonical ? 1 : 0;
  a.sorted_ = canonical ? 1 : -1;
  return a;
}

bool coo_matrix::has_sorted_indices() const {
  if (sorted_ < 0) {
    // Sorted by (row, col) <=> the CSR built from the rows (sorted) has sorted indices and the rows
    // are non-decreasing. Checked through one sort-free pass: rows non-decreasing and, within equal
    // rows, cols non-decreasing.
    if (nnz() <= 1) {
      sorted_ = 1;
    } else {
      const indptr_check rc = check_indptr(checkable_index(row_), true);  // rows non-decreasing?
      if (rc.decreasing) {
        sorted_ = 0;
      } else {
        ndarray ptr = compress_major(row_, shape_[0]);
        sorted_ = check_sorted(ptr, col_).sorted ? 1 : 0;
      }
    }
  }
  return sorted_ > 0;
}

void coo_matrix::sum_duplicates() {
  if (canonical_ > 0) return;
  sorted_entries se = sort_entries(data_, row_, col_, shape_[0], shape_[1], true, false);
  data_ = se.data;
  row_ = se.major;
  col_ = se.minor;
  canonical_ = 1;
  sorted_ = 1;
}

void coo_matrix::sort_indices() {
  if (sorted_ > 0) return;
  sorted_entries se = sort_entries(data_, row_, col_, shape_[0], shape_[1], false, false);
  data_ = se.data;
  row_ = se.major;
  col_ = se.minor;
  sorted_ = 1;
}

void coo_matrix::eliminate_zeros() {
  compacted c = compact_nonzero(data_);
  if (c.kept == nnz()) return;
  data_ = take_rows(data_, c.index);
  row_ = take_rows(row_, c.index);
  col_ = take_rows(col_, c.index);
}

void coo_matrix::check_format(bool full_check) const {
  static constexpr const char* fn = "cusci::sparse::coo_matrix::check_format";
  CUSCI_EXPECTS(data_.ndim() == 1 && row_.ndim() == 1 && col_.ndim() == 1, value_error,
                std::string(fn) + ": coordinates and data arrays must be 1-D");
  CUSCI_EXPECTS(data_.size() == row_.size() && data_.size() == col_.size(), value_error,
                std::string(fn) + ": all index and data arrays must have the same length");
  if (full_check && nnz() > 0) {
    matrix_options o{.shape = shape_, .index_dtype = index_dtype()};
    shape2 sh;
    coo_from_triplets(fn, data_, row_, col_, o, sh);
  }
}

csr_matrix coo_matrix::tocsr(bool) const {
  if (canonical_ > 0) return csr_matrix::from_valid(data_, col_, compress_major(row_, shape_[0]), shape_, true);
  compressed_arrays c = compress_coo(data_, row_, col_, shape_[0], shape_[1]);
  return csr_matrix::from_valid(c.data, c.indices, c.indptr, shape_, true);
}

csc_matrix coo_matrix::tocsc(bool) const {
  compressed_arrays c = compress_coo(data_, col_, row_, shape_[1], shape_[0]);
  return csc_matrix::from_valid(c.data, c.indices, c.indptr, shape_, true);
}

coo_matrix coo_matrix::tocoo(bool copy) const { return copy ? this->copy() : *this; }

dia_matrix coo_matrix::todia(bool) const {
  // As SciPy: data width max(col) + 1; duplicates summed (SciPy keeps one of them).
  coo_matrix c = *this;
  c.sum_duplicates();
  const std::int64_t width = c.nnz() > 0 ? max_index(c.col_) + 1 : 0;
  dia_arrays d = coo_to_dia(c.data_, c.row_, c.col_, shape_, width);
  std::vector<std::int64_t> off = to_host(d.offsets.astype(cusci::dtype::int64)).to_vector<std::int64_t>();
  return dia_matrix::from_valid(d.data, d.offsets, std::move(off), shape_);
}

bsr_matrix coo_matrix::tobsr(std::optional<shape2> blocksize, bool copy) const {
  return tocsr().tobsr(blocksize, copy);
}

ndarray coo_matrix::toarray(cusci::order ord) const {
  if (canonical_ > 0) return scatter_dense(data_, row_, col_, shape_, ord);
  sorted_entries se = sort_entries(data_, row_, col_, shape_[0], shape_[1], true, false);
  return scatter_dense(se.data, se.major, se.minor, shape_, ord);
}

coo_matrix coo_matrix::astype(cusci::dtype t, bool copy) const {
  check_value_dtype("cusci::sparse::coo_matrix::astype", t);
  if (t == dtype() && !copy) return *this;
  coo_matrix a = copy ? this->copy() : *this;
  a.data_ = data_.astype(t);
  return a;
}

coo_matrix coo_matrix::copy() const {
  coo_matrix a = *this;
  a.data_ = data_.copy();
  a.row_ = row_.copy();
  a.col_ = col_.copy();
  return a;
}

// ---------------------------------------------------------------------------------------------------
// compressed_matrix<K>: csr_matrix and csc_matrix, one implementation; CSC flips the axes.

namespace {
// The function names of the messages, and the major/minor extents of a compressed matrix of kind K.
template <compressed_kind K>
constexpr bool is_csc = K == compressed_kind::csc;
template <compressed_kind K>
struct names {
  static constexpr const char* cls = "cusci::sparse::csr_matrix";
  static constexpr const char* check_format = "cusci::sparse::csr_matrix::check_format";
  static constexpr const char* astype = "cusci::sparse::csr_matrix::astype";
};
template <>
struct names<compressed_kind::csc> {
  static constexpr const char* cls = "cusci::sparse::csc_matrix";
  static constexpr const char* check_format = "cusci::sparse::csc_matrix::check_format";
  static constexpr const char* astype = "cusci::sparse::csc_matrix::astype";
};
template <compressed_kind K>
std::int64_t major_extent(shape2 s) {
  return is_csc<K> ? s[1] : s[0];
}
template <compressed_kind K>
std::int64_t minor_extent(shape2 s) {
  return is_csc<K> ? s[0] : s[1];
}
}  // namespace

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(shape2 shape, const matrix_options& o) {
  static constexpr const char* fn = names<K>::cls;
  check_shape(fn, shape);
  const cusci::dtype t = o.dtype ? *o.dtype : cusci::dtype::float64;
  check_value_dtype(fn, t);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max(shape[0], shape[1]));
  rebind(empty({0}, t), empty({0}, it), zeros({major_extent<K>(shape) + 1}, it), 1);
  shape_ = shape;
}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const ndarray& dense, const matrix_options& o) {
  matrix_options c = o;
  c.copy = false;
  if constexpr (is_csc<K>) *this = coo_matrix(dense, c).tocsc();
  else *this = coo_matrix(dense, c).tocsr();
}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col,
                                        const matrix_options& o) {
  if constexpr (is_csc<K>) *this = coo_matrix(data, row_col, o).tocsc();
  else *this = coo_matrix(data, row_col, o).tocsr();
}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                        const matrix_options& o) {
  compressed_arrays a = compressed_from_arrays(names<K>::cls, data, indices, indptr, o, is_csc<K>, shape_);
  rebind(a.data, a.indices, a.indptr, -1);
}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                        shape2 shape, std::optional<cusci::dtype> index_dtype, bool check)
  requires(K == compressed_kind::csr)
    : compressed_matrix(data, indices, indptr, matrix_options{.shape = shape, .index_dtype = index_dtype, .check = check}) {}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const spmatrix& other, const matrix_options& o) {
  static constexpr const char* fn = names<K>::cls;
  check_same_shape(fn, o.shape, other.shape());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  if constexpr (is_csc<K>) *this = other.tocsc(o.copy);
  else *this = other.tocsr(o.copy);
  if (o.dtype && *o.dtype != this->dtype()) *this = astype(*o.dtype, false);
  if (o.index_dtype && *o.index_dtype != this->index_dtype()) {
    const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max({shape_[0], shape_[1], this->nnz()}));
    const int canon = canonical_;
    rebind(data_, indices_.astype(it), indptr_.astype(it), canon);
  }
}

template <compressed_kind K>
compressed_matrix<K> compressed_matrix<K>::from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape,
                                                      bool canonical) {
  compressed_matrix a;
  a.shape_ = shape;
  a.rebind(std::move(data), std::move(indices), std::move(indptr), canonical ? 1 : -1);
  return a;
}

template <compressed_kind K>
void compressed_matrix<K>::rebind(ndarray data, ndarray indices, ndarray indptr, int canonical) {
  data_ = std::move(data);
  indices_ = std::move(indices);
  indptr_ = std::move(indptr);
  cache_ = make_spmv_cache();
  canonical_ = static_cast<std::int8_t>(canonical);
  sorted_ = canonical > 0 ? 1 : -1;
}

template <compressed_kind K>
bool compressed_matrix<K>::has_sorted_indices() const {
  if (sorted_ < 0) {
    const sortedness s = check_sorted(indptr_, indices_);
    sorted_ = s.sorted;
    canonical_ = s.canonical;
  }
  return sorted_ > 0;
}

template <compressed_kind K>
void compressed_matrix<K>::set_has_sorted_indices(bool v) noexcept {
  sorted_ = v;
  if (!v) canonical_ = 0;
}

template <compressed_kind K>
bool compressed_matrix<K>::has_canonical_format() const {
  if (canonical_ < 0) {
    const sortedness s = check_sorted(indptr_, indices_);
    sorted_ = s.sorted;
    canonical_ = s.canonical;
  }
  return canonical_ > 0;
}

template <compressed_kind K>
void compressed_matrix<K>::set_has_canonical_format(bool v) noexcept {
  canonical_ = v;
  if (v) sorted_ = 1;
}

template <compressed_kind K>
void compressed_matrix<K>::sum_duplicates() {
  if (has_canonical_format()) return;
  compressed_arrays c =
      compressed_sum_duplicates({data_, indices_, indptr_}, major_extent<K>(shape_), minor_extent<K>(shape_));
  rebind(c.data, c.indices, c.indptr, 1);
}

template <compressed_kind K>
void compressed_matrix<K>::sort_indices() {
  if (sorted_ > 0) return;
  compressed_arrays c = compressed_sort({data_, indices_, indptr_}, major_extent<K>(shape_), minor_extent<K>(shape_));
  const int canon = canonical_;
  rebind(c.data, c.indices, c.indptr, canon > 0 ? 1 : -1);
  sorted_ = 1;
}

template <compressed_kind K>
void compressed_matrix<K>::eliminate_zeros() {
  compressed_arrays c = compressed_eliminate_zeros({data_, indices_, indptr_});
  if (c.data.size() == data_.size()) return;
  const int canon = canonical_ > 0 ? 1 : -1;
  const std::int8_t sorted = sorted_;
  rebind(c.data, c.indices, c.indptr, canon);
  if (sorted > 0) sorted_ = 1;
}

template <compressed_kind K>
void compressed_matrix<K>::prune() {
  const std::int64_t n =
      indptr_.size() > 0 ? indptr_[indptr_.size() - 1].astype(cusci::dtype::int64).item<std::int64_t>() : 0;
  CUSCI_EXPECTS(n <= indices_.size() && n <= data_.size(), value_error,
                std::string(names<K>::cls) + "::prune: indices array has fewer than nnz elements");
  if (n == data_.size() && n == indices_.size()) return;
  data_ = head(data_, n);
  indices_ = head(indices_, n);
}

template <compressed_kind K>
void compressed_matrix<K>::check_format(bool full_check) const {
  compressed_check(names<K>::check_format, data_, indices_, indptr_, major_extent<K>(shape_), minor_extent<K>(shape_), full_check);
}

template <compressed_kind K>
ndarray compressed_matrix<K>::toarray(cusci::order ord) const {
  return compressed_toarray({data_, indices_, indptr_}, has_canonical_format(), shape_, is_csc<K>, ord);
}

template <compressed_kind K>
compressed_matrix<K> compressed_matrix<K>::astype(cusci::dtype t, bool copy) const {
  check_value_dtype(names<K>::astype, t);
  if (t == this->dtype() && !copy) return *this;
  compressed_matrix a = copy ? this->copy() : *this;
  const std::int8_t s = sorted_, c = canonical_;
  a.rebind(data_.astype(t), a.indices_, a.indptr_, c);
  a.sorted_ = s;
  return a;
}

template <compressed_kind K>
compressed_matrix<K> compressed_matrix<K>::copy() const {
  compressed_matrix a = *this;
  a.rebind(data_.copy(), indices_.copy(), indptr_.copy(), canonical_);
  a.sorted_ = sorted_;
  return a;
}

template <compressed_kind K>
dia_matrix compressed_matrix<K>::todia(bool copy) const {
  return tocoo(false).todia(copy);
}

template <compressed_kind K>
csr_matrix compressed_matrix<K>::tocsr(bool copy) const {
  if constexpr (is_csc<K>) {
    compressed_arrays t = transpose_compressed(data_, indices_, indptr_, shape_[0]);
    return csr_matrix::from_valid(t.data, t.indices, t.indptr, shape_, has_canonical_format());
  } else {
    return copy ? this->copy() : *this;
  }
}

template <compressed_kind K>
csc_matrix compressed_matrix<K>::tocsc(bool copy) const {
  if constexpr (is_csc<K>) {
    return copy ? this->copy() : *this;
  } else {
    compressed_arrays t = transpose_compressed(data_, indices_, indptr_, shape_[1]);
    return csc_matrix::from_valid(t.data, t.indices, t.indptr, shape_, has_canonical_format());
  }
}

template <compressed_kind K>
coo_matrix compressed_matrix<K>::tocoo(bool copy) const {
  ndarray major = expand_indptr(indptr_, this->nnz());
  ndarray minor = copy ? indices_.copy() : indices_;
  ndarray values = copy ? data_.copy() : data_;
  if constexpr (is_csc<K>) return coo_matrix::from_valid(values, minor, major, shape_, false);
  else return coo_matrix::from_valid(values, major, minor, shape_, false);
}

// Every member defined above, for CSR and CSC (tobsr: formats_host.cpp; dot: spmv.cpp; diagonal:
// products_reduce.cpp).
template class compressed_matrix<compressed_kind::csr>;
template class compressed_matrix<compressed_kind::csc>;

}  // namespace cusci::sparse

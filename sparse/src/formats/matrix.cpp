// Host side of cusci::sparse's matrices: argument checks (all before any device work except the
// documented device-side index checks) and index dtype choice, the constructors of coo_matrix,
// csr_matrix and csc_matrix (CSR and CSC share one implementation over (major, minor) axes), and the
// members every format shares (matrix_base): conversions and format maintenance.

#include "cusci/sparse/matrix.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "common/detail.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"
#include "cusci/warnings.hpp"

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
    CUSCI_EXPECTS(indices.size() > 0, value_error, std::string(fn) + ": unable to infer matrix dimensions");
    // An empty indptr gives SciPy's negative major dimension: refused on the host, before the device
    // reduction below.
    CUSCI_EXPECTS(indptr.size() > 0, value_error,
                  std::string(fn) + ": 'shape' elements cannot be negative (an empty indptr gives -1 " +
                      (csc ? "columns)" : "rows)"));
    const std::int64_t mx = max_index(ind);
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
  compacted c = compact_nonzero(a.data);  // one flag an entry (BSR: a block)
  if (c.kept == a.indices.size()) return a;
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

void check_offsets(const char* fn, const std::vector<std::int64_t>& off, std::int64_t nd) {
  CUSCI_EXPECTS(nd == static_cast<std::int64_t>(off.size()), value_error,
                std::string(fn) + ": number of diagonals (" + std::to_string(nd) +
                    ") does not match the number of offsets (" + std::to_string(off.size()) + ")");
  std::set<std::int64_t> u(off.begin(), off.end());
  CUSCI_EXPECTS(u.size() == off.size(), value_error, std::string(fn) + ": offset array contains duplicate values");
}

void check_blocksize(const char* fn, shape2 shape, shape2 b) {
  CUSCI_EXPECTS(b[0] >= 1 && b[1] >= 1, value_error, std::string(fn) + ": invalid blocksize=" + shape_str(b));
  CUSCI_EXPECTS(shape[0] % b[0] == 0 && shape[1] % b[1] == 0, value_error,
                std::string(fn) + ": shape must be multiple of blocksize");
}

}  // namespace detail

using namespace detail;

namespace detail {
dia_matrix coo_to_dia_matrix(coo_matrix c) {
  // As SciPy: duplicates summed, data width max(col) + 1.
  c.sum_duplicates();
  const shape2 shape = c.shape();
  const std::int64_t width = c.nnz() > 0 ? max_index(c.col()) + 1 : 0;
  dia_arrays d = coo_to_dia(c.data(), c.row(), c.col(), shape, width);
  std::vector<std::int64_t> off = to_host(d.offsets.astype(cusci::dtype::int64)).to_vector<std::int64_t>();
  return dia_matrix::from_valid(d.data, d.offsets, std::move(off), shape);
}
}  // namespace detail

dtype get_index_dtype(std::int64_t maxval) noexcept { return maxval > int32_max ? dtype::int64 : dtype::int32; }

bool is_supported_dtype(dtype t) noexcept { return t != dtype::float16; }

namespace {
// The function names of the messages, for each format.
template <sparse::format F>
struct names;
template <>
struct names<sparse::format::coo> {
  static constexpr const char* cls = "cusci::sparse::coo_matrix";
  static constexpr const char* astype = "cusci::sparse::coo_matrix::astype";
  static constexpr const char* check_format = "cusci::sparse::coo_matrix::check_format";
};
template <>
struct names<sparse::format::csr> {
  static constexpr const char* cls = "cusci::sparse::csr_matrix";
  static constexpr const char* astype = "cusci::sparse::csr_matrix::astype";
  static constexpr const char* check_format = "cusci::sparse::csr_matrix::check_format";
};
template <>
struct names<sparse::format::csc> {
  static constexpr const char* cls = "cusci::sparse::csc_matrix";
  static constexpr const char* astype = "cusci::sparse::csc_matrix::astype";
  static constexpr const char* check_format = "cusci::sparse::csc_matrix::check_format";
};
template <>
struct names<sparse::format::dia> {
  static constexpr const char* cls = "cusci::sparse::dia_matrix";
  static constexpr const char* astype = "cusci::sparse::dia_matrix::astype";
  static constexpr const char* check_format = "cusci::sparse::dia_matrix::check_format";
};
template <>
struct names<sparse::format::bsr> {
  static constexpr const char* cls = "cusci::sparse::bsr_matrix";
  static constexpr const char* astype = "cusci::sparse::bsr_matrix::astype";
  static constexpr const char* check_format = "cusci::sparse::bsr_matrix::check_format";
};
}  // namespace

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
  coo_matrix a{raw_tag{}};
  a.data_ = std::move(data);
  a.row_ = std::move(row);
  a.col_ = std::move(col);
  a.shape_ = shape;
  a.canonical_ = canonical ? 1 : 0;
  a.sorted_ = canonical ? 1 : -1;
  return a;
}

// ---------------------------------------------------------------------------------------------------
// compressed_matrix<K>: csr_matrix and csc_matrix, one implementation; CSC flips the axes.

namespace {
// The format and the major/minor extents of a compressed matrix of kind K.
template <compressed_kind K>
constexpr bool is_csc = K == compressed_kind::csc;
template <compressed_kind K>
constexpr sparse::format format_of = is_csc<K> ? sparse::format::csc : sparse::format::csr;
template <compressed_kind K>
std::int64_t major_extent(shape2 s) {
  return is_csc<K> ? s[1] : s[0];
}
}  // namespace

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(shape2 shape, const matrix_options& o) {
  static constexpr const char* fn = names<format_of<K>>::cls;
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
  compressed_arrays a = compressed_from_arrays(names<format_of<K>>::cls, data, indices, indptr, o, is_csc<K>, shape_);
  rebind(a.data, a.indices, a.indptr, -1);
}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                        shape2 shape, std::optional<cusci::dtype> index_dtype, bool check)
  requires(K == compressed_kind::csr)
    : compressed_matrix(data, indices, indptr, matrix_options{.shape = shape, .index_dtype = index_dtype, .check = check}) {}

template <compressed_kind K>
compressed_matrix<K>::compressed_matrix(const spmatrix& other, const matrix_options& o) {
  static constexpr const char* fn = names<format_of<K>>::cls;
  check_same_shape(fn, o.shape, other.shape());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  if constexpr (is_csc<K>) *this = other.tocsc(o.copy);
  else *this = other.tocsr(o.copy);
  if (o.dtype && *o.dtype != this->dtype()) *this = this->astype(*o.dtype, false);
  if (o.index_dtype && *o.index_dtype != this->index_dtype()) {
    const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max({shape_[0], shape_[1], this->nnz()}));
    const int canon = canonical_;
    rebind(data_, indices_.astype(it), indptr_.astype(it), canon);
  }
}

template <compressed_kind K>
compressed_matrix<K> compressed_matrix<K>::from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape,
                                                      bool canonical) {
  compressed_matrix a{raw_tag{}};
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
void compressed_matrix<K>::set_has_sorted_indices(bool v) noexcept {
  sorted_ = v;
  if (!v) canonical_ = 0;
}

template <compressed_kind K>
void compressed_matrix<K>::set_has_canonical_format(bool v) noexcept {
  canonical_ = v;
  if (v) sorted_ = 1;
}

// Every member defined above, for CSR and CSC (diagonal: products_reduce.cpp).
template class compressed_matrix<compressed_kind::csr>;
template class compressed_matrix<compressed_kind::csc>;

// ---------------------------------------------------------------------------------------------------
// matrix_base: the members every format shares, one definition each. Where the formats differ, the
// definition has a branch per format (COO, CSR and CSC, DIA, BSR); CSR, CSC and BSR share the
// compressed code over (major, minor) index extents. dot(): sparse/src/products/spmv.cpp.

namespace {
constexpr bool is_compressed(sparse::format f) { return f == sparse::format::csr || f == sparse::format::csc; }

// (major, minor) extents of the index arrays of a CSR, CSC or BSR matrix (BSR: in blocks).
template <sparse::format F, class M>
shape2 index_extents(const M& a) {
  const shape2 s = a.shape();
  if constexpr (F == sparse::format::bsr) return {s[0] / a.blocksize()[0], s[1] / a.blocksize()[1]};
  else if constexpr (F == sparse::format::csc) return {s[1], s[0]};
  else return s;
}

// SciPy's estimate_blocksize (scipy/sparse/_spfuncs.py), efficiency 0.7.
shape2 estimate_blocksize(const csr_matrix& A) {
  if (A.nnz() == 0) return {1, 1};
  const double nnz = static_cast<double>(A.nnz()), high = (1.0 + 0.7) / 2.0;
  const auto [M, N] = A.shape();
  coo_matrix c = A.tocoo();
  auto eff = [&](std::int64_t b) {
    if (M % b != 0 || N % b != 0) return 0.0;
    return nnz / (static_cast<double>(b * b) * static_cast<double>(count_blocks(c.row(), c.col(), b, b, A.shape())));
  };
  const double e22 = eff(2), e33 = eff(3);
  if (e22 > high && e33 > high) return eff(6) > 0.7 ? shape2{6, 6} : shape2{3, 3};
  const double e44 = eff(4);
  if (e44 > 0.7) return {4, 4};
  if (e22 > 0.7) return {2, 2};
  return {1, 1};
}
}  // namespace

template <class Derived, sparse::format F>
csr_matrix matrix_base<Derived, F>::tocsr(bool copy) const {
  const Derived& a = self();
  if constexpr (F == sparse::format::csr) {
    return copy ? this->copy() : a;
  } else if constexpr (F == sparse::format::csc) {
    compressed_arrays t = transpose_compressed(data_, a.indices_, a.indptr_, shape_[0]);
    return csr_matrix::from_valid(t.data, t.indices, t.indptr, shape_, a.has_canonical_format());
  } else if constexpr (F == sparse::format::coo) {
    if (a.canonical_ > 0) return csr_matrix::from_valid(data_, a.col_, compress_major(a.row_, shape_[0]), shape_, true);
    compressed_arrays c = compress_coo(data_, a.row_, a.col_, shape_[0], shape_[1]);
    return csr_matrix::from_valid(c.data, c.indices, c.indptr, shape_, true);
  } else if constexpr (F == sparse::format::dia) {
    return tocoo().tocsr();
  } else {
    compressed_arrays c = bsr_to_csr(data_, a.indices_, a.indptr_, shape_[0], a.blocksize_[0], a.blocksize_[1]);
    return csr_matrix::from_valid(c.data, c.indices, c.indptr, shape_, false);
  }
}

template <class Derived, sparse::format F>
csc_matrix matrix_base<Derived, F>::tocsc(bool copy) const {
  const Derived& a = self();
  if constexpr (F == sparse::format::csc) {
    return copy ? this->copy() : a;
  } else if constexpr (F == sparse::format::csr) {
    compressed_arrays t = transpose_compressed(data_, a.indices_, a.indptr_, shape_[1]);
    return csc_matrix::from_valid(t.data, t.indices, t.indptr, shape_, a.has_canonical_format());
  } else if constexpr (F == sparse::format::coo) {
    compressed_arrays c = compress_coo(data_, a.col_, a.row_, shape_[1], shape_[0]);
    return csc_matrix::from_valid(c.data, c.indices, c.indptr, shape_, true);
  } else if constexpr (F == sparse::format::dia) {
    return tocoo().tocsc();
  } else {
    return tocsr().tocsc();
  }
}

template <class Derived, sparse::format F>
coo_matrix matrix_base<Derived, F>::tocoo(bool copy) const {
  const Derived& a = self();
  if constexpr (F == sparse::format::coo) {
    return copy ? this->copy() : a;
  } else if constexpr (is_compressed(F)) {
    ndarray major = expand_indptr(a.indptr_, a.nnz());
    ndarray minor = copy ? a.indices_.copy() : a.indices_;
    ndarray values = copy ? data_.copy() : data_;
    if constexpr (F == sparse::format::csc) return coo_matrix::from_valid(values, minor, major, shape_, false);
    else return coo_matrix::from_valid(values, major, minor, shape_, false);
  } else if constexpr (F == sparse::format::dia) {  // fresh arrays: copy changes nothing
    const cusci::dtype it = get_index_dtype(std::max({shape_[0], shape_[1], a.nnz()}));
    coo_arrays c = dia_to_coo(data_, a.offsets_, shape_, it);
    // SciPy 1.18 converts DIA through CSR: entries in row-major order, canonical (the positions of
    // distinct diagonals are distinct, so nothing is summed).
    sorted_entries s = sort_entries(c.data, c.row, c.col, shape_[0], shape_[1], false, false);
    return coo_matrix::from_valid(s.data, s.major, s.minor, shape_, true);
  } else {  // BSR: fresh arrays
    coo_arrays c = bsr_to_coo(data_, a.indices_, a.indptr_, a.blocksize_[0], a.blocksize_[1]);
    return coo_matrix::from_valid(c.data, c.row, c.col, shape_, false);
  }
}

template <class Derived, sparse::format F>
dia_matrix matrix_base<Derived, F>::todia(bool copy) const {
  if constexpr (F == sparse::format::dia) {
    return copy ? this->copy() : self();
  } else if constexpr (F == sparse::format::coo) {  // fresh arrays
    dia_matrix r = coo_to_dia_matrix(self());
    // SciPy's coo todia warns past 100 diagonals (its transpose of a DIA matrix does not go through
    // todia, and neither does cusci's: coo_to_dia_matrix directly).
    if (r.offsets_host().size() > 100)
      warn("SparseEfficiencyWarning", "cusci::sparse::coo_matrix::todia",
           "Constructing a DIA matrix with " + std::to_string(r.offsets_host().size()) + " diagonals is inefficient");
    return r;
  } else {
    return tocoo().todia();
  }
}

template <class Derived, sparse::format F>
bsr_matrix matrix_base<Derived, F>::tobsr(std::optional<shape2> blocksize, bool copy) const {
  if constexpr (F == sparse::format::bsr) {
    if (!blocksize || *blocksize == self().blocksize()) return copy ? this->copy() : self();
    return tocsr().tobsr(blocksize);
  } else if constexpr (F == sparse::format::csr) {  // fresh arrays
    static constexpr const char* fn = "cusci::sparse::csr_matrix::tobsr";
    const shape2 b = blocksize ? *blocksize : estimate_blocksize(self());
    check_blocksize(fn, shape_, b);
    coo_matrix c = tocoo();
    compressed_arrays a = coo_to_bsr(c.data(), c.row(), c.col(), shape_, b[0], b[1]);
    return bsr_matrix::from_valid(a.data, a.indices, a.indptr, shape_, true);
  } else {
    return tocsr().tobsr(blocksize, copy);
  }
}

template <class Derived, sparse::format F>
ndarray matrix_base<Derived, F>::toarray(cusci::order ord) const {
  const Derived& a = self();
  if constexpr (F == sparse::format::coo) {
    if (a.canonical_ > 0) return scatter_dense(data_, a.row_, a.col_, shape_, ord);
    sorted_entries se = sort_entries(data_, a.row_, a.col_, shape_[0], shape_[1], true, false);
    return scatter_dense(se.data, se.major, se.minor, shape_, ord);
  } else if constexpr (is_compressed(F)) {
    return compressed_toarray({data_, a.indices_, a.indptr_}, a.has_canonical_format(), shape_,
                              F == sparse::format::csc, ord);
  } else if constexpr (F == sparse::format::dia) {
    coo_matrix c = tocoo();
    return scatter_dense(c.data(), c.row(), c.col(), shape_, ord);  // no duplicates in DIA
  } else {
    return tocoo().toarray(ord);  // duplicate blocks summed there
  }
}

template <class Derived, sparse::format F>
spmatrix matrix_base<Derived, F>::asformat(sparse::format f, bool copy) const {
  return spmatrix(self()).asformat(f, copy);
}

template <class Derived, sparse::format F>
Derived matrix_base<Derived, F>::astype(cusci::dtype t, bool copy) const {
  check_value_dtype(names<F>::astype, t);
  if (t == dtype() && !copy) return self();
  Derived a = copy ? this->copy() : self();
  ndarray values = data_.astype(t);
  if constexpr (F == sparse::format::coo || F == sparse::format::dia) {
    a.data_ = std::move(values);
  } else {  // CSR, CSC, BSR: a fresh descriptor cache for the new values; the flags kept
    const std::int8_t sorted = a.sorted_;
    a.rebind(std::move(values), a.indices_, a.indptr_, a.canonical_);
    a.sorted_ = sorted;
  }
  return a;
}

template <class Derived, sparse::format F>
Derived matrix_base<Derived, F>::copy() const {
  Derived a = self();
  if constexpr (F == sparse::format::coo) {
    a.data_ = data_.copy();
    a.row_ = a.row_.copy();
    a.col_ = a.col_.copy();
  } else if constexpr (F == sparse::format::dia) {
    a.data_ = data_.copy();
    a.offsets_ = a.offsets_.copy();
  } else {  // CSR, CSC, BSR: a fresh descriptor cache for the new arrays; the flags kept
    const std::int8_t sorted = a.sorted_;
    a.rebind(data_.copy(), a.indices_.copy(), a.indptr_.copy(), a.canonical_);
    a.sorted_ = sorted;
  }
  return a;
}

template <class Derived, sparse::format F>
bool matrix_base<Derived, F>::has_sorted_indices() const noexcept(F == sparse::format::dia) {
  const Derived& a = self();
  if constexpr (F == sparse::format::dia) {
    return std::is_sorted(a.offsets_host_.begin(), a.offsets_host_.end());
  } else if constexpr (F == sparse::format::coo) {
    if (a.sorted_ < 0) {
      // Sorted by (row, col) <=> rows non-decreasing and, within equal rows, cols non-decreasing:
      // one sort-free pass over the rows, then over the CSR built from them.
      if (a.nnz() <= 1) {
        a.sorted_ = 1;
      } else if (check_indptr(checkable_index(a.row_), true).decreasing) {
        a.sorted_ = 0;
      } else {
        ndarray ptr = compress_major(a.row_, shape_[0]);
        a.sorted_ = check_sorted(ptr, a.col_).sorted ? 1 : 0;
      }
    }
    return a.sorted_ > 0;
  } else {  // CSR, CSC, BSR: learns has_canonical_format() too
    if (a.sorted_ < 0) {
      const sortedness s = check_sorted(a.indptr_, a.indices_);
      a.sorted_ = s.sorted;
      a.canonical_ = s.canonical;
    }
    return a.sorted_ > 0;
  }
}

template <class Derived, sparse::format F>
bool matrix_base<Derived, F>::has_canonical_format() const
    noexcept(F == sparse::format::coo || F == sparse::format::dia) {
  const Derived& a = self();
  if constexpr (F == sparse::format::coo) {
    return a.canonical_ > 0;  // SciPy's flag
  } else if constexpr (F == sparse::format::dia) {
    return has_sorted_indices();
  } else {  // CSR, CSC, BSR: learns has_sorted_indices() too
    if (a.canonical_ < 0) {
      const sortedness s = check_sorted(a.indptr_, a.indices_);
      a.sorted_ = s.sorted;
      a.canonical_ = s.canonical;
    }
    return a.canonical_ > 0;
  }
}

template <class Derived, sparse::format F>
void matrix_base<Derived, F>::sum_duplicates() {
  Derived& a = self();
  if constexpr (F == sparse::format::dia) {
    sort_indices();  // offsets are distinct: sorting is all there is to do
  } else if constexpr (F == sparse::format::coo) {
    if (a.canonical_ > 0) return;
    sorted_entries se = sort_entries(data_, a.row_, a.col_, shape_[0], shape_[1], true, false);
    data_ = se.data;
    a.row_ = se.major;
    a.col_ = se.minor;
    a.canonical_ = 1;
    a.sorted_ = 1;
  } else {
    if (has_canonical_format()) return;
    const shape2 ext = index_extents<F>(a);
    compressed_arrays c = compressed_sum_duplicates({data_, a.indices_, a.indptr_}, ext[0], ext[1]);
    a.rebind(c.data, c.indices, c.indptr, 1);
  }
}

template <class Derived, sparse::format F>
void matrix_base<Derived, F>::sort_indices() {
  Derived& a = self();
  if constexpr (F == sparse::format::dia) {
    if (has_sorted_indices()) return;
    const std::vector<std::int64_t>& host = a.offsets_host_;
    std::vector<std::int64_t> perm(host.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
    std::sort(perm.begin(), perm.end(), [&](std::int64_t x, std::int64_t y) { return host[x] < host[y]; });
    std::vector<std::int64_t> off(perm.size());
    for (std::size_t i = 0; i < perm.size(); ++i) off[i] = host[perm[i]];
    data_ = take_rows(data_, asarray(perm));
    a.offsets_ = asarray(off).astype(a.offsets_.dtype());
    a.offsets_host_ = std::move(off);
  } else if constexpr (F == sparse::format::coo) {
    if (a.sorted_ > 0) return;
    sorted_entries se = sort_entries(data_, a.row_, a.col_, shape_[0], shape_[1], false, false);
    data_ = se.data;
    a.row_ = se.major;
    a.col_ = se.minor;
    a.sorted_ = 1;
  } else {
    if (a.sorted_ > 0) return;
    const shape2 ext = index_extents<F>(a);
    compressed_arrays c = compressed_sort({data_, a.indices_, a.indptr_}, ext[0], ext[1]);
    const int canon = a.canonical_;
    a.rebind(c.data, c.indices, c.indptr, canon > 0 ? 1 : -1);
    a.sorted_ = 1;
  }
}

template <class Derived, sparse::format F>
void matrix_base<Derived, F>::eliminate_zeros() {
  Derived& a = self();
  if constexpr (F == sparse::format::dia) {
    // A diagonal is kept when any of its in-matrix values is nonzero: the offsets of the DIA form of
    // the nonzero entries (tocoo() drops the zeros), the data width kept.
    coo_matrix c = tocoo();
    if (c.nnz() == 0) {
      data_ = empty({0, 0}, dtype());
      a.offsets_ = empty({0}, a.offsets_.dtype());
      a.offsets_host_.clear();
      return;
    }
    const dia_matrix r = coo_to_dia_matrix(c);
    const std::set<std::int64_t> present(r.offsets_host().begin(), r.offsets_host().end());
    std::vector<std::int64_t> idx, off;
    for (std::size_t i = 0; i < a.offsets_host_.size(); ++i)
      if (present.count(a.offsets_host_[i])) {
        idx.push_back(static_cast<std::int64_t>(i));
        off.push_back(a.offsets_host_[i]);
      }
    if (off.size() == a.offsets_host_.size()) return;
    data_ = take_rows(data_, asarray(idx));
    a.offsets_ = asarray(off).astype(a.offsets_.dtype());
    a.offsets_host_ = std::move(off);
  } else if constexpr (F == sparse::format::coo) {
    compacted c = compact_nonzero(data_);
    if (c.kept == a.nnz()) return;
    data_ = take_rows(data_, c.index);
    a.row_ = take_rows(a.row_, c.index);
    a.col_ = take_rows(a.col_, c.index);
  } else {  // CSR, CSC: entries; BSR: blocks
    compressed_arrays c = compressed_eliminate_zeros({data_, a.indices_, a.indptr_});
    if (c.indices.size() == a.indices_.size()) return;
    const int canon = a.canonical_ > 0 ? 1 : -1;
    const std::int8_t sorted = a.sorted_;
    a.rebind(c.data, c.indices, c.indptr, canon);
    if (sorted > 0) a.sorted_ = 1;
  }
}

template <class Derived, sparse::format F>
void matrix_base<Derived, F>::prune() noexcept(F == sparse::format::coo || F == sparse::format::dia) {
  if constexpr (F != sparse::format::coo && F != sparse::format::dia) {  // COO, DIA: no slack to trim
    Derived& a = self();
    const ndarray& ptr = a.indptr_;
    const std::int64_t n = ptr.size() > 0 ? ptr[ptr.size() - 1].astype(cusci::dtype::int64).item<std::int64_t>() : 0;
    CUSCI_EXPECTS(n <= a.indices_.size() && n <= data_.shape(0), value_error,
                  std::string(names<F>::cls) + "::prune: indices array has fewer than nnz elements");
    if (n == a.indices_.size() && n == data_.shape(0)) return;
    if constexpr (F == sparse::format::bsr) data_ = data_[{slice{0, n}}];  // [nnzb, R, C]
    else data_ = head(data_, n);
    a.indices_ = head(a.indices_, n);
  }
}

template <class Derived, sparse::format F>
void matrix_base<Derived, F>::check_format(bool full_check) const {
  const Derived& a = self();
  if constexpr (F == sparse::format::coo) {
    static constexpr const char* fn = names<F>::check_format;
    CUSCI_EXPECTS(data_.ndim() == 1 && a.row_.ndim() == 1 && a.col_.ndim() == 1, value_error,
                  std::string(fn) + ": coordinates and data arrays must be 1-D");
    CUSCI_EXPECTS(data_.size() == a.row_.size() && data_.size() == a.col_.size(), value_error,
                  std::string(fn) + ": all index and data arrays must have the same length");
    if (full_check && a.nnz() > 0) {
      matrix_options o{.shape = shape_, .index_dtype = index_dtype()};
      shape2 sh;
      coo_from_triplets(fn, data_, a.row_, a.col_, o, sh);
    }
  } else if constexpr (is_compressed(F)) {
    const shape2 ext = index_extents<F>(a);
    compressed_check(names<F>::check_format, data_, a.indices_, a.indptr_, ext[0], ext[1], full_check);
  } else if constexpr (F == sparse::format::dia) {  // host only; nothing more to check fully
    static constexpr const char* fn = names<F>::check_format;
    CUSCI_EXPECTS(a.offsets_.ndim() == 1, value_error, std::string(fn) + ": offsets array must have rank 1");
    CUSCI_EXPECTS(data_.ndim() == 2, value_error, std::string(fn) + ": data array must have rank 2");
    check_offsets(fn, a.offsets_host_, data_.shape(0));
  } else {  // BSR: the constructor's checks on the stored arrays
    const bsr_options o{.shape = shape_, .index_dtype = index_dtype(), .check = full_check};
    const bsr_matrix checked(data_, a.indices_, a.indptr_, o);
    (void)checked;
  }
}

// Every member defined above, for the five formats (dot: spmv.cpp).
template class matrix_base<coo_matrix, sparse::format::coo>;
template class matrix_base<csr_matrix, sparse::format::csr>;
template class matrix_base<csc_matrix, sparse::format::csc>;
template class matrix_base<dia_matrix, sparse::format::dia>;
template class matrix_base<bsr_matrix, sparse::format::bsr>;

}  // namespace cusci::sparse

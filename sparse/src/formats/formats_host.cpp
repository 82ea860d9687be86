// Host side of cusci::sparse's dia_matrix and bsr_matrix (constructors and their own members),
// spmatrix and the format names. The members every format shares: matrix.cpp.

#include <limits>
#include <algorithm>
#include <string>
#include <vector>

#include "common/detail.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

namespace detail {
// Defined in matrix.cpp.
void check_shape(const char* fn, shape2 shape);
void check_index_array(const char* fn, const char* name, const ndarray& a);
dtype choose_index_dtype(const char* fn, std::optional<dtype> requested, std::int64_t maxval);
ndarray checkable_index(const ndarray& a);
ndarray contiguous(const ndarray& a, dtype dt, bool copy);
ndarray values_for(const char* fn, const ndarray& data, std::optional<dtype> want, bool copy);
std::int64_t max_index(const ndarray& a);
void check_same_shape(const char* fn, std::optional<shape2> want, shape2 got);
void check_offsets(const char* fn, const std::vector<std::int64_t>& off, std::int64_t nd);
void check_blocksize(const char* fn, shape2 shape, shape2 b);
}  // namespace detail

using namespace detail;

sparse::format format_from_string(std::string_view s) {
  if (s == "csr") return sparse::format::csr;
  if (s == "csc") return sparse::format::csc;
  if (s == "coo") return sparse::format::coo;
  if (s == "dia") return sparse::format::dia;
  if (s == "bsr") return sparse::format::bsr;
  CUSCI_EXPECTS(s != "lil" && s != "dok", not_implemented_error,
                "cusci::sparse::format_from_string: format " + std::string(s) +
                    " is a host format, not a device one: build a " + std::string(s) +
                    "_matrix from the matrix (cusci/sparse/" + std::string(s) + ".hpp)");
  throw value_error("cusci::sparse::format_from_string: Format " + std::string(s) + " is unknown.");
}

std::string_view to_string(sparse::format f) noexcept {
  switch (f) {
    case sparse::format::csr: return "csr";
    case sparse::format::csc: return "csc";
    case sparse::format::coo: return "coo";
    case sparse::format::dia: return "dia";
    case sparse::format::bsr: return "bsr";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------
// dia_matrix

dia_matrix::dia_matrix(shape2 shape, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::dia_matrix";
  check_shape(fn, shape);
  const cusci::dtype t = o.dtype ? *o.dtype : cusci::dtype::float64;
  check_value_dtype(fn, t);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max(shape[0], shape[1]));
  data_ = empty({0, 0}, t);
  offsets_ = empty({0}, it);
  shape_ = shape;
}

dia_matrix::dia_matrix(const ndarray& dense, const matrix_options& o) {
  matrix_options c = o;
  c.copy = false;
  *this = coo_matrix(dense, c).todia();
}

dia_matrix::dia_matrix(const ndarray& data, const ndarray& offsets, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::dia_matrix";
  CUSCI_EXPECTS(o.shape.has_value(), value_error, std::string(fn) + ": expected a shape argument");
  check_shape(fn, *o.shape);
  check_index_array(fn, "offsets", offsets);
  CUSCI_EXPECTS(offsets.ndim() <= 1, value_error, std::string(fn) + ": offsets array must have rank 1");
  ndarray d = data;
  if (d.ndim() == 0) d = d.reshape({1, 1});
  else if (d.ndim() == 1) d = d.reshape({1, d.shape(0)});
  CUSCI_EXPECTS(d.ndim() == 2, value_error, std::string(fn) + ": data array must have rank 2");
  check_value_dtype(fn, d.dtype());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max((*o.shape)[0], (*o.shape)[1]));
  ndarray off = offsets.ndim() == 0 ? offsets.reshape({1}) : offsets;
  offsets_host_ = to_host(off.astype(cusci::dtype::int64)).to_vector<std::int64_t>();
  check_offsets(fn, offsets_host_, d.shape(0));
  // Offsets are stored in the index dtype: one outside int32 would wrap around (2^32 + 1 becoming the
  // first superdiagonal). SciPy raises OverflowError converting such offsets to int32; value_error here.
  if (it == cusci::dtype::int32)
    for (std::int64_t v : offsets_host_)
      CUSCI_EXPECTS(v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max(),
                    value_error,
                    std::string(fn) + ": offset " + std::to_string(v) + " out of bounds for the int32 index dtype");
  data_ = values_for(fn, d, o.dtype, o.copy);
  offsets_ = contiguous(off, it, o.copy);
  shape_ = *o.shape;
}

dia_matrix::dia_matrix(const spmatrix& other, const matrix_options& o) {
  static constexpr const char* fn = "cusci::sparse::dia_matrix";
  check_same_shape(fn, o.shape, other.shape());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  *this = other.todia(o.copy);
  if (o.dtype && *o.dtype != dtype()) *this = astype(*o.dtype, false);
  if (o.index_dtype && *o.index_dtype != index_dtype())
    offsets_ = offsets_.astype(choose_index_dtype(fn, o.index_dtype, std::max(shape_[0], shape_[1])));
}

dia_matrix dia_matrix::from_valid(ndarray data, ndarray offsets, std::vector<std::int64_t> offsets_host, shape2 shape) {
  dia_matrix a{raw_tag{}};
  a.data_ = std::move(data);
  a.offsets_ = std::move(offsets);
  a.offsets_host_ = std::move(offsets_host);
  a.shape_ = shape;
  return a;
}

std::int64_t dia_matrix::nnz() const noexcept {
  const std::int64_t M = shape_[0], N = shape_[1];
  const std::int64_t L = std::min(data_.ndim() == 2 ? data_.shape(1) : 0, N);
  std::int64_t n = 0;
  for (std::int64_t k : offsets_host_) n += std::max<std::int64_t>(std::min(M + k, L) - std::max<std::int64_t>(k, 0), 0);
  return n;
}

// ---------------------------------------------------------------------------------------------------
// bsr_matrix

bsr_matrix::bsr_matrix(shape2 shape, const bsr_options& o) {
  static constexpr const char* fn = "cusci::sparse::bsr_matrix";
  check_shape(fn, shape);
  const shape2 b = o.blocksize ? *o.blocksize : shape2{1, 1};
  check_blocksize(fn, shape, b);
  const cusci::dtype t = o.dtype ? *o.dtype : cusci::dtype::float64;
  check_value_dtype(fn, t);
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max(shape[0], shape[1]));
  shape_ = shape;
  blocksize_ = b;
  rebind(empty({0, b[0], b[1]}, t), empty({0}, it), zeros({shape[0] / b[0] + 1}, it), 1);
}

bsr_matrix::bsr_matrix(const ndarray& dense, const bsr_options& o) {
  const csr_matrix c(dense, matrix_options{.shape = o.shape, .dtype = o.dtype, .index_dtype = o.index_dtype});
  *this = c.tobsr(o.blocksize);
}

bsr_matrix::bsr_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col, const bsr_options& o) {
  const coo_matrix c(data, row_col, matrix_options{.shape = o.shape, .dtype = o.dtype, .index_dtype = o.index_dtype});
  *this = c.tocsr().tobsr(o.blocksize);
}

bsr_matrix::bsr_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, const bsr_options& o) {
  static constexpr const char* fn = "cusci::sparse::bsr_matrix";
  CUSCI_EXPECTS(indices.ndim() == 1 && indptr.ndim() == 1, value_error,
                std::string(fn) + ": indices, and indptr should be 1-D");
  CUSCI_EXPECTS(data.ndim() == 3, value_error, std::string(fn) + ": data should be 3-D");
  check_index_array(fn, "indices", indices);
  check_index_array(fn, "indptr", indptr);
  check_value_dtype(fn, data.dtype());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  const shape2 b{data.shape(1), data.shape(2)};
  if (o.blocksize)
    CUSCI_EXPECTS(*o.blocksize == b, value_error,
                  std::string(fn) + ": mismatching blocksize=" + shape_str(*o.blocksize) + " vs " + shape_str(b));
  ndarray ptr = checkable_index(indptr), ind = checkable_index(indices);
  if (o.shape) {
    check_shape(fn, *o.shape);
    shape_ = *o.shape;
  } else {
    CUSCI_EXPECTS(indices.size() > 0, value_error, std::string(fn) + ": unable to infer matrix dimensions");
    // An empty indptr gives SciPy's negative row count: refused here, on the host, before the
    // device reduction below (and before anything reads indptr's first element).
    CUSCI_EXPECTS(indptr.size() > 0, value_error,
                  std::string(fn) + ": 'shape' elements cannot be negative (an empty indptr gives " +
                      std::to_string(-b[0]) + " rows)");
    shape_ = {(indptr.size() - 1) * b[0], (max_index(ind) + 1) * b[1]};
    check_shape(fn, shape_);
  }
  CUSCI_EXPECTS(b[0] >= 1 && b[1] >= 1, value_error, std::string(fn) + ": invalid blocksize=" + shape_str(b));
  check_blocksize(fn, shape_, b);
  const std::int64_t MB = shape_[0] / b[0], NB = shape_[1] / b[1];
  CUSCI_EXPECTS(indptr.size() == MB + 1, value_error,
                std::string(fn) + ": index pointer size (" + std::to_string(indptr.size()) + ") should be (" +
                    std::to_string(MB + 1) + ")");
  CUSCI_EXPECTS(indices.size() == data.shape(0), value_error,
                std::string(fn) + ": indices and data should have the same size");
  const indptr_check pc = check_indptr(ptr, o.check);
  CUSCI_EXPECTS(pc.first == 0, value_error, std::string(fn) + ": index pointer should start with 0");
  CUSCI_EXPECTS(pc.last >= 0 && pc.last <= indices.size(), value_error,
                std::string(fn) + ": Last value of index pointer should be less than the size of index and data arrays");
  const std::int64_t nb = pc.last;
  if (o.check) {
    if (nb > 0) {
      const bounds_check bc = check_indices(ind, nb, NB);
      CUSCI_EXPECTS(!bc.too_big, value_error,
                    std::string(fn) + ": column index values must be < " + std::to_string(NB) + " (now max " +
                        std::to_string(max_index(head(ind, nb))) + ")");
      CUSCI_EXPECTS(!bc.negative, value_error, std::string(fn) + ": column index values must be >= 0");
    }
    CUSCI_EXPECTS(!pc.decreasing, value_error, std::string(fn) + ": index pointer values must form a non-decreasing sequence");
  }
  const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max({MB, NB, nb}));
  ndarray d = values_for(fn, data, o.dtype, o.copy);
  if (nb != d.shape(0)) d = d[{slice{0, nb}}];
  blocksize_ = b;
  rebind(d, head(contiguous(ind, it, o.copy), nb), contiguous(ptr, it, o.copy), -1);
}

bsr_matrix::bsr_matrix(const spmatrix& other, const bsr_options& o) {
  static constexpr const char* fn = "cusci::sparse::bsr_matrix";
  check_same_shape(fn, o.shape, other.shape());
  if (o.dtype) check_value_dtype(fn, *o.dtype);
  *this = other.tobsr(o.blocksize, o.copy);
  if (o.dtype && *o.dtype != dtype()) *this = astype(*o.dtype, false);
  if (o.index_dtype && *o.index_dtype != index_dtype()) {
    const cusci::dtype it = choose_index_dtype(fn, o.index_dtype, std::max({shape_[0], shape_[1], nnz_blocks()}));
    rebind(data_, indices_.astype(it), indptr_.astype(it), canonical_);
  }
}

bsr_matrix bsr_matrix::from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape, bool canonical) {
  bsr_matrix a{raw_tag{}};
  a.shape_ = shape;
  a.blocksize_ = {data.shape(1), data.shape(2)};
  a.rebind(std::move(data), std::move(indices), std::move(indptr), canonical ? 1 : -1);
  return a;
}

void bsr_matrix::rebind(ndarray data, ndarray indices, ndarray indptr, int canonical) {
  data_ = std::move(data);
  indices_ = std::move(indices);
  indptr_ = std::move(indptr);
  cache_ = make_spmv_cache();
  canonical_ = static_cast<std::int8_t>(canonical);
  sorted_ = canonical > 0 ? 1 : -1;
}

void bsr_matrix::set_has_sorted_indices(bool v) noexcept {
  sorted_ = v;
  if (!v) canonical_ = 0;
}
void bsr_matrix::set_has_canonical_format(bool v) noexcept {
  canonical_ = v;
  if (v) sorted_ = 1;
}

// ---------------------------------------------------------------------------------------------------
// spmatrix

spmatrix::spmatrix(csr_matrix a) : v_(std::move(a)) {}
spmatrix::spmatrix(csc_matrix a) : v_(std::move(a)) {}
spmatrix::spmatrix(coo_matrix a) : v_(std::move(a)) {}
spmatrix::spmatrix(dia_matrix a) : v_(std::move(a)) {}
spmatrix::spmatrix(bsr_matrix a) : v_(std::move(a)) {}

sparse::format spmatrix::format() const noexcept {
  return std::visit([](const auto& m) { return m.format(); }, v_);
}
shape2 spmatrix::shape() const noexcept {
  return std::visit([](const auto& m) { return m.shape(); }, v_);
}
std::int64_t spmatrix::nnz() const noexcept {
  return std::visit([](const auto& m) { return m.nnz(); }, v_);
}
cusci::dtype spmatrix::dtype() const noexcept {
  return std::visit([](const auto& m) { return m.dtype(); }, v_);
}
cusci::dtype spmatrix::index_dtype() const noexcept {
  return std::visit([](const auto& m) { return m.index_dtype(); }, v_);
}

void spmatrix::throw_wrong_format(int wanted) const {
  static constexpr const char* names[] = {"csr", "csc", "coo", "dia", "bsr"};
  throw type_error(std::string("cusci::sparse::spmatrix::get: expected a ") + names[wanted] + " matrix, got " +
                   std::string(to_string(format())));
}

spmatrix spmatrix::asformat(sparse::format f, bool copy) const {
  switch (f) {
    case sparse::format::csr: return tocsr(copy);
    case sparse::format::csc: return tocsc(copy);
    case sparse::format::coo: return tocoo(copy);
    case sparse::format::dia: return todia(copy);
    case sparse::format::bsr: return tobsr({}, copy);
  }
  return *this;
}

spmatrix spmatrix::asformat(std::string_view f, bool copy) const {
  if (f.empty()) return copy ? this->copy() : *this;
  return asformat(format_from_string(f), copy);
}
csr_matrix spmatrix::tocsr(bool copy) const {
  return std::visit([&](const auto& m) { return m.tocsr(copy); }, v_);
}
csc_matrix spmatrix::tocsc(bool copy) const {
  return std::visit([&](const auto& m) { return m.tocsc(copy); }, v_);
}
coo_matrix spmatrix::tocoo(bool copy) const {
  return std::visit([&](const auto& m) { return m.tocoo(copy); }, v_);
}
dia_matrix spmatrix::todia(bool copy) const {
  return std::visit([&](const auto& m) { return m.todia(copy); }, v_);
}
bsr_matrix spmatrix::tobsr(std::optional<shape2> blocksize, bool copy) const {
  return std::visit([&](const auto& m) { return m.tobsr(blocksize, copy); }, v_);
}
ndarray spmatrix::toarray(cusci::order ord) const {
  return std::visit([&](const auto& m) { return m.toarray(ord); }, v_);
}
spmatrix spmatrix::astype(cusci::dtype t, bool copy) const {
  return std::visit([&](const auto& m) { return spmatrix(m.astype(t, copy)); }, v_);
}
spmatrix spmatrix::copy() const {
  return std::visit([](const auto& m) { return spmatrix(m.copy()); }, v_);
}
bool spmatrix::has_sorted_indices() const {
  return std::visit([](const auto& m) { return static_cast<bool>(m.has_sorted_indices()); }, v_);
}
bool spmatrix::has_canonical_format() const {
  return std::visit([](const auto& m) { return static_cast<bool>(m.has_canonical_format()); }, v_);
}
void spmatrix::sum_duplicates() {
  std::visit([](auto& m) { m.sum_duplicates(); }, v_);
}
void spmatrix::sort_indices() {
  std::visit([](auto& m) { m.sort_indices(); }, v_);
}
spmatrix spmatrix::sorted_indices() const {
  return std::visit([](const auto& m) { return spmatrix(m.sorted_indices()); }, v_);
}
void spmatrix::eliminate_zeros() {
  std::visit([](auto& m) { m.eliminate_zeros(); }, v_);
}
void spmatrix::prune() {
  std::visit([](auto& m) { m.prune(); }, v_);
}
void spmatrix::check_format(bool full_check) const {
  std::visit([&](const auto& m) { m.check_format(full_check); }, v_);
}

}  // namespace cusci::sparse

// lil_matrix: per-row sorted column lists and value lists on the host (SciPy's lil_matrix), and its
// conversions to the device formats.

#include <algorithm>
#include <cstring>
#include <string>

#include "common/detail.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/lil.hpp"
#include "incremental/incremental_detail.hpp"

namespace cusci::sparse {

namespace inc = detail::incremental;

namespace {
// Host bytes a row costs before it holds anything (its two empty vectors).
constexpr std::size_t row_bytes = sizeof(std::vector<std::int64_t>) + sizeof(std::vector<std::byte>);
}  // namespace

// --- construction --------------------------------------------------------------------------------

lil_matrix::lil_matrix(no_init, shape2 shape, cusci::dtype dtype) {
  static constexpr const char* fn = "cusci::sparse::lil_matrix";
  inc::check_shape2(fn, shape);
  inc::check_dtype(fn, dtype);
  cusci::detail::checked_host_count(shape[0], row_bytes, fn, "rows");
  shape_ = shape;
  dtype_ = dtype;
  item_ = itemsize(dtype);
  rows_.resize(static_cast<std::size_t>(shape[0]));
  vals_.resize(static_cast<std::size_t>(shape[0]));
}

lil_matrix::lil_matrix(shape2 shape, cusci::dtype dtype) : lil_matrix(no_init{}, shape, dtype) {}

void lil_matrix::fill_from_csr(const std::vector<std::int64_t>& indptr, const std::vector<std::int64_t>& indices,
                               const std::byte* vals) {
  for (std::size_t r = 0; r + 1 < indptr.size(); ++r) {
    const auto a = static_cast<std::size_t>(indptr[r]), b = static_cast<std::size_t>(indptr[r + 1]);
    rows_[r].assign(indices.begin() + static_cast<std::ptrdiff_t>(a), indices.begin() + static_cast<std::ptrdiff_t>(b));
    vals_[r].assign(vals + a * item_, vals + b * item_);
  }
  nnz_ = indptr.empty() ? 0 : indptr.back();
}

namespace {
// Row pointers of row-major sorted triplets.
std::vector<std::int64_t> indptr_of(const std::vector<std::int64_t>& row, std::int64_t m) {
  std::vector<std::int64_t> ptr(static_cast<std::size_t>(m) + 1, 0);
  for (const std::int64_t r : row) ++ptr[static_cast<std::size_t>(r) + 1];
  for (std::size_t k = 1; k < ptr.size(); ++k) ptr[k] += ptr[k - 1];
  return ptr;
}
}  // namespace

lil_matrix::lil_matrix(const spmatrix& other, std::optional<cusci::dtype> dtype)
    : lil_matrix(no_init{}, other.shape(), dtype ? *dtype : other.dtype()) {
  CUSCI_NVTX_SCOPE("cusci::sparse::lil_matrix");
  const inc::host_triplets h = inc::download_canonical(other, dtype);
  fill_from_csr(indptr_of(h.row, shape_[0]), h.col, h.val.data());
}

namespace {
shape2 lil_dense_shape(const char* fn, const ndarray& dense) {
  CUSCI_EXPECTS(dense.ndim() == 1 || dense.ndim() == 2, value_error,
                std::string(fn) + ": expected a 1-D or 2-D dense array, got shape " +
                    cusci::detail::shape_str(dense.shape()));
  return dense.ndim() == 1 ? shape2{1, dense.shape(0)} : shape2{dense.shape(0), dense.shape(1)};
}
}  // namespace

lil_matrix::lil_matrix(const ndarray& dense, std::optional<cusci::dtype> dtype)
    : lil_matrix(no_init{}, lil_dense_shape("cusci::sparse::lil_matrix", dense), dtype ? *dtype : dense.dtype()) {
  CUSCI_NVTX_SCOPE("cusci::sparse::lil_matrix");
  inc::check_dtype("cusci::sparse::lil_matrix", dense.dtype());
  const csr_matrix c(dense, matrix_options{.dtype = dtype});
  const inc::host_triplets h = inc::download_canonical(c, {});
  fill_from_csr(indptr_of(h.row, shape_[0]), h.col, h.val.data());
}

lil_matrix::lil_matrix(shape2 shape, const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                       const host_array& data, std::optional<cusci::dtype> dtype) {
  static constexpr const char* fn = "cusci::sparse::lil_matrix";
  const inc::host_triplets h = inc::canonical_triplets(fn, shape, row, col, data, dtype);
  *this = lil_matrix(no_init{}, shape, dtype ? *dtype : data.dtype());
  fill_from_csr(indptr_of(h.row, shape_[0]), h.col, h.val.data());
}

// --- element and row access ----------------------------------------------------------------------

scalar lil_matrix::get(std::int64_t i, std::int64_t j) const {
  static constexpr const char* fn = "cusci::sparse::lil_matrix::get";
  i = inc::wrap_index(fn, "row", i, shape_[0]);
  j = inc::wrap_index(fn, "column", j, shape_[1]);
  const auto& r = rows_[static_cast<std::size_t>(i)];
  const auto it = std::lower_bound(r.begin(), r.end(), j);
  if (it == r.end() || *it != j) {
    const std::byte zero[16]{};
    return inc::decode(zero, dtype_);
  }
  return inc::decode(vals_[static_cast<std::size_t>(i)].data() + static_cast<std::size_t>(it - r.begin()) * item_,
                     dtype_);
}

void lil_matrix::set(std::int64_t i, std::int64_t j, const scalar& value) {
  static constexpr const char* fn = "cusci::sparse::lil_matrix::set";
  i = inc::wrap_index(fn, "row", i, shape_[0]);
  j = inc::wrap_index(fn, "column", j, shape_[1]);
  std::byte buf[16];
  inc::encode(fn, value, dtype_, buf);
  auto& r = rows_[static_cast<std::size_t>(i)];
  auto& v = vals_[static_cast<std::size_t>(i)];
  const auto it = std::lower_bound(r.begin(), r.end(), j);
  const std::size_t k = static_cast<std::size_t>(it - r.begin());
  const bool found = it != r.end() && *it == j;
  if (inc::is_zero(buf, dtype_)) {
    if (found) {
      r.erase(it);
      v.erase(v.begin() + static_cast<std::ptrdiff_t>(k * item_),
              v.begin() + static_cast<std::ptrdiff_t>((k + 1) * item_));
      --nnz_;
    }
    return;
  }
  if (found) {
    std::memcpy(v.data() + k * item_, buf, item_);
    return;
  }
  r.insert(it, j);
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(k * item_), buf, buf + item_);
  ++nnz_;
}

void lil_matrix::setrow(std::int64_t i, const host_array& values) {
  static constexpr const char* fn = "cusci::sparse::lil_matrix::setrow";
  i = inc::wrap_index(fn, "row", i, shape_[0]);
  inc::check_dtype(fn, values.dtype());
  const std::int64_t n = shape_[1], len = values.size();
  const bool shape_ok = (values.ndim() == 1 && (len == n || len == 1)) ||
                        (values.ndim() == 2 && values.shape()[0] == 1 && (len == n || len == 1)) ||
                        (values.ndim() == 0);
  CUSCI_EXPECTS(shape_ok, value_error,
                std::string(fn) + ": shape mismatch in assignment: cannot broadcast " +
                    cusci::detail::shape_str(values.shape()) + " to (1, " + std::to_string(n) + ")");
  const std::vector<std::byte> v =
      inc::cast_values(static_cast<const std::byte*>(values.data()), len, values.dtype(), dtype_);
  auto& r = rows_[static_cast<std::size_t>(i)];
  auto& d = vals_[static_cast<std::size_t>(i)];
  nnz_ -= static_cast<std::int64_t>(r.size());
  r.clear();
  d.clear();
  for (std::int64_t j = 0; j < n; ++j) {
    const std::byte* p = v.data() + (len == 1 ? 0 : static_cast<std::size_t>(j) * item_);
    if (inc::is_zero(p, dtype_)) continue;
    r.push_back(j);
    d.insert(d.end(), p, p + item_);
  }
  nnz_ += static_cast<std::int64_t>(r.size());
}

lil_matrix lil_matrix::getrow(std::int64_t i) const {
  const std::int64_t w = i < 0 ? i + shape_[0] : i;
  CUSCI_EXPECTS(w >= 0 && w < shape_[0], index_error, "cusci::sparse::lil_matrix::getrow: row index out of bounds");
  lil_matrix out(shape2{1, shape_[1]}, dtype_);
  out.rows_[0] = rows_[static_cast<std::size_t>(w)];
  out.vals_[0] = vals_[static_cast<std::size_t>(w)];
  out.nnz_ = static_cast<std::int64_t>(out.rows_[0].size());
  return out;
}

lil_matrix lil_matrix::getcol(std::int64_t j) const {
  const std::int64_t w = j < 0 ? j + shape_[1] : j;
  CUSCI_EXPECTS(w >= 0 && w < shape_[1], index_error,
                "cusci::sparse::lil_matrix::getcol: column index out of bounds");
  lil_matrix out(shape2{shape_[0], 1}, dtype_);
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const auto& row = rows_[r];
    const auto it = std::lower_bound(row.begin(), row.end(), w);
    if (it == row.end() || *it != w) continue;
    const std::byte* p = vals_[r].data() + static_cast<std::size_t>(it - row.begin()) * item_;
    out.rows_[r].push_back(0);
    out.vals_[r].assign(p, p + item_);
    ++out.nnz_;
  }
  return out;
}

std::vector<std::vector<scalar>> lil_matrix::data() const {
  std::vector<std::vector<scalar>> out(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    out[r].reserve(rows_[r].size());
    for (std::size_t k = 0; k < rows_[r].size(); ++k) out[r].push_back(inc::decode(vals_[r].data() + k * item_, dtype_));
  }
  return out;
}

host_array lil_matrix::row_data(std::int64_t i) const {
  i = inc::wrap_index("cusci::sparse::lil_matrix::row_data", "row", i, shape_[0]);
  const auto& v = vals_[static_cast<std::size_t>(i)];
  host_array h(dtype_, shape_t{static_cast<std::int64_t>(v.size() / item_)});
  if (!v.empty()) std::memcpy(h.data(), v.data(), v.size());
  return h;
}

std::int64_t lil_matrix::count_nonzero() const {
  std::int64_t n = 0;
  for (const auto& v : vals_)
    for (std::size_t k = 0; k * item_ < v.size(); ++k)
      if (!inc::is_zero(v.data() + k * item_, dtype_)) ++n;
  return n;
}

// --- shape and copies ----------------------------------------------------------------------------

void lil_matrix::resize(shape2 shape) {
  static constexpr const char* fn = "cusci::sparse::lil_matrix::resize";
  inc::check_shape2(fn, shape);
  cusci::detail::checked_host_count(shape[0], row_bytes, fn, "rows");
  for (std::size_t r = static_cast<std::size_t>(std::min(shape[0], shape_[0])); r < rows_.size(); ++r)
    nnz_ -= static_cast<std::int64_t>(rows_[r].size());
  rows_.resize(static_cast<std::size_t>(shape[0]));
  vals_.resize(static_cast<std::size_t>(shape[0]));
  if (shape[1] < shape_[1]) {
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      auto& row = rows_[r];
      const auto it = std::lower_bound(row.begin(), row.end(), shape[1]);
      const std::size_t k = static_cast<std::size_t>(it - row.begin());
      nnz_ -= static_cast<std::int64_t>(row.size() - k);
      row.erase(it, row.end());
      vals_[r].resize(k * item_);
    }
  }
  shape_ = shape;
}

lil_matrix lil_matrix::transpose() const {
  lil_matrix out(shape2{shape_[1], shape_[0]}, dtype_);
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    for (std::size_t k = 0; k < rows_[r].size(); ++k) {
      const auto c = static_cast<std::size_t>(rows_[r][k]);
      out.rows_[c].push_back(static_cast<std::int64_t>(r));
      const std::byte* p = vals_[r].data() + k * item_;
      out.vals_[c].insert(out.vals_[c].end(), p, p + item_);
    }
  }
  out.nnz_ = nnz_;
  return out;
}

lil_matrix lil_matrix::astype(cusci::dtype t, bool /*copy*/) const {
  inc::check_dtype("cusci::sparse::lil_matrix::astype", t);
  if (t == dtype_) return *this;
  lil_matrix out(no_init{}, shape_, t);
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const std::int64_t n = static_cast<std::int64_t>(rows_[r].size());
    out.rows_[r] = rows_[r];
    out.vals_[r] = inc::cast_values(vals_[r].data(), n, dtype_, t);
  }
  out.nnz_ = nnz_;
  return out;
}

// --- conversions ---------------------------------------------------------------------------------

csr_matrix lil_matrix::tocsr(bool) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::lil_matrix::tocsr");
  const cusci::dtype it = get_index_dtype(std::max({shape_[0], shape_[1], nnz_}));
  const std::size_t m = rows_.size();
  auto build = [&](auto itag) {
    using I = typename decltype(itag)::type;
    // The rows are written straight into the staging block: one pass, one host-to-device copy.
    auto arrays = inc::upload_parts({{dtype_, nnz_}, {it, nnz_}, {it, static_cast<std::int64_t>(m) + 1}},
                                    [&](const std::vector<std::byte*>& p) {
                                      std::byte* vals = p[0];
                                      I* indices = reinterpret_cast<I*>(p[1]);
                                      I* indptr = reinterpret_cast<I*>(p[2]);
                                      std::size_t at = 0;
                                      indptr[0] = 0;
                                      for (std::size_t r = 0; r < m; ++r) {
                                        const auto& row = rows_[r];
                                        for (std::size_t k = 0; k < row.size(); ++k)
                                          indices[at + k] = static_cast<I>(row[k]);
                                        if (!vals_[r].empty())
                                          std::memcpy(vals + at * item_, vals_[r].data(), vals_[r].size());
                                        at += row.size();
                                        indptr[r + 1] = static_cast<I>(at);
                                      }
                                    });
    return csr_matrix::from_valid(arrays[0], arrays[1], arrays[2], shape_, true);
  };
  if (it == cusci::dtype::int32) return build(inc::tag<std::int32_t>{});
  return build(inc::tag<std::int64_t>{});
}

csc_matrix lil_matrix::tocsc(bool) const { return tocsr().tocsc(); }

coo_matrix lil_matrix::tocoo(bool) const { return tocsr().tocoo(); }

ndarray lil_matrix::toarray(cusci::order ord) const {
  cusci::detail::checked_size(shape_t{shape_[0], shape_[1]}, "cusci::sparse::lil_matrix::toarray", item_);
  return tocsr().toarray(ord);
}

spmatrix lil_matrix::asformat(sparse::format f, bool) const {
  switch (f) {
    case sparse::format::csr: return tocsr();
    case sparse::format::csc: return tocsc();
    case sparse::format::coo: return tocoo();
    case sparse::format::dia: return tocsr().todia();
    case sparse::format::bsr: return tocsr().tobsr();
  }
  return tocsr();
}

dok_matrix lil_matrix::todok(bool) const {
  dok_matrix out(shape_, dtype_);
  for (std::size_t r = 0; r < rows_.size(); ++r)
    for (std::size_t k = 0; k < rows_[r].size(); ++k)
      out.append_raw(static_cast<std::int64_t>(r), rows_[r][k], vals_[r].data() + k * item_);
  return out;
}

}  // namespace cusci::sparse

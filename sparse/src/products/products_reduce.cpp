// Reductions of sparse matrices with SciPy's rules (implicit zeros, duplicates summed, dtypes):
// sum, mean, max/min, argmax/argmin, count_nonzero, diagonal, setdiag, trace and linalg.norm.

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/products.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse {
namespace {

using data_fn = std::function<ndarray(const ndarray&)>;

int norm_axis(const char* fn, int axis) {
  CUSCI_EXPECTS(axis >= -2 && axis <= 1, index_error,
                std::string(fn) + ": axis must be 0, 1, -2 or -1, got " + std::to_string(axis));
  return axis < 0 ? axis + 2 : axis;
}

// SciPy's get_sum_dtype: bool and signed integers -> int64, unsigned -> uint64, others unchanged.
dtype sum_dtype(dtype t) {
  if (t == dtype::bool_ || is_signed_integer(t)) return dtype::int64;
  if (is_unsigned_integer(t)) return dtype::uint64;
  return t;
}

bool integral(dtype t) { return t == dtype::bool_ || is_integer(t); }

// The same matrix (format, structure) with data f(data).
spmatrix map_data(const spmatrix& A, const data_fn& f) {
  return A.visit([&](const auto& M) -> spmatrix {
    using M_t = std::decay_t<decltype(M)>;
    if constexpr (std::is_same_v<M_t, coo_matrix>)
      return coo_matrix::from_valid(f(M.data()), M.row(), M.col(), M.shape(), M.has_canonical_format());
    else if constexpr (std::is_same_v<M_t, dia_matrix>)
      return dia_matrix::from_valid(f(M.data()), M.offsets(), M.offsets_host(), M.shape());
    else
      return M_t::from_valid(f(M.data()), M.indices(), M.indptr(), M.shape());
  });
}

// A CSR form (DIA and BSR converted), keeping CSR/CSC/COO as they are, with duplicates summed in the
// value dtype (bool: or; integers wrap) on a private handle (A is not changed). SciPy reduces the
// deduplicated data (`_deduped_data`, `abs`, `power`, `astype` and `sum` canonicalize first), so a
// duplicated bool entry counts once and the norms see |a + b|, not |a| + |b|.
spmatrix sum_form(const spmatrix& A) {
  spmatrix c = (A.holds<dia_matrix>() || A.holds<bsr_matrix>()) ? spmatrix(A.tocsr()) : A;
  if (c.nnz() > 0) c.sum_duplicates();
  return c;
}

// Sum of f(data) (f returns the accumulator dtype: int64, uint64, float32/64, complex64/128) over all
// entries or an axis; duplicates add up naturally.
ndarray sum_impl(const spmatrix& A0, std::optional<int> axis, dtype acc, const data_fn& f) {
  const spmatrix A = sum_form(A0);
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  if (!axis) {
    if (A.nnz() == 0) return zeros({}, acc);
    return A.visit([&](const auto& M) { return cusci::sum(f(M.data())); }).astype(acc, false);
  }
  const int ax = *axis;
  const std::int64_t len = ax == 0 ? n : m;
  ndarray out = zeros({len}, acc);
  A.visit([&](const auto& M) {
    using M_t = std::decay_t<decltype(M)>;
    if (M.nnz() == 0) return;
    const ndarray d = f(M.data());
    if constexpr (std::is_same_v<M_t, coo_matrix>) {
      detail::scatter_sum(d, ax == 0 ? M.col() : M.row(), out);
    } else if constexpr (std::is_same_v<M_t, csr_matrix>) {
      if (ax == 1) detail::line_sum(d, M.indptr(), out);
      else detail::scatter_sum(d, M.indices(), out);
    } else if constexpr (std::is_same_v<M_t, csc_matrix>) {
      if (ax == 0) detail::line_sum(d, M.indptr(), out);
      else detail::scatter_sum(d, M.indices(), out);
    }
  });
  return ax == 0 ? out.reshape({1, n}) : out.reshape({m, 1});
}

// A canonical COO form (sorted by (row, col), duplicates summed) on a private handle.
coo_matrix canonical_coo(const spmatrix& A) {
  coo_matrix c = A.tocoo();
  if (!c.has_canonical_format()) c.sum_duplicates();
  return c;
}
// A canonical CSR (major 1) or CSC (major 0) form: indptr, indices, data.
struct lines {
  ndarray data, indices, indptr;
};
lines canonical_lines(const spmatrix& A, int axis) {
  if (axis == 0) {
    csc_matrix c = A.tocsc();
    if (!c.has_canonical_format()) c.sum_duplicates();
    return {c.data(), c.indices(), c.indptr()};
  }
  csr_matrix c = A.tocsr();
  if (!c.has_canonical_format()) c.sum_duplicates();
  return {c.data(), c.indices(), c.indptr()};
}

std::complex<double> read_value(const ndarray& a, std::int64_t i) {
  return a[i].astype(dtype::complex128).item<std::complex<double>>();
}
bool beats_zero(std::complex<double> v, bool is_max) {
  if (is_max) return v.real() > 0 || (v.real() == 0 && v.imag() > 0);
  return v.real() < 0 || (v.real() == 0 && v.imag() < 0);
}

ndarray minmax_all(const spmatrix& A, bool is_max) {
  const char* fn = is_max ? "cusci::sparse::max" : "cusci::sparse::min";
  const shape2 s = A.shape();
  CUSCI_EXPECTS(s[0] > 0 && s[1] > 0, value_error, std::string(fn) + ": zero-size array to reduction operation");
  const ndarray zero = zeros({}, A.dtype());
  if (A.nnz() == 0) return zero;
  const coo_matrix c = canonical_coo(A);
  if (c.nnz() == 0) return zero;
  ndarray r = is_max ? cusci::max(c.data()) : cusci::min(c.data());
  if (static_cast<double>(c.nnz()) != static_cast<double>(s[0]) * static_cast<double>(s[1]))
    r = is_max ? cusci::maximum(zero, r) : cusci::minimum(zero, r);
  return r;
}

coo_matrix minmax_axis(const spmatrix& A, int axis, bool is_max) {
  const char* fn = is_max ? "cusci::sparse::max" : "cusci::sparse::min";
  const int ax = norm_axis(fn, axis);
  const shape2 s = A.shape();
  CUSCI_EXPECTS(s[ax] > 0, value_error, std::string(fn) + ": zero-size array to reduction operation");
  const std::int64_t M = s[1 - ax], N = s[ax];
  ndarray out = empty({M}, A.dtype());
  const lines l = canonical_lines(A, ax);
  if (l.data.size() == 0) out.fill(0);
  else detail::line_minmax(l.data, l.indptr, N, is_max, out);
  return coo_matrix(ax == 0 ? out.reshape({1, M}) : out.reshape({M, 1}));
}

std::int64_t argminmax_all(const spmatrix& A, bool is_max) {
  const std::string name = is_max ? "argmax" : "argmin";
  const std::string fn = "cusci::sparse::" + name;
  const shape2 s = A.shape();
  CUSCI_EXPECTS(s[0] > 0 && s[1] > 0, value_error, fn + ": Cannot apply " + name + " to an empty matrix.");
  if (A.nnz() == 0) return 0;
  const coo_matrix c = canonical_coo(A);
  if (c.nnz() == 0) return 0;
  const std::int64_t e = (is_max ? cusci::argmax(c.data()) : cusci::argmin(c.data())).astype(dtype::int64)
                             .item<std::int64_t>();
  const std::complex<double> v = read_value(c.data(), e);
  const bool full = static_cast<double>(c.nnz()) == static_cast<double>(s[0]) * static_cast<double>(s[1]);
  if (beats_zero(v, is_max) || full) {
    const std::int64_t r = c.row()[e].astype(dtype::int64).item<std::int64_t>();
    const std::int64_t col = c.col()[e].astype(dtype::int64).item<std::int64_t>();
    return r * s[1] + col;
  }
  const std::int64_t z = detail::first_missing_flat(c.row(), c.col(), s[1]);
  if (v == std::complex<double>(0.0, 0.0)) return std::min(z, e);
  return z;
}

ndarray argminmax_axis(const spmatrix& A, int axis, bool is_max) {
  const std::string name = is_max ? "argmax" : "argmin";
  const std::string fn = "cusci::sparse::" + name;
  const int ax = norm_axis(fn.c_str(), axis);
  const shape2 s = A.shape();
  CUSCI_EXPECTS(s[ax] > 0, value_error, fn + ": Cannot apply " + name + " along a zero-sized dimension.");
  const std::int64_t M = s[1 - ax], N = s[ax];
  ndarray out = empty({M}, dtype::int64);
  const lines l = canonical_lines(A, ax);
  if (l.data.size() == 0) out.fill(0);
  else detail::line_argminmax(l.data, l.indices, l.indptr, N, is_max, out);
  return ax == 0 ? out.reshape({1, M}) : out.reshape({M, 1});
}

ndarray setdiag_impl(const spmatrix& A, const ndarray& vals, bool broadcast, std::int64_t k) {
  static constexpr const char* fn = "cusci::sparse::setdiag";
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  (void)fn;
  const std::int64_t full = k >= 0 ? std::min(m, n - k) : std::min(m + k, n);
  const std::int64_t len = broadcast ? full : std::min(full, vals.size());
  return len > 0 ? (broadcast ? vals.broadcast_to({len}) : vals[{slice{0, len}}]) : ndarray(empty({0}, A.dtype()));
}

spmatrix setdiag_any(const spmatrix& A, const ndarray& values, bool broadcast, std::int64_t k) {
  static constexpr const char* fn = "cusci::sparse::setdiag";
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  CUSCI_EXPECTS(!((k > 0 && k >= n) || (k < 0 && -k >= m)), value_error,
                std::string(fn) + ": k exceeds array dimensions (k = " + std::to_string(k) + ", shape " +
                    cusci::detail::shape_str(A.shape()) + ")");
  if (m == 0 || n == 0) return A.copy();
  const ndarray x = setdiag_impl(A, values.astype(A.dtype(), false), broadcast, k);
  const std::int64_t len = x.size();
  if (len == 0) return A.copy();
  const coo_matrix c = A.tocoo();
  const ndarray row = c.row().astype(dtype::int64, false), col = c.col().astype(dtype::int64, false);
  // Entries on the positions being set are replaced (dropped here, re-added below).
  const ndarray on = cusci::equal(cusci::subtract(col, row), scalar(k));
  const ndarray in_range = cusci::less(k >= 0 ? row : col, scalar(len));
  const ndarray keep = cusci::logical_not(cusci::logical_and(on, in_range));
  const ndarray i = cusci::arange(scalar(k >= 0 ? std::int64_t{0} : -k), scalar((k >= 0 ? 0 : -k) + len),
                                  scalar(std::int64_t{1}), dtype::int64);
  const ndarray j = cusci::add(i, scalar(k));
  const ndarray d = cusci::concatenate({cusci::compress(keep, c.data()), x.copy()});
  const ndarray r = cusci::concatenate({cusci::compress(keep, row), i});
  const ndarray cc = cusci::concatenate({cusci::compress(keep, col), j});
  const coo_matrix out(d, {r, cc}, matrix_options{.shape = A.shape(), .index_dtype = A.index_dtype()});
  if (A.format() == format::coo) return out;
  if (A.format() == format::bsr) return out.tobsr(A.get<bsr_matrix>().blocksize());
  return out.asformat(A.format());
}

}  // namespace

ndarray sum(const spmatrix& A, std::optional<int> axis, std::optional<cusci::dtype> dt) {
  static constexpr const char* fn = "cusci::sparse::sum";
  if (axis) axis = norm_axis(fn, *axis);
  if (dt) {
    const dtype acc = sum_dtype(*dt);
    return sum_impl(A, axis, acc, [&](const ndarray& d) { return d.astype(*dt, false).astype(acc, false); })
        .astype(*dt, false);
  }
  const dtype acc = sum_dtype(A.dtype());
  return sum_impl(A, axis, acc, [&](const ndarray& d) { return d.astype(acc, false); });
}

ndarray mean(const spmatrix& A, std::optional<int> axis, std::optional<cusci::dtype> dt) {
  static constexpr const char* fn = "cusci::sparse::mean";
  if (axis) axis = norm_axis(fn, *axis);
  const bool ints = integral(A.dtype());
  const dtype res = dt ? *dt : (ints ? dtype::float64 : A.dtype());
  const dtype inter = ints ? dtype::float64 : res;
  const shape2 s = A.shape();
  const double denom = !axis ? static_cast<double>(s[0]) * static_cast<double>(s[1])
                             : static_cast<double>(s[*axis == 0 ? 0 : 1]);
  // SciPy multiplies by 1.0 / denom, a ZeroDivisionError for an empty reduction.
  CUSCI_EXPECTS(denom != 0, value_error,
                std::string(fn) + ": division by zero: mean over an empty axis of a matrix of shape " +
                    cusci::detail::shape_str(s));
  const dtype acc = sum_dtype(res);
  return sum_impl(A, axis, acc,
                  [&](const ndarray& d) {
                    // SciPy: (A.astype(inter) * (1.0 / denom)).sum(): a product with the reciprocal.
                    return cusci::multiply(d.astype(inter, false), scalar(1.0 / denom)).astype(acc, false);
                  })
      .astype(res, false);
}

ndarray max(const spmatrix& A) { return minmax_all(A, true); }
ndarray min(const spmatrix& A) { return minmax_all(A, false); }
coo_matrix max(const spmatrix& A, int axis) { return minmax_axis(A, axis, true); }
coo_matrix min(const spmatrix& A, int axis) { return minmax_axis(A, axis, false); }
ndarray argmax(const spmatrix& A) { return asarray(std::vector<std::int64_t>{argminmax_all(A, true)}, shape_t{}); }
ndarray argmin(const spmatrix& A) { return asarray(std::vector<std::int64_t>{argminmax_all(A, false)}, shape_t{}); }
ndarray argmax(const spmatrix& A, int axis) { return argminmax_axis(A, axis, true); }
ndarray argmin(const spmatrix& A, int axis) { return argminmax_axis(A, axis, false); }

ndarray count_nonzero(const spmatrix& A) {
  if (A.nnz() == 0) return zeros(shape_t{}, dtype::int64);
  const coo_matrix c = canonical_coo(A);
  if (c.nnz() == 0) return zeros(shape_t{}, dtype::int64);
  return cusci::count_nonzero(c.data()).astype(dtype::int64, false);
}

ndarray count_nonzero(const spmatrix& A, int axis) {
  const int ax = norm_axis("cusci::sparse::count_nonzero", axis);
  const std::int64_t len = A.shape()[ax == 0 ? 1 : 0];
  ndarray out = zeros({len}, dtype::int64);
  if (A.nnz() == 0) return out;
  const coo_matrix c = canonical_coo(A);
  if (c.nnz() == 0) return out;
  const ndarray nz = cusci::not_equal(c.data(), zeros({}, c.dtype())).astype(dtype::int64);
  detail::scatter_sum(nz, ax == 0 ? c.col() : c.row(), out);
  return out;
}

ndarray diagonal(const spmatrix& A, std::int64_t k) {
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  if (k <= -m || k >= n) return empty({0}, A.dtype());
  const std::int64_t len = k >= 0 ? std::min(m, n - k) : std::min(m + k, n);
  ndarray out = empty({len}, A.dtype());
  if (A.nnz() == 0) {
    out.fill(0);
    return out;
  }
  if (A.holds<csc_matrix>()) {
    const auto& C = A.get<csc_matrix>();
    detail::csr_diagonal_k(C.data(), C.indices(), C.indptr(), n, -k, out);
    return out;
  }
  const csr_matrix C = A.holds<csr_matrix>() ? A.get<csr_matrix>() : A.tocsr();
  detail::csr_diagonal_k(C.data(), C.indices(), C.indptr(), m, k, out);
  return out;
}

spmatrix setdiag(const spmatrix& A, const ndarray& values, std::int64_t k) {
  CUSCI_EXPECTS(values.ndim() <= 1, value_error,
                "cusci::sparse::setdiag: values must be 0-d or 1-D, got " + std::to_string(values.ndim()) + "-D");
  return setdiag_any(A, values.ndim() == 0 ? values : values, values.ndim() == 0, k);
}

spmatrix setdiag(const spmatrix& A, const scalar& value, std::int64_t k) {
  return setdiag_any(A, full({}, value, A.dtype()), true, k);
}

ndarray trace(const spmatrix& A, std::int64_t offset) { return cusci::sum(diagonal(A, offset)); }

}  // namespace cusci::sparse

namespace cusci::sparse::linalg {

norm_ord norm_ord_from_string(std::string_view s) {
  if (s == "fro" || s == "f") return norm_ord::fro();
  if (s == "inf") return norm_ord(std::numeric_limits<double>::infinity());
  if (s == "-inf") return norm_ord(-std::numeric_limits<double>::infinity());
  throw value_error("cusci::sparse::linalg::norm: Invalid norm order '" + std::string(s) + "'.");
}

ndarray norm(const spmatrix& A0, norm_ord ord, std::optional<int> axis) {
  static constexpr const char* fn = "cusci::sparse::linalg::norm";
  const double inf = std::numeric_limits<double>::infinity();
  const dtype t = A0.dtype();
  if (!axis && ord.kind == norm_kind::fro) {  // np.linalg.norm of the summed entries
    const dtype rt = (t == dtype::float32 || t == dtype::complex64) ? dtype::float32 : dtype::float64;
    if (A0.nnz() == 0) return zeros({}, rt);
    const spmatrix A = A0.holds<dia_matrix>() ? spmatrix(A0.tocsr()) : A0;
    const coo_matrix c = canonical_coo(A);
    const ndarray a = cusci::abs(c.data()).astype(rt, false);
    return cusci::sqrt(cusci::sum(cusci::multiply(a, a)));
  }
  // SciPy: values castable to float64 are cast first; abs of complex gives the real dtype.
  const dtype at = is_complex(t) ? real_dtype(t) : dtype::float64;
  const spmatrix A = sum_form(A0);  // abs(x) and x.power(p) act on the deduplicated data
  const data_fn absf = [&](const ndarray& d) { return cusci::abs(d).astype(at, false); };
  if (!axis) {
    if (ord.p == 2 || ord.p == -2)
      throw not_implemented_error(std::string(fn) + ": matrix norm ord=" + (ord.p > 0 ? "2" : "-2") +
                                  " is not implemented (SciPy: svds / NotImplementedError)");
    // max/min over the column (ord +-1) or row (ord +-inf) sums: none for a matrix with no columns / rows.
    const bool by_cols = ord.p == 1 || ord.p == -1;
    if ((ord.p == 1 || ord.p == -1 || ord.p == inf || ord.p == -inf) && A.shape()[by_cols ? 1 : 0] == 0)
      throw value_error(std::string(fn) + ": zero-size array to reduction operation " +
                        (ord.p > 0 ? "maximum" : "minimum") + " which has no identity");
    const spmatrix B = map_data(A, absf);
    if (ord.p == 1) return cusci::max(sum(B, 0));
    if (ord.p == -1) return cusci::min(sum(B, 0));
    if (ord.p == inf) return cusci::max(sum(B, 1));
    if (ord.p == -inf) return cusci::min(sum(B, 1));
    throw value_error(std::string(fn) + ": Invalid norm order for matrices.");
  }
  const int ax = norm_axis(fn, *axis);
  const double p = ord.kind == norm_kind::fro ? 2.0 : ord.p;
  if (p == 0) return count_nonzero(A, ax);
  const spmatrix B = map_data(A, absf);
  auto ravel = [](const ndarray& a) { return a.reshape({a.size()}); };
  if (p == inf) return ravel(max(B, ax).toarray());
  if (p == -inf) return ravel(min(B, ax).toarray());
  if (p == 1) return ravel(sum(B, ax));
  if (p == 2) {
    const spmatrix B2 = map_data(B, [](const ndarray& d) { return cusci::multiply(d, d); });
    return ravel(cusci::sqrt(sum(B2, ax)));
  }
  CUSCI_EXPECTS(std::isfinite(p), value_error, std::string(fn) + ": Invalid norm order for vectors.");
  const spmatrix Bp = map_data(B, [&](const ndarray& d) { return cusci::power(d, scalar(p)); });
  return cusci::power(sum(Bp, ax), scalar(1.0 / p));
}

}  // namespace cusci::sparse::linalg

namespace cusci::sparse {
// csr_matrix::diagonal() (the main diagonal), for every dtype.
template <compressed_kind K>
ndarray compressed_matrix<K>::diagonal() const
  requires(K == compressed_kind::csr)
{
  return sparse::diagonal(*this, 0);
}
template ndarray csr_matrix::diagonal() const;
}  // namespace cusci::sparse

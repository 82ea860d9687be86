// Arithmetic and comparisons of cusci::sparse matrices with SciPy 1.18's spmatrix semantics
// (scipy/sparse/_base.py, _compressed.py, _data.py): value-only operations rebuild the matrix around
// new data (SciPy's `_with_data`), sparse-with-sparse operations run the compressed row merge of
// arith_binop.cu on canonical CSR/CSC operands, dense operands go through core's ufuncs.

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>

#include "construct/arith_detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/printing.hpp"
#include "cusci/warnings.hpp"

namespace cusci::sparse::detail {
// Declared in common/detail.hpp (not included here: construct has its own detail header).
dia_matrix coo_to_dia_matrix(coo_matrix c);
}  // namespace cusci::sparse::detail

namespace cusci::sparse {
namespace {

using cusci::detail::shape_str;

void check_supported(cusci::dtype t, const char* fn) {
  if (!is_supported_dtype(t))
    throw type_error(std::string("cusci::sparse::") + fn + ": scipy.sparse does not support dtype " +
                     std::string(dtype_name(t)));
}

ndarray contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : a.copy(); }

/// SciPy's `_with_data`: A's structure (shared) around new values of A.data()'s shape.
spmatrix with_data(const spmatrix& A, const ndarray& data_in) {
  const ndarray data = contiguous(data_in);
  check_supported(data.dtype(), "arithmetic");
  return A.visit([&](const auto& M) -> spmatrix {
    using M_t = std::decay_t<decltype(M)>;
    if constexpr (std::is_same_v<M_t, coo_matrix>)
      return coo_matrix::from_valid(data, M.row(), M.col(), M.shape(), M.has_canonical_format());
    else if constexpr (std::is_same_v<M_t, dia_matrix>)
      return dia_matrix::from_valid(data, M.offsets(), M.offsets_host(), M.shape());
    else
      return M_t::from_valid(data, M.indices(), M.indptr(), M.shape());
  });
}

/// SciPy's `_deduped_data` (sum_duplicates where the format has it), on a new handle.
spmatrix deduped(const spmatrix& A) {
  spmatrix B = A;
  if (B.format() != format::dia) B.sum_duplicates();
  return B;
}

std::complex<double> value_of(const scalar& s) { return s.value<std::complex<double>>(); }
bool scalar_is_nan(const scalar& s) {
  const auto v = value_of(s);
  return std::isnan(v.real()) || std::isnan(v.imag());
}

/// Canonical CSR (or CSC when `csc`) form of A on a new handle (duplicates summed, sorted).
struct cs_form {
  ndarray data, indices, indptr;
  std::int64_t major;
};
cs_form canonical_cs(const spmatrix& A, bool csc) {
  if (csc) {
    csc_matrix C = A.tocsc();
    C.sum_duplicates();
    return {C.data(), C.indices(), C.indptr(), A.shape()[1]};
  }
  csr_matrix C = A.tocsr();
  C.sum_duplicates();
  return {C.data(), C.indices(), C.indptr(), A.shape()[0]};
}

/// SciPy's `_binopt` with A's compressed format `csc` (csr otherwise).
spmatrix binopt(const spmatrix& A, const spmatrix& B, detail::binop op, bool csc) {
  const cusci::dtype vt = promote_types(A.dtype(), B.dtype());
  check_supported(vt, "arithmetic");
  cs_form a = canonical_cs(A, csc), b = canonical_cs(B, csc);
  const bool wide = a.indices.dtype() == cusci::dtype::int64 || b.indices.dtype() == cusci::dtype::int64 ||
                    a.data.size() + b.data.size() > std::numeric_limits<std::int32_t>::max();
  const cusci::dtype it = wide ? cusci::dtype::int64 : cusci::dtype::int32;
  auto r = detail::compressed_binop(op, a.major, contiguous(a.data.astype(vt, false)), a.indices.astype(it, false),
                                    a.indptr.astype(it, false), contiguous(b.data.astype(vt, false)),
                                    b.indices.astype(it, false), b.indptr.astype(it, false));
  if (csc) return csc_matrix::from_valid(r.data, r.indices, r.indptr, A.shape(), true);
  return csr_matrix::from_valid(r.data, r.indices, r.indptr, A.shape(), true);
}

/// SciPy's bsr `_binopt` (used by +, - and the same-shape `multiply`) converts the other operand
/// to A's blocksize and returns a bsr matrix holding every block with a nonzero result entry: the
/// blocks that the (zero-free) compressed result touches, so converting it gives the same matrix.
spmatrix as_bsr_like(const spmatrix& A, spmatrix r) {
  if (A.format() != format::bsr) return r;
  return r.tobsr(A.get<bsr_matrix>().blocksize());
}

void check_same_shape(const spmatrix& A, const spmatrix& B, const char* fn) {
  if (A.shape() != B.shape())
    throw value_error(std::string("cusci::sparse::") + fn + ": inconsistent shapes " + shape_str(A.shape()) +
                      " and " + shape_str(B.shape()));
}

/// A matrix in A's compressed format when A is csr/csc, else csr (SciPy's `cs_self`).
bool cs_is_csc(const spmatrix& A) { return A.format() == format::csc; }

/// All-true bool matrix of A's shape in the compressed format `csc`/csr (SciPy's
/// `self.__class__(np.ones(shape, dtype=bool))`).
spmatrix all_true(shape2 shape, bool csc) {
  ndarray ones = cusci::ones(shape_t{shape[0], shape[1]}, cusci::dtype::bool_);
  if (csc) return csc_matrix(ones);
  return csr_matrix(ones);
}

/// SciPy's `_scalar_binopt`: op(data, s) over the deduplicated stored entries, zeros removed.
template <class Op>
spmatrix scalar_binopt(const spmatrix& A, Op&& op) {
  spmatrix cs = cs_is_csc(A) ? spmatrix(A.tocsc()) : spmatrix(A.tocsr());
  cs = deduped(cs);
  const ndarray& data = cs.visit([](const auto& M) -> const ndarray& { return M.data(); });
  spmatrix r = with_data(cs, op(data));
  r.eliminate_zeros();
  return r;
}

ndarray dense_compare(const ndarray& a, const ndarray& b, compare_op op) {
  switch (op) {
    case compare_op::eq: return cusci::equal(a, b);
    case compare_op::ne: return cusci::not_equal(a, b);
    case compare_op::lt: return cusci::less(a, b);
    case compare_op::le: return cusci::less_equal(a, b);
    case compare_op::gt: return cusci::greater(a, b);
    default: return cusci::greater_equal(a, b);
  }
}
ndarray dense_compare(const ndarray& a, const scalar& b, compare_op op) {
  switch (op) {
    case compare_op::eq: return cusci::equal(a, b);
    case compare_op::ne: return cusci::not_equal(a, b);
    case compare_op::lt: return cusci::less(a, b);
    case compare_op::le: return cusci::less_equal(a, b);
    case compare_op::gt: return cusci::greater(a, b);
    default: return cusci::greater_equal(a, b);
  }
}
/// `op(0, s)` on the host (real parts for the orderings; NaN compares false).
bool zero_compare(const scalar& s, compare_op op) {
  const auto v = value_of(s);
  switch (op) {
    case compare_op::eq: return v == std::complex<double>(0.0);
    case compare_op::ne: return v != std::complex<double>(0.0);
    case compare_op::lt: return 0.0 < v.real();
    case compare_op::le: return 0.0 <= v.real();
    case compare_op::gt: return 0.0 > v.real();
    default: return 0.0 >= v.real();
  }
}
compare_op negated(compare_op op) {
  switch (op) {
    case compare_op::eq: return compare_op::ne;
    case compare_op::ne: return compare_op::eq;
    case compare_op::lt: return compare_op::ge;
    case compare_op::le: return compare_op::gt;
    case compare_op::gt: return compare_op::le;
    default: return compare_op::lt;
  }
}
detail::binop to_binop(compare_op op) {
  switch (op) {
    case compare_op::ne: return detail::binop::ne;
    case compare_op::lt: return detail::binop::lt;
    case compare_op::le: return detail::binop::le;
    case compare_op::gt: return detail::binop::gt;
    case compare_op::ge: return detail::binop::ge;
    default: throw value_error("cusci::sparse::compare: internal: == has no direct merge");
  }
}

const ndarray& data_of(const spmatrix& A) {
  return A.visit([](const auto& M) -> const ndarray& { return M.data(); });
}

ndarray broadcast_dense(const spmatrix& A, const ndarray& D) {
  return D.broadcast_to(shape_t{A.shape()[0], A.shape()[1]});
}

}  // namespace

// ----- sums and differences ----------------------------------------------------------------------

spmatrix add(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::add");
  check_same_shape(A, B, "add");
  const bool csc = A.format() == format::csc || (A.format() == format::dia && B.format() == format::csc);
  return as_bsr_like(A, binopt(A, B, detail::binop::plus, csc));
}

ndarray add(const spmatrix& A, const ndarray& D) { return cusci::add(A.toarray(), broadcast_dense(A, D)); }

spmatrix add(const spmatrix& A, const scalar& s) {
  CUSCI_NVTX_SCOPE("cusci::sparse::add");
  if (value_of(s) == std::complex<double>(0.0)) return A.copy();
  throw not_implemented_error("cusci::sparse::add: adding a nonzero scalar to a sparse array is not supported");
}

spmatrix subtract(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::subtract");
  check_same_shape(A, B, "subtract");
  return as_bsr_like(A, binopt(A, B, detail::binop::minus, A.format() == format::csc));
}

ndarray subtract(const spmatrix& A, const ndarray& D) { return cusci::subtract(A.toarray(), broadcast_dense(A, D)); }
ndarray subtract(const ndarray& D, const spmatrix& A) { return cusci::subtract(broadcast_dense(A, D), A.toarray()); }

spmatrix subtract(const spmatrix& A, const scalar& s) {
  CUSCI_NVTX_SCOPE("cusci::sparse::subtract");
  if (value_of(s) == std::complex<double>(0.0)) return A.copy();
  throw not_implemented_error(
      "cusci::sparse::subtract: subtracting a nonzero scalar from a sparse array is not supported");
}

// ----- products and quotients ----------------------------------------------------------------------

spmatrix multiply(const spmatrix& A, const scalar& s) { return with_data(A, cusci::multiply(data_of(A), s)); }

spmatrix multiply(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::multiply");
  const bool csc = cs_is_csc(A);
  if (A.shape() == B.shape()) return as_bsr_like(A, binopt(A, B, detail::binop::elmul, csc));
  spmatrix cs = csc ? spmatrix(A.tocsc()) : spmatrix(A.tocsr());
  if (B.shape() == shape2{1, 1}) {
    const auto v = B.toarray().item<std::complex<double>>();
    return multiply(cs, scalar::of(v, B.dtype()));
  }
  if (A.shape() == shape2{1, 1}) {
    const ndarray total = cusci::sum(data_of(A));
    return multiply(B, scalar::of(total.item<std::complex<double>>(), total.dtype()));
  }
  const auto a = A.shape(), b = B.shape();
  const bool broadcastable = (a[0] == 1 && b[1] == 1) || (a[1] == 1 && b[0] == 1) || (b[0] == 1 && a[1] == b[1]) ||
                             (a[0] == 1 && a[1] == b[1]) || (b[1] == 1 && a[0] == b[0]) || (a[1] == 1 && a[0] == b[0]);
  if (broadcastable)
    throw not_implemented_error("cusci::sparse::multiply: broadcasting between sparse operands of shapes " +
                                shape_str(a) + " and " + shape_str(b) + " is not supported");
  throw value_error("cusci::sparse::multiply: inconsistent shapes " + shape_str(a) + " and " + shape_str(b));
}

spmatrix multiply(const spmatrix& A, const ndarray& D) {
  CUSCI_NVTX_SCOPE("cusci::sparse::multiply");
  if (D.ndim() > 2)
    throw not_implemented_error("cusci::sparse::multiply: dense operands of more than 2 dimensions");
  spmatrix cs = cs_is_csc(A) ? spmatrix(A.tocsc()) : spmatrix(A.tocsr());
  if (D.size() == 1) {
    const auto v = D.reshape(shape_t{1}).item<std::complex<double>>();
    return multiply(cs, scalar::of(v, D.dtype()));
  }
  const shape2 s = A.shape();
  const bool same = (D.ndim() == 2 && D.shape(0) == s[0] && D.shape(1) == s[1]) ||
                    (D.ndim() == 1 && s[0] == 1 && D.shape(0) == s[1]);
  if (!same) {
    if (s == shape2{1, 1} || s[0] == 1 || s[1] == 1 || (D.ndim() == 2 && (D.shape(0) == 1 || D.shape(1) == 1)) ||
        D.ndim() == 1)
      throw not_implemented_error("cusci::sparse::multiply: broadcasting of a dense operand of another shape "
                                  "than the sparse matrix " + shape_str(s) + " is not supported");
    throw value_error("cusci::sparse::multiply: inconsistent shapes " + shape_str(s));
  }
  const ndarray D2 = D.reshape(shape_t{s[0], s[1]});
  coo_matrix ret = cs.tocoo();
  ndarray picked = cusci::getitem(D2, {fancy_index(ret.row()), fancy_index(ret.col())});
  ndarray data = cusci::multiply(ret.data(), picked);
  check_supported(data.dtype(), "multiply");
  return coo_matrix::from_valid(contiguous(data), ret.row(), ret.col(), s, ret.has_canonical_format());
}

spmatrix divide(const spmatrix& A, const scalar& s) {
  CUSCI_NVTX_SCOPE("cusci::sparse::divide");
  const auto v = value_of(s);
  const bool complex_scalar = is_complex(s.dtype());
  const scalar inv = complex_scalar ? scalar(std::complex<double>(1.0) / v) : scalar(1.0 / v.real());
  if (!is_complex(A.dtype())) {
    spmatrix B = A;
    if (A.dtype() != cusci::dtype::float64) B = deduped(with_data(A, data_of(A).astype(cusci::dtype::float64)));
    return multiply(B, inv);
  }
  return multiply(A, inv);
}

ndarray divide(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::divide");
  check_same_shape(A, B, "divide");
  spmatrix self = A.tocsr();
  if (!is_complex(A.dtype()) && A.dtype() != cusci::dtype::float64)
    self = deduped(with_data(self, data_of(self).astype(cusci::dtype::float64)));
  spmatrix r = binopt(self, B.tocsr(), detail::binop::eldiv, false);
  const cusci::dtype out_dt = self.dtype();
  const shape_t sh{A.shape()[0], A.shape()[1]};
  ndarray out = cusci::full(sh, std::numeric_limits<double>::quiet_NaN(), out_dt);
  const ndarray b_nz = cusci::not_equal(B.toarray(), scalar(0));
  out = cusci::where(b_nz, scalar::of(0.0, out_dt), out);
  const ndarray rd = r.toarray();
  out = cusci::where(cusci::not_equal(rd, scalar(0)), rd.astype(out_dt), out);
  return out;
}

spmatrix divide(const spmatrix& A, const ndarray& D) { return multiply(A, cusci::divide(scalar(1), D)); }

// ----- maximum / minimum ---------------------------------------------------------------------------

namespace {
/// Whether NumPy's `np.maximum(0, s)` (`np.minimum` when !is_max) is truthy: SciPy then densifies.
/// NaN propagates (nan is truthy); complex values order lexicographically.
bool zero_op_truthy(const scalar& s, bool is_max) {
  const auto v = value_of(s);
  if (std::isnan(v.real()) || std::isnan(v.imag())) return true;
  const bool zero_lt_v = 0.0 < v.real() || (0.0 == v.real() && 0.0 < v.imag());
  const bool v_lt_zero = v.real() < 0.0 || (v.real() == 0.0 && v.imag() < 0.0);
  return is_max ? zero_lt_v : v_lt_zero;  // the result is s (nonzero) exactly then
}

spmatrix max_min(const spmatrix& A, const scalar& s, bool is_max) {
  const bool densifies = zero_op_truthy(s, is_max);
  if (densifies) {
    warn("SparseEfficiencyWarning", is_max ? "cusci::sparse::maximum" : "cusci::sparse::minimum",
         is_max ? "Taking maximum with a positive number results in a dense matrix."
                : "Taking minimum with a negative number results in a dense matrix.");
    ndarray dense = is_max ? cusci::maximum(A.toarray(), s) : cusci::minimum(A.toarray(), s);
    check_supported(dense.dtype(), is_max ? "maximum" : "minimum");
    return spmatrix(csr_matrix(dense)).asformat(A.format());
  }
  return scalar_binopt(A, [&](const ndarray& d) { return is_max ? cusci::maximum(d, s) : cusci::minimum(d, s); });
}
}  // namespace

spmatrix maximum(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::maximum");
  check_same_shape(A, B, "maximum");
  return binopt(A, B, detail::binop::maximum, cs_is_csc(A));
}
spmatrix maximum(const spmatrix& A, const scalar& s) { return max_min(A, s, true); }
ndarray maximum(const spmatrix& A, const ndarray& D) { return cusci::maximum(A.toarray(), D); }
spmatrix minimum(const spmatrix& A, const spmatrix& B) {
  CUSCI_NVTX_SCOPE("cusci::sparse::minimum");
  check_same_shape(A, B, "minimum");
  return binopt(A, B, detail::binop::minimum, cs_is_csc(A));
}
spmatrix minimum(const spmatrix& A, const scalar& s) { return max_min(A, s, false); }
ndarray minimum(const spmatrix& A, const ndarray& D) { return cusci::minimum(A.toarray(), D); }

// ----- value-wise functions ------------------------------------------------------------------------

spmatrix power(const spmatrix& A, const scalar& p, std::optional<cusci::dtype> dtype) {
  CUSCI_NVTX_SCOPE("cusci::sparse::power");
  if (value_of(p) == std::complex<double>(0.0))
    throw not_implemented_error(
        "cusci::sparse::power: zero power is not supported as it would densify the matrix. Use "
        "ones(A.shape, A.dtype) for this case.");
  spmatrix B = deduped(A);
  ndarray data = data_of(B);
  if (dtype) {
    check_supported(*dtype, "power");
    data = data.astype(*dtype, false);
  } else if (data.dtype() == cusci::dtype::bool_ && p.is_weak() && is_integer(p.dtype()) &&
             p.value<std::int64_t>() == 2) {
    // SciPy computes `data ** n`: NumPy's ** operator sends an exact Python int 2 to np.square,
    // whose bool loop gives int8 (np.power(bool, Python int) itself gives int64, as core's power;
    // a bool exponent already gives int8 through the bool ** bool loop).
    data = data.astype(cusci::dtype::int8, false);
  }
  return with_data(B, cusci::power(data, p));
}

spmatrix abs(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::abs");
  spmatrix B = deduped(A);
  return with_data(B, cusci::abs(data_of(B)));
}

spmatrix negative(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::negative");
  if (A.dtype() == cusci::dtype::bool_)
    throw not_implemented_error("cusci::sparse::negative: negating a boolean sparse array is not supported");
  return with_data(A, cusci::negative(data_of(A)));
}

spmatrix conj(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::conj");
  if (is_complex(A.dtype())) return with_data(A, cusci::conjugate(data_of(A)));
  return A.copy();
}

spmatrix real(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::real");
  if (is_complex(A.dtype())) return with_data(A, cusci::real(data_of(A)).copy());
  return with_data(A, data_of(A).copy());
}

spmatrix imag(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::imag");
  if (is_complex(A.dtype())) return with_data(A, cusci::imag(data_of(A)).copy());
  return with_data(A, cusci::zeros_like(data_of(A)));
}

// ----- transposes ----------------------------------------------------------------------------------

csc_matrix transpose(const csr_matrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::transpose");
  return csc_matrix::from_valid(A.data(), A.indices(), A.indptr(), shape2{A.shape()[1], A.shape()[0]});
}
csr_matrix transpose(const csc_matrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::transpose");
  return csr_matrix::from_valid(A.data(), A.indices(), A.indptr(), shape2{A.shape()[1], A.shape()[0]});
}
coo_matrix transpose(const coo_matrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::transpose");
  return coo_matrix::from_valid(A.data(), A.col(), A.row(), shape2{A.shape()[1], A.shape()[0]});
}

spmatrix transpose(const spmatrix& A) {
  CUSCI_NVTX_SCOPE("cusci::sparse::transpose");
  switch (A.format()) {
    case format::csr: return transpose(A.get<csr_matrix>());
    case format::csc: return transpose(A.get<csc_matrix>());
    case format::coo: return transpose(A.get<coo_matrix>());
    case format::dia: return detail::coo_to_dia_matrix(transpose(A.tocoo()));
    default: {
      const shape2 bs = A.get<bsr_matrix>().blocksize();
      return transpose(A.tocsr()).tobsr(shape2{bs[1], bs[0]});
    }
  }
}

spmatrix conj_transpose(const spmatrix& A) { return conj(transpose(A)); }

// ----- comparisons ---------------------------------------------------------------------------------

namespace {
/// SciPy's symbol of a comparison in its warnings.
const char* op_symbol(compare_op op) {
  switch (op) {
    case compare_op::eq: return "==";
    case compare_op::ne: return "!=";
    case compare_op::lt: return "<";
    case compare_op::le: return "<=";
    case compare_op::gt: return ">";
    default: return ">=";
  }
}
/// The scalar as SciPy's warning prints it: Python's str() of the value as a Python bool, int,
/// float or complex.
std::string python_str(const scalar& s) {
  const cusci::dtype t = s.dtype();
  if (is_bool(t)) return s.value<bool>() ? "True" : "False";
  if (is_signed_integer(t)) return std::to_string(s.value<std::int64_t>());
  if (is_unsigned_integer(t)) return std::to_string(s.value<std::uint64_t>());
  if (is_complex(t)) return scalar_str(host_array::from(std::vector<std::complex<double>>{value_of(s)}));
  return scalar_str(host_array::from(std::vector<double>{s.value<double>()}));
}
}  // namespace

spmatrix compare(const spmatrix& A, const spmatrix& B, compare_op op) {
  CUSCI_NVTX_SCOPE("cusci::sparse::compare");
  check_same_shape(A, B, "compare");
  const bool csc = cs_is_csc(A);
  if (op == compare_op::ne || op == compare_op::lt || op == compare_op::gt)
    return binopt(A, B, to_binop(op), csc);
  // == , <=, >=: true where both are zero; SciPy negates and subtracts from all-true.
  warn("SparseEfficiencyWarning", "cusci::sparse::compare",
       std::string("Comparing two sparse matrices using ") + op_symbol(op) + " is inefficient. Try using " +
           op_symbol(negated(op)) + " instead.");
  spmatrix inv = binopt(A, B, to_binop(negated(op)), csc);
  return binopt(all_true(A.shape(), csc), inv, detail::binop::minus, csc);
}

spmatrix compare(const spmatrix& A, const scalar& s, compare_op op) {
  CUSCI_NVTX_SCOPE("cusci::sparse::compare");
  const bool csc = cs_is_csc(A);
  const bool nan = scalar_is_nan(s);
  if (!zero_compare(s, op)) {
    if (nan) return spmatrix(csr_matrix(A.shape(), {.dtype = cusci::dtype::bool_})).asformat(A.format());
    return scalar_binopt(A, [&](const ndarray& d) { return dense_compare(d, s, op); });
  }
  warn("SparseEfficiencyWarning", "cusci::sparse::compare",
       "Comparing a sparse matrix with " + python_str(s) + " using " + op_symbol(op) + " is inefficient. Try using " +
           op_symbol(negated(op)) + " instead.");
  if (nan) return spmatrix(csr_matrix(cusci::ones(shape_t{A.shape()[0], A.shape()[1]}, cusci::dtype::bool_)))
      .asformat(A.format());
  const compare_op nop = negated(op);
  spmatrix inv = scalar_binopt(A, [&](const ndarray& d) { return dense_compare(d, s, nop); });
  return binopt(all_true(A.shape(), csc), inv, detail::binop::minus, csc);
}

ndarray compare(const spmatrix& A, const ndarray& D, compare_op op) { return dense_compare(A.toarray(), D, op); }

coo_matrix coo_matrix::T() const { return transpose(*this); }
spmatrix dia_matrix::T() const { return transpose(spmatrix(*this)); }
spmatrix bsr_matrix::T() const { return transpose(spmatrix(*this)); }
spmatrix spmatrix::T() const { return transpose(*this); }
template <>
csc_matrix csr_matrix::T() const {
  return transpose(*this);
}
template <>
csr_matrix csc_matrix::T() const {
  return transpose(*this);
}

}  // namespace cusci::sparse

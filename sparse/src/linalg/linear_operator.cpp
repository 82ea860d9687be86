// cusci::sparse::linalg::linear_operator, its algebra (adjoint, transpose, sums, products, scalar
// multiples, powers), aslinearoperator and the Jacobi preconditioner.

#include <complex>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/products.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/products.hpp"

namespace cusci::sparse::linalg {

using cusci::detail::shape_str;

namespace {

constexpr const char* kOp = "cusci::sparse::linalg::linear_operator";

bool operator_dtype(cusci::dtype t) noexcept {
  return t == cusci::dtype::float32 || t == cusci::dtype::float64 || t == cusci::dtype::complex64 ||
         t == cusci::dtype::complex128;
}

/// The dtype an operator wraps a matrix of dtype t as: the four operator dtypes kept, float16 as
/// float32, integers and bool as float64.
cusci::dtype wrapped_dtype(cusci::dtype t) noexcept {
  if (operator_dtype(t)) return t;
  if (t == cusci::dtype::float16) return cusci::dtype::float32;
  return cusci::dtype::float64;
}

/// conj(a) for complex a, a itself otherwise (NumPy's conj of real data is the identity).
ndarray conj_if_complex(const ndarray& a) { return is_complex(a.dtype()) ? cusci::conj(a) : a; }

/// The "<3x3 LinearOperator with dtype=float64>" text of SciPy's messages.
std::string op_repr(const linear_operator& A) {
  return "<" + std::to_string(A.shape()[0]) + "x" + std::to_string(A.shape()[1]) + " LinearOperator with dtype=" +
         std::string(dtype_name(A.dtype())) + ">";
}

/// NumPy's result dtype of an array of dtype t times a weak (Python) scalar: real alpha keeps t,
/// complex alpha makes t complex of its precision.
cusci::dtype scaled_dtype(cusci::dtype t, bool complex_alpha) noexcept {
  if (!complex_alpha || is_complex(t)) return t;
  return t == cusci::dtype::float32 ? cusci::dtype::complex64 : cusci::dtype::complex128;
}

/// Column j of X [rows, k] as a contiguous [rows] vector.
ndarray column(const ndarray& X, std::int64_t j) { return X.T()[j].copy(); }

/// SciPy's default matmat: one product per column, stacked along axis 1. `rows` is the result's
/// number of rows; `dt` the dtype of an empty result.
template <class F>
ndarray by_columns(const ndarray& X, std::int64_t rows, cusci::dtype dt, F&& product) {
  const std::int64_t k = X.shape(1);
  if (k == 0) return zeros({rows, 0}, promote_types(dt, X.dtype()));
  std::vector<ndarray> cols;
  cols.reserve(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < k; ++j) cols.push_back(product(column(X, j)));
  return stack(cols, 1);
}

using op_ptr = std::shared_ptr<const linear_operator>;

}  // namespace

linear_operator::linear_operator(shape2 shape, cusci::dtype dt, matvec_fn matvec, matvec_fn rmatvec, matvec_fn matmat,
                                 matvec_fn rmatmat)
    : shape_(shape), dtype_(dt), fn_(std::move(matvec)), rfn_(std::move(rmatvec)), mfn_(std::move(matmat)),
      rmfn_(std::move(rmatmat)) {
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                std::string(kOp) + ": invalid shape " + shape_str(shape) + ": dimensions must be >= 0");
  // The four inexact dtypes only, as documented: is_inexact would let float16 through.
  CUSCI_EXPECTS(operator_dtype(dt), type_error,
                std::string(kOp) + ": dtype must be float32, float64, complex64 or complex128, got " +
                    std::string(dtype_name(dt)));
  CUSCI_EXPECTS(static_cast<bool>(fn_) || static_cast<bool>(mfn_), value_error,
                std::string(kOp) + ": matvec must not be empty (give matvec or matmat)");
  if (!fn_) {
    // SciPy: _matvec = matmat(x.reshape(-1, 1)).
    auto mm = mfn_;
    const std::int64_t n = shape[1];
    fn_ = [mm, n](const ndarray& x) { return mm(x.reshape({n, 1})); };
  }
  if (!rfn_ && rmfn_) {
    auto rmm = rmfn_;
    const std::int64_t m = shape[0];
    rfn_ = [rmm, m](const ndarray& x) { return rmm(x.reshape({m, 1})); };
  }
}

linear_operator::linear_operator(const csr_matrix& A) : shape_(A.shape()), dtype_(wrapped_dtype(A.dtype())) {
  csr_ = std::make_shared<csr_matrix>(A.dtype() == dtype_ ? A : A.astype(dtype_, false));
  auto held = csr_;
  // The conjugate transpose is formed once, on first use (for complex values it holds conjugated
  // copies of the values; for real ones it shares A's arrays).
  struct adjoint_cache {
    std::once_flag once;
    std::optional<spmatrix> AH;
  };
  auto cache = std::make_shared<adjoint_cache>();
  auto adj = [held, cache]() -> const spmatrix& {
    std::call_once(cache->once, [&] { cache->AH.emplace(conj_transpose(*held)); });
    return *cache->AH;
  };
  fn_ = [held](const ndarray& x) { return held->dot(x); };
  mfn_ = fn_;
  rfn_ = [adj](const ndarray& x) { return sparse::dot(adj(), x); };
  rmfn_ = rfn_;
}

linear_operator linear_operator::diagonal(const ndarray& d) {
  CUSCI_EXPECTS(d.ndim() == 1, value_error,
                "cusci::sparse::linalg::linear_operator::diagonal: d must be 1-D, got shape " + shape_str(d.shape()));
  CUSCI_EXPECTS(d.dtype() == cusci::dtype::float32 || d.dtype() == cusci::dtype::float64, type_error,
                "cusci::sparse::linalg::linear_operator::diagonal: d must be float32 or float64, got " +
                    std::string(dtype_name(d.dtype())));
  linear_operator op;
  op.shape_ = {d.size(), d.size()};
  op.dtype_ = d.dtype();
  ndarray dc = d.is_c_contiguous() ? d : d.copy();
  op.diag_ = std::make_shared<ndarray>(dc);
  op.fn_ = [dc](const ndarray& x) {
    if (is_complex(x.dtype())) return cusci::multiply(dc, x);  // real diagonal times complex x
    const cusci::dtype rt = promote_types(dc.dtype(), is_floating(x.dtype()) ? x.dtype() : cusci::dtype::float64);
    ndarray xc = x.astype(rt, false);
    if (!xc.is_c_contiguous()) xc = xc.copy();
    return sparse::detail::diag_multiply(dc.astype(rt, false), xc);
  };
  op.rfn_ = op.fn_;  // real diagonal: self-adjoint
  // X [n, k]: d[:, None] * X.
  op.mfn_ = [dc](const ndarray& X) { return cusci::multiply(dc.reshape({dc.size(), 1}), X); };
  op.rmfn_ = op.mfn_;
  return op;
}

ndarray linear_operator::matvec(const ndarray& x) const {
  const std::int64_t m = shape_[0], n = shape_[1];
  const bool ok = (x.ndim() == 1 && x.shape(0) == n) || (x.ndim() == 2 && x.shape(0) == n && x.shape(1) == 1);
  CUSCI_EXPECTS(ok, value_error,
                "cusci::sparse::linalg::linear_operator::matvec: dimension mismatch: operator has shape " +
                    shape_str(shape_) + ", x has shape " + shape_str(x.shape()));
  // SciPy 1.18 hands the function a 1-D x; the documented contract is a contiguous one.
  ndarray xv = x.ndim() == 2 ? x.reshape({n}) : x;
  if (!xv.is_c_contiguous()) xv = xv.copy();
  ndarray y = fn_(xv);
  CUSCI_EXPECTS(y.size() == m, value_error,
                "cusci::sparse::linalg::linear_operator::matvec: matvec returned shape " + shape_str(y.shape()) +
                    ", expected " + std::to_string(m) + " elements");
  if (x.ndim() == 1 && y.ndim() != 1) y = y.reshape({m});
  if (x.ndim() == 2 && !(y.ndim() == 2 && y.shape(1) == 1)) y = y.reshape({m, 1});
  return y;
}

ndarray linear_operator::rmatvec(const ndarray& x) const {
  const std::int64_t m = shape_[0], n = shape_[1];
  CUSCI_EXPECTS(static_cast<bool>(rfn_), not_implemented_error,
                "cusci::sparse::linalg::linear_operator::rmatvec: rmatvec is not defined for this operator");
  const bool ok = (x.ndim() == 1 && x.shape(0) == m) || (x.ndim() == 2 && x.shape(0) == m && x.shape(1) == 1);
  CUSCI_EXPECTS(ok, value_error,
                "cusci::sparse::linalg::linear_operator::rmatvec: dimension mismatch: operator has shape " +
                    shape_str(shape_) + ", x has shape " + shape_str(x.shape()));
  // SciPy 1.18 hands the function a 1-D x; the documented contract is a contiguous one.
  ndarray xv = x.ndim() == 2 ? x.reshape({m}) : x;
  if (!xv.is_c_contiguous()) xv = xv.copy();
  ndarray y = rfn_(xv);
  CUSCI_EXPECTS(y.size() == n, value_error,
                "cusci::sparse::linalg::linear_operator::rmatvec: rmatvec returned shape " + shape_str(y.shape()) +
                    ", expected " + std::to_string(n) + " elements");
  if (x.ndim() == 1 && y.ndim() != 1) y = y.reshape({n});
  if (x.ndim() == 2 && !(y.ndim() == 2 && y.shape(1) == 1)) y = y.reshape({n, 1});
  return y;
}

ndarray linear_operator::matmat(const ndarray& X) const {
  static constexpr const char* fn = "cusci::sparse::linalg::linear_operator::matmat";
  const std::int64_t m = shape_[0], n = shape_[1];
  CUSCI_EXPECTS(X.ndim() == 2, value_error,
                std::string(fn) + ": expected a 2-d array, got " + std::to_string(X.ndim()) + "-d");
  CUSCI_EXPECTS(X.shape(0) == n, value_error,
                std::string(fn) + ": dimension mismatch: operator has shape " + shape_str(shape_) + ", X has shape " +
                    shape_str(X.shape()));
  const std::int64_t k = X.shape(1);
  ndarray Y = mfn_ ? mfn_(X) : by_columns(X, m, dtype_, [this](const ndarray& c) { return matvec(c); });
  CUSCI_EXPECTS(Y.size() == m * k, value_error,
                std::string(fn) + ": matmat returned shape " + shape_str(Y.shape()) + ", expected (" +
                    std::to_string(m) + ", " + std::to_string(k) + ")");
  if (!(Y.ndim() == 2 && Y.shape(0) == m)) Y = Y.reshape({m, k});
  return Y;
}

ndarray linear_operator::rmatmat(const ndarray& X) const {
  static constexpr const char* fn = "cusci::sparse::linalg::linear_operator::rmatmat";
  const std::int64_t m = shape_[0], n = shape_[1];
  CUSCI_EXPECTS(has_rmatvec(), not_implemented_error,
                std::string(fn) + ": rmatvec is not defined for this operator");
  CUSCI_EXPECTS(X.ndim() == 2, value_error,
                std::string(fn) + ": expected a 2-d array, got " + std::to_string(X.ndim()) + "-d");
  CUSCI_EXPECTS(X.shape(0) == m, value_error,
                std::string(fn) + ": dimension mismatch: operator has shape " + shape_str(shape_) + ", X has shape " +
                    shape_str(X.shape()));
  const std::int64_t k = X.shape(1);
  ndarray Y = rmfn_ ? rmfn_(X) : by_columns(X, n, dtype_, [this](const ndarray& c) { return rmatvec(c); });
  CUSCI_EXPECTS(Y.size() == n * k, value_error,
                std::string(fn) + ": rmatmat returned shape " + shape_str(Y.shape()) + ", expected (" +
                    std::to_string(n) + ", " + std::to_string(k) + ")");
  if (!(Y.ndim() == 2 && Y.shape(0) == n)) Y = Y.reshape({n, k});
  return Y;
}

ndarray linear_operator::dot(const ndarray& x) const {
  if (x.ndim() == 1 || (x.ndim() == 2 && x.shape(1) == 1)) return matvec(x);
  if (x.ndim() == 2) return matmat(x);
  throw value_error("cusci::sparse::linalg::linear_operator::dot: expected 1-d or 2-d array, got " +
                    std::to_string(x.ndim()) + "-d");
}

linear_operator linear_operator::adjoint() const {
  auto a = std::make_shared<const linear_operator>(*this);
  linear_operator op({shape_[1], shape_[0]}, dtype_);
  op.fn_ = [a](const ndarray& x) { return a->rmatvec(x); };
  op.rfn_ = [a](const ndarray& x) { return a->matvec(x); };
  op.mfn_ = [a](const ndarray& X) { return a->rmatmat(X); };
  op.rmfn_ = [a](const ndarray& X) { return a->matmat(X); };
  if (diag_ && !is_complex(dtype_)) op.diag_ = diag_;  // a real diagonal is self-adjoint
  return op;
}

linear_operator linear_operator::transpose() const {
  auto a = std::make_shared<const linear_operator>(*this);
  linear_operator op({shape_[1], shape_[0]}, dtype_);
  op.fn_ = [a](const ndarray& x) { return conj_if_complex(a->rmatvec(conj_if_complex(x))); };
  op.rfn_ = [a](const ndarray& x) { return conj_if_complex(a->matvec(conj_if_complex(x))); };
  op.mfn_ = [a](const ndarray& X) { return conj_if_complex(a->rmatmat(conj_if_complex(X))); };
  op.rmfn_ = [a](const ndarray& X) { return conj_if_complex(a->matmat(conj_if_complex(X))); };
  if (diag_) op.diag_ = diag_;  // a diagonal is symmetric
  return op;
}

linear_operator aslinearoperator(const spmatrix& A) {
  if (A.holds<csr_matrix>()) return linear_operator(A.get<csr_matrix>());
  return linear_operator(A.tocsr());
}

linear_operator aslinearoperator(const ndarray& A) {
  static constexpr const char* fn = "cusci::sparse::linalg::aslinearoperator";
  CUSCI_EXPECTS(A.ndim() == 1 || A.ndim() == 2, value_error,
                std::string(fn) + ": expected a 1-d or 2-d array, got shape " + shape_str(A.shape()));
  ndarray D = A.ndim() == 1 ? A.reshape({1, A.shape(0)}) : A;
  const cusci::dtype dt = wrapped_dtype(D.dtype());
  if (D.dtype() != dt) D = D.astype(dt);
  const shape2 shape{D.shape(0), D.shape(1)};
  auto mv = [D](const ndarray& x) { return cusci::matmul(D, x); };
  linear_operator::matvec_fn rmv;
  if (is_complex(dt)) rmv = [D](const ndarray& x) { return cusci::conj(cusci::matmul(D.T(), cusci::conj(x))); };
  else rmv = [D](const ndarray& x) { return cusci::matmul(D.T(), x); };
  return linear_operator(shape, dt, mv, rmv, mv, rmv);
}

namespace {

/// Whether op has an adjoint product (its rmatvec and rmatmat are defined).
bool has_adjoint(const op_ptr& a) { return a->has_rmatvec(); }

}  // namespace

linear_operator operator+(const linear_operator& A, const linear_operator& B) {
  CUSCI_EXPECTS(A.shape() == B.shape(), value_error,
                "cusci::sparse::linalg::operator+: cannot add " + op_repr(A) + " and " + op_repr(B) +
                    ": shape mismatch");
  auto a = std::make_shared<const linear_operator>(A), b = std::make_shared<const linear_operator>(B);
  auto mv = [a, b](const ndarray& x) { return cusci::add(a->matvec(x), b->matvec(x)); };
  auto mm = [a, b](const ndarray& X) { return cusci::add(a->matmat(X), b->matmat(X)); };
  linear_operator::matvec_fn rmv, rmm;
  if (has_adjoint(a) && has_adjoint(b)) {
    rmv = [a, b](const ndarray& x) { return cusci::add(a->rmatvec(x), b->rmatvec(x)); };
    rmm = [a, b](const ndarray& X) { return cusci::add(a->rmatmat(X), b->rmatmat(X)); };
  }
  return linear_operator(A.shape(), promote_types(A.dtype(), B.dtype()), mv, rmv, mm, rmm);
}

linear_operator operator-(const linear_operator& A) { return -1.0 * A; }

linear_operator operator-(const linear_operator& A, const linear_operator& B) {
  CUSCI_EXPECTS(A.shape() == B.shape(), value_error,
                "cusci::sparse::linalg::operator-: cannot add " + op_repr(A) + " and " + op_repr(B) +
                    ": shape mismatch");
  return A + (-B);
}

linear_operator operator*(const linear_operator& A, const linear_operator& B) {
  CUSCI_EXPECTS(A.shape()[1] == B.shape()[0], value_error,
                "cusci::sparse::linalg::operator*: cannot multiply " + op_repr(A) + " and " + op_repr(B) +
                    ": shape mismatch");
  auto a = std::make_shared<const linear_operator>(A), b = std::make_shared<const linear_operator>(B);
  auto mv = [a, b](const ndarray& x) { return a->matvec(b->matvec(x)); };
  auto mm = [a, b](const ndarray& X) { return a->matmat(b->matmat(X)); };
  linear_operator::matvec_fn rmv, rmm;
  if (has_adjoint(a) && has_adjoint(b)) {
    rmv = [a, b](const ndarray& x) { return b->rmatvec(a->rmatvec(x)); };
    rmm = [a, b](const ndarray& X) { return b->rmatmat(a->rmatmat(X)); };
  }
  return linear_operator({A.shape()[0], B.shape()[1]}, promote_types(A.dtype(), B.dtype()), mv, rmv, mm, rmm);
}

namespace {

template <class S>
linear_operator scaled(S alpha, S alpha_conj, bool complex_alpha, const linear_operator& A) {
  auto a = std::make_shared<const linear_operator>(A);
  auto mv = [a, alpha](const ndarray& x) { return cusci::multiply(scalar(alpha), a->matvec(x)); };
  auto mm = [a, alpha](const ndarray& X) { return cusci::multiply(scalar(alpha), a->matmat(X)); };
  linear_operator::matvec_fn rmv, rmm;
  if (a->has_rmatvec()) {
    rmv = [a, alpha_conj](const ndarray& x) { return cusci::multiply(scalar(alpha_conj), a->rmatvec(x)); };
    rmm = [a, alpha_conj](const ndarray& X) { return cusci::multiply(scalar(alpha_conj), a->rmatmat(X)); };
  }
  return linear_operator(A.shape(), scaled_dtype(A.dtype(), complex_alpha), mv, rmv, mm, rmm);
}

}  // namespace

linear_operator operator*(double alpha, const linear_operator& A) { return scaled(alpha, alpha, false, A); }

linear_operator operator*(std::complex<double> alpha, const linear_operator& A) {
  return scaled(alpha, std::conj(alpha), true, A);
}

linear_operator operator/(const linear_operator& A, double alpha) {
  CUSCI_EXPECTS(alpha != 0.0, value_error,
                "cusci::sparse::linalg::operator/: Can only divide a linear operator by a nonzero scalar");
  return (1.0 / alpha) * A;
}

linear_operator operator/(const linear_operator& A, std::complex<double> alpha) {
  CUSCI_EXPECTS(alpha != std::complex<double>(0.0), value_error,
                "cusci::sparse::linalg::operator/: Can only divide a linear operator by a nonzero scalar");
  return (1.0 / alpha) * A;
}

linear_operator pow(const linear_operator& A, std::int64_t p) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                "cusci::sparse::linalg::pow: square LinearOperator expected, got " + op_repr(A));
  CUSCI_EXPECTS(p >= 0, value_error, "cusci::sparse::linalg::pow: non-negative integer expected as p");
  auto a = std::make_shared<const linear_operator>(A);
  // SciPy's _power: res = copy(x); p times res = fun(res).
  auto power = [a, p](auto member) {
    return [a, p, member](const ndarray& x) {
      ndarray r = x.copy();
      for (std::int64_t i = 0; i < p; ++i) r = ((*a).*member)(r);
      return r;
    };
  };
  linear_operator::matvec_fn mv = power(&linear_operator::matvec), mm = power(&linear_operator::matmat);
  linear_operator::matvec_fn rmv, rmm;
  if (a->has_rmatvec()) {
    rmv = power(&linear_operator::rmatvec);
    rmm = power(&linear_operator::rmatmat);
  }
  return linear_operator(A.shape(), A.dtype(), mv, rmv, mm, rmm);
}

linear_operator jacobi(const csr_matrix& A) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                "cusci::sparse::linalg::jacobi: A must be square, got shape (" + std::to_string(A.shape()[0]) + ", " +
                    std::to_string(A.shape()[1]) + ")");
  return linear_operator::diagonal(sparse::detail::reciprocal(A.diagonal()));
}

}  // namespace cusci::sparse::linalg

// cusci::sparse::linalg::linear_operator and the Jacobi preconditioner.

#include <string>

#include "common/detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/products.hpp"

namespace cusci::sparse::linalg {

using cusci::detail::shape_str;

linear_operator::linear_operator(shape2 shape, cusci::dtype dt, matvec_fn matvec, matvec_fn rmatvec)
    : shape_(shape), dtype_(dt), fn_(std::move(matvec)), rfn_(std::move(rmatvec)) {
  static constexpr const char* fn = "cusci::sparse::linalg::linear_operator";
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                std::string(fn) + ": invalid shape " + shape_str(shape) + ": dimensions must be >= 0");
  // float32/float64 only, as documented: is_floating would let float16 through.
  CUSCI_EXPECTS(dt == cusci::dtype::float32 || dt == cusci::dtype::float64, type_error,
                std::string(fn) + ": dtype must be float32 or float64, got " + std::string(dtype_name(dt)));
  CUSCI_EXPECTS(static_cast<bool>(fn_), value_error, std::string(fn) + ": matvec must not be empty");
}

linear_operator::linear_operator(const csr_matrix& A)
    : shape_(A.shape()), dtype_(A.dtype()), csr_(std::make_shared<csr_matrix>(A)) {
  auto held = csr_;
  fn_ = [held](const ndarray& x) { return held->dot(x); };
  rfn_ = [held](const ndarray& x) { return sparse::dot(conj_transpose(*held), x); };
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
    const cusci::dtype rt = promote_types(dc.dtype(), is_floating(x.dtype()) ? x.dtype() : cusci::dtype::float64);
    ndarray xc = x.astype(rt, false);
    if (!xc.is_c_contiguous()) xc = xc.copy();
    return sparse::detail::diag_multiply(dc.astype(rt, false), xc);
  };
  op.rfn_ = op.fn_;  // real diagonal: self-adjoint
  return op;
}

ndarray linear_operator::matvec(const ndarray& x) const {
  const std::int64_t m = shape_[0], n = shape_[1];
  const bool ok = (x.ndim() == 1 && x.shape(0) == n) || (x.ndim() == 2 && x.shape(0) == n && x.shape(1) == 1);
  CUSCI_EXPECTS(ok, value_error,
                "cusci::sparse::linalg::linear_operator::matvec: dimension mismatch: operator has shape " +
                    shape_str(shape_) + ", x has shape " + shape_str(x.shape()));
  ndarray y = fn_(x);
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
  ndarray y = rfn_(x);
  CUSCI_EXPECTS(y.size() == n, value_error,
                "cusci::sparse::linalg::linear_operator::rmatvec: rmatvec returned shape " + shape_str(y.shape()) +
                    ", expected " + std::to_string(n) + " elements");
  if (x.ndim() == 1 && y.ndim() != 1) y = y.reshape({n});
  if (x.ndim() == 2 && !(y.ndim() == 2 && y.shape(1) == 1)) y = y.reshape({n, 1});
  return y;
}

linear_operator jacobi(const csr_matrix& A) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                "cusci::sparse::linalg::jacobi: A must be square, got shape (" + std::to_string(A.shape()[0]) + ", " +
                    std::to_string(A.shape()[1]) + ")");
  return linear_operator::diagonal(sparse::detail::reciprocal(A.diagonal()));
}

}  // namespace cusci::sparse::linalg

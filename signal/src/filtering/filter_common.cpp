#include "filtering/filter_common.hpp"

namespace cusci::signal {

host_array array_like::to_host() const { return dev_ ? cusci::to_host(*dev_) : *host_; }
ndarray array_like::to_device() const { return dev_ ? *dev_ : cusci::asarray(*host_); }

namespace detail {

dtype filter_result_dtype(const std::vector<dtype>& dts, const std::string& fn) {
  dtype r = dts.at(0);
  for (std::size_t i = 1; i < dts.size(); ++i) r = promote_types(r, dts[i]);
  CUSCI_EXPECTS(is_floating(r) || is_complex(r), not_implemented_error,
                fn + ": input type '" + std::string(dtype_name(r)) + "' not supported (the result type must be floating)");
  return r;
}

ndarray contiguous_as(const ndarray& a, dtype dt) {
  ndarray t = a;
  if (t.dtype() != dt) t = t.astype(dt);
  if (!t.is_c_contiguous()) t = t.copy(order::C);
  return t;
}

namespace {
host_array coeff_host(const array_like& c, const std::string& fn, const char* param) {
  CUSCI_EXPECTS(c.ndim() <= 1, value_error,
                fn + ": Parameter " + param + " is not a non-empty 1d array, since " + param + ".shape=" +
                    shape_str(c.shape()) + "!");
  host_array h = c.to_host();
  CUSCI_EXPECTS(h.size() > 0, value_error,
                fn + ": Parameter " + param + " is not a non-empty 1d array, since " + param + ".shape=" +
                    shape_str(c.shape()) + "!");
  return h;
}
}  // namespace

std::vector<std::complex<double>> coeff_cvector(const array_like& c, const std::string& fn, const char* param) {
  return coeff_host(c, fn, param).astype(dtype::complex128).to_vector<std::complex<double>>();
}

}  // namespace detail
}  // namespace cusci::signal

// whittaker_henderson: SciPy's checks, then the banded solve and the REML search on the host
// (smoothing_math.cpp): one signal is one sequential O(n p^2) band factorization, which the host does
// faster than a single GPU thread would.

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/smoothing.hpp"
#include "smoothing/smoothing_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {
namespace {

/// NumPy's nan_to_num for a host array of a floating dtype (in place): NaN -> 0, +-inf -> the dtype's
/// largest finite values.
void nan_to_num(host_array& h) {
  auto fix = [](auto* p, std::int64_t n, double big) {
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(p[i]);
      if (std::isnan(v)) p[i] = 0;
      else if (std::isinf(v)) p[i] = static_cast<std::remove_reference_t<decltype(p[i])>>(v > 0 ? big : -big);
    }
  };
  if (h.dtype() == dtype::float64) {
    fix(h.data_as<double>(), h.size(), std::numeric_limits<double>::max());
  } else if (h.dtype() == dtype::float32) {
    fix(h.data_as<float>(), h.size(), std::numeric_limits<float>::max());
  } else if (h.dtype() == dtype::float16) {  // through float64: 65504 is exact in both
    host_array d = h.astype(dtype::float64);
    fix(d.data_as<double>(), d.size(), 65504.0);
    h = d.astype(dtype::float16);
  }
}

}  // namespace

whittaker_henderson_result whittaker_henderson(const ndarray& signal, const whittaker_henderson_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::whittaker_henderson");
  const std::string F = "cusci::signal::whittaker_henderson";
  const int p = opts.order;
  CUSCI_EXPECTS(p >= 1, value_error, F + ": `order` must be an integer >= 1, got " + std::to_string(p));
  CUSCI_EXPECTS(!is_complex(signal.dtype()), not_implemented_error,
                F + ": complex signals are not supported by cusci, got " + std::string(dtype_name(signal.dtype())));
  CUSCI_EXPECTS(signal.ndim() == 1, value_error,
                F + ": Input array signal must be of shape (n,); got " + cusci::detail::shape_str(signal.shape()));
  const std::int64_t n = signal.shape()[0];
  CUSCI_EXPECTS(n >= p + 1, value_error,
                F + ": Input array signal must be at least of shape (" + std::to_string(p + 1) + ",); got " +
                    std::to_string(n) + ".");
  const bool has_w = opts.weights.has_value();
  if (has_w) {
    CUSCI_EXPECTS(!is_complex(opts.weights->dtype()), not_implemented_error,
                  F + ": complex weights are not supported by cusci");
    CUSCI_EXPECTS(opts.weights->shape() == signal.shape(), value_error,
                  F + ": Input array weights must have the same shape as the signal array, got " +
                      cusci::detail::shape_str(opts.weights->shape()) + " and " +
                      cusci::detail::shape_str(signal.shape()));
  }
  const std::string lamb_msg = F + ": Parameter lamb must be string 'reml' or a non-negative float; got lamb=";
  const whittaker_lamb& L = opts.lamb;
  if (L.is_name()) CUSCI_EXPECTS(L.name() == "reml", value_error, lamb_msg + "'" + L.name() + "'.");

  // Synchronizes: the problem is solved on the host.
  host_array hs = to_host(signal);
  std::vector<double> y = hs.astype(dtype::float64).to_vector<double>();
  std::vector<double> w;
  if (has_w) {
    w = to_host(*opts.weights).astype(dtype::float64).to_vector<double>();
    for (double v : w) CUSCI_EXPECTS(std::isfinite(v), value_error, F + ": Input array weights must be finite.");
    bool any_bad = false;
    for (std::int64_t i = 0; i < n; ++i) {
      if (!std::isfinite(y[i])) {
        any_bad = true;
        CUSCI_EXPECTS(w[i] == 0.0, value_error,
                      F + ": Input array weights must be zero for all non-finite elements of signal.");
      }
    }
    if (any_bad) {
      nan_to_num(hs);
      y = hs.astype(dtype::float64).to_vector<double>();
    }
  } else {
    for (double v : y) CUSCI_EXPECTS(std::isfinite(v), value_error, F + ": Input array signal must be finite.");
  }
  const std::vector<double>* wp = has_w ? &w : nullptr;

  double lamb;
  if (L.is_name()) {
    try {
      lamb = detail::wh_reml_lamb(y, p, wp);
    } catch (const std::runtime_error& e) {
      throw runtime_error(F + ": REML search: " + e.what());
    }
  } else {
    lamb = L.value();
  }
  CUSCI_EXPECTS(!(lamb < 0), value_error, lamb_msg + std::to_string(lamb) + ".");
  whittaker_henderson_result r;
  r.lamb = lamb;
  if (lamb == 0.0) {
    r.x = asarray(hs);  // SciPy: a copy of the signal, in its dtype
    return r;
  }
  const detail::wh_solution s = detail::wh_solve(y, wp, p, lamb, false);
  r.x = asarray(s.x);
  return r;
}

}  // namespace cusci::signal

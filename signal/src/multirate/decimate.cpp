// decimate (SciPy 1.18.1's scipy/signal/_signaltools.py): the anti-aliasing filter designed on the
// host exactly as SciPy (cheby1(n, 0.05, 0.8 / q, output='sos') or firwin(n + 1, 1 / q, 'hamming'),
// cast to the result dtype), then sosfiltfilt / sosfilt (zero_phase.hpp, filtering.hpp) or
// resample_poly / upfirdn (multirate.cpp), and the every-q-th-sample view.

#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/signal/multirate.hpp"
#include "cusci/signal/zero_phase.hpp"
#include "filtering/filter_common.hpp"
#include "multirate/multirate_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

ndarray decimate(const ndarray& x, std::int64_t q, const decimate_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::decimate");
  const std::string F = "cusci::signal::decimate";
  CUSCI_EXPECTS(q >= 1, value_error, F + ": q must be a positive integer, got " + std::to_string(q));
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": x must have at least one dimension (tuple index out of range)");
  const int axis = detail::normalize_axis(o.axis, x.ndim(), F);
  // SciPy: inexact dtypes other than float16 are kept; integers, bool and float16 become float64.
  const dtype rdt = (is_inexact(x.dtype()) && x.dtype() != dtype::float16) ? x.dtype() : dtype::float64;
  const ndarray xr = x.dtype() == rdt ? x : x.astype(rdt);
  const std::int64_t L = x.shape()[static_cast<std::size_t>(axis)];

  if (o.ftype == decimate_ftype::fir) {
    const int n = o.n.value_or(static_cast<int>(2 * 10 * q));
    // b = firwin(n + 1, 1 / q, window='hamming') in the result dtype; a = 1 (b / a leaves b unchanged).
    const host_array b = firwin(static_cast<std::int64_t>(n) + 1, 1.0 / static_cast<double>(q), {.window = "hamming"})
                             .astype(rdt);
    if (o.zero_phase) return resample_poly(xr, 1, q, {.axis = axis, .window = filter_window(b)});
    const std::int64_t n_out = L / q + (L % q != 0 ? 1 : 0);
    const ndarray y = upfirdn(b, xr, 1, q, {.axis = axis});
    return detail::slice_along(y, axis, slice{{}, n_out, {}});
  }
  const int n = o.n.value_or(8);
  // sos in the result dtype; for complex data SciPy's complex sos has zero imaginary parts, so the
  // real sos of the same precision gives the same values and dtype.
  const host_array sos = cheby1(n, 0.05, 0.8 / static_cast<double>(q), {.output = output_form::sos}).sos.astype(real_dtype(rdt));
  const ndarray y = o.zero_phase ? sosfiltfilt(sos, xr, {.axis = axis}) : sosfilt(sos, xr, {.axis = axis});
  return detail::slice_along(y, axis, slice{{}, {}, q});
}

}  // namespace cusci::signal

// wiener: local mean and variance of zero-padded windows (centred as signal.correlate(..., 'same')
// centres them), the noise power by a mean reduction left on the device, and the gain in one
// elementwise kernel (wiener_kernels.cu). 2-D float images take one tiled statistics kernel; other
// inputs the generic path through ndimage's uniform_filter (mode constant) in float64.

#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/reduction.hpp"
#include "cusci/signal/smoothing.hpp"
#include "smoothing/smoothing_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

ndarray wiener(const ndarray& im, const ndimage::per_axis<std::int64_t>& mysize, std::optional<double> noise) {
  CUSCI_NVTX_SCOPE("cusci::signal::wiener");
  const std::string F = "cusci::signal::wiener";
  CUSCI_EXPECTS(!is_complex(im.dtype()), not_implemented_error,
                F + ": complex input is not supported by cusci, got " + std::string(dtype_name(im.dtype())));
  const int nd = im.ndim();
  std::vector<std::int64_t> ms;
  if (mysize.empty()) ms.assign(static_cast<std::size_t>(nd), 3);
  else if (mysize.is_scalar) ms.assign(static_cast<std::size_t>(nd), mysize.values[0]);
  else ms = mysize.values;
  CUSCI_EXPECTS(ms.size() == static_cast<std::size_t>(nd), value_error,
                F + ": in1 and in2 should have the same dimensionality (mysize has " + std::to_string(ms.size()) +
                    " entries, im " + std::to_string(nd) + " dimensions)");
  for (auto k : ms) CUSCI_EXPECTS(k >= 1, value_error, F + ": mysize must be positive, got " + std::to_string(k));

  // 2-D float32 / float64 images: the tiled statistics kernel and the typed gain (no float64 copies).
  if (nd == 2 && (im.dtype() == dtype::float32 || im.dtype() == dtype::float64) &&
      ms[0] <= detail::wiener2d_max_window && ms[1] <= detail::wiener2d_max_window && im.size() > 0) {
    const ndarray xc = im.is_c_contiguous() ? im : ascontiguousarray(im);
    ndarray m = empty(im.shape(), dtype::float64), v = empty(im.shape(), dtype::float64);
    detail::wiener_stats_2d(xc, static_cast<int>(ms[0]), static_cast<int>(ms[1]), m.data_as<double>(),
                            v.data_as<double>());
    ndarray noise_dev;
    if (!noise) noise_dev = mean(v);
    ndarray out = empty(im.shape(), dtype::float64);
    detail::wiener_finish_typed(xc, m.data_as<double>(), v.data_as<double>(),
                                noise ? nullptr : noise_dev.data_as<double>(), noise ? *noise : 0.0,
                                out.data_as<double>());
    return out;
  }

  // A 0-d array is filtered as shape (1,) with a window of 1.
  ndarray x_in = nd == 0 ? im.reshape({1}) : im;
  if (nd == 0) ms = {1};
  const shape_t shape = x_in.shape();
  ndarray x = x_in.astype(dtype::float64);
  if (!x.is_c_contiguous()) x = ascontiguousarray(x);
  // im ** 2 in im's dtype (NumPy's `**`; bool squares as int8), then float64.
  ndarray sq_in = x_in.dtype() == dtype::bool_ ? x_in.astype(dtype::int8) : x_in;
  ndarray sq = x_in.dtype() == dtype::float64 ? square(x) : square(sq_in).astype(dtype::float64);
  if (!sq.is_c_contiguous()) sq = ascontiguousarray(sq);
  const std::int64_t n = x.size();
  ndarray out = empty(shape, dtype::float64);
  if (n == 0) return nd == 0 ? out.reshape({}) : out;

  ndimage::uniform_filter_options uo;
  uo.mode = ndimage::mode::constant;
  uo.output = dtype::float64;
  ndarray m = ndimage::uniform_filter(x, ms, uo);
  ndarray q = ndimage::uniform_filter(sq, ms, uo);
  if (!m.is_c_contiguous()) m = ascontiguousarray(m);
  if (!q.is_c_contiguous()) q = ascontiguousarray(q);
  detail::wiener_variance(m.data_as<double>(), q.data_as<double>(), n);
  ndarray noise_dev;
  const double* noise_ptr = nullptr;
  if (!noise) {
    noise_dev = mean(q);
    noise_ptr = noise_dev.data_as<double>();
  }
  detail::wiener_finish(x.data_as<double>(), m.data_as<double>(), q.data_as<double>(), noise_ptr,
                        noise ? *noise : 0.0, out.data_as<double>(), n);
  return nd == 0 ? out.reshape({}) : out;
}

}  // namespace cusci::signal

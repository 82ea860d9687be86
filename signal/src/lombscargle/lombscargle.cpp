// The public functions of the lombscargle family (lombscargle.hpp): SciPy's conversions and checks in
// SciPy's order, then the device entry points of lombscargle.cu.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"
#include "cusci/signal/lombscargle.hpp"
#include "cusci/warnings.hpp"
#include "lombscargle/lombscargle_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using cusci::detail::msg;

namespace detail {

trig_plan trig_plan_of(std::int64_t n, std::int64_t nf, std::int64_t target_blocks) {
  trig_plan p;
  p.freq_blocks = std::max<std::int64_t>(1, (nf + trig_freqs_per_block - 1) / trig_freqs_per_block);
  const std::int64_t tiles = std::max<std::int64_t>(1, (n + trig_tile - 1) / trig_tile);
  std::int64_t want = std::max<std::int64_t>(1, (target_blocks + p.freq_blocks - 1) / p.freq_blocks);
  want = std::min({want, tiles, std::int64_t{65535}});
  const std::int64_t tiles_per_chunk = (tiles + want - 1) / want;
  p.chunk = tiles_per_chunk * trig_tile;
  p.chunks = std::max<std::int64_t>(1, (n + p.chunk - 1) / p.chunk);
  return p;
}

}  // namespace detail

namespace {

// SciPy's np.asarray(a, dtype=np.float64) as a C-contiguous device array (complex input: the real part,
// with NumPy's ComplexWarning).
ndarray as_float64(const ndarray& a, const char* fn) {
  if (is_complex(a.dtype()))
    cusci::warn("ComplexWarning", fn, "Casting complex values to real discards the imaginary part");
  if (a.dtype() == dtype::float64 && a.is_c_contiguous()) return a;
  ndarray out = cusci::empty(a.shape(), dtype::float64);
  if (out.size() > 0) cusci::detail::copy_cast(a, out);
  return out;
}

}  // namespace

lombscargle_normalize parse_lombscargle_normalize(std::string_view s) {
  if (s == "power" || s == "False") return lombscargle_normalize::power;
  if (s == "normalize" || s == "True") return lombscargle_normalize::normalize;
  if (s == "amplitude") return lombscargle_normalize::amplitude;
  throw value_error(msg("cusci::signal::lombscargle",
                        "Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'."));
}

ndarray lombscargle(const ndarray& x, const ndarray& y, const ndarray& freqs, const lombscargle_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::lombscargle");
  const char* fn = "cusci::signal::lombscargle";
  const shape_t& wshape = opts.weights ? opts.weights->shape() : y.shape();
  CUSCI_EXPECTS(x.ndim() == 1 && x.size() > 0 && x.shape() == y.shape() && y.shape() == wshape, value_error,
                msg(fn, "Parameters x, y, weights must be 1-D arrays of equal non-zero length!"));
  CUSCI_EXPECTS(freqs.ndim() == 1 && freqs.size() > 0, value_error,
                msg(fn, "Parameter freqs must be a 1-D array of non-zero length!"));

  ndarray wd;
  if (opts.weights) wd = as_float64(*opts.weights, fn);
  const ndarray xd = as_float64(x, fn);
  ndarray yd = as_float64(y, fn);
  const ndarray fd = as_float64(freqs, fn);

  if (opts.precenter) {
    cusci::warn("DeprecationWarning", fn,
                "Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in 1.19.0. "
                "Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly substituted "
                "by passing 'y = (y - y.mean())' into the input. Consider setting `floating_mean` to True "
                "instead.");
    if (*opts.precenter) yd = cusci::subtract(yd, cusci::mean(yd));
  }

  const double* w = opts.weights ? wd.data_as<double>() : nullptr;
  ndarray mom = cusci::empty({4}, dtype::float64);
  detail::ls_moments(yd, w, mom);
  if (opts.weights) {  // SciPy's weight check needs the values: one small read-back (synchronizes)
    const host_array m = to_host(mom);
    const double* v = m.data_as<double>();
    CUSCI_EXPECTS(v[3] == 0.0 && v[0] > 0.0, value_error,
                  msg(fn, "Parameter weights must have only non-negative entries which sum to a positive value!"));
  }

  const std::int64_t nf = freqs.size();
  const shape_t out_shape = nf == 1 ? shape_t{} : shape_t{nf};
  const int mode = opts.normalize == lombscargle_normalize::power ? 0
                   : opts.normalize == lombscargle_normalize::normalize ? 1
                                                                         : 2;
  ndarray out = cusci::empty(out_shape, mode == 2 ? dtype::complex128 : dtype::float64);
  detail::ls_run(xd, yd, w, fd, mom, opts.floating_mean, mode, out);
  return out;
}

namespace {

vectorstrength_result vs_common(const ndarray& events, const ndarray& period, bool scalar_period) {
  const char* fn = "cusci::signal::vectorstrength";
  CUSCI_EXPECTS(events.ndim() <= 1, value_error, msg(fn, "events cannot have dimensions more than 1"));
  CUSCI_EXPECTS(period.ndim() <= 1, value_error, msg(fn, "period cannot have dimensions more than 1"));
  // SciPy: integer periods become float64; the events take the period's dtype.
  const bool f32 = period.dtype() == dtype::float32 || period.dtype() == dtype::float16;
  const dtype pdt = f32 ? dtype::float32 : dtype::float64;
  if (is_complex(period.dtype()))
    cusci::warn("ComplexWarning", fn, "Casting complex values to real discards the imaginary part");
  ndarray pd = as_float64(f32 ? period.astype(dtype::float32) : period, fn);
  if (!scalar_period && pd.size() > 0) {
    const bool bad = cusci::any(cusci::less_equal(pd, 0.0)).item<bool>();  // synchronizes
    CUSCI_EXPECTS(!bad, value_error, msg(fn, "periods must be positive"));
  }
  ndarray ev = f32 ? events.astype(dtype::float32) : events;
  const ndarray ed = as_float64(ev, fn);
  const shape_t rshape = period.ndim() == 0 ? shape_t{} : shape_t{period.size()};
  vectorstrength_result r;
  r.strength = cusci::empty(rshape, pdt);
  r.phase = cusci::empty(rshape, pdt);
  detail::vs_run(ed.reshape({ed.size()}), pd.reshape({pd.size()}), f32, r.strength, r.phase);
  return r;
}

}  // namespace

vectorstrength_result vectorstrength(const ndarray& events, double period) {
  CUSCI_NVTX_SCOPE("cusci::signal::vectorstrength");
  CUSCI_EXPECTS(events.ndim() <= 1, value_error,
                msg("cusci::signal::vectorstrength", "events cannot have dimensions more than 1"));
  CUSCI_EXPECTS(!(period <= 0), value_error, msg("cusci::signal::vectorstrength", "periods must be positive"));
  const ndarray p = asarray(std::vector<double>{period}).reshape({});
  return vs_common(events, p, true);
}

vectorstrength_result vectorstrength(const ndarray& events, const ndarray& period) {
  CUSCI_NVTX_SCOPE("cusci::signal::vectorstrength");
  return vs_common(events, period, false);
}

}  // namespace cusci::signal

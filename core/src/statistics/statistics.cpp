// The statistics family of cusci::core: median, percentile, quantile and their nan-variants (a sort
// along the moved reduced axes, the order-statistic positions from statistics.cu, gathers and NumPy's
// _lerp with elementwise ops), average, cov and corrcoef (composed from reductions, elementwise ops
// and matmul). Semantics: NumPy 2.5's numpy/lib/_function_base_impl.py and _nanfunctions_impl.py.

#include "cusci/statistics.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/products.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sorting.hpp"
#include "cusci/warnings.hpp"

namespace cusci {
namespace {

using detail::msg;

/// `a` with the reduced axes moved last and merged: [rows, n], plus the result shapes.
struct rows_view {
  ndarray rows;      ///< [R, L] (a view when the strides allow, else a C copy)
  std::int64_t R = 1, L = 1;
  shape_t out_shape;   ///< shape without the reduced axes
  shape_t keep_shape;  ///< shape with the reduced axes kept as 1
};

rows_view to_rows(const ndarray& a, const axis_arg& axis, const char* fn) {
  const int nd = a.ndim();
  std::vector<int> red;
  if (!axis.axes) {
    red.resize(static_cast<std::size_t>(nd));
    std::iota(red.begin(), red.end(), 0);
  } else {
    red = detail::normalize_axes(*axis.axes, nd, fn);
  }
  std::vector<bool> is_red(static_cast<std::size_t>(nd), false);
  for (int d : red) is_red[static_cast<std::size_t>(d)] = true;
  std::sort(red.begin(), red.end());
  rows_view v;
  std::vector<int> perm;
  for (int d = 0; d < nd; ++d) {
    if (!is_red[static_cast<std::size_t>(d)]) {
      perm.push_back(d);
      v.out_shape.push_back(a.shape()[static_cast<std::size_t>(d)]);
      v.keep_shape.push_back(a.shape()[static_cast<std::size_t>(d)]);
      v.R *= a.shape()[static_cast<std::size_t>(d)];
    } else {
      v.keep_shape.push_back(1);
    }
  }
  for (int d : red) {
    perm.push_back(d);
    v.L *= a.shape()[static_cast<std::size_t>(d)];
  }
  ndarray t = nd ? a.transpose(perm) : a;
  v.rows = t.reshape({v.R, v.L});
  return v;
}

dtype mean_dtype(dtype t) { return (is_integer(t) || is_bool(t)) ? dtype::float64 : t; }

/// [R] int64: number of non-NaN values per row of the sorted [R, L] matrix; warns when a row has none.
ndarray valid_counts(const ndarray& sorted, std::int64_t L, const char* fn) {
  ndarray nans = count_nonzero(isnan(sorted), axis_arg(1));
  ndarray counts = subtract(L, nans);
  if (any(equal(counts, 0)).item<bool>()) warn("RuntimeWarning", fn, "All-NaN slice encountered");
  return counts;
}

/// Whether the order statistics of `a` (reduced to `v`) are found by radix selection rather than a
/// sort: one contiguous float32 / float64 row of at least 2^20 elements and at most 8 ranks.
constexpr std::int64_t selection_min_length = std::int64_t{1} << 20;
std::atomic<bool> selection_enabled{true};
bool use_selection(const ndarray& a, const rows_view& v, std::int64_t ranks) {
  return selection_enabled.load(std::memory_order_relaxed) && v.R == 1 && v.L >= selection_min_length && v.L < (std::int64_t{1} << 32) && ranks <= 8 &&
         (a.dtype() == dtype::float32 || a.dtype() == dtype::float64) && v.rows.is_c_contiguous();
}

ndarray median_impl(const ndarray& a, const axis_arg& axis, const median_options& opts, bool nan, const char* fn) {
  rows_view v = to_rows(a, axis, fn);
  const shape_t& shp = opts.keepdims ? v.keep_shape : v.out_shape;
  const dtype rdt = mean_dtype(a.dtype());
  if (v.R == 0) return empty(shp, rdt);
  if (v.L == 0) {
    warn("RuntimeWarning", fn, "Mean of empty slice");
    return mean(v.rows, axis_arg(1)).reshape(shp);  // NaN (nan+nanj for complex), mean's dtype
  }
  if (!nan && use_selection(a, v, 2)) {
    ndarray idx = empty({1, 2}, dtype::int64);
    detail::quantile_positions(nullptr, 1, dtype::float64, nullptr, 1, v.L, -1, idx.data_as<std::int64_t>(), nullptr,
                               nullptr);
    ndarray vals = empty({3}, a.dtype());
    detail::select_ranks(v.rows.data(), a.dtype(), v.L, idx.data_as<std::int64_t>(), 2, vals.data());
    ndarray res = mean(vals[{slice{0, 2}}].reshape({1, 2}), axis_arg(1));
    ndarray last = vals[{slice{2, 3}}];
    return where(isnan(last), last.astype(rdt, false), res).reshape(shp);
  }
  ndarray sorted = sort(v.rows, -1);
  const bool nan_rows = nan && is_inexact(a.dtype());
  std::optional<ndarray> counts;
  if (nan_rows) counts = valid_counts(sorted, v.L, fn);
  ndarray idx = empty({v.R, 2}, dtype::int64);
  detail::quantile_positions(nullptr, 1, dtype::float64, counts ? counts->data_as<std::int64_t>() : nullptr, v.R, v.L,
                             -1, idx.data_as<std::int64_t>(), nullptr, nullptr);
  ndarray res = mean(take(sorted.reshape({-1}), idx, std::nullopt, clip_mode::clip), axis_arg(1));
  if (!nan && is_inexact(a.dtype())) {
    ndarray last = sorted[{slice{}, v.L - 1}];
    res = where(isnan(last), last.astype(rdt, false), res);
  }
  return res.reshape(shp);
}

/// The q values (already divided by 100 for percentile) in the q dtype, their shape (nullopt for a
/// scalar) and that dtype.
struct q_values {
  std::vector<double> values;  ///< exact values of the q dtype
  std::optional<shape_t> shape;
  dtype gdt = dtype::float64;
};

double round_to(double x, dtype t) {
  if (t == dtype::float32) return static_cast<double>(static_cast<float>(x));
  if (t == dtype::float16) return static_cast<double>(static_cast<float>(float16(x)));
  return x;
}

q_values read_q(const quantile_arg& q, bool percent, const char* fn) {
  q_values r;
  std::vector<double> raw;
  dtype qdt = dtype::float64;
  if (q.scalar) {
    raw = {*q.scalar};  // a weak Python scalar: float64 positions, weak weights in the lerp
  } else if (q.host) {
    raw = *q.host;
    r.shape = shape_t{static_cast<std::int64_t>(raw.size())};
  } else {
    const ndarray& d = *q.device;
    CUSCI_EXPECTS(!is_complex(d.dtype()), type_error, msg(fn, "q must be real"));
    qdt = is_floating(d.dtype()) ? d.dtype() : dtype::float64;
    r.shape = d.shape();
    raw = d.size() ? to_host(d.astype(dtype::float64)).to_vector<double>() : std::vector<double>{};
  }
  r.gdt = qdt;
  r.values.reserve(raw.size());
  for (double x : raw) {
    double v = round_to(x, qdt);
    if (percent) {
      if (qdt == dtype::float64) v = v / 100.0;
      else v = round_to(static_cast<double>(static_cast<float>(v) / 100.0f), qdt);
    }
    CUSCI_EXPECTS(v >= 0.0 && v <= 1.0, value_error,
                  msg(fn, percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]"));
    r.values.push_back(v);
  }
  return r;
}

bool is_discrete(quantile_method m) {
  return m == quantile_method::inverted_cdf || m == quantile_method::closest_observation ||
         m == quantile_method::lower || m == quantile_method::higher || m == quantile_method::nearest;
}

const char* method_name(quantile_method m) {
  switch (m) {
    case quantile_method::inverted_cdf: return "inverted_cdf";
    case quantile_method::averaged_inverted_cdf: return "averaged_inverted_cdf";
    case quantile_method::closest_observation: return "closest_observation";
    case quantile_method::interpolated_inverted_cdf: return "interpolated_inverted_cdf";
    case quantile_method::hazen: return "hazen";
    case quantile_method::weibull: return "weibull";
    case quantile_method::linear: return "linear";
    case quantile_method::median_unbiased: return "median_unbiased";
    case quantile_method::normal_unbiased: return "normal_unbiased";
    case quantile_method::lower: return "lower";
    case quantile_method::higher: return "higher";
    case quantile_method::midpoint: return "midpoint";
    case quantile_method::nearest: return "nearest";
  }
  return "?";
}

ndarray quantile_impl(const ndarray& a, const quantile_arg& q, const axis_arg& axis, const quantile_options& opts,
                      bool nan, bool percent, const char* fn) {
  CUSCI_EXPECTS(!is_complex(a.dtype()), type_error, msg(fn, "a must be an array of real numbers"));
  if (opts.weights) {
    CUSCI_EXPECTS(opts.method == quantile_method::inverted_cdf, value_error,
                  msg(fn, std::string("Only method 'inverted_cdf' supports weights. Got: ") + method_name(opts.method) + "."));
    throw value_error(msg(fn, "weights are not supported by cusci (NumPy supports them with method 'inverted_cdf')"));
  }
  // quantile with a Python int q and method linear: NumPy's integer virtual index, (n - 1) * q, taken
  // directly (the result keeps a's dtype); that is the `lower` position
  const quantile_method method =
      (!percent && q.scalar && q.integer && opts.method == quantile_method::linear) ? quantile_method::lower : opts.method;
  const bool discrete = is_discrete(method);
  CUSCI_EXPECTS(discrete || !is_bool(a.dtype()), type_error,
                msg(fn, "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead."));
  q_values qv = read_q(q, percent, fn);
  rows_view v = to_rows(a, axis, fn);
  if (nan && a.size() == 0) {
    // NumPy's _nanquantile_unchecked returns nanmean(a, axis, keepdims) for an empty a: q's shape
    // and the method play no part
    ndarray r = nanmean(a, axis, {.keepdims = opts.keepdims});
    if (r.size() > 0) warn("RuntimeWarning", fn, "Mean of empty slice");
    return r;
  }
  const std::int64_t nq = static_cast<std::int64_t>(qv.values.size());
  shape_t shp = qv.shape ? *qv.shape : shape_t{};
  const shape_t& tail = opts.keepdims ? v.keep_shape : v.out_shape;
  shp.insert(shp.end(), tail.begin(), tail.end());
  const bool weak = !qv.shape.has_value();
  const dtype rdt = discrete ? a.dtype() : weak ? promote_with_scalar(a.dtype(), scalar(0.5)) : promote_types(a.dtype(), qv.gdt);
  const bool nan_rows = nan && is_inexact(a.dtype());
  CUSCI_EXPECTS(!(v.L == 0 && v.R > 0 && nq > 0), index_error, msg(fn, "index -1 is out of bounds for axis 0 with size 0"));
  if (v.R == 0 || nq == 0 || v.L == 0) return empty(shp, rdt);
  // q in its dtype on the device (float16 / float32 as float)
  ndarray qd = qv.gdt == dtype::float64 ? asarray(qv.values)
                                        : asarray(std::vector<float>(qv.values.begin(), qv.values.end()));
  const std::int64_t n = detail::checked_mul(nq, v.R, fn);
  ndarray pos = empty({2 * n}, dtype::int64);  // prev positions, then next positions
  ndarray gamma = empty({n}, qv.gdt == dtype::float64 ? dtype::float64 : dtype::float32);
  const bool select = !nan && use_selection(a, v, 2 * nq);
  std::optional<ndarray> sorted, counts;
  if (!select) {
    sorted = sort(v.rows, -1);
    if (nan_rows) counts = valid_counts(*sorted, v.L, fn);
  }
  detail::quantile_positions(qd.data(), nq, qv.gdt, counts ? counts->data_as<std::int64_t>() : nullptr, v.R, v.L,
                             static_cast<int>(method), pos.data_as<std::int64_t>(),
                             pos.data_as<std::int64_t>() + n, gamma.data());
  ndarray res, b, last;
  if (select) {
    ndarray vals = empty({2 * n + 1}, a.dtype());
    detail::select_ranks(v.rows.data(), a.dtype(), v.L, pos.data_as<std::int64_t>(), static_cast<int>(2 * n),
                         vals.data());
    res = vals[{slice{0, n}}];
    b = vals[{slice{n, 2 * n}}];
    last = vals[{slice{2 * n, 2 * n + 1}}];
  } else {
    ndarray flat = sorted->reshape({-1});
    res = take(flat, pos[{slice{0, n}}], std::nullopt, clip_mode::clip);
    if (!discrete) b = take(flat, pos[{slice{n, 2 * n}}], std::nullopt, clip_mode::clip);
    if (!nan && is_inexact(a.dtype())) last = (*sorted)[{slice{}, v.L - 1}];
  }
  if (!discrete) {
    // NumPy's _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) where t >= 0.5
    // a weak q gives a Python float weight (NumPy: gamma = float(gamma)): 1 - t in float64, both
    // then converted to the result dtype as NEP 50 converts a weak operand
    ndarray tq = qv.gdt == dtype::float16 ? gamma.astype(dtype::float16) : gamma;
    ndarray omt = subtract(1, tq);
    ndarray t = weak ? tq.astype(rdt, false) : tq;
    if (weak) omt = omt.astype(rdt, false);
    ndarray diff = subtract(b, res);
    ndarray lo = add(res, multiply(diff, t));
    ndarray hi = subtract(b, multiply(diff, omt));
    res = where(greater_equal(tq, 0.5), hi.astype(lo.dtype(), false), lo);
  }
  res = res.reshape({nq, v.R});
  if (!nan && is_inexact(a.dtype())) res = where(isnan(last), last.astype(res.dtype(), false), res);
  return res.reshape(shp);
}

}  // namespace

bool detail::set_statistics_selection(bool enabled) noexcept { return selection_enabled.exchange(enabled); }

quantile_method parse_quantile_method(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(quantile_method::nearest); ++i) {
    const auto m = static_cast<quantile_method>(i);
    if (s == method_name(m)) return m;
  }
  throw value_error("cusci::parse_quantile_method: '" + std::string(s) +
                    "' is not a valid method. Use one of: inverted_cdf, averaged_inverted_cdf, closest_observation, "
                    "interpolated_inverted_cdf, hazen, weibull, linear, median_unbiased, normal_unbiased, lower, "
                    "higher, midpoint, nearest");
}

ndarray median(const ndarray& a, axis_arg axis, median_options opts) {
  return median_impl(a, axis, opts, false, "cusci::median");
}
ndarray nanmedian(const ndarray& a, axis_arg axis, median_options opts) {
  return median_impl(a, axis, opts, true, "cusci::nanmedian");
}
ndarray percentile(const ndarray& a, const quantile_arg& q, axis_arg axis, quantile_options opts) {
  return quantile_impl(a, q, axis, opts, false, true, "cusci::percentile");
}
ndarray quantile(const ndarray& a, const quantile_arg& q, axis_arg axis, quantile_options opts) {
  return quantile_impl(a, q, axis, opts, false, false, "cusci::quantile");
}
ndarray nanpercentile(const ndarray& a, const quantile_arg& q, axis_arg axis, quantile_options opts) {
  return quantile_impl(a, q, axis, opts, true, true, "cusci::nanpercentile");
}
ndarray nanquantile(const ndarray& a, const quantile_arg& q, axis_arg axis, quantile_options opts) {
  return quantile_impl(a, q, axis, opts, true, false, "cusci::nanquantile");
}

// --- average ------------------------------------------------------------------------------------

average_result average(const ndarray& a, axis_arg axis, average_options opts) {
  const char* fn = "cusci::average";
  average_result r;
  if (!opts.weights) {
    r.average = mean(a, axis, {.keepdims = opts.keepdims});
    if (opts.returned) {
      const std::int64_t as = r.average.size();
      const double cnt = as ? static_cast<double>(a.size()) / static_cast<double>(as) : 0.0;
      r.sum_of_weights = full(r.average.shape(), cnt, r.average.dtype());
    }
    return r;
  }
  const ndarray& w = *opts.weights;
  dtype rdt = promote_types(a.dtype(), w.dtype());
  if (is_integer(a.dtype()) || is_bool(a.dtype())) rdt = promote_types(rdt, dtype::float64);
  ndarray wgt = w;
  if (a.shape() != w.shape()) {
    CUSCI_EXPECTS(axis.axes.has_value(), type_error, msg(fn, "Axis must be specified when shapes of a and weights differ."));
    const std::vector<int> axes = detail::normalize_axes(*axis.axes, a.ndim(), fn);
    shape_t want;
    for (int d : axes) want.push_back(a.shape()[static_cast<std::size_t>(d)]);
    CUSCI_EXPECTS(w.shape() == want, value_error,
                  msg(fn, "Shape of weights must be consistent with shape of a along specified axis."));
    std::vector<int> order(axes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int x, int y) { return axes[static_cast<std::size_t>(x)] < axes[static_cast<std::size_t>(y)]; });
    if (w.ndim() > 1) wgt = w.transpose(order);
    shape_t bshape(a.shape().size(), 1);
    for (int d : axes) bshape[static_cast<std::size_t>(d)] = a.shape()[static_cast<std::size_t>(d)];
    wgt = wgt.reshape(bshape);
  }
  ndarray scl = sum(wgt, axis, {.dtype = rdt, .keepdims = opts.keepdims});
  CUSCI_EXPECTS(!any(equal(scl, 0.0)).item<bool>(), value_error, msg(fn, "Weights sum to zero, can't be normalized"));
  ndarray prod = multiply(a.astype(rdt, false), wgt.astype(rdt, false));
  r.average = divide(sum(prod, axis, {.dtype = rdt, .keepdims = opts.keepdims}), scl);
  if (opts.returned) {
    r.sum_of_weights = scl.shape() != r.average.shape() ? scl.broadcast_to(r.average.shape()).copy() : scl;
  }
  return r;
}

// --- cov / corrcoef -----------------------------------------------------------------------------

namespace {

/// A weight vector checked as NumPy's cov checks fweights / aweights; returned as float64.
ndarray checked_weights(const ndarray& w, std::int64_t nobs, const char* name, bool integer, const char* fn) {
  CUSCI_EXPECTS(!is_complex(w.dtype()), type_error, msg(fn, std::string(name) + " must be real"));
  ndarray f = w.astype(dtype::float64, false);
  if (integer) {
    CUSCI_EXPECTS(all(equal(f, around(f))).item<bool>(), type_error, msg(fn, "fweights must be integer"));
  }
  CUSCI_EXPECTS(f.ndim() <= 1, runtime_error, msg(fn, std::string("cannot handle multidimensional ") + name));
  CUSCI_EXPECTS(f.ndim() == 1 && f.shape()[0] == nobs, runtime_error,
                msg(fn, std::string("incompatible numbers of samples and ") + name));
  CUSCI_EXPECTS(!any(less(f, 0.0)).item<bool>(), value_error, msg(fn, std::string(name) + " cannot be negative"));
  return f;
}

ndarray cov_impl(const ndarray& m, const std::optional<ndarray>& y, const cov_options& opts, const char* fn) {
  CUSCI_EXPECTS(m.ndim() <= 2, value_error, msg(fn, "m has more than 2 dimensions"));
  if (y) CUSCI_EXPECTS(y->ndim() <= 2, value_error, msg(fn, "y has more than 2 dimensions"));
  dtype dt = opts.dtype ? *opts.dtype
                        : promote_types(y ? promote_types(m.dtype(), y->dtype()) : m.dtype(), dtype::float64);
  ndarray X = atleast_2d(m).astype(dt, false);
  if (!opts.rowvar && m.ndim() != 1) X = X.T();
  if (X.shape()[0] == 0) return empty({0, 0}, dtype::float64);
  if (y) {
    ndarray Y = atleast_2d(*y).astype(dt, false);
    if (!opts.rowvar && Y.shape()[0] != 1) Y = Y.T();
    CUSCI_EXPECTS(X.shape()[1] == Y.shape()[1], value_error,
                  msg(fn, "all the input array dimensions except for the concatenation axis must match exactly, but "
                          "along dimension 1, the array at index 0 has size " + std::to_string(X.shape()[1]) +
                          " and the array at index 1 has size " + std::to_string(Y.shape()[1])));
    X = concatenate({X, Y}, 0);
  }
  const std::int64_t nobs = X.shape()[1];
  const std::int64_t ddof = opts.ddof ? *opts.ddof : (opts.bias ? 0 : 1);
  std::optional<ndarray> w, aw;
  if (opts.fweights) w = checked_weights(*opts.fweights, nobs, "fweights", true, fn);
  if (opts.aweights) {
    aw = checked_weights(*opts.aweights, nobs, "aweights", false, fn);
    w = w ? multiply(*w, *aw) : *aw;
  }
  average_result ar = average(X, axis_arg(1), {.weights = w, .returned = true});
  double fact;
  if (!w) {
    fact = static_cast<double>(nobs - ddof);
  } else {
    const double w_sum = real(ar.sum_of_weights->astype(real_dtype(ar.sum_of_weights->dtype())))[0].item<double>();
    if (ddof == 0) fact = w_sum;
    else if (!aw) fact = w_sum - static_cast<double>(ddof);
    else fact = w_sum - static_cast<double>(ddof) * sum(multiply(*w, *aw)).item<double>() / w_sum;
  }
  if (fact <= 0) {
    warn("RuntimeWarning", fn, "Degrees of freedom <= 0 for slice");
    fact = 0.0;
  }
  ndarray avg = ar.average;
  ndarray Xc = subtract(X, avg.reshape({avg.shape()[0], 1})).astype(dt, false);
  ndarray XT = w ? multiply(Xc, *w).T() : Xc.T();  // float64 weights promote, as NumPy's (X * w).T
  if (is_complex(dt)) XT = conj(XT);
  ndarray c = matmul(Xc, XT);
  c = multiply(c, 1.0 / fact);
  return c.squeeze();
}

}  // namespace

ndarray cov(const ndarray& m, const std::optional<ndarray>& y, cov_options opts) {
  return cov_impl(m, y, opts, "cusci::cov");
}

ndarray corrcoef(const ndarray& x, const std::optional<ndarray>& y, corrcoef_options opts) {
  ndarray c = cov_impl(x, y, {.rowvar = opts.rowvar, .dtype = opts.dtype}, "cusci::corrcoef");
  if (c.ndim() == 0) return divide(c, c);  // one variable: NaN for nan / inf / 0, else 1
  ndarray d = diagonal(c);
  ndarray sd = sqrt(real(d));
  const std::int64_t k = sd.shape()[0];
  c = divide(c, sd.reshape({k, 1}));
  c = divide(c, sd.reshape({1, k}));
  ndarray re = real(c);
  clip(re, -1.0, 1.0, &re);
  if (is_complex(c.dtype())) {
    ndarray im = imag(c);
    clip(im, -1.0, 1.0, &im);
  }
  return c;
}

}  // namespace cusci

// Host side of the peaks family: SciPy's argument handling for find_peaks, peak_prominences,
// peak_widths and argrelextrema, the pipeline of kernels (peaks_find.cu, peaks_walk.cu,
// argrelextrema.cu) with its compactions (core's flatnonzero), and the sequential finish of the
// distance selection. find_peaks_cwt is in peaks_cwt.cpp.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/peaks.hpp"
#include "cusci/sorting.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "peaks/peaks_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {
namespace {

namespace pk = detail::peaks;
using pk::i64;

std::string fmt_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  std::string s = std::to_string(v);
  return s;
}

/// SciPy's `_arg_x_as_expected`: a 1-D float64 C-contiguous array (complex data lose their imaginary
/// part with NumPy's ComplexWarning).
ndarray x_as_expected(const ndarray& x, const char* fn, const char* name = "x") {
  CUSCI_EXPECTS(x.ndim() == 1, value_error, std::string(fn) + ": `" + name + "` must be a 1-D array");
  if (is_complex(x.dtype()))
    warn("ComplexWarning", fn, "Casting complex values to real discards the imaginary part");
  if (x.dtype() == dtype::float64 && x.is_c_contiguous()) return x;
  ndarray y = x.astype(dtype::float64);  // a new array (order K: contiguous for 1-D)
  return y.is_c_contiguous() ? y : y.copy();
}

/// SciPy's `_arg_peaks_as_expected`: int64, 1-D, from dtypes that cast safely to intp.
ndarray peaks_as_expected(const ndarray& peaks, const char* fn) {
  if (peaks.size() == 0) return empty({0}, dtype::int64);
  const dtype d = peaks.dtype();
  const bool safe = d == dtype::bool_ || d == dtype::int8 || d == dtype::int16 || d == dtype::int32 ||
                    d == dtype::int64 || d == dtype::uint8 || d == dtype::uint16 || d == dtype::uint32;
  CUSCI_EXPECTS(safe, type_error, std::string(fn) + ": cannot safely cast `peaks` to dtype('intp')");
  CUSCI_EXPECTS(peaks.ndim() == 1, value_error, std::string(fn) + ": `peaks` must be a 1-D array");
  if (d == dtype::int64 && peaks.is_c_contiguous()) return peaks;
  return peaks.astype(dtype::int64).copy();
}

/// SciPy's `_arg_wlen_as_expected`: -1 for None, else ceil(wlen) (> 1).
i64 wlen_as_expected(std::optional<double> wlen, const char* fn) {
  if (!wlen) return -1;
  CUSCI_EXPECTS(1 < *wlen, value_error, std::string(fn) + ": `wlen` must be larger than 1, was " + fmt_double(*wlen));
  CUSCI_EXPECTS(std::isfinite(*wlen), value_error, std::string(fn) + ": cannot convert float infinity to integer");
  const double c = std::ceil(*wlen);
  return c >= 9.2e18 ? INT64_MAX : static_cast<i64>(c);
}

/// A condition's borders on the device (holders keep the converted arrays alive).
struct condition {
  pk::interval_view view{};
  std::vector<ndarray> holders;
};

pk::border_view border_of(const std::optional<peak_border>& b, i64 n, const char* fn, const char* which,
                          std::vector<ndarray>& holders) {
  pk::border_view v;
  if (!b) return v;
  if (const double* d = std::get_if<double>(&*b)) {
    v.kind = 1;
    v.v = *d;
    return v;
  }
  ndarray a = std::holds_alternative<ndarray>(*b) ? std::get<ndarray>(*b) : asarray(std::get<host_array>(*b));
  CUSCI_EXPECTS(a.size() == n, value_error,
                std::string(fn) + ": array size of " + which + " interval border must match x");
  CUSCI_EXPECTS(!is_complex(a.dtype()), type_error, std::string(fn) + ": interval borders must be real");
  a = a.reshape({n}).astype(dtype::float64).copy();
  v.kind = 2;
  v.a = a.data_as<double>();
  holders.push_back(a);
  return v;
}

condition condition_of(const std::optional<peak_interval>& c, i64 n, const char* fn) {
  condition r;
  if (!c) return r;
  r.view.given = true;
  r.view.lo = border_of(c->min, n, fn, "lower", r.holders);
  r.view.hi = border_of(c->max, n, fn, "upper", r.holders);
  return r;
}

/// The pyramid of x (level 1 from the tile pass, which also writes `code` when given).
struct pyramid {
  std::vector<ndarray> levels;
  pk::pyramid_view view{};
};

pyramid build_pyramid(const ndarray& x, std::uint8_t* code, cudaStream_t st) {
  pyramid p;
  const i64 n = x.size();
  if (n == 0) return p;
  i64 cnt = (n + pk::kFan - 1) / pk::kFan;
  const i64 words = static_cast<i64>(sizeof(pk::summary) / 8);
  p.levels.push_back(empty({cnt * words}, dtype::int64));
  pk::tile_pass(x.data_as<double>(), n, code, static_cast<pk::summary*>(p.levels.back().data()), st);
  while (cnt > 1 && static_cast<int>(p.levels.size()) < pk::kMaxLevels) {
    const i64 next = (cnt + pk::kFan - 1) / pk::kFan;
    p.levels.push_back(empty({next * words}, dtype::int64));
    pk::reduce_level(static_cast<const pk::summary*>(p.levels[p.levels.size() - 2].data()), cnt,
                     static_cast<pk::summary*>(p.levels.back().data()), st);
    cnt = next;
  }
  p.view.levels = static_cast<int>(p.levels.size());
  for (std::size_t l = 0; l < p.levels.size(); ++l)
    p.view.lv[l] = static_cast<const pk::summary*>(p.levels[l].data());
  return p;
}

/// Keeps the entries of each array whose keep byte is set (core's flatnonzero, then a gather).
void compact(const ndarray& keep, std::vector<ndarray*> arrays, cudaStream_t st) {
  const i64 m = keep.size();
  if (m == 0) return;
  ndarray sel = flatnonzero(keep);  // synchronizes
  const i64 k = sel.size();
  if (k == m) return;
  for (ndarray* a : arrays) {
    ndarray out = empty({k}, a->dtype());
    pk::gather8(a->data(), sel.data_as<i64>(), k, out.data(), st);
    *a = out;
  }
}

/// Two device words for flags (a zero-property flag, and the first bad index: all ones when none),
/// read back together.
struct flags {
  device_buffer<unsigned long long> buf{2};
  void reset(cudaStream_t st) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(buf.data(), 0, sizeof(unsigned long long), st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(buf.data() + 1, 0xff, sizeof(unsigned long long), st));
  }
  int* zero() const { return reinterpret_cast<int*>(buf.data()); }
  unsigned long long* first_bad() const { return buf.data() + 1; }
  void read(unsigned long long out[2], cudaStream_t st) const {
    CUSCI_CUDA_TRY(cudaMemcpyAsync(out, buf.data(), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  }
};

i64 element_at(const ndarray& a, i64 k) { return a[k].item<i64>(); }

/// The sequential finish of the distance selection for the peaks the rounds left undecided: SciPy's
/// greedy in priority order (higher first, then further right), against the kept peaks.
void finish_distance_on_host(const ndarray& h, const ndarray& peaks, ndarray& state, double dist) {
  const i64 m = peaks.size();
  std::vector<i64> pos = peaks.get().to_vector<i64>();
  std::vector<double> hv = h.get().to_vector<double>();
  std::vector<std::uint8_t> s = state.get().to_vector<std::uint8_t>();
  std::set<i64> kept;
  std::vector<i64> und;
  for (i64 p = 0; p < m; ++p) {
    if (s[p] == 1) kept.insert(pos[p]);
    else if (s[p] == 3) und.push_back(p);
  }
  std::stable_sort(und.begin(), und.end(), [&](i64 a, i64 b) { return hv[a] > hv[b] || (hv[a] == hv[b] && a > b); });
  for (i64 p : und) {
    bool near = false;
    auto it = kept.lower_bound(pos[p]);
    if (it != kept.end() && static_cast<double>(*it - pos[p]) < dist) near = true;
    if (!near && it != kept.begin() && static_cast<double>(pos[p] - *std::prev(it)) < dist) near = true;
    s[p] = near ? 0 : 1;
    if (!near) kept.insert(pos[p]);
  }
  for (auto& v : s) v = v == 1 ? 1 : 0;
  state = asarray(host_array::from(s));
}

/// SciPy's _select_by_peak_distance (see peaks.hpp for the tie rule): rounds on the device, then
/// the rare leftovers on the host. Returns a byte mask of the kept peaks.
ndarray select_by_distance(const ndarray& x, const ndarray& peaks, double distance, cudaStream_t st) {
  const i64 m = peaks.size();
  ndarray state = empty({m}, dtype::uint8);
  if (m == 0) return state;
  const double dist = std::ceil(distance);
  // SciPy converts ceil(distance) to a C integer (np.intp): inf, NaN and anything beyond int64 become
  // INT64_MIN there (x86-64's conversion), no two peaks are then closer than it, and every peak is kept.
  if (!(dist < 9223372036854775807.0)) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(state.data(), 1, static_cast<std::size_t>(m), st));
    return state;
  }
  ndarray h = empty({m}, dtype::float64);  // the heights, contiguous for the rounds' neighbour scans
  pk::peak_values(x.data_as<double>(), peaks.data_as<i64>(), m, h.data_as<double>(), nullptr, nullptr, st);
  CUSCI_CUDA_TRY(cudaMemsetAsync(state.data(), 3, static_cast<std::size_t>(m), st));  // 3: undecided
  device_buffer<unsigned long long> und(1);
  constexpr int kBatch = 4, kMaxRounds = 32;
  unsigned long long left = 1;
  for (int r = 0; r < kMaxRounds && left > 0;) {
    for (int b = 0; b < kBatch; ++b, ++r) {
      CUSCI_CUDA_TRY(cudaMemsetAsync(und.data(), 0, sizeof(unsigned long long), st));
      pk::distance_round(h.data_as<double>(), peaks.data_as<i64>(), m, dist, state.data_as<std::uint8_t>(), und.data(),
                         r == 0, st);
    }
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&left, und.data(), sizeof(left), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  }
  if (left > 0) finish_distance_on_host(h, peaks, state, dist);
  return state;  // 1 kept, 0 removed
}

}  // namespace

// ------------------------------------------------------------------------------------ find_peaks

find_peaks_result find_peaks(const ndarray& x_in, const find_peaks_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::find_peaks");
  const char* fn = "cusci::signal::find_peaks";
  CUSCI_EXPECTS(x_in.ndim() == 1, value_error, std::string(fn) + ": `x` must be a 1-D array");
  if (o.distance)
    CUSCI_EXPECTS(!(*o.distance < 1), value_error, std::string(fn) + ": `distance` must be greater or equal to 1");
  const bool need_prom = o.prominence || o.width;
  const i64 wl = need_prom ? wlen_as_expected(o.wlen, fn) : -1;
  if (o.width)
    CUSCI_EXPECTS(!(o.rel_height < 0), value_error, std::string(fn) + ": `rel_height` must be greater or equal to 0.0");
  const i64 n = x_in.size();
  condition c_plateau = condition_of(o.plateau_size, n, fn), c_height = condition_of(o.height, n, fn),
            c_thr = condition_of(o.threshold, n, fn), c_prom = condition_of(o.prominence, n, fn),
            c_width = condition_of(o.width, n, fn);
  const ndarray x = x_as_expected(x_in, fn);
  cudaStream_t st = get_current_stream();

  // 1. rising samples, their flat runs, the pyramid
  ndarray code = empty({n}, dtype::uint8);
  pyramid pyr = build_pyramid(x, code.data_as<std::uint8_t>(), st);
  ndarray cand = n > 0 ? flatnonzero(code) : empty({0}, dtype::int64);
  const i64 m = cand.size();

  // 2. plateaus resolved, pointwise conditions
  ndarray peaks = empty({m}, dtype::int64), keep = empty({m}, dtype::uint8);
  ndarray left, right;
  if (o.plateau_size) {
    left = empty({m}, dtype::int64);
    right = empty({m}, dtype::int64);
  }
  pk::resolve_candidates(x.data_as<double>(), n, pyr.view, cand.data_as<i64>(), code.data_as<std::uint8_t>(), m,
                         c_plateau.view, c_height.view, c_thr.view, peaks.data_as<i64>(),
                         o.plateau_size ? left.data_as<i64>() : nullptr, o.plateau_size ? right.data_as<i64>() : nullptr,
                         keep.data_as<std::uint8_t>(), st);
  std::vector<ndarray*> carried{&peaks};
  if (o.plateau_size) {
    carried.push_back(&left);
    carried.push_back(&right);
  }
  compact(keep, carried, st);

  // 3. distance
  if (o.distance) compact(select_by_distance(x, peaks, *o.distance, st), carried, st);

  // 4. prominences
  std::optional<ndarray> prom, lbase, rbase;
  flags fl;
  if (need_prom) {
    const i64 k = peaks.size();
    prom = empty({k}, dtype::float64);
    lbase = empty({k}, dtype::int64);
    rbase = empty({k}, dtype::int64);
    ndarray keep2 = empty({k}, dtype::uint8);
    fl.reset(st);
    pk::prominences(x.data_as<double>(), n, pyr.view, peaks.data_as<i64>(), k, wl, prom->data_as<double>(),
                    lbase->data_as<i64>(), rbase->data_as<i64>(), c_prom.view,
                    o.prominence ? keep2.data_as<std::uint8_t>() : nullptr, fl.zero(), fl.first_bad(), st);
    unsigned long long f[2];
    fl.read(f, st);
    if (f[0] & 0xffffffffull) warn("PeakPropertyWarning", fn, "some peaks have a prominence of 0");
    carried.push_back(&*prom);
    carried.push_back(&*lbase);
    carried.push_back(&*rbase);
    if (o.prominence) compact(keep2, carried, st);
  }

  // 5. widths
  std::optional<ndarray> wh, wd, lip, rip;
  if (o.width) {
    const i64 k = peaks.size();
    wh = empty({k}, dtype::float64);
    wd = empty({k}, dtype::float64);
    lip = empty({k}, dtype::float64);
    rip = empty({k}, dtype::float64);
    ndarray keep3 = empty({k}, dtype::uint8);
    fl.reset(st);
    pk::widths(x.data_as<double>(), n, pyr.view, peaks.data_as<i64>(), k, o.rel_height, prom->data_as<double>(),
               lbase->data_as<i64>(), rbase->data_as<i64>(), wh->data_as<double>(), wd->data_as<double>(),
               lip->data_as<double>(), rip->data_as<double>(), c_width.view, keep3.data_as<std::uint8_t>(), fl.zero(),
               fl.first_bad(), st);
    unsigned long long f[2];
    fl.read(f, st);
    if (f[0] & 0xffffffffull) warn("PeakPropertyWarning", fn, "some peaks have a width of 0");
    carried.push_back(&*wh);
    carried.push_back(&*wd);
    carried.push_back(&*lip);
    carried.push_back(&*rip);
    compact(keep3, carried, st);
  }

  // 6. the properties of the survivors
  find_peaks_result r;
  const i64 k = peaks.size();
  if (o.height || o.threshold) {
    ndarray h = empty({k}, dtype::float64), lt = empty({k}, dtype::float64), rt = empty({k}, dtype::float64);
    pk::peak_values(x.data_as<double>(), peaks.data_as<i64>(), k, o.height ? h.data_as<double>() : nullptr,
                    o.threshold ? lt.data_as<double>() : nullptr, o.threshold ? rt.data_as<double>() : nullptr, st);
    if (o.height) r.peak_heights = h;
    if (o.threshold) {
      r.left_thresholds = lt;
      r.right_thresholds = rt;
    }
  }
  if (o.plateau_size) {
    ndarray s = empty({k}, dtype::int64);
    pk::plateau_sizes(left.data_as<i64>(), right.data_as<i64>(), k, s.data_as<i64>(), st);
    r.plateau_sizes = s;
    r.left_edges = left;
    r.right_edges = right;
  }
  r.prominences = prom;
  r.left_bases = lbase;
  r.right_bases = rbase;
  r.width_heights = wh;
  r.widths = wd;
  r.left_ips = lip;
  r.right_ips = rip;
  r.peaks = peaks;
  return r;
}

// ------------------------------------------------------------------------------------ prominences

namespace {

peak_prominences_result prominences_impl(const ndarray& x, const ndarray& peaks, i64 wl, const pyramid& pyr,
                                         const char* fn, cudaStream_t st) {
  const i64 k = peaks.size(), n = x.size();
  peak_prominences_result r{empty({k}, dtype::float64), empty({k}, dtype::int64), empty({k}, dtype::int64)};
  if (k == 0) return r;
  flags fl;
  fl.reset(st);
  pk::prominences(x.data_as<double>(), n, pyr.view, peaks.data_as<i64>(), k, wl, r.prominences.data_as<double>(),
                  r.left_bases.data_as<i64>(), r.right_bases.data_as<i64>(), pk::interval_view{}, nullptr, fl.zero(),
                  fl.first_bad(), st);
  unsigned long long f[2];
  fl.read(f, st);
  if (f[1] < static_cast<unsigned long long>(k))
    throw value_error(std::string(fn) + ": peak " + std::to_string(element_at(peaks, static_cast<i64>(f[1]))) +
                      " is not a valid index for `x`");
  if (f[0] & 0xffffffffull) warn("PeakPropertyWarning", fn, "some peaks have a prominence of 0");
  return r;
}

}  // namespace

peak_prominences_result peak_prominences(const ndarray& x_in, const ndarray& peaks_in, std::optional<double> wlen) {
  CUSCI_NVTX_SCOPE("cusci::signal::peak_prominences");
  const char* fn = "cusci::signal::peak_prominences";
  CUSCI_EXPECTS(x_in.ndim() == 1, value_error, std::string(fn) + ": `x` must be a 1-D array");
  const ndarray peaks = peaks_as_expected(peaks_in, fn);
  const i64 wl = wlen_as_expected(wlen, fn);
  const ndarray x = x_as_expected(x_in, fn);
  cudaStream_t st = get_current_stream();
  const pyramid pyr = peaks.size() > 0 ? build_pyramid(x, nullptr, st) : pyramid{};
  return prominences_impl(x, peaks, wl, pyr, fn, st);
}

peak_widths_result peak_widths(const ndarray& x_in, const ndarray& peaks_in, const peak_widths_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::peak_widths");
  const char* fn = "cusci::signal::peak_widths";
  CUSCI_EXPECTS(x_in.ndim() == 1, value_error, std::string(fn) + ": `x` must be a 1-D array");
  const ndarray peaks = peaks_as_expected(peaks_in, fn);
  const i64 wl = o.prominence_data ? -1 : wlen_as_expected(o.wlen, fn);
  const ndarray x = x_as_expected(x_in, fn);
  cudaStream_t st = get_current_stream();
  const i64 k = peaks.size(), n = x.size();
  const pyramid pyr = k > 0 ? build_pyramid(x, nullptr, st) : pyramid{};
  peak_prominences_result pd =
      o.prominence_data ? *o.prominence_data : prominences_impl(x, peaks, wl, pyr, "cusci::signal::peak_prominences", st);
  CUSCI_EXPECTS(!(o.rel_height < 0), value_error, std::string(fn) + ": `rel_height` must be greater or equal to 0.0");
  auto len0 = [](const ndarray& a) { return a.ndim() == 0 ? i64{-1} : a.shape()[0]; };
  CUSCI_EXPECTS(len0(pd.prominences) == k && len0(pd.left_bases) == k && len0(pd.right_bases) == k, value_error,
                std::string(fn) + ": arrays in `prominence_data` must have the same shape as `peaks`");
  auto as = [&](const ndarray& a, dtype d) {
    CUSCI_EXPECTS(!is_complex(a.dtype()), type_error, std::string(fn) + ": prominence_data must be real");
    return (a.dtype() == d && a.is_c_contiguous() && a.ndim() == 1) ? a : a.reshape({a.size()}).astype(d).copy();
  };
  const ndarray prom = as(pd.prominences, dtype::float64), lb = as(pd.left_bases, dtype::int64),
                rb = as(pd.right_bases, dtype::int64);
  peak_widths_result r{empty({k}, dtype::float64), empty({k}, dtype::float64), empty({k}, dtype::float64),
                       empty({k}, dtype::float64)};
  if (k == 0) return r;
  flags fl;
  fl.reset(st);
  pk::widths(x.data_as<double>(), n, pyr.view, peaks.data_as<i64>(), k, o.rel_height, prom.data_as<double>(),
             lb.data_as<i64>(), rb.data_as<i64>(), r.width_heights.data_as<double>(), r.widths.data_as<double>(),
             r.left_ips.data_as<double>(), r.right_ips.data_as<double>(), pk::interval_view{}, nullptr, fl.zero(),
             fl.first_bad(), st);
  unsigned long long f[2];
  fl.read(f, st);
  if (f[1] < static_cast<unsigned long long>(k))
    throw value_error(std::string(fn) + ": prominence data is invalid for peak " +
                      std::to_string(element_at(peaks, static_cast<i64>(f[1]))));
  if (f[0] & 0xffffffffull) warn("PeakPropertyWarning", fn, "some peaks have a width of 0");
  return r;
}

// ------------------------------------------------------------------------------------ argrelextrema

std::vector<ndarray> argrelextrema(const ndarray& data, extrema_comparator comparator, const argrelextrema_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::argrelextrema");
  const char* fn = "cusci::signal::argrelextrema";
  CUSCI_EXPECTS(o.order >= 1, value_error, std::string(fn) + ": Order must be an int >= 1");
  CUSCI_EXPECTS(data.ndim() >= 1, index_error, std::string(fn) + ": tuple index out of range");
  const int axis = cusci::detail::normalize_axis(o.axis, data.ndim(), fn);
  CUSCI_EXPECTS(!is_complex(data.dtype()), type_error,
                std::string(fn) + ": complex data are not supported (NumPy orders them lexicographically)");
  const i64 len = data.shape()[static_cast<std::size_t>(axis)];
  if (o.mode == extrema_mode::raise)
    CUSCI_EXPECTS(len == 0, index_error,
                  std::string(fn) + ": index " + std::to_string(len) + " is out of bounds for axis " +
                      std::to_string(axis) + " with size " + std::to_string(len));
  ndarray a = data.dtype() == dtype::float16 ? data.astype(dtype::float32) : data;
  if (!a.is_c_contiguous()) a = a.copy();
  const auto lv = cusci::detail::line_view_of(a.shape(), axis);
  ndarray mask = empty(a.shape(), dtype::bool_);
  pk::relextrema_mask(a.data(), static_cast<int>(a.dtype()), lv.outer, lv.length, lv.inner,
                      static_cast<int>(comparator), o.order, o.mode == extrema_mode::wrap ? 1 : 0,
                      mask.data_as<std::uint8_t>(), get_current_stream());
  if (mask.size() == 0) {
    std::vector<ndarray> out;
    for (int d = 0; d < a.ndim(); ++d) out.push_back(empty({0}, dtype::int64));
    return out;
  }
  return nonzero(mask);
}

std::vector<ndarray> argrelmin(const ndarray& data, const argrelextrema_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::argrelmin");
  return argrelextrema(data, extrema_comparator::less, o);
}
std::vector<ndarray> argrelmax(const ndarray& data, const argrelextrema_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::argrelmax");
  return argrelextrema(data, extrema_comparator::greater, o);
}

extrema_comparator parse_extrema_comparator(std::string_view s) {
  if (s.substr(0, 3) == "np.") s.remove_prefix(3);
  if (s == "greater") return extrema_comparator::greater;
  if (s == "less") return extrema_comparator::less;
  if (s == "greater_equal") return extrema_comparator::greater_equal;
  if (s == "less_equal") return extrema_comparator::less_equal;
  throw value_error("cusci::signal::parse_extrema_comparator: comparator must be one of 'greater', 'less', "
                    "'greater_equal', 'less_equal', got '" + std::string(s) + "'");
}

extrema_mode parse_extrema_mode(std::string_view s) {
  if (s == "clip") return extrema_mode::clip;
  if (s == "wrap") return extrema_mode::wrap;
  if (s == "raise") return extrema_mode::raise;
  throw value_error("cusci::signal::parse_extrema_mode: clipmode not understood, got '" + std::string(s) + "'");
}

}  // namespace cusci::signal

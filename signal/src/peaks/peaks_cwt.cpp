// find_peaks_cwt on the host: the Ricker-wavelet transform by direct convolution, SciPy's ridge-line
// tracking (_identify_ridge_lines) and filtering (_filter_ridge_lines) step by step. The tracking is
// sequential over rows and lines, and the transform is small next to what a GPU needs to pay off
// (widths * n * 10 w multiply-adds), so the whole function runs here and returns its indices on the
// device.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/peaks.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {
namespace {

using i64 = std::int64_t;

/// SciPy's _ricker(points, a) (points may be fractional: np.arange(0, points)).
std::vector<double> ricker(double points, double a) {
  const double A = 2 / (std::sqrt(3 * a) * std::pow(M_PI, 0.25));
  const double wsq = a * a;
  const i64 len = points > 0 ? static_cast<i64>(std::ceil(points)) : 0;
  std::vector<double> v(static_cast<std::size_t>(len));
  for (i64 i = 0; i < len; ++i) {
    const double t = static_cast<double>(i) - (points - 1.0) / 2;
    const double xsq = t * t;
    v[static_cast<std::size_t>(i)] = A * (1 - xsq / wsq) * std::exp(-xsq / (2 * wsq));
  }
  return v;
}

/// np.convolve(data, k, mode='same') (scipy.signal.convolve's 'same' centring).
std::vector<double> convolve_same(const std::vector<double>& d, const std::vector<double>& k) {
  const i64 n = static_cast<i64>(d.size()), m = static_cast<i64>(k.size());
  std::vector<double> out(d.size(), 0.0);
  if (n == 0 || m == 0) return out;
  const i64 start = (m - 1) / 2;
  for (i64 i = 0; i < n; ++i) {
    const i64 f = i + start;  // index into the full convolution
    double s = 0;
    const i64 jlo = std::max<i64>(0, f - (m - 1)), jhi = std::min<i64>(n - 1, f);
    for (i64 j = jlo; j <= jhi; ++j) s += d[static_cast<std::size_t>(j)] * k[static_cast<std::size_t>(f - j)];
    out[static_cast<std::size_t>(i)] = s;
  }
  return out;
}

/// scipy.stats.scoreatpercentile(a, per) with interpolation 'fraction'.
double score_at_percentile(std::vector<double> a, double per) {
  std::sort(a.begin(), a.end());
  const double idx = per / 100. * (static_cast<double>(a.size()) - 1);
  const i64 i = static_cast<i64>(idx);
  if (static_cast<double>(i) == idx) return a[static_cast<std::size_t>(i)];
  const double j = static_cast<double>(i + 1);
  const double w0 = j - idx, w1 = idx - static_cast<double>(i);
  return (a[static_cast<std::size_t>(i)] * w0 + a[static_cast<std::size_t>(i + 1)] * w1) / (w0 + w1);
}

struct line {
  std::vector<i64> rows, cols;
  i64 gap = 0;
};

}  // namespace

namespace detail::peaks {

std::vector<std::int64_t> find_peaks_cwt_host(const std::vector<double>& data, const std::vector<double>& widths,
                                              const find_peaks_cwt_options& o) {
  const char* fn = "cusci::signal::find_peaks_cwt";
  CUSCI_EXPECTS(!widths.empty(), index_error, std::string(fn) + ": index 0 is out of bounds for axis 0 with size 0");
  const i64 rows = static_cast<i64>(widths.size());
  std::vector<double> maxd = o.max_distances ? *o.max_distances : std::vector<double>{};
  if (!o.max_distances)
    for (double w : widths) maxd.push_back(w / 4.0);
  CUSCI_EXPECTS(static_cast<i64>(maxd.size()) >= rows, value_error,
                std::string(fn) + ": Max_distances must have at least as many rows as matr");
  CUSCI_EXPECTS(0 <= o.noise_perc && o.noise_perc <= 100, value_error,
                std::string(fn) + ": percentile must be in the range [0, 100]");
  const double gap_thresh = o.gap_thresh ? *o.gap_thresh : std::ceil(widths[0]);
  const i64 n = static_cast<i64>(data.size());

  // the transform, one row per width
  std::vector<std::vector<double>> cwt(static_cast<std::size_t>(rows));
  for (i64 r = 0; r < rows; ++r) {
    const double w = widths[static_cast<std::size_t>(r)];
    const double N = std::min(10 * w, static_cast<double>(n));
    std::vector<double> wav = ricker(N, w);
    std::reverse(wav.begin(), wav.end());
    cwt[static_cast<std::size_t>(r)] = convolve_same(data, wav);
  }
  auto relmax = [&](i64 r, i64 c) {  // _boolrelextrema(greater, axis=1, order=1, clip)
    const auto& row = cwt[static_cast<std::size_t>(r)];
    const double v = row[static_cast<std::size_t>(c)];
    const i64 cp = std::min(c + 1, n - 1), cm = std::max<i64>(c - 1, 0);
    return v > row[static_cast<std::size_t>(cp)] && v > row[static_cast<std::size_t>(cm)];
  };

  // _identify_ridge_lines
  std::vector<line> ridge, finals;
  i64 start_row = -1;
  for (i64 r = rows - 1; r >= 0 && start_row < 0; --r)
    for (i64 c = 0; c < n; ++c)
      if (relmax(r, c)) {
        start_row = r;
        break;
      }
  if (start_row >= 0) {
    for (i64 c = 0; c < n; ++c)
      if (relmax(start_row, c)) ridge.push_back(line{{start_row}, {c}, 0});
    for (i64 r = start_row - 1; r >= 0; --r) {
      for (auto& l : ridge) l.gap += 1;
      std::vector<i64> prev;
      for (const auto& l : ridge) prev.push_back(l.cols.back());
      const std::size_t nprev = prev.size();
      for (i64 c = 0; c < n; ++c) {
        if (!relmax(r, c)) continue;
        line* hit = nullptr;
        if (nprev > 0) {
          std::size_t best = 0;
          i64 bd = std::llabs(c - prev[0]);
          for (std::size_t q = 1; q < nprev; ++q) {
            const i64 dq = std::llabs(c - prev[q]);
            if (dq < bd) {
              bd = dq;
              best = q;
            }
          }
          if (static_cast<double>(bd) <= maxd[static_cast<std::size_t>(r)]) hit = &ridge[best];
        }
        if (hit) {
          hit->cols.push_back(c);
          hit->rows.push_back(r);
          hit->gap = 0;
        } else {
          ridge.push_back(line{{r}, {c}, 0});
        }
      }
      for (i64 q = static_cast<i64>(ridge.size()) - 1; q >= 0; --q)
        if (static_cast<double>(ridge[static_cast<std::size_t>(q)].gap) > gap_thresh) {
          finals.push_back(ridge[static_cast<std::size_t>(q)]);
          ridge.erase(ridge.begin() + q);
        }
    }
  }
  std::vector<line> lines = finals;
  lines.insert(lines.end(), ridge.begin(), ridge.end());
  for (auto& l : lines) {  // sort each line by row
    std::vector<std::size_t> idx(l.rows.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return l.rows[a] < l.rows[b]; });
    line s;
    for (auto i : idx) {
      s.rows.push_back(l.rows[i]);
      s.cols.push_back(l.cols[i]);
    }
    l = s;
  }

  // _filter_ridge_lines
  const double min_length = o.min_length ? *o.min_length : std::ceil(static_cast<double>(rows) / 4);
  const i64 window = static_cast<i64>(o.window_size ? *o.window_size : std::ceil(static_cast<double>(n) / 20));
  const i64 hf = window / 2, odd = window % 2;  // divmod of a non-negative window
  const auto& row0 = cwt[0];
  std::vector<i64> locs;
  std::vector<double> noises(static_cast<std::size_t>(n), 0.0);
  bool noises_done = false;
  for (const auto& l : lines) {
    if (static_cast<double>(l.rows.size()) < min_length) continue;
    if (!noises_done) {
      for (i64 i = 0; i < n; ++i) {
        const i64 a = std::max<i64>(i - hf, 0), b = std::min<i64>(i + hf + odd, n);
        noises[static_cast<std::size_t>(i)] =
            score_at_percentile(std::vector<double>(row0.begin() + a, row0.begin() + b), o.noise_perc);
      }
      noises_done = true;
    }
    const i64 r0 = l.rows[0], c0 = l.cols[0];
    const double snr =
        std::fabs(cwt[static_cast<std::size_t>(r0)][static_cast<std::size_t>(c0)] / noises[static_cast<std::size_t>(c0)]);
    if (snr < o.min_snr) continue;
    locs.push_back(c0);
  }
  std::sort(locs.begin(), locs.end());
  return locs;
}

}  // namespace detail::peaks

ndarray find_peaks_cwt(const ndarray& vector, const std::vector<double>& widths, const find_peaks_cwt_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::find_peaks_cwt");
  const char* fn = "cusci::signal::find_peaks_cwt";
  CUSCI_EXPECTS(vector.ndim() == 1, value_error, std::string(fn) + ": `vector` must be a 1-D array");
  if (widths.empty() || (o.max_distances && o.max_distances->size() < widths.size()) ||
      !(0 <= o.noise_perc && o.noise_perc <= 100)) {
    (void)detail::peaks::find_peaks_cwt_host({}, widths, o);  // throws SciPy's error
  }
  const std::vector<double> data = vector.astype(dtype::float64).get().to_vector<double>();
  return asarray(host_array::from(detail::peaks::find_peaks_cwt_host(data, widths, o)));
}

}  // namespace cusci::signal

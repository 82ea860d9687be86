#pragma once
// (internal) Interfaces between the host wrappers of the smoothing family and its kernels; the host
// numerics are in smoothing_math.hpp.

#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "smoothing/smoothing_math.hpp"

namespace cusci::signal::detail {

/// savgol_filter's interp edges: for every line of the C-contiguous [outer, n, inner] arrays x and y
/// (same dtype, float32 or float64), y[o, e, i] = sum_j left[e * wl + j] x[o, j, i] for e < h and
/// y[o, n - h + e, i] = sum_j right[e * wl + j] x[o, n - wl + j, i], h = window_length // 2.
/// `coef` is a device float64 array holding left then right ([2 h wl]). Asynchronous.
void savgol_edges(const ndarray& x, ndarray& y, std::int64_t outer, std::int64_t n, std::int64_t inner,
                  std::int64_t wl, std::int64_t h, const ndarray& coef);

/// 1-D zero-padded median of odd window k (3..25) of x (1-D float32 / float64, any stride) into the
/// new C-contiguous y; sets *nan_flag (device int, zeroed here) to 1 when x holds a NaN. Asynchronous.
void median1d(const ndarray& x, ndarray& y, int k, int* nan_flag);
/// The largest window median1d takes.
constexpr int median1d_max_window = 25;

/// wiener's elementwise steps on C-contiguous float64 arrays of `n` elements:
/// wiener_variance: q[i] = q[i] - m[i] * m[i];
/// wiener_finish: out[i] = var[i] < noise ? m[i] : (x[i] - m[i]) * (1 - noise / var[i]) + m[i], noise read from
/// `noise_dev` when not null, else `noise`.
void wiener_variance(const double* m, double* q, std::int64_t n);
void wiener_finish(const double* x, const double* m, const double* var, const double* noise_dev, double noise,
                   double* out, std::int64_t n);

/// wiener's 2-D path: x [H, W] C-contiguous float32 / float64, window ky x kx (each in
/// [1, wiener2d_max_window]); writes the local mean m and variance v (float64 [H, W], C-contiguous).
constexpr int wiener2d_max_window = 15;
void wiener_stats_2d(const ndarray& x, int ky, int kx, double* m, double* v);
/// The gain of wiener_finish reading x (C-contiguous float32 / float64) in its own dtype.
void wiener_finish_typed(const ndarray& x, const double* m, const double* var, const double* noise_dev, double noise,
                         double* out);

}  // namespace cusci::signal::detail

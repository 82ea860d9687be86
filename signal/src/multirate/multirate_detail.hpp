#pragma once
// (internal) The multirate family's device entry points (upfirdn_kernels.cu, resample_kernels.cu),
// called by the host functions in multirate.cpp / decimate.cpp. Host-only declarations.

#include <complex>
#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/multirate.hpp"

namespace cusci::signal::detail {

/// `a[..., s, ...]` with the slice `s` on `axis` (normalized) and full slices elsewhere (a view).
inline ndarray slice_along(const ndarray& a, int axis, slice s) {
  std::vector<index_spec> idx(static_cast<std::size_t>(a.ndim()), slice{});
  idx[static_cast<std::size_t>(axis)] = s;
  return a[idx];
}

/// Outputs o0 .. o0 + y.shape[1] - 1 of upfirdn(h, x, up, down, mode, cval) for every line of
/// x [lines, L] (C-contiguous), written to y [lines, n_keep] (C-contiguous, x's dtype: float32,
/// float64, complex64 or complex128). `h` holds the taps already rounded to that dtype.
/// Asynchronous on the current stream. The caller has checked that L >= 1 for modes other than
/// constant (L >= 2 for smooth, reflect, antireflect).
void upfirdn_lines(const ndarray& x, ndarray& y, const std::vector<std::complex<double>>& h, std::int64_t up,
                   std::int64_t down, extension_mode mode, std::complex<double> cval, std::int64_t o0);

/// resample's spectrum step for real time-domain data: X [lines, nX] (complex64/128, rfft of the
/// signal) -> Y [lines, m2] with Y[k] = X[k] * W[k] (W: [nX] float64 folded window, or empty), the
/// unpaired bin m / 2 scaled by `nyq_scale` when `nyq_scale` != 1, everything divided by s_fac
/// (as NumPy divides a complex array by a real scalar).
void resample_rspectrum(const ndarray& X, ndarray& Y, const ndarray* W, std::int64_t m, double nyq_scale,
                        double s_fac);

/// resample's spectrum step for the two-sided path: X [lines, nX] (complex64/128, or float32/64 for
/// real frequency-domain data, promoted) -> Y [lines, num] (complex, X's precision): SciPy's copy of
/// the positive and negative bins, the unpaired-bin handling for even m, divided by s_fac; W [nX]
/// float64 (or empty) multiplies X first.
void resample_cspectrum(const ndarray& X, ndarray& Y, const ndarray* W, std::int64_t n_x, std::int64_t num,
                        double s_fac);

}  // namespace cusci::signal::detail

#pragma once
// (internal) The responses family of cusci::signal: the shape/dtype plans shared by the host and device
// paths (responses.cpp, pure host code testable without a GPU) and the device entry points of
// responses.cu. Every device entry point enqueues work on the current stream and launches nothing when
// there is nothing to compute.

#include <cstdint>
#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/signal/responses.hpp"

namespace cusci::signal::detail {

/// SciPy's frequency grid of one call: either `count` points w[i] = i * step (radians/sample, or rad/s
/// for analog grids), or explicit frequencies f converted as w = (2 pi f) / fs. Returned frequencies are
/// w * out_scale, out_scale = fs / (2 pi).
struct grid_spec {
  bool count = true;
  std::int64_t n = 0;        ///< number of points
  double step = 0;           ///< count grids
  bool endpoint = false;     ///< count grids from linspace with endpoint: w[n - 1] = stop exactly
  double stop = 0;
  double fs = 0;             ///< explicit grids
  double out_scale = 1.0;    ///< fs / (2 pi)
};

/// The shapes and dtypes of one `freqz` call (SciPy's rules; see responses.hpp).
struct freqz_plan {
  std::int64_t ntaps = 0, na = 0;
  std::int64_t K = 1;        ///< number of filters: prod(b.shape[1:-1])
  bool a_batched = false;    ///< a has its own coefficients per filter
  bool b_complex = false, a_complex = false;
  bool zero_fill = false;    ///< empty b on SciPy's FFT path: h = 0
  bool fft_path = false;     ///< SciPy's FFT path applies (a of size 1, integer grid, n_fft >= ntaps > 0)
  std::int64_t n_fft = 0;    ///< its transform length
  grid_spec grid;
  shape_t w_shape, h_shape;
  dtype w_dtype = dtype::float64, h_dtype = dtype::complex128;
};

/// The plan of freqz(b, a, worN) given the shapes and dtypes (a_shape empty optional: a = 1 as SciPy's
/// default, an int that becomes float64). `worN_count` set for an integer worN, else the explicit
/// frequencies' shape and dtype. @throws as `freqz` documents.
freqz_plan plan_freqz(const shape_t& b_shape, dtype b_dt, const std::optional<shape_t>& a_shape, dtype a_dt,
                      std::optional<std::int64_t> worN_count, const shape_t& f_shape, dtype f_dt,
                      const freqz_options& opts, const char* fn);

/// SciPy's numpy.linspace(0, last, n, endpoint) as a count grid (w[i] = i * (last / div)).
/// @throws cusci::value_error for n < 0 (NumPy's message).
grid_spec count_grid(std::int64_t n, double last, bool endpoint, double fs, const char* fn);

/// The grid of a count (linspace(0, pi or 2 pi (whole), n), no endpoint) or of explicit frequencies of
/// shape f_shape (made at least 1-D into `shape`).
grid_spec plan_grid(std::optional<std::int64_t> count, const shape_t& f_shape, bool whole, double fs, shape_t& shape,
                    const char* fn);

/// freqz_zpk's grid and SciPy's dtypes for it (w: float32 unless result_type(z, p) is float64 or
/// complex128; explicit frequencies keep theirs; h complex64 only for single-precision z and p).
struct zpk_plan {
  grid_spec grid;
  shape_t shape;
  dtype w_dtype = dtype::float64, h_dtype = dtype::complex128;
};
zpk_plan plan_freqz_zpk(dtype z_dt, dtype p_dt, std::optional<std::int64_t> count, const shape_t& f_shape, dtype f_dt,
                        bool whole, double fs, const char* fn);

/// True for float16 / float32 / complex64 (SciPy's single-precision results).
bool single_precision(dtype t);

// --- device entry points (responses.cu) -------------------------------------------------------------

/// h[k, i] = B_k(z) / A_k(z), z^-1 = exp(-i w_i), for k < K, i < n (h: [K, n] complex128 contiguous);
/// w_out[i] = w_i * out_scale when w_out is not null. b: [K, ntaps] contiguous float64 (or complex128
/// with b_complex); a: [K or 1, na] (a_batched: one row per filter). f: explicit frequencies [n] float64
/// (null for a count grid).
void freqz_ba_device(const void* b, bool b_complex, std::int64_t ntaps, const void* a, bool a_complex, std::int64_t na,
                     bool a_batched, std::int64_t K, const grid_spec& g, const double* f, double* w_out, void* h);

/// SciPy's FFT path, last step: h[k, i] = H[k * ldh + i] / a[0] for i < n (H: K transformed rows of
/// complex128 with row pitch ldh >= n), and w_out[i] (count grid) when not null.
void freqz_fft_finish_device(const void* H, std::int64_t ldh, std::int64_t K, const void* a, bool a_complex,
                             const grid_spec& g, double* w_out, void* h);

/// h[k, i] = prod_j section_j(z) of sos [K, ns, 6] contiguous (float64, or complex128 with complex_sos).
void freqz_sos_device(const void* sos, bool complex_sos, std::int64_t ns, std::int64_t K, const grid_spec& g,
                      const double* f, double* w_out, void* h);

/// h[i] = k prod(e^{iw} - z) / prod(e^{iw} - p) for complex128 z [nz], p [np].
void freqz_zpk_device(const void* z, std::int64_t nz, const void* p, std::int64_t np, double k, const grid_spec& g,
                      const double* f, double* w_out, void* h);

}  // namespace cusci::signal::detail

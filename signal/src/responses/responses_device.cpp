// The device overloads of freqz, freqz_sos and freqz_zpk: the same shape/dtype plans as the host path
// (responses.cpp), coefficients laid out contiguously in float64 / complex128 on the device, then one
// kernel of responses.cu. Asynchronous on the current stream: nothing is read back.

#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "responses/responses_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

constexpr double two_pi = 2 * 3.141592653589793;
// FIR filters with more taps than this go through SciPy's FFT method on the device (estimate: the
// direct kernel does 4 ntaps float64 flops per output and is compute-bound, the FFT path moves about
// six times the output's bytes; they meet at a few hundred taps on an H200; to be confirmed by FR1-style
// runs with longer filters).
constexpr std::int64_t kDirectTapsDevice = 256;

// The coefficients [n, K] (rows along the first axis) as a C-contiguous [K, n] array of float64 or
// complex128 (cplx).
ndarray rows_of(const ndarray& c, std::int64_t n, std::int64_t K, bool cplx) {
  const ndarray r = c.reshape({n, K});
  return r.astype(cplx ? dtype::complex128 : dtype::float64).T().copy();
}

// Explicit frequencies as a contiguous float64 [n] device array (real part of complex ones, as SciPy's
// cast to a real dtype).
ndarray freqs_on_device(const freq_points& worN, std::int64_t n) {
  ndarray f = worN.is_device ? worN.device : asarray(worN.host);
  if (is_complex(f.dtype())) f = real(f);
  return f.astype(dtype::float64).reshape({n}).copy();
}

// Shape and dtype of explicit frequencies (unused for a count).
shape_t freqs_shape(const freq_points& w) { return w.count ? shape_t{} : w.is_device ? w.device.shape() : w.host.shape(); }
dtype freqs_dtype(const freq_points& w) {
  return w.count ? dtype::float64 : w.is_device ? w.device.dtype() : w.host.dtype();
}

const ndarray* device_freqs_ptr(const freq_points& worN) { return worN.is_device ? &worN.device : nullptr; }

device_freq_response finish(ndarray w, ndarray h, const shape_t& ws, dtype wdt, const shape_t& hs, dtype hdt) {
  device_freq_response r;
  r.w = w.reshape(ws);
  if (wdt != dtype::float64) r.w = r.w.astype(wdt);
  r.h = h.reshape(hs);
  if (hdt != dtype::complex128) r.h = r.h.astype(hdt);
  return r;
}

}  // namespace

device_freq_response freqz(const ndarray& b, const std::optional<ndarray>& a, const freq_points& worN,
                           const freqz_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::freqz");
  const char* fn = "cusci::signal::freqz";
  const shape_t fshape = freqs_shape(worN);
  const dtype fdt = freqs_dtype(worN);
  const detail::freqz_plan p =
      detail::plan_freqz(b.shape(), b.dtype(), a ? std::optional<shape_t>(a->shape()) : std::nullopt,
                         a ? a->dtype() : dtype::float64, worN.count, fshape, fdt, opts, fn);
  cusci::detail::check_same_device(fn, {&b, a ? &*a : nullptr, device_freqs_ptr(worN)});
  device_guard guard(b.device());
  const std::int64_t n = p.grid.n, K = p.K;
  ndarray w = empty({n}, dtype::float64);
  ndarray h = empty({K, n}, dtype::complex128);
  if (n > 0 && K > 0) {
    ndarray f;
    if (!p.grid.count) f = freqs_on_device(worN, n);
    const double* fp = p.grid.count ? nullptr : f.data_as<double>();
    if (p.zero_fill) {
      // Empty b on SciPy's FFT path: h = 0 (k = 0 of an empty zpk evaluates exactly that, and the grid).
      const std::int64_t rows = K;
      for (std::int64_t k = 0; k < rows; ++k) {
        ndarray hk = h[k];
        detail::freqz_zpk_device(nullptr, 0, nullptr, 0, 0.0, p.grid, fp, k == 0 ? w.data_as<double>() : nullptr,
                                 hk.data());
      }
    } else {
      const ndarray bb = rows_of(b.ndim() == 0 ? b.reshape({1}) : b, p.ntaps, K, p.b_complex);
      ndarray aa;
      if (!a) aa = asarray(std::vector<double>{1.0});
      else if (p.a_batched) aa = rows_of(*a, p.na, K, p.a_complex);
      else aa = a->astype(p.a_complex ? dtype::complex128 : dtype::float64).reshape({-1}).copy();
      if (p.fft_path && p.ntaps > kDirectTapsDevice) {
        // SciPy's own method for long FIR filters on an integer grid: batched FFTs of the zero-padded
        // rows (core's plan cache), then one pass taking the first N bins and dividing by a[0].
        ndarray H;
        if (!p.b_complex && !opts.whole) H = fft::rfft(bb, {.n = p.n_fft});
        else H = fft::fft(p.b_complex ? bb : bb.astype(dtype::complex128), {.n = p.n_fft});
        detail::freqz_fft_finish_device(H.data(), H.shape(1), K, aa.data(), p.a_complex, p.grid, w.data_as<double>(),
                                        h.data());
      } else {
        detail::freqz_ba_device(bb.data(), p.b_complex, p.ntaps, aa.data(), p.a_complex, p.na, p.a_batched, K, p.grid,
                                fp, w.data_as<double>(), h.data());
      }
    }
  }
  return finish(w, h, p.w_shape, p.w_dtype, p.h_shape, p.h_dtype);
}

device_freq_response freqz_sos(const ndarray& sos, const freq_points& worN, const freqz_sos_options& opts) {
  const char* fn = "cusci::signal::freqz_sos";
  using cusci::detail::msg;
  CUSCI_EXPECTS(sos.ndim() >= 1 && sos.ndim() <= 3, value_error,
                msg(fn, "sos array must be 2D (or a batch [K, n_sections, 6])"));
  const shape_t ss = sos.ndim() == 1 ? shape_t{1, 1, sos.shape(0)}
                     : sos.ndim() == 2 ? shape_t{1, sos.shape(0), sos.shape(1)}
                                       : sos.shape();
  CUSCI_EXPECTS(ss[2] == 6, value_error, msg(fn, "sos array must be shape (n_sections, 6)"));
  CUSCI_EXPECTS(ss[1] > 0, value_error, msg(fn, "Cannot compute frequencies with no sections"));
  const shape_t fshape = freqs_shape(worN);
  const dtype fdt = freqs_dtype(worN);
  const freqz_options fo{.whole = opts.whole, .fs = opts.fs, .include_nyquist = false};
  const detail::freqz_plan p = detail::plan_freqz(shape_t{3}, sos.dtype(), shape_t{3}, sos.dtype(), worN.count, fshape,
                                                  fdt, fo, fn);
  cusci::detail::check_same_device(fn, {&sos, device_freqs_ptr(worN)});
  device_guard guard(sos.device());
  const std::int64_t n = p.grid.n, K = ss[0], ns = ss[1];
  ndarray w = empty({n}, dtype::float64);
  ndarray h = empty({K, n}, dtype::complex128);
  if (n > 0 && K > 0) {
    ndarray f;
    if (!p.grid.count) f = freqs_on_device(worN, n);
    const bool cplx = is_complex(sos.dtype());
    const ndarray s = sos.astype(cplx ? dtype::complex128 : dtype::float64).reshape(ss).copy();
    detail::freqz_sos_device(s.data(), cplx, ns, K, p.grid, p.grid.count ? nullptr : f.data_as<double>(),
                             w.data_as<double>(), h.data());
  }
  shape_t hs = p.h_shape;
  if (sos.ndim() == 3) {
    CUSCI_EXPECTS(p.w_shape.size() == 1, value_error,
                  msg(fn, "explicit frequencies must be 1-D for a batch of filters"));
    hs = {K, n};
  }
  return finish(w, h, p.w_shape, p.w_dtype, hs, p.h_dtype);
}

device_freq_response freqz_zpk(const ndarray& z, const ndarray& p, double k, const freq_points& worN,
                               const freqz_zpk_options& opts) {
  const char* fn = "cusci::signal::freqz_zpk";
  const shape_t fshape = freqs_shape(worN);
  const dtype fdt = freqs_dtype(worN);
  const detail::zpk_plan zp =
      detail::plan_freqz_zpk(z.dtype(), p.dtype(), worN.count, fshape, fdt, opts.whole, opts.fs, fn);
  const detail::grid_spec& g = zp.grid;
  cusci::detail::check_same_device(fn, {&z, &p, device_freqs_ptr(worN)});
  device_guard guard(z.device());
  ndarray w = empty({g.n}, dtype::float64);
  ndarray h = empty({g.n}, dtype::complex128);
  if (g.n > 0) {
    ndarray f;
    if (!g.count) f = freqs_on_device(worN, g.n);
    const ndarray zc = z.astype(dtype::complex128).reshape({-1}).copy();
    const ndarray pc = p.astype(dtype::complex128).reshape({-1}).copy();
    detail::freqz_zpk_device(zc.data(), zc.size(), pc.data(), pc.size(), k, g, g.count ? nullptr : f.data_as<double>(),
                             w.data_as<double>(), h.data());
  }
  return finish(w, h, zp.shape, zp.w_dtype, zp.shape, zp.h_dtype);
}

}  // namespace cusci::signal

// The public functions of the fourier family (fourier.hpp): argument checks in SciPy's order, dtype and
// shape rules, the host plans (envelope's bins, detrend's segments, the chirp z-transform's chirps
// computed as SciPy's numpy expressions compute them), then the device entry points of the family's
// .cu files and core's FFTs.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <cufft.h>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/reduction.hpp"
#include "cusci/stream.hpp"
#include "filtering/filter_common.hpp"
#include "fourier/fourier_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using cusci::detail::move_axis_last;
using cusci::detail::move_last_axis_to;
using cusci::detail::msg;
using cusci::detail::normalize_axis;
using cusci::detail::shape_str;
using cplx = std::complex<double>;

namespace {

constexpr double pi = std::numbers::pi;

// The real dtype SciPy's FFTs compute a real input in: float32 for float16/float32, else float64.
dtype fft_real_dtype(dtype t) { return (t == dtype::float16 || t == dtype::float32) ? dtype::float32 : dtype::float64; }
dtype complex_of(dtype real) { return real == dtype::float32 ? dtype::complex64 : dtype::complex128; }

std::int64_t prod_front(const shape_t& s) {
  std::int64_t p = 1;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) p *= s[i];
  return p;
}

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

// `x` (axis already last) as a C-contiguous [..., N] array of dtype dt, cropped or zero-padded along the
// last axis; `x` itself when it already is one (and suitably aligned for cuFFT).
ndarray padded_lines(const ndarray& x, std::int64_t N, dtype dt) {
  const std::int64_t len = x.shape().back();
  if (x.dtype() == dt && len == N && x.is_c_contiguous() && aligned(x.data(), 2 * itemsize(dt))) return x;
  shape_t s = x.shape();
  s.back() = N;
  ndarray buf = cusci::empty(s, dt);
  if (buf.size() == 0) return buf;
  const std::int64_t L = std::min(len, N);
  if (L > 0) {
    ndarray dst = buf[{ellipsis, slice{0, L}}];
    cusci::detail::copy_cast(x[{ellipsis, slice{0, L}}], dst);
  }
  if (N > L) {
    ndarray pad = buf[{ellipsis, slice{L, N}}];
    cusci::detail::fill(pad, scalar(0.0));
  }
  return buf;
}

// Python's slice(s, e) on a sequence of length n: the index range [lo, hi).
std::pair<std::int64_t, std::int64_t> pyslice(std::int64_t s, std::int64_t e, std::int64_t n) {
  auto norm = [n](std::int64_t v) {
    if (v < 0) return std::max<std::int64_t>(v + n, 0);
    return std::min(v, n);
  };
  const std::int64_t a = norm(s), b = norm(e);
  return {a, std::max(a, b)};
}

// Python's floor division by 2.
std::int64_t floordiv2(std::int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// numpy's complex division 1 / z (Smith's algorithm, as numpy's loops).
cplx npy_recip(cplx z) {
  const double c = z.real(), d = z.imag();
  if (std::abs(c) >= std::abs(d)) {
    const double rat = d / c, scl = 1.0 / (c + d * rat);
    return {scl, -rat * scl};
  }
  const double rat = c / d, scl = 1.0 / (d + c * rat);
  return {rat * scl, -scl};
}
cplx cmul(cplx a, cplx b) { return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()}; }
// np.exp(complex(re, im)) for re == +-0: (cos im, sin im).
cplx expi(double im) { return {std::cos(im), std::sin(im)}; }

}  // namespace

namespace detail {

cplx npy_cpow(cplx a, double e) {
  if (e == 0.0) return {1.0, 0.0};
  if (a.real() == 0.0 && a.imag() == 0.0) {
    if (e > 0) return {0.0, 0.0};
    return {std::nan(""), std::nan("")};
  }
  const auto n = static_cast<std::int64_t>(e);
  if (static_cast<double>(n) == e && n > -100 && n < 100) {
    if (n == 1) return a;
    if (n == 2) return cmul(a, a);
    if (n == 3) return cmul(a, cmul(a, a));
    std::int64_t k = n < 0 ? -n : n, mask = 1;
    cplx aa{1.0, 0.0}, p = a;
    while (true) {
      if (k & mask) aa = cmul(aa, p);
      mask <<= 1;
      if (k < mask || mask <= 0) break;
      p = cmul(p, p);
    }
    return e < 0 ? npy_recip(aa) : aa;
  }
  // glibc's cpow: cexp(e * clog(a)).
  const cplx lg = std::log(a);
  const double re = e * lg.real(), im = e * lg.imag();
  const double r = std::exp(re);
  return {r * std::cos(im), r * std::sin(im)};
}

envelope_plan envelope_plan_of(std::int64_t n, std::int64_t n_out,
                               const std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>& bp_in,
                               envelope_residual residual) {
  const std::int64_t start = bp_in.first ? *bp_in.first : -(n / 2);
  const std::int64_t stop = bp_in.second ? *bp_in.second : (n + 1) / 2;
  CUSCI_EXPECTS(floordiv2(-n) <= start && start < stop && stop <= (n + 1) / 2, value_error,
                msg("cusci::signal::envelope",
                    "`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does not hold for n=" + std::to_string(n) +
                        " and bp_in=(" + std::to_string(start) + ", " + std::to_string(stop) + ")"));
  envelope_plan p;
  p.n = n;
  p.n_out = n_out;
  if (start > 0) {
    p.dbl_lo = start;
    p.dbl_hi = stop;
  } else if (stop > 0) {
    p.dbl_lo = 1;
    p.dbl_hi = stop;
  }
  const bool straddles = start <= 0 && 0 < stop;
  std::pair<std::int64_t, std::int64_t> band;
  if (!straddles) {
    band = pyslice(start, stop, n);
    p.band_off = 0;
  } else {
    band = pyslice(start + n / 2, stop + n / 2, n);  // in fftshift(Z)
    p.band_off = -(n / 2);
  }
  p.band_p0 = band.first;
  p.band_len = std::min(band.second - band.first, n_out);
  auto add = [&p](std::pair<std::int64_t, std::int64_t> r) {
    p.zr_lo[p.n_zr] = r.first;
    p.zr_hi[p.n_zr] = r.second;
    ++p.n_zr;
  };
  if (!straddles) {
    add(pyslice(start, stop, n));
  } else {
    add(pyslice(0, stop, n));
    add(pyslice(start, n, n));
  }
  if (residual == envelope_residual::lowpass) {
    if (stop > 0) {
      add(pyslice(stop, (n + 1) / 2, n));
    } else {
      add(pyslice(start, n, n));
      add(pyslice(0, (n + 1) / 2, n));
    }
  }
  return p;
}

std::vector<std::int64_t> detrend_bounds(const std::vector<std::int64_t>& bp, std::int64_t N) {
  std::vector<std::int64_t> b{0, N};
  b.insert(b.end(), bp.begin(), bp.end());
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  CUSCI_EXPECTS(b.back() <= N, value_error,
                msg("cusci::signal::detrend", "Breakpoints must be less than length of data along given axis (" +
                                                  std::to_string(N) + "), got " + std::to_string(b.back())));
  CUSCI_EXPECTS(b.front() >= 0, value_error,
                msg("cusci::signal::detrend", "bp must be non-negative, got " + std::to_string(b.front())));
  return b;
}

}  // namespace detail

// ------------------------------------------------------------------------------------ parsers

envelope_residual parse_envelope_residual(std::string_view s) {
  if (s == "lowpass") return envelope_residual::lowpass;
  if (s == "all") return envelope_residual::all;
  if (s == "None" || s == "none" || s.empty()) return envelope_residual::none;
  throw value_error(msg("cusci::signal::envelope",
                        "residual='" + std::string(s) + "' not in ['lowpass', 'all', None]"));
}

detrend_type parse_detrend_type(std::string_view s) {
  if (s == "linear" || s == "l") return detrend_type::linear;
  if (s == "constant" || s == "c") return detrend_type::constant;
  throw value_error(msg("cusci::signal::detrend", "Trend type must be 'linear' or 'constant', got '" +
                                                      std::string(s) + "'"));
}

// ------------------------------------------------------------------------------------ hilbert

ndarray hilbert(const ndarray& x, const hilbert_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::hilbert");
  const char* fn = "cusci::signal::hilbert";
  CUSCI_EXPECTS(!is_complex(x.dtype()), value_error,
                msg(fn, "x must be real, got dtype " + std::string(dtype_name(x.dtype()))));
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, msg(fn, "x must have at least one dimension, got a 0-d array"));
  int axis = 0;
  if (!opts.N) axis = normalize_axis(opts.axis, x.ndim(), fn);
  const std::int64_t N = opts.N ? *opts.N : x.shape()[axis];
  CUSCI_EXPECTS(N > 0, value_error, msg(fn, "N must be positive, got " + std::to_string(N)));
  axis = normalize_axis(opts.axis, x.ndim(), fn);
  shape_t oshape = x.shape();
  oshape[axis] = N;
  const dtype rdt = fft_real_dtype(x.dtype()), cdt = complex_of(rdt);
  cusci::detail::checked_size(oshape, fn, itemsize(cdt));

  const ndarray xm = move_axis_last(x, axis);
  shape_t mshape = xm.shape();
  mshape.back() = N;
  ndarray out = cusci::empty(mshape, cdt);
  const std::int64_t rows = prod_front(mshape);
  if (rows == 0) return move_last_axis_to(out, axis);
  const bool dbl = rdt == dtype::float64;
  const ndarray xr = padded_lines(xm, N, rdt);
  // SciPy's ifft(fft(x) h) is x + i H(x) with H the Hilbert transform; its real part is x itself (to
  // rounding), so only H(x) is transformed: R2C, the quadrature weights on the half spectrum, C2R (a
  // real inverse, half the work of the complex one), then x and H(x) are interleaved.
  const std::int64_t half = N / 2 + 1;
  ndarray spec = cusci::empty({rows, half}, cdt);
  detail::fft_r2c_rows(xr.data(), spec.data(), N, rows, N, half, dbl);
  detail::hilbert_quadrature(spec.data(), N, rows, dbl);
  ndarray h = cusci::empty({rows, N}, rdt);
  detail::fft_c2r_rows(spec.data(), h.data(), N, rows, dbl);
  detail::analytic_combine(xr.data(), h.data(), out.data(), rows * N, dbl);
  return move_last_axis_to(out, axis);
}

ndarray hilbert2(const ndarray& x_in, const hilbert2_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::hilbert2");
  const char* fn = "cusci::signal::hilbert2";
  CUSCI_EXPECTS(!is_complex(x_in.dtype()), value_error,
                msg(fn, "x must be real, got dtype " + std::string(dtype_name(x_in.dtype()))));
  ndarray x = x_in;
  if (x.ndim() == 0) x = x.reshape({1, 1});
  else if (x.ndim() == 1) x = x.reshape({1, x.shape()[0]});
  CUSCI_EXPECTS(opts.axes.size() == 2, value_error,
                msg(fn, "axes must be a tuple of length 2, got " + std::to_string(opts.axes.size()) + " axes"));
  CUSCI_EXPECTS(opts.axes[0] != opts.axes[1], value_error, msg(fn, "axes must contain 2 distinct axes"));
  std::int64_t N0 = 0, N1 = 0;
  if (!opts.N) {
    N0 = x.shape()[normalize_axis(opts.axes[0], x.ndim(), fn)];
    N1 = x.shape()[normalize_axis(opts.axes[1], x.ndim(), fn)];
  } else if (opts.N->size() == 1) {
    N0 = N1 = (*opts.N)[0];
    CUSCI_EXPECTS(N0 > 0, value_error, msg(fn, "N must be positive, got " + std::to_string(N0)));
  } else {
    CUSCI_EXPECTS(opts.N->size() == 2 && (*opts.N)[0] > 0 && (*opts.N)[1] > 0, value_error,
                  msg(fn, "When given as a tuple, N must hold exactly two positive integers, got " +
                              shape_str(*opts.N)));
    N0 = (*opts.N)[0];
    N1 = (*opts.N)[1];
  }
  const int a0 = normalize_axis(opts.axes[0], x.ndim(), fn), a1 = normalize_axis(opts.axes[1], x.ndim(), fn);
  CUSCI_EXPECTS(a0 != a1, value_error, msg(fn, "all axes must be unique, got axes (" + std::to_string(opts.axes[0]) +
                                                   ", " + std::to_string(opts.axes[1]) + ")"));
  CUSCI_EXPECTS(opts.N || (x.shape()[a0] > 0 && x.shape()[a1] > 0), value_error,
                msg(fn, "invalid number of data points " + shape_str(std::vector<std::int64_t>{x.shape()[a0], x.shape()[a1]}) +
                            " specified"));
  if (x.size() == 0) {  // zero-padded from nothing (N given) or an empty batch: zeros, as SciPy
    shape_t oshape = x.shape();
    oshape[a0] = N0;
    oshape[a1] = N1;
    return cusci::zeros(oshape, complex_of(fft_real_dtype(x.dtype())));
  }
  ndarray X = cusci::fft::fft2(x, {.s = shape_t{N0, N1}, .axes = {a0, a1}});
  if (X.size() == 0) return X;
  detail::hilbert2_weights(X, a0, a1);
  return cusci::fft::ifft2(X, {.axes = {a0, a1}});
}

// ------------------------------------------------------------------------------------ envelope

ndarray envelope(const ndarray& z, const envelope_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::envelope");
  const char* fn = "cusci::signal::envelope";
  const int nd = z.ndim();
  CUSCI_EXPECTS(-nd <= opts.axis && opts.axis < nd, value_error,
                msg(fn, "Invalid parameter axis=" + std::to_string(opts.axis) + " for z.shape=" + shape_str(z.shape())));
  const int axis = opts.axis < 0 ? opts.axis + nd : opts.axis;
  const std::int64_t n = z.shape()[axis];
  CUSCI_EXPECTS(n > 0, value_error, msg(fn, "z.shape[axis] not > 0 for z.shape=" + shape_str(z.shape()) +
                                                ", axis=" + std::to_string(opts.axis)));
  CUSCI_EXPECTS(!opts.n_out || *opts.n_out > 0, value_error,
                msg(fn, "n_out=" + std::to_string(opts.n_out.value_or(0)) + " is not a positive integer or None"));
  const std::int64_t n_out = opts.n_out.value_or(n);
  const detail::envelope_plan plan = detail::envelope_plan_of(n, n_out, opts.bp_in, opts.residual);

  const bool real = !is_complex(z.dtype());
  const dtype rdt = real ? fft_real_dtype(z.dtype()) : real_dtype(z.dtype());
  const dtype cdt = complex_of(rdt);
  const bool with_res = opts.residual != envelope_residual::none;
  const dtype odt = (with_res && !real) ? cdt : rdt;

  const ndarray zm = move_axis_last(z, axis);
  shape_t eshape = zm.shape();
  eshape.back() = n_out;
  shape_t oshape = eshape;
  if (with_res) oshape.insert(oshape.begin(), 2);
  cusci::detail::checked_size(oshape, fn, itemsize(odt));
  ndarray R = cusci::empty(oshape, odt);
  const std::int64_t rows = prod_front(eshape);
  if (rows > 0) {
    const ndarray Z = real ? cusci::fft::rfft(zm) : cusci::fft::fft(zm);
    char* base = static_cast<char*>(R.data());
    void* res = with_res ? base + static_cast<std::size_t>(rows * n_out) * itemsize(odt) : nullptr;
    detail::envelope_run(Z, real, plan, opts.squared, rows, base, is_complex(odt), res);
  }
  return with_res ? move_last_axis_to(R, axis + 1) : move_last_axis_to(R, axis);
}

// ------------------------------------------------------------------------------------ detrend

ndarray detrend(const ndarray& data, const detrend_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::detrend");
  const char* fn = "cusci::signal::detrend";
  CUSCI_EXPECTS(data.ndim() >= 1, index_error, msg(fn, "data must have at least one dimension, got a 0-d array"));
  const int axis = normalize_axis(opts.axis, data.ndim(), fn);
  if (opts.type == detrend_type::constant)
    return cusci::subtract(data, cusci::mean(data, axis, {.keepdims = true}));
  const std::int64_t N = data.shape()[axis];
  const std::vector<std::int64_t> bounds = detail::detrend_bounds(opts.bp, N);
  CUSCI_EXPECTS(data.size() > 0, value_error,
                msg(fn, "a linear detrend needs a non-empty array, got shape " + shape_str(data.shape())));
  const dtype t = data.dtype();
  const dtype dt = (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128)
                       ? t
                       : dtype::float64;
  const ndarray xm = detail::contiguous_as(move_axis_last(data, axis), dt);
  ndarray out = cusci::empty(xm.shape(), dt);
  detail::detrend_linear_rows(xm, out, data.size() / N, N, bounds);
  return move_last_axis_to(out, axis);
}

// ------------------------------------------------------------------------------------ chirp z

namespace {
void validate_sizes(std::int64_t n, const std::optional<std::int64_t>& m, const char* fn) {
  CUSCI_EXPECTS(n >= 1, value_error,
                msg(fn, "Invalid number of CZT data points (" + std::to_string(n) +
                            ") specified. n must be positive and integer type."));
  CUSCI_EXPECTS(!m || *m >= 1, value_error,
                msg(fn, "Invalid number of CZT output points (" + std::to_string(m.value_or(0)) +
                            ") specified. m must be positive and integer type."));
}
}  // namespace

struct CZT::chirps {
  detail::chirp_spec spec;
};

host_array czt_points(std::int64_t m, std::optional<cplx> w, cplx a) {
  CUSCI_NVTX_SCOPE("cusci::signal::czt_points");
  validate_sizes(1, m, "cusci::signal::czt_points");
  host_array out(dtype::complex128, {m});
  cplx* p = out.data_as<cplx>();
  const double inv_m = 1.0 / static_cast<double>(m);
  for (std::int64_t k = 0; k < m; ++k) {
    if (!w) p[k] = cmul(a, expi((2.0 * pi * static_cast<double>(k)) * inv_m));
    else p[k] = cmul(a, detail::npy_cpow(*w, -static_cast<double>(k)));
  }
  return out;
}

CZT::CZT(std::int64_t n, std::optional<std::int64_t> m, std::optional<cplx> w, cplx a) {
  const char* fn = "cusci::signal::CZT";
  validate_sizes(n, m, fn);
  const std::int64_t mm = m.value_or(n);
  chirps c;
  c.spec.n = n;
  c.spec.m = mm;
  if (!w) {
    c.spec.kind = 0;
    w_ = expi(-2.0 * pi / static_cast<double>(mm));  // SciPy keeps cmath.exp(-2j*pi/m) for points()
  } else {
    c.spec.kind = 1;
    w_ = *w;
    const cplx lg = std::log(*w);
    c.spec.w_re = w->real();
    c.spec.w_im = w->imag();
    c.spec.wlog_re = lg.real();
    c.spec.wlog_im = lg.imag();
  }
  a_ = a;
  const cplx la = std::log(a);
  c.spec.a_re = a.real();
  c.spec.a_im = a.imag();
  c.spec.alog_re = la.real();
  c.spec.alog_im = la.imag();
  init(n, mm, c);
}

void CZT::init(std::int64_t n, std::int64_t m, const chirps& c) {
  n_ = n;
  m_ = m;
  nfft_ = cusci::fft::next_fast_len(n + m - 1);
  awk2_ = cusci::empty({n}, dtype::complex128);
  wk2_ = cusci::empty({m}, dtype::complex128);
  ndarray kern = cusci::empty({n - 1 + m}, dtype::complex128);
  detail::czt_chirps(c.spec, awk2_, wk2_, kern);
  // The spectrum of the convolution kernel 1 / w^(k^2/2), k = -(n-1) .. m-1, zero-padded to nfft.
  fwk2_ = cusci::fft::fft(kern, {.n = nfft_});
  auto ev = std::make_shared<cusci::event>(true);
  ev->record();
  ready_ = ev;
}

host_array CZT::points() const { return czt_points(m_, w_, a_); }

ndarray CZT::operator()(const ndarray& x, int axis) const {
  const char* fn = "cusci::signal::CZT";
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, msg(fn, "x must have at least one dimension, got a 0-d array"));
  const int ax = normalize_axis(axis, x.ndim(), fn);
  CUSCI_EXPECTS(x.shape()[ax] == n_, value_error,
                msg(fn, "CZT defined for length " + std::to_string(n_) + ", not " + std::to_string(x.shape()[ax])));
  CUSCI_EXPECTS(x.device() == awk2_.device(), value_error,
                msg(fn, "x is on device " + std::to_string(x.device()) + ", the transform on device " +
                            std::to_string(awk2_.device())));
  const dtype t = x.dtype();
  const dtype dt = (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128)
                       ? t
                       : (t == dtype::float16 ? dtype::float32 : dtype::float64);
  const ndarray xm = move_axis_last(x, ax);
  shape_t oshape = xm.shape();
  oshape.back() = m_;
  ndarray out = cusci::empty(oshape, dtype::complex128);
  const std::int64_t rows = prod_front(oshape);
  if (rows > 0) {
    std::static_pointer_cast<cusci::event>(ready_)->wait_on(get_current_stream());
    const ndarray xc = detail::contiguous_as(xm, dt);
    detail::czt_apply(xc, out, rows, n_, m_, nfft_, awk2_, fwk2_, wk2_);
  }
  return move_last_axis_to(out, ax);
}

ZoomFFT::ZoomFFT(std::int64_t n, const std::vector<double>& fn_range, std::optional<std::int64_t> m,
                 const zoom_fft_params& p) {
  const char* fn = "cusci::signal::ZoomFFT";
  validate_sizes(n, m, fn);
  const std::int64_t mm = m.value_or(n);
  if (fn_range.size() == 2) {
    f1_ = fn_range[0];
    f2_ = fn_range[1];
  } else if (fn_range.size() == 1) {
    f1_ = 0.0;
    f2_ = fn_range[0];
  } else {
    throw value_error(msg(fn, "fn must be a scalar or 2-length sequence, got " + std::to_string(fn_range.size()) +
                                  " values"));
  }
  fs_ = p.fs;
  double scale;
  if (p.endpoint) {
    const double den = p.fs * static_cast<double>(mm - 1);
    CUSCI_EXPECTS(den != 0.0, value_error,
                  msg(fn, "float division by zero (endpoint=True needs m > 1 and fs != 0), got m=" +
                              std::to_string(mm)));
    scale = ((f2_ - f1_) * static_cast<double>(mm)) / den;
  } else {
    CUSCI_EXPECTS(p.fs != 0.0, value_error, msg(fn, "float division by zero (fs must be non-zero)"));
    scale = (f2_ - f1_) / p.fs;
  }
  a_ = expi(2.0 * pi * f1_ / p.fs);
  w_ = expi((-2.0 * pi / static_cast<double>(mm)) * scale);
  chirps c;
  c.spec.kind = 2;
  c.spec.n = n;
  c.spec.m = mm;
  c.spec.ps = pi * scale;
  c.spec.f = -2.0 * pi * f1_ / p.fs;
  init(n, mm, c);
}

ndarray czt(const ndarray& x, const czt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::czt");
  const char* fn = "cusci::signal::czt";
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, msg(fn, "x must have at least one dimension, got a 0-d array"));
  const int ax = normalize_axis(opts.axis, x.ndim(), fn);
  const CZT t(x.shape()[ax], opts.m, opts.w, opts.a);
  return t(x, ax);
}

ndarray zoom_fft(const ndarray& x, const std::vector<double>& fn_range, const zoom_fft_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::zoom_fft");
  const char* fn = "cusci::signal::zoom_fft";
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, msg(fn, "x must have at least one dimension, got a 0-d array"));
  const int ax = normalize_axis(opts.axis, x.ndim(), fn);
  const ZoomFFT t(x.shape()[ax], fn_range, opts.m, {.fs = opts.fs, .endpoint = opts.endpoint});
  return t(x, ax);
}

}  // namespace cusci::signal

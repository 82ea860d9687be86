// Frequency responses on the host (double precision), following SciPy 1.18's definitions in
// scipy/signal/_filter_design.py (freqz, freqz_sos, freqz_zpk, freqs, freqs_zpk, group_delay,
// findfreqs) and the NumPy operations they are written in (linspace, the polyval forms, complex
// division, convolve, roots). The shape/dtype plan of freqz is shared with the device path
// (responses_device.cpp).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/warnings.hpp"
#include "design/zpk_transforms.hpp"
#include "responses/responses_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

using cplx = std::complex<double>;
constexpr double pi = 3.141592653589793;
constexpr double two_pi = 2 * pi;
// Up to this many taps the host evaluates FIR responses directly (Horner), beyond it by FFT.
constexpr std::int64_t kDirectTaps = 16;

// NumPy's complex division (Smith's method, NumPy's infinities / NaNs for a zero divisor).
// (Smith's method inline for a nonzero divisor; the zero divisor's infinities / NaNs from np_div.)
inline cplx npdiv(cplx x, cplx y) {
  const double ar = x.real(), ai = x.imag(), br = y.real(), bi = y.imag();
  if (std::abs(br) >= std::abs(bi)) {
    if (br == 0 && bi == 0) return detail::zpk::np_div(x, y);
    const double rat = bi / br, scl = 1.0 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const double rat = br / bi, scl = 1.0 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

inline cplx cmul(cplx a, cplx b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// sum c[j] x^j by Horner from the last coefficient (SciPy's npp_polyval: c0 = c[-1]; c0 = c[-i] + c0 x).
// c has n entries at stride s.
inline cplx horner_asc(const cplx* c, std::int64_t n, std::int64_t s, cplx x) {
  cplx acc = c[(n - 1) * s];
  for (std::int64_t j = n - 2; j >= 0; --j) acc = c[j * s] + cmul(acc, x);
  return acc;
}

// horner_asc at nb points z = (zr, zi) at once, results in (yr, yi).
inline void horner_block(const cplx* c, std::int64_t n, std::int64_t s, const double* __restrict zr,
                         const double* __restrict zi, std::int64_t nb, double* __restrict yr,
                         double* __restrict yi) {
  const cplx cl = c[(n - 1) * s];
  for (std::int64_t t = 0; t < nb; ++t) {
    yr[t] = cl.real();
    yi[t] = cl.imag();
  }
  for (std::int64_t j = n - 2; j >= 0; --j) {
    const double cr = c[j * s].real(), ci = c[j * s].imag();
    for (std::int64_t t = 0; t < nb; ++t) {
      const double ar = yr[t], ai = yi[t];
      yr[t] = cr + (ar * zr[t] - ai * zi[t]);
      yi[t] = ci + (ar * zi[t] + ai * zr[t]);
    }
  }
}

// np.polyval(p, x): y = 0; y = y x + p[j] for j = 0..n-1.
inline cplx polyval_desc(const std::vector<cplx>& p, cplx x) {
  cplx y = 0;
  for (const cplx& c : p) y = cmul(y, x) + c;
  return y;
}

std::vector<cplx> to_cvec(const host_array& h) {
  host_array c = h.astype(dtype::complex128);
  return c.to_vector<cplx>();
}

std::string fmt3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

shape_t at_least_1d(const shape_t& s) { return s.empty() ? shape_t{1} : s; }

dtype real_of(dtype t) { return detail::single_precision(t) ? dtype::float32 : dtype::float64; }
dtype complex_of(dtype t) { return detail::single_precision(t) ? dtype::complex64 : dtype::complex128; }

// numpy's int -> float64 for SciPy's "integral dtypes become the default float".
dtype inexact(dtype t) { return is_inexact(t) ? t : dtype::float64; }

host_array freqs_as_host(const freq_points& f) {
  if (f.is_device) return to_host(f.device);
  return f.host;
}

// The frequencies w_i of a grid (radians/sample), f: explicit frequencies as float64.
inline double w_at(const detail::grid_spec& g, std::int64_t i, const double* f) {
  if (g.count) return (g.endpoint && g.n > 1 && i == g.n - 1) ? g.stop : static_cast<double>(i) * g.step;
  return two_pi * f[i] / g.fs;
}

// Explicit frequencies of a grid as float64 [n] (empty for count grids).
std::vector<double> explicit_freqs(const detail::grid_spec& g, const freq_points& worN) {
  if (g.count) return {};
  const host_array given = freqs_as_host(worN);
  host_array h = given.astype(is_complex(given.dtype()) ? dtype::complex128 : dtype::float64);
  if (is_complex(h.dtype())) {  // SciPy keeps only the real part of complex frequencies here
    auto c = h.to_vector<cplx>();
    std::vector<double> r(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) r[i] = c[i].real();
    return r;
  }
  return h.to_vector<double>();
}

// w returned: w_i * out_scale in dtype wdt, shape ws.
host_array make_w(const detail::grid_spec& g, const std::vector<double>& f, const shape_t& ws, dtype wdt) {
  host_array r(dtype::float64, ws);  // written in place (no staging vector)
  double* w = r.data_as<double>();
  for (std::int64_t i = 0; i < g.n; ++i) w[i] = w_at(g, i, f.data()) * g.out_scale;
  return wdt == dtype::float64 ? r : r.astype(wdt);
}

}  // namespace

namespace detail {

bool single_precision(dtype t) { return t == dtype::float16 || t == dtype::float32 || t == dtype::complex64; }

grid_spec count_grid(std::int64_t n, double last, bool endpoint, double fs, const char* fn) {
  CUSCI_EXPECTS(n >= 0, value_error,
                cusci::detail::msg(fn, "Number of samples, " + std::to_string(n) + ", must be non-negative."));
  grid_spec g;
  g.count = true;
  g.n = n;
  const std::int64_t div = endpoint ? n - 1 : n;
  g.step = div > 0 ? last / static_cast<double>(div) : 0.0;
  g.endpoint = endpoint;
  g.stop = last;
  g.fs = fs;
  g.out_scale = fs / two_pi;
  return g;
}

grid_spec plan_grid(std::optional<std::int64_t> count, const shape_t& f_shape, bool whole, double fs, shape_t& shape,
                    const char* fn) {
  if (count) {
    grid_spec g = count_grid(*count, whole ? two_pi : pi, false, fs, fn);
    shape = {g.n};
    return g;
  }
  grid_spec g;
  g.count = false;
  g.fs = fs;
  g.out_scale = fs / two_pi;
  shape = at_least_1d(f_shape);
  g.n = 1;
  for (auto d : shape) g.n *= d;
  return g;
}

zpk_plan plan_freqz_zpk(dtype z_dt, dtype p_dt, std::optional<std::int64_t> count, const shape_t& f_shape, dtype f_dt,
                        bool whole, double fs, const char* fn) {
  zpk_plan zp;
  const dtype res = promote_types(z_dt, p_dt);
  const bool single_w = !(res == dtype::float64 || res == dtype::complex128);
  zp.grid = plan_grid(count, f_shape, whole, fs, zp.shape, fn);
  zp.w_dtype = count ? (single_w ? dtype::float32 : dtype::float64) : (is_inexact(f_dt) ? f_dt : dtype::float64);
  zp.h_dtype = single_w && single_precision(z_dt) && single_precision(p_dt) ? dtype::complex64 : dtype::complex128;
  return zp;
}

freqz_plan plan_freqz(const shape_t& b_shape_in, dtype b_dt, const std::optional<shape_t>& a_shape_in, dtype a_dt,
                      std::optional<std::int64_t> worN_count, const shape_t& f_shape, dtype f_dt,
                      const freqz_options& opts, const char* fn) {
  using cusci::detail::msg;
  using cusci::detail::shape_str;
  freqz_plan p;
  const shape_t b_shape = at_least_1d(b_shape_in);
  const shape_t a_shape = a_shape_in ? at_least_1d(*a_shape_in) : shape_t{1};
  const dtype a_eff = a_shape_in ? inexact(a_dt) : dtype::float64;  // SciPy: integer a becomes float64
  const dtype res = promote_types(b_dt, a_eff);
  p.b_complex = is_complex(b_dt);
  p.a_complex = is_complex(a_eff);
  p.ntaps = b_shape[0];
  std::int64_t a_size = 1;
  for (auto d : a_shape) a_size *= d;
  p.na = a_shape[0];

  shape_t lead;
  if (b_shape.size() >= 2) {
    CUSCI_EXPECTS(b_shape.back() == 1, value_error,
                  msg(fn, "b with more than one dimension must have the shape (ntaps, ..., 1) (one filter per "
                          "index of the middle dimensions), got " + shape_str(b_shape)));
    lead.assign(b_shape.begin() + 1, b_shape.end() - 1);
    for (auto d : lead) p.K *= d;
  }
  if (a_shape.size() >= 2) {
    bool ones = true;
    for (std::size_t d = 1; d < a_shape.size(); ++d) ones = ones && a_shape[d] == 1;
    const bool same = b_shape.size() >= 2 && shape_t(a_shape.begin() + 1, a_shape.end()) ==
                                                 shape_t(b_shape.begin() + 1, b_shape.end());
    CUSCI_EXPECTS(b_shape.size() >= 2 && (same || ones), value_error,
                  msg(fn, "a must be 1-D, or have the shape (na,) + b.shape[1:] for N-D b, got a " +
                              shape_str(a_shape) + " with b " + shape_str(b_shape)));
    p.a_batched = same && !ones;
  }

  if (worN_count) {
    const std::int64_t N = *worN_count;
    CUSCI_EXPECTS(N >= 0, value_error, msg(fn, "worN must be nonnegative, got " + std::to_string(N)));
    const bool endpoint = opts.include_nyquist && !opts.whole;
    p.grid = count_grid(N, opts.whole ? two_pi : pi, endpoint, opts.fs, fn);
    const std::int64_t n_fft = opts.whole ? N : (opts.include_nyquist ? 2 * (N - 1) : 2 * N);
    const bool fft_path = a_size == 1 && (b_shape.size() == 1 || b_shape.back() == 1) && n_fft >= p.ntaps && n_fft > 0;
    p.w_shape = {N};
    p.w_dtype = real_of(res);
    // SciPy's FFT path keeps b's precision (scipy.fft of float32 is complex64; h /= a in place).
    p.h_dtype = fft_path ? complex_of(is_inexact(b_dt) ? b_dt : dtype::float64) : complex_of(res);
    p.zero_fill = fft_path && p.ntaps == 0;
    p.fft_path = fft_path;
    p.n_fft = n_fft;
  } else {
    shape_t fs1;
    p.grid = plan_grid(std::nullopt, f_shape, opts.whole, opts.fs, fs1, fn);
    CUSCI_EXPECTS(b_shape.size() == 1 || fs1.size() == 1, value_error,
                  msg(fn, "explicit frequencies must be 1-D for N-D b, got " + shape_str(fs1)));
    p.w_shape = fs1;
    // SciPy: w = asarray(worN, dtype=result_type(b, a)); complex frequencies keep their real part
    p.w_dtype = res;
    p.h_dtype = complex_of(res);
    (void)f_dt;
  }
  CUSCI_EXPECTS(p.na > 0 && a_size > 0, index_error, msg(fn, "index -1 is out of bounds for axis 0 with size 0 (a is empty)"));
  CUSCI_EXPECTS(p.ntaps > 0 || p.zero_fill, index_error,
                msg(fn, "index -1 is out of bounds for axis 0 with size 0 (b is empty)"));
  if (b_shape.size() == 1) {
    p.h_shape = p.w_shape;
  } else {
    p.h_shape = lead;
    p.h_shape.push_back(p.grid.n);
  }
  return p;
}

}  // namespace detail

findfreqs_kind parse_findfreqs_kind(std::string_view s) {
  if (s == "ba") return findfreqs_kind::ba;
  if (s == "zp") return findfreqs_kind::zp;
  throw value_error("cusci::signal::findfreqs: input must be one of {'ba', 'zp'}, got '" + std::string(s) + "'");
}

// ------------------------------------------------------------------------------------------------
// freqz

freq_response freqz(const array_like& b_arg, const std::optional<array_like>& a_arg, const freq_points& worN,
                    const freqz_options& opts) {
  const host_array b = b_arg.to_host();
  const std::optional<host_array> a = a_arg ? std::optional<host_array>(a_arg->to_host()) : std::nullopt;
  CUSCI_NVTX_SCOPE("cusci::signal::freqz");
  const char* fn = "cusci::signal::freqz";
  const host_array fh = worN.count ? host_array() : freqs_as_host(worN);
  const detail::freqz_plan p =
      detail::plan_freqz(b.shape(), b.dtype(), a ? std::optional<shape_t>(a->shape()) : std::nullopt,
                         a ? a->dtype() : dtype::float64, worN.count, fh.shape(), fh.dtype(), opts, fn);
  const std::vector<double> f = explicit_freqs(p.grid, worN);
  freq_response r;
  r.w = make_w(p.grid, f, p.w_shape, p.w_dtype);
  const std::int64_t n = p.grid.n;
  host_array hh(dtype::complex128, p.h_shape);  // zeros, written in place
  cplx* h = hh.data_as<cplx>();
  if (!p.zero_fill && n > 0) {
    // b: [ntaps, K] row-major (b.shape[1:-1] flattened); a: [na, K] or [na].
    const std::vector<cplx> bc = to_cvec(b);
    const std::vector<cplx> ac = a ? to_cvec(*a) : std::vector<cplx>{cplx(1, 0)};
    const std::int64_t K = p.K, na = p.na;
    const bool fir = na == 1 && !p.a_batched;
    // FIR filters of more than a few taps on SciPy's FFT path: its transform of the zero-padded
    // coefficients (O(N log N) instead of O(N ntaps)); equal to the direct sum to rounding.
    const bool use_fft = p.fft_path && p.ntaps > kDirectTaps;
    for (std::int64_t k = 0; use_fft && k < K; ++k) {
      cplx* hk = h + k * n;
      if (!p.b_complex) {
        std::vector<double> bk(static_cast<std::size_t>(p.ntaps));
        for (std::int64_t t = 0; t < p.ntaps; ++t) bk[t] = bc[t * K + k].real();
        const std::vector<cplx> r = cusci::detail::hostla::rfft(bk, p.n_fft);
        const std::int64_t nr = static_cast<std::int64_t>(r.size());
        for (std::int64_t i = 0; i < n; ++i) hk[i] = i < nr ? r[i] : std::conj(r[p.n_fft - i]);
      } else {
        std::vector<cplx> bk(static_cast<std::size_t>(p.n_fft), cplx(0, 0));
        for (std::int64_t t = 0; t < p.ntaps; ++t) bk[t] = bc[t * K + k];
        const std::vector<cplx> r = cusci::detail::hostla::fft(bk);
        for (std::int64_t i = 0; i < n; ++i) hk[i] = r[i];
      }
      for (std::int64_t i = 0; i < n; ++i) hk[i] = npdiv(hk[i], ac[0]);
    }
    if (!use_fft) {
      // Horner over blocks of points, the points innermost (independent recurrences the compiler can
      // interleave and vectorise; the arithmetic per point is horner_asc's, in the same order).
      constexpr std::int64_t B = 64;
      double zr[B], zi[B], nr[B], ni[B], dr[B], di[B];
      for (std::int64_t i0 = 0; i0 < n; i0 += B) {
        const std::int64_t nb = std::min(B, n - i0);
        for (std::int64_t t = 0; t < nb; ++t) {
          const double wr = w_at(p.grid, i0 + t, f.data());
          zr[t] = std::cos(wr);
          zi[t] = -std::sin(wr);
        }
        for (std::int64_t k = 0; k < K; ++k) {
          const cplx* bk = bc.data() + k;
          const cplx* ak = ac.data() + (p.a_batched ? k : 0);
          const std::int64_t as = p.a_batched ? K : 1;
          horner_block(bk, p.ntaps, K, zr, zi, nb, nr, ni);
          cplx* hk = h + k * n + i0;
          if (fir) {
            const cplx a0 = ac[0];
            for (std::int64_t t = 0; t < nb; ++t) hk[t] = npdiv(cplx(nr[t], ni[t]), a0);
          } else {
            horner_block(ak, na, as, zr, zi, nb, dr, di);
            for (std::int64_t t = 0; t < nb; ++t) hk[t] = npdiv(cplx(nr[t], ni[t]), cplx(dr[t], di[t]));
          }
        }
      }
    }
  }
  r.h = p.h_dtype == dtype::complex128 ? std::move(hh) : hh.astype(p.h_dtype);
  return r;
}

// ------------------------------------------------------------------------------------------------
// freqz_sos

freq_response freqz_sos(const array_like& sos_arg, const freq_points& worN, const freqz_sos_options& opts) {
  const host_array sos = sos_arg.to_host();
  const char* fn = "cusci::signal::freqz_sos";
  using cusci::detail::msg;
  const shape_t ss = sos.ndim() == 0 ? shape_t{1, 1} : sos.ndim() == 1 ? shape_t{1, sos.shape()[0]} : sos.shape();
  CUSCI_EXPECTS(ss.size() == 2, value_error, msg(fn, "sos array must be 2D"));
  CUSCI_EXPECTS(ss[1] == 6, value_error, msg(fn, "sos array must be shape (n_sections, 6)"));
  const std::vector<cplx> c = to_cvec(sos);
  const std::int64_t ns = ss[0];
  for (std::int64_t j = 0; j < ns; ++j)
    CUSCI_EXPECTS(c[j * 6 + 3] == cplx(1, 0), value_error, msg(fn, "sos[:, 3] should be all ones"));
  CUSCI_EXPECTS(ns > 0, value_error, msg(fn, "Cannot compute frequencies with no sections"));
  // Each section is SciPy's freqz(row[:3], row[3:]) (its polynomial path: a has 3 entries).
  const host_array fh = worN.count ? host_array() : freqs_as_host(worN);
  freqz_options fo{.whole = opts.whole, .fs = opts.fs, .include_nyquist = false};
  const detail::freqz_plan p = detail::plan_freqz(shape_t{3}, sos.dtype(), shape_t{3}, sos.dtype(), worN.count,
                                                  fh.shape(), fh.dtype(), fo, fn);
  const std::vector<double> f = explicit_freqs(p.grid, worN);
  freq_response r;
  r.w = make_w(p.grid, f, p.w_shape, p.w_dtype);
  const std::int64_t n = p.grid.n;
  std::vector<cplx> h(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double wr = w_at(p.grid, i, f.data());
    const cplx z(std::cos(wr), -std::sin(wr));
    cplx acc;
    for (std::int64_t j = 0; j < ns; ++j) {
      const cplx* row = c.data() + j * 6;
      const cplx hs = npdiv(horner_asc(row, 3, 1, z), horner_asc(row + 3, 3, 1, z));
      acc = j == 0 ? hs : cmul(acc, hs);
    }
    h[i] = acc;
  }
  host_array hh = host_array::from(h, p.h_shape);
  r.h = p.h_dtype == dtype::complex128 ? hh : hh.astype(p.h_dtype);
  return r;
}

// ------------------------------------------------------------------------------------------------
// freqz_zpk

freq_response freqz_zpk(const array_like& z_arg, const array_like& p_arg, double k, const freq_points& worN,
                        const freqz_zpk_options& opts) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  const char* fn = "cusci::signal::freqz_zpk";
  const host_array fh = worN.count ? host_array() : freqs_as_host(worN);
  const detail::zpk_plan zp =
      detail::plan_freqz_zpk(z.dtype(), p.dtype(), worN.count, fh.shape(), fh.dtype(), opts.whole, opts.fs, fn);
  const detail::grid_spec& g = zp.grid;
  const std::vector<double> f = explicit_freqs(g, worN);
  freq_response r;
  r.w = make_w(g, f, zp.shape, zp.w_dtype);
  const std::vector<cplx> zc = to_cvec(z), pc = to_cvec(p);
  std::vector<cplx> h(static_cast<std::size_t>(g.n));
  for (std::int64_t i = 0; i < g.n; ++i) {
    const double wr = w_at(g, i, f.data());
    const cplx x(std::cos(wr), std::sin(wr));
    cplx num(1, 0), den(1, 0);
    for (const cplx& zz : zc) num = cmul(num, x - zz);
    for (const cplx& pp : pc) den = cmul(den, x - pp);
    h[i] = npdiv(k * num, den);
  }
  host_array hh = host_array::from(h, zp.shape);
  r.h = zp.h_dtype == dtype::complex128 ? hh : hh.astype(zp.h_dtype);
  return r;
}

// ------------------------------------------------------------------------------------------------
// findfreqs, freqs, freqs_zpk

host_array findfreqs(const array_like& num_arg, const array_like& den_arg, std::int64_t N, findfreqs_kind kind) {
  const host_array num = num_arg.to_host();
  const host_array den = den_arg.to_host();
  const char* fn = "cusci::signal::findfreqs";
  using cusci::detail::msg;
  CUSCI_EXPECTS(N >= 0, value_error, msg(fn, "Number of samples, " + std::to_string(N) + ", must be non-negative."));
  std::vector<cplx> ep, tz;
  if (kind == findfreqs_kind::ba) {
    auto roots_of = [&](const host_array& c) -> std::vector<cplx> {
      if (c.ndim() == 0 || c.shape()[0] < 2) return {};
      if (is_complex(c.dtype())) return cusci::detail::hostla::roots(to_cvec(c), fn);
      return cusci::detail::hostla::roots(c.astype(dtype::float64).to_vector<double>(), fn);
    };
    ep = roots_of(den);
    tz = roots_of(num);
  } else {
    ep = to_cvec(den);
    tz = to_cvec(num);
  }
  if (ep.empty()) ep.push_back(cplx(-1000, 0));
  std::vector<cplx> ez;
  for (const cplx& e : ep)
    if (e.imag() >= 0) ez.push_back(e);
  for (const cplx& t : tz)
    if (std::abs(t) < 1e5 && t.imag() >= 0) ez.push_back(t);
  CUSCI_EXPECTS(!ez.empty(), value_error,
                msg(fn, "zero-size array to reduction operation maximum which has no identity (no pole or zero "
                        "in the upper half plane)"));
  double hi = -std::numeric_limits<double>::infinity(), lo = std::numeric_limits<double>::infinity();
  for (const cplx& e : ez) {
    const double integ = std::abs(e) < 1e-10 ? 1.0 : 0.0;
    hi = std::max(hi, 3 * std::fabs(e.real() + integ) + 1.5 * e.imag());
    lo = std::min(lo, std::fabs(e.real() + integ) + 2 * e.imag());
  }
  const double hfreq = std::nearbyint(std::log10(hi) + 0.5);
  const double lfreq = std::nearbyint(std::log10(0.1 * lo) - 0.5);
  // numpy.logspace(lfreq, hfreq, N): linspace with endpoint, then 10 ** y
  std::vector<double> w(static_cast<std::size_t>(N));
  const double delta = hfreq - lfreq;
  const std::int64_t div = N - 1;
  const double step = div > 0 ? delta / static_cast<double>(div) : 0.0;
  for (std::int64_t i = 0; i < N; ++i) {
    double y;
    if (div > 0 && step != 0) y = static_cast<double>(i) * step;
    else if (div > 0) y = static_cast<double>(i) / static_cast<double>(div) * delta;
    else y = static_cast<double>(i) * delta;
    y += lfreq;
    if (N > 1 && i == N - 1) y = hfreq;
    w[i] = std::pow(10.0, y);
  }
  return host_array::from(w);
}

namespace {

// The analog response: explicit frequencies returned as given (at least 1-D), a count grid from findfreqs.
struct analog_grid {
  host_array w;
  std::vector<double> wv;
};

analog_grid analog_points(const freq_points& worN, const host_array& num, const host_array& den, findfreqs_kind kind) {
  analog_grid g;
  if (worN.count) {
    g.w = findfreqs(num, den, *worN.count, kind);
    g.wv = g.w.to_vector<double>();
  } else {
    g.w = freqs_as_host(worN);
    if (g.w.ndim() == 0) {  // atleast_1d
      host_array w1(g.w.dtype(), shape_t{1});
      std::copy_n(static_cast<const std::byte*>(g.w.data()), g.w.nbytes(), static_cast<std::byte*>(w1.data()));
      g.w = w1;
    }
    g.wv = g.w.astype(dtype::float64).to_vector<double>();
  }
  return g;
}

}  // namespace

freq_response freqs(const array_like& b_arg, const array_like& a_arg, const freq_points& worN) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  const analog_grid g = analog_points(worN, b, a, findfreqs_kind::ba);
  const std::vector<cplx> bc = to_cvec(b);
  const std::vector<cplx> ac = to_cvec(a);
  std::vector<cplx> h(g.wv.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const cplx s(0.0, g.wv[i]);
    h[i] = npdiv(polyval_desc(bc, s), polyval_desc(ac, s));
  }
  return {g.w, host_array::from(h, g.w.shape())};
}

freq_response freqs_zpk(const array_like& z_arg, const array_like& p_arg, double k, const freq_points& worN) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  const analog_grid g = analog_points(worN, z, p, findfreqs_kind::zp);
  const std::vector<cplx> zc = to_cvec(z), pc = to_cvec(p);
  std::vector<cplx> h(g.wv.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const cplx s(0.0, g.wv[i]);
    cplx num(1, 0), den(1, 0);
    for (const cplx& zz : zc) num = cmul(num, s - zz);
    for (const cplx& pp : pc) den = cmul(den, s - pp);
    h[i] = npdiv(k * num, den);
  }
  return {g.w, host_array::from(h, g.w.shape())};
}

// ------------------------------------------------------------------------------------------------
// group_delay

group_delay_result group_delay(const ba_coeffs& system, const freq_points& w, const group_delay_options& opts) {
  const char* fn = "cusci::signal::group_delay";
  using cusci::detail::msg;
  const std::vector<cplx> b = to_cvec(system.b), a = to_cvec(system.a);
  const host_array fh = w.count ? host_array() : freqs_as_host(w);
  shape_t ws;
  const detail::grid_spec g = detail::plan_grid(w.count, fh.shape(), opts.whole, opts.fs, ws, fn);
  const std::vector<double> f = explicit_freqs(g, w);
  CUSCI_EXPECTS(!b.empty(), value_error, msg(fn, "a cannot be empty"));
  CUSCI_EXPECTS(!a.empty(), value_error, msg(fn, "v cannot be empty"));
  // c = convolve(b, conj(a[::-1])), cr = c * arange(c.size)
  const std::size_t nc = b.size() + a.size() - 1;
  std::vector<cplx> c(nc, cplx(0, 0));
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::size_t j = 0; j < a.size(); ++j) c[i + j] += cmul(b[i], std::conj(a[a.size() - 1 - j]));
  std::vector<cplx> crr(nc), cr(nc);  // reversed for np.polyval
  for (std::size_t i = 0; i < nc; ++i) {
    crr[nc - 1 - i] = c[i] * static_cast<double>(i);
    cr[nc - 1 - i] = c[i];
  }
  std::vector<double> gd(static_cast<std::size_t>(g.n)), wr(static_cast<std::size_t>(g.n));
  std::vector<std::int64_t> singular, near;
  for (std::int64_t i = 0; i < g.n; ++i) {
    const double wi = w_at(g, i, f.data());
    wr[i] = wi;
    const cplx z(std::cos(wi), -std::sin(wi));
    const cplx num = polyval_desc(crr, z), den = polyval_desc(cr, z);
    double v = npdiv(num, den).real() - static_cast<double>(a.size()) + 1;
    if (!std::isfinite(v)) {
      singular.push_back(i);
      v = 0;
    }
    if (std::abs(den) < 10 * 2e-16) near.push_back(i);
    gd[i] = v;
  }
  auto list = [&](const std::vector<std::int64_t>& idx) {
    std::string s = "[";
    for (std::size_t j = 0; j < idx.size(); ++j) s += (j ? ", " : "") + fmt3(wr[idx[j]]);
    return s + "]";
  };
  if (!singular.empty())
    warn("UserWarning", fn, "The group delay is singular at frequencies " + list(singular) + ", setting to 0");
  else if (!near.empty())
    warn("UserWarning", fn,
         "The filter's denominator is extremely small at frequencies " + list(near) +
             ", around which a singularity may be present");
  group_delay_result r;
  std::vector<double> wo(static_cast<std::size_t>(g.n));
  for (std::int64_t i = 0; i < g.n; ++i) wo[i] = wr[i] * g.out_scale;
  r.w = host_array::from(wo, ws);
  r.gd = host_array::from(gd, ws);
  return r;
}

}  // namespace cusci::signal

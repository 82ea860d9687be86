// Helpers of the conversions family (see conversions_detail.hpp): NumPy's polynomial routines as
// numpy/lib/_polynomial_impl.py and scipy/signal/_polyutils.py define them, and SciPy's normalize and
// tf2zpk (scipy/signal/_filter_design.py), on which every conversion builds.

#include "conversions/conversions_detail.hpp"

#include <algorithm>
#include <cmath>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/warnings.hpp"
#include "design/zpk_transforms.hpp"

namespace cusci::signal::detail::conv {

namespace hl = cusci::detail::hostla;

cvec read(const host_array& a) {
  cvec r;
  r.cx = is_complex(a.dtype());
  host_array c = a.astype(dtype::complex128);
  const auto* p = c.data_as<std::complex<double>>();
  r.v.assign(p, p + c.size());
  return r;
}

cvec read_1d(const host_array& a, const std::string& fn, const char* param) {
  CUSCI_EXPECTS(a.ndim() <= 1, value_error,
                fn + ": " + param + " must be 1-D, got shape " + cusci::detail::shape_str(a.shape()));
  return read(a);
}

host_array make(const std::vector<cplx>& v, bool cx, shape_t shape) {
  if (cx) return host_array::from(v, std::move(shape));
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i].real();
  return host_array::from(r, std::move(shape));
}

host_array make(const cvec& c) { return make(c.v, c.cx, shape_t{static_cast<std::int64_t>(c.v.size())}); }

bool single(std::initializer_list<dtype> dts) {
  dtype r = dtype::bool_;
  for (dtype d : dts) r = promote_types(r, d);
  return r == dtype::float32 || r == dtype::complex64;
}

host_array narrow(host_array a, bool f32) {
  if (!f32) return a;
  if (a.dtype() == dtype::float64) return a.astype(dtype::float32);
  if (a.dtype() == dtype::complex128) return a.astype(dtype::complex64);
  return a;
}

cplx mul(const cplx& a, const cplx& b) { return zpk::np_mul(a, b); }

cplx div(const cplx& a, const cplx& b, bool cx) {
  if (!cx) return {a.real() / b.real(), 0.0};
  return zpk::np_div(a, b);
}

cvec np_roots(const cvec& p, const std::string& fn) {
  std::size_t first = p.size(), last = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.v[i] != cplx(0.0, 0.0)) {
      if (first == p.size()) first = i;
      last = i;
    }
  cvec r;
  if (first == p.size()) return r;  // all zero: empty float64
  const std::size_t trailing = p.size() - last - 1;
  const std::size_t N = last - first + 1;
  if (N > 1) {
    // numpy.linalg.eigvals raises LinAlgError for a companion matrix with infs or NaNs
    for (std::size_t i = first + 1; i <= last; ++i) {
      const cplx c = div(p.v[i], p.v[first], p.cx);
      CUSCI_EXPECTS(std::isfinite(c.real()) && std::isfinite(c.imag()), runtime_error,
                    fn + ": Array must not contain infs or NaNs (the companion matrix of the polynomial)");
    }
    std::vector<cplx> e;
    if (p.cx) {
      e = hl::roots(std::vector<cplx>(p.v.begin() + first, p.v.begin() + last + 1), fn.c_str());
      r.cx = true;
    } else {
      std::vector<double> c(N);
      for (std::size_t i = 0; i < N; ++i) c[i] = p.v[first + i].real();
      e = hl::roots(c, fn.c_str());
      r.cx = std::any_of(e.begin(), e.end(), [](const cplx& x) { return x.imag() != 0.0; });
    }
    r.v = std::move(e);
  }
  r.v.insert(r.v.end(), trailing, cplx(0.0, 0.0));
  return r;
}

cvec polyroots(const cvec& p, const std::string& fn) {
  if (p.size() < 2) return cvec{{}, p.cx};
  return np_roots(p, fn);
}

namespace {
bool lex_less(const cplx& a, const cplx& b) {
  if (a.real() != b.real()) return a.real() < b.real();
  return a.imag() < b.imag();
}
}  // namespace

cvec sp_poly(const cvec& r) {
  cvec a;
  a.cx = r.cx;
  a.v = hl::poly(r.v);
  if (a.cx) {
    std::vector<double> im(r.size()), imc(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
      im[i] = r.v[i].imag();
      imc[i] = -r.v[i].imag();
    }
    std::sort(im.begin(), im.end());
    std::sort(imc.begin(), imc.end());
    if (im == imc) a.cx = false;
  }
  if (!a.cx)
    for (auto& x : a.v) x = cplx(x.real(), 0.0);
  return a;
}

cvec np_poly_roots(const cvec& r) {
  cvec a;
  a.cx = r.cx;
  a.v = hl::poly(r.v);
  if (a.cx) {
    std::vector<cplx> s = r.v, c = r.v;
    for (auto& x : c) x = std::conj(x);
    std::sort(s.begin(), s.end(), lex_less);
    std::sort(c.begin(), c.end(), lex_less);
    if (s == c) a.cx = false;
  }
  if (!a.cx)
    for (auto& x : a.v) x = cplx(x.real(), 0.0);
  return a;
}

cvec np_poly_matrix(const cvec& a, std::int64_t n, const std::string& fn) {
  for (const auto& x : a.v)
    CUSCI_EXPECTS(std::isfinite(x.real()) && std::isfinite(x.imag()), runtime_error,
                  fn + ": Array must not contain infs or NaNs");
  cvec ev;
  if (a.cx) {
    hl::cmat m(n, n);
    m.v = a.v;
    ev.v = hl::eigvals(m, fn.c_str());
    ev.cx = true;
  } else {
    hl::rmat m(n, n);
    for (std::size_t i = 0; i < a.v.size(); ++i) m.v[i] = a.v[i].real();
    ev.v = hl::eigvals(m, fn.c_str());
    // numpy.linalg.eigvals of a real matrix is real when every eigenvalue is.
    ev.cx = std::any_of(ev.v.begin(), ev.v.end(), [](const cplx& x) { return x.imag() != 0.0; });
  }
  return np_poly_roots(ev);
}

cvec convolve(const cvec& a, const cvec& b) {
  cvec r;
  r.cx = a.cx || b.cx;
  if (a.empty() || b.empty()) return r;
  r.v.assign(a.size() + b.size() - 1, cplx(0.0, 0.0));
  for (std::size_t n = 0; n < r.v.size(); ++n) {
    const std::size_t k0 = n >= b.size() - 1 ? n - (b.size() - 1) : 0;
    const std::size_t k1 = std::min(n, a.size() - 1);
    cplx s(0.0, 0.0);
    bool first = true;
    for (std::size_t k = k0; k <= k1; ++k) {
      const cplx t = mul(a.v[k], b.v[n - k]);
      s = first ? t : cplx(s.real() + t.real(), s.imag() + t.imag());
      first = false;
    }
    r.v[n] = s;
  }
  return r;
}

cvec trim_front(const cvec& p) {
  std::size_t i = 0;
  while (i < p.size() && p.v[i] == cplx(0.0, 0.0)) ++i;
  return cvec{std::vector<cplx>(p.v.begin() + static_cast<std::ptrdiff_t>(i), p.v.end()), p.cx};
}

cvec trim_back(const cvec& p) {
  std::size_t n = p.size();
  while (n > 0 && p.v[n - 1] == cplx(0.0, 0.0)) --n;
  return cvec{std::vector<cplx>(p.v.begin(), p.v.begin() + static_cast<std::ptrdiff_t>(n)), p.cx};
}

cvec polymul(cvec a, cvec b) {
  a = trim_front(a);
  b = trim_front(b);
  if (a.empty()) a.v.assign(1, cplx(0.0, 0.0));
  if (b.empty()) b.v.assign(1, cplx(0.0, 0.0));
  return convolve(a, b);
}

namespace {
cvec polyaddsub(const cvec& a, const cvec& b, double sign) {
  cvec r;
  r.cx = a.cx || b.cx;
  const std::size_t n = std::max(a.size(), b.size());
  r.v.assign(n, cplx(0.0, 0.0));
  const std::size_t oa = n - a.size(), ob = n - b.size();
  for (std::size_t i = 0; i < n; ++i) {
    const cplx x = i >= oa ? a.v[i - oa] : cplx(0.0, 0.0);
    const cplx y = i >= ob ? b.v[i - ob] : cplx(0.0, 0.0);
    r.v[i] = sign > 0 ? cplx(x.real() + y.real(), x.imag() + y.imag()) : cplx(x.real() - y.real(), x.imag() - y.imag());
  }
  return r;
}
}  // namespace

cvec polyadd(const cvec& a, const cvec& b) { return polyaddsub(a, b, 1.0); }
cvec polysub(const cvec& a, const cvec& b) { return polyaddsub(a, b, -1.0); }

void polydiv(const cvec& u, const cvec& v, cvec& q, cvec& r) {
  const bool cx = u.cx || v.cx;
  const std::int64_t m = static_cast<std::int64_t>(u.size()) - 1, n = static_cast<std::int64_t>(v.size()) - 1;
  const cplx scale = div(cplx(1.0, 0.0), v.v[0], cx);
  q.cx = cx;
  q.v.assign(static_cast<std::size_t>(std::max<std::int64_t>(m - n + 1, 1)), cplx(0.0, 0.0));
  r.cx = cx;
  r.v = u.v;
  for (std::int64_t k = 0; k < m - n + 1; ++k) {
    const cplx d = mul(scale, r.v[k]);
    q.v[k] = d;
    for (std::int64_t i = 0; i <= n; ++i) {
      const cplx t = mul(d, v.v[i]);
      r.v[k + i] = cplx(r.v[k + i].real() - t.real(), r.v[k + i].imag() - t.imag());
    }
  }
  // NumPy: while allclose(r[0], 0, rtol=1e-14) and r.shape[-1] > 1: r = r[1:]  (atol 1e-8)
  std::size_t s = 0;
  while (r.v.size() - s > 1 && std::abs(r.v[s]) <= 1e-8) ++s;
  r.v.erase(r.v.begin(), r.v.begin() + static_cast<std::ptrdiff_t>(s));
}

cplx polyval(const cvec& p, const cplx& x, bool cx) {
  cplx y(0.0, 0.0);
  for (const auto& c : p.v) {
    if (cx) {
      const cplx t = mul(y, x);
      y = cplx(t.real() + c.real(), t.imag() + c.imag());
    } else {
      y = cplx(y.real() * x.real() + c.real(), 0.0);
    }
  }
  return y;
}

norm_t normalize_impl(const host_array& b, const host_array& a, const std::string& fn) {
  CUSCI_EXPECTS(a.ndim() <= 1, value_error, fn + ": Denominator polynomial must be rank-1 array.");
  CUSCI_EXPECTS(b.ndim() <= 2, value_error, fn + ": Numerator polynomial must be rank-1 or rank-2 array.");
  norm_t r;
  r.cx = is_complex(a.dtype()) || is_complex(b.dtype());
  r.f32 = single({b.dtype(), a.dtype()});
  r.den_f32 = single({a.dtype()});
  cvec den = read(a);
  CUSCI_EXPECTS(std::any_of(den.v.begin(), den.v.end(), [](const cplx& x) { return x != cplx(0.0, 0.0); }),
                value_error, fn + ": Denominator must have at least on nonzero element.");
  den = trim_front(den);
  cvec num = read(b);
  r.num_1d = b.ndim() <= 1;
  r.rows = b.ndim() == 2 ? b.shape()[0] : 1;
  r.cols = b.ndim() == 0 ? 1 : b.shape()[b.ndim() - 1];
  const cplx d0 = den.v[0];
  for (auto& x : num.v) x = div(x, d0, r.cx);
  for (auto& x : den.v) x = div(x, d0, den.cx);
  std::int64_t leading = 0;
  for (std::int64_t j = 0; j < r.cols; ++j) {
    bool small = true;
    for (std::int64_t i = 0; i < r.rows && small; ++i) small = std::abs(num.v[i * r.cols + j]) <= 1e-14;
    if (!small) break;
    ++leading;
  }
  if (leading > 0) {
    cusci::warn("BadCoefficients", fn,
                "Badly conditioned filter coefficients (numerator): the results may be meaningless");
    if (leading == r.cols) --leading;
    std::vector<cplx> t;
    t.reserve(static_cast<std::size_t>(r.rows * (r.cols - leading)));
    for (std::int64_t i = 0; i < r.rows; ++i)
      for (std::int64_t j = leading; j < r.cols; ++j) t.push_back(num.v[i * r.cols + j]);
    num.v = std::move(t);
    r.cols -= leading;
  }
  if (r.rows == 1) r.num_1d = true;
  r.num = std::move(num.v);
  r.den = std::move(den);
  return r;
}

host_array num_array(const norm_t& n) {
  return narrow(make(n.num, n.cx, n.num_1d ? shape_t{n.cols} : shape_t{n.rows, n.cols}), n.f32);
}

zpk_v tf2zpk_impl(const host_array& b, const host_array& a, const std::string& fn) {
  norm_t n = normalize_impl(b, a, fn);
  CUSCI_EXPECTS(n.num_1d, value_error, fn + ": the numerator must be 1-D (one output), got " +
                                           std::to_string(n.rows) + " rows (Input must be a rank-1 array.)");
  zpk_v r;
  r.f32 = n.f32;
  cvec num{n.num, n.cx};
  CUSCI_EXPECTS(!num.empty(), index_error, fn + ": the numerator is empty (index 0 is out of bounds)");
  r.k = num.v[0];
  for (auto& x : num.v) x = div(x, r.k, n.cx);
  r.z = polyroots(num, fn);
  cvec den = n.den;
  den.cx = den.cx || n.cx;  // SciPy promotes a and b together here
  r.p = polyroots(den, fn);
  return r;
}

zpk_coeffs to_zpk_coeffs(const zpk_v& r, const std::string& fn) {
  CUSCI_EXPECTS(r.k.imag() == 0.0, not_implemented_error,
                fn + ": the gain is complex (" + std::to_string(r.k.real()) + std::string(r.k.imag() < 0 ? "" : "+") +
                    std::to_string(r.k.imag()) + "j); complex gains are not supported");
  return zpk_coeffs{narrow(make(r.z), r.f32), narrow(make(r.p), r.f32), r.k.real()};
}

}  // namespace cusci::signal::detail::conv

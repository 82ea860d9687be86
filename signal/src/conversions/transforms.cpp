// The bilinear transform and the analog frequency transformations on transfer functions
// (scipy/signal/_filter_design.py: bilinear, lp2lp, lp2hp, lp2bp, lp2bs, in SciPy's order of operations)
// and the public zeros/poles/gain forms, which call the design family's zpk transforms
// (design/zpk_transforms.hpp).

#include <algorithm>
#include <cmath>

#include "conversions/conversions_detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"
#include "design/zpk_transforms.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using namespace detail::conv;
using cusci::detail::shape_str;

namespace {
const std::string P = "cusci::signal::";

/// numpy.polynomial's trimseq: trailing (highest-order) exact zeros dropped, one coefficient kept.
void trimseq(cvec& c) {
  while (c.v.size() > 1 && c.v.back() == cplx(0.0, 0.0)) c.v.pop_back();
}
/// numpy.polynomial.polynomial.polymul (coefficients lowest order first).
cvec pmul(const cvec& a, const cvec& b) {
  cvec r = convolve(a, b);
  trimseq(r);
  return r;
}
/// numpy.polynomial.polynomial.polyadd (lowest order first: padded at the end).
cvec padd(const cvec& a, const cvec& b) {
  cvec r;
  r.cx = a.cx || b.cx;
  const std::size_t n = std::max(a.size(), b.size());
  r.v.assign(n, cplx(0.0, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const cplx x = i < a.size() ? a.v[i] : cplx(0.0, 0.0), y = i < b.size() ? b.v[i] : cplx(0.0, 0.0);
    r.v[i] = cplx(x.real() + y.real(), x.imag() + y.imag());
  }
  trimseq(r);
  return r;
}
/// Polynomial ** e by repeated multiplication (numpy.polynomial's _pow).
cvec ppow(const cvec& c, std::int64_t e) {
  if (e == 0) return cvec{{cplx(1.0, 0.0)}, c.cx};
  cvec prd = c;
  for (std::int64_t i = 2; i <= e; ++i) prd = pmul(prd, c);
  return prd;
}

/// sum over q of x[len-1-q] * zp1^(N-q) * zm1^q (SciPy's bilinear sums), returned highest order first.
cvec bilinear_sum(const cvec& x, std::int64_t N, const cvec& zp1, const cvec& zm1) {
  cvec acc{{}, x.cx};
  bool first = true;
  const std::int64_t len = static_cast<std::int64_t>(x.size());
  for (std::int64_t q = 0; q < len; ++q) {
    cvec s{{x.v[static_cast<std::size_t>(len - 1 - q)]}, x.cx};
    trimseq(s);
    cvec t = pmul(pmul(s, ppow(zp1, N - q)), ppow(zm1, q));
    acc = first ? t : padd(acc, t);
    first = false;
  }
  std::reverse(acc.v.begin(), acc.v.end());
  return acc;
}

host_array arr(const cvec& c, bool cx) { return make(c.v, cx, shape_t{static_cast<std::int64_t>(c.size())}); }

ba_coeffs finish(const cvec& b, const cvec& a, const std::string& F, bool f32 = false) {
  const norm_t n = normalize_impl(arr(b, b.cx), arr(a, a.cx), F);
  return {narrow(num_array(n), f32), narrow(make(n.den), f32)};
}

/// math.comb(n, k) as the double Python's int * float converts it to.
double comb(std::int64_t n, std::int64_t k) {
  if (k < 0 || k > n) return 0.0;
  k = std::min(k, n - k);
  unsigned __int128 c = 1;
  for (std::int64_t i = 1; i <= k; ++i) {
    if (c > (~static_cast<unsigned __int128>(0)) / static_cast<unsigned __int128>(n)) {
      // beyond 128 bits (orders far above any filter's): the double product, within rounding
      double d = static_cast<double>(c);
      for (std::int64_t j = i; j <= k; ++j) d = d * static_cast<double>(n - k + j) / static_cast<double>(j);
      return d;
    }
    c = c * static_cast<unsigned __int128>(n - k + i) / static_cast<unsigned __int128>(i);
  }
  return static_cast<double>(c);
}

struct ba_in {
  cvec b, a;
  bool cx = false;
};
ba_in read_ba(const host_array& b, const host_array& a, const std::string& F) {
  ba_in r;
  r.a = read_1d(a, F, "a");
  r.b = read_1d(b, F, "b");
  r.cx = r.a.cx || r.b.cx;
  r.a.cx = r.b.cx = r.cx;
  return r;
}
}  // namespace

ba_coeffs bilinear(const array_like& b_arg, const array_like& a_arg, double fs) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::bilinear");
  const std::string F = P + "bilinear";
  CUSCI_EXPECTS(a.ndim() <= 1, value_error, F + ": Parameter a is not a 1d array since a.shape=" + shape_str(a.shape()));
  CUSCI_EXPECTS(b.ndim() <= 1, value_error, F + ": Parameter b is not a 1d array since b.shape=" + shape_str(b.shape()));
  // no promotion here: a real denominator stays real with a complex numerator, as SciPy's
  cvec bt = trim_front(read_1d(b, F, "b")), at = trim_front(read_1d(a, F, "a"));
  CUSCI_EXPECTS(!at.empty(), value_error, F + ": Denominator must have at least on nonzero element.");
  CUSCI_EXPECTS(!bt.empty(), value_error, F + ": the numerator is all zeros");
  const double fac = std::sqrt(fs * 2);
  const cvec zp1{{cplx(1.0 / fac, 0.0), cplx(1.0 / fac, 0.0)}, false};
  const cvec zm1{{cplx(-1.0 * fac, 0.0), cplx(1.0 * fac, 0.0)}, false};
  const std::int64_t N = static_cast<std::int64_t>(std::max(at.size(), bt.size())) - 1;
  return finish(bilinear_sum(bt, N, zp1, zm1), bilinear_sum(at, N, zp1, zm1), F);
}

ba_coeffs lp2lp(const array_like& b_arg, const array_like& a_arg, double wo) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2lp");
  const std::string F = P + "lp2lp";
  ba_in in = read_ba(b, a, F);
  const std::int64_t d = static_cast<std::int64_t>(in.a.size()), n = static_cast<std::int64_t>(in.b.size());
  const std::int64_t M = std::max(d, n);
  CUSCI_EXPECTS(M > 0, index_error, F + ": b and a are empty (index 0 is out of bounds)");
  std::vector<double> pwo(static_cast<std::size_t>(M));
  for (std::int64_t i = 0; i < M; ++i) pwo[i] = std::pow(wo, static_cast<double>(M - 1 - i));
  const std::int64_t s1 = std::max<std::int64_t>(n - d, 0), s2 = std::max<std::int64_t>(d - n, 0);
  for (std::int64_t i = 0; i < n; ++i)
    in.b.v[i] = div(mul(in.b.v[i], cplx(pwo[s1], 0.0)), cplx(pwo[s2 + i], 0.0), in.cx);
  for (std::int64_t i = 0; i < d; ++i)
    in.a.v[i] = div(mul(in.a.v[i], cplx(pwo[s1], 0.0)), cplx(pwo[s1 + i], 0.0), in.cx);
  return finish(in.b, in.a, F);
}

ba_coeffs lp2hp(const array_like& b_arg, const array_like& a_arg, double wo) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2hp");
  const std::string F = P + "lp2hp";
  ba_in in = read_ba(b, a, F);
  const std::int64_t d = static_cast<std::int64_t>(in.a.size()), n = static_cast<std::int64_t>(in.b.size());
  const std::int64_t M = std::max(d, n);
  std::vector<double> pwo(static_cast<std::size_t>(M), 1.0);
  if (wo != 1)
    for (std::int64_t i = 0; i < M; ++i) pwo[i] = std::pow(wo, static_cast<double>(i));
  cvec ob{std::vector<cplx>(static_cast<std::size_t>(M), cplx(0.0, 0.0)), in.cx};
  cvec oa = ob;
  for (std::int64_t i = 0; i < n; ++i) ob.v[i] = mul(in.b.v[n - 1 - i], cplx(pwo[i], 0.0));
  for (std::int64_t i = 0; i < d; ++i) oa.v[i] = mul(in.a.v[d - 1 - i], cplx(pwo[i], 0.0));
  return finish(ob, oa, F, single({b.dtype(), a.dtype()}));
}

ba_coeffs lp2bp(const array_like& b_arg, const array_like& a_arg, double wo, double bw) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2bp");
  const std::string F = P + "lp2bp";
  ba_in in = read_ba(b, a, F);
  const std::int64_t D = static_cast<std::int64_t>(in.a.size()) - 1, N = static_cast<std::int64_t>(in.b.size()) - 1;
  const std::int64_t ma = std::max(N, D), Np = N + ma, Dp = D + ma;
  const double wosq = wo * wo;
  auto transform = [&](const cvec& x, std::int64_t deg, std::int64_t outdeg) {
    std::vector<cplx> acc(static_cast<std::size_t>(std::max<std::int64_t>(outdeg + 1, 0)), cplx(0.0, 0.0));
    for (std::int64_t i = 0; i <= deg; ++i)
      for (std::int64_t k = 0; k <= i; ++k) {
        const std::int64_t j = ma - i + 2 * k;
        cplx t = mul(cplx(comb(i, k), 0.0), x.v[deg - i]);
        t = mul(t, cplx(std::pow(wosq, static_cast<double>(i - k)), 0.0));
        t = div(t, cplx(std::pow(bw, static_cast<double>(i)), 0.0), in.cx);
        auto& v = acc[static_cast<std::size_t>(outdeg - j)];
        v = cplx(v.real() + t.real(), v.imag() + t.imag());
      }
    return cvec{acc, in.cx};
  };
  return finish(transform(in.b, N, Np), transform(in.a, D, Dp), F, single({b.dtype(), a.dtype()}));
}

ba_coeffs lp2bs(const array_like& b_arg, const array_like& a_arg, double wo, double bw) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2bs");
  const std::string F = P + "lp2bs";
  ba_in in = read_ba(b, a, F);
  const std::int64_t D = static_cast<std::int64_t>(in.a.size()) - 1, N = static_cast<std::int64_t>(in.b.size()) - 1;
  const std::int64_t M = std::max(N, D), Np = 2 * M;
  const double wosq = wo * wo;
  auto transform = [&](const cvec& x, std::int64_t deg) {
    std::vector<cplx> acc(static_cast<std::size_t>(std::max<std::int64_t>(Np + 1, 0)), cplx(0.0, 0.0));
    for (std::int64_t i = 0; i <= deg; ++i)
      for (std::int64_t k = 0; k <= M - i; ++k) {
        const std::int64_t j = i + 2 * k;
        cplx t = mul(cplx(comb(M - i, k), 0.0), x.v[deg - i]);
        t = mul(t, cplx(std::pow(wosq, static_cast<double>(M - i - k)), 0.0));
        t = mul(t, cplx(std::pow(bw, static_cast<double>(i)), 0.0));
        auto& v = acc[static_cast<std::size_t>(Np - j)];
        v = cplx(v.real() + t.real(), v.imag() + t.imag());
      }
    return cvec{acc, in.cx};
  };
  return finish(transform(in.b, N), transform(in.a, D), F, single({b.dtype(), a.dtype()}));
}

// ---- zeros/poles/gain forms -------------------------------------------------------------------------

namespace {
struct zp_in {
  cvec z, p;
};
zp_in read_zp(const host_array& z, const host_array& p, const std::string& F) {
  zp_in r{read_1d(z, F, "z"), read_1d(p, F, "p")};
  CUSCI_EXPECTS(r.p.size() >= r.z.size(), value_error,
                F + ": Improper transfer function. Must have at least as many poles as zeros.");
  return r;
}
zpk_coeffs out(const detail::zpk::zpk_t& f, bool zcx, bool pcx, bool z32 = false, bool p32 = false) {
  return {narrow(make(f.z, zcx, shape_t{static_cast<std::int64_t>(f.z.size())}), z32),
          narrow(make(f.p, pcx, shape_t{static_cast<std::int64_t>(f.p.size())}), p32), f.k};
}
}  // namespace

zpk_coeffs bilinear_zpk(const array_like& z_arg, const array_like& p_arg, double k, double fs) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::bilinear_zpk");
  const zp_in in = read_zp(z, p, P + "bilinear_zpk");
  // SciPy: z is concatenated with float64 -1s (double precision), p keeps its precision
  return out(detail::zpk::bilinear_zpk({in.z.v, in.p.v, k}, fs), in.z.cx, in.p.cx, false, single({p.dtype()}));
}

zpk_coeffs lp2lp_zpk(const array_like& z_arg, const array_like& p_arg, double k, double wo) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2lp_zpk");
  const zp_in in = read_zp(z, p, P + "lp2lp_zpk");
  return out(detail::zpk::lp2lp_zpk({in.z.v, in.p.v, k}, wo), in.z.cx, in.p.cx, single({z.dtype()}),
             single({p.dtype()}));
}

zpk_coeffs lp2hp_zpk(const array_like& z_arg, const array_like& p_arg, double k, double wo) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2hp_zpk");
  const zp_in in = read_zp(z, p, P + "lp2hp_zpk");
  // SciPy: z is concatenated with float64 zeros (double precision), p keeps its precision
  return out(detail::zpk::lp2hp_zpk({in.z.v, in.p.v, k}, wo), in.z.cx, in.p.cx, false, single({p.dtype()}));
}

zpk_coeffs lp2bp_zpk(const array_like& z_arg, const array_like& p_arg, double k, double wo, double bw) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2bp_zpk");
  const zp_in in = read_zp(z, p, P + "lp2bp_zpk");
  return out(detail::zpk::lp2bp_zpk({in.z.v, in.p.v, k}, wo, bw), true, true);
}

zpk_coeffs lp2bs_zpk(const array_like& z_arg, const array_like& p_arg, double k, double wo, double bw) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lp2bs_zpk");
  const zp_in in = read_zp(z, p, P + "lp2bs_zpk");
  detail::zpk::zpk_t f = detail::zpk::lp2bs_zpk({in.z.v, in.p.v, k}, wo, bw);
  // SciPy divides real roots in real arithmetic (bw / 2 / x, imaginary part +0 once made complex); the
  // shared transform divides in complex arithmetic, where a negative real x gives an imaginary part of
  // -0, which takes the other branch of sqrt for that root: the pair (x' + sqrt, x' - sqrt) comes out
  // conjugated. Undo that for real inputs so the order is SciPy's.
  // (SciPy promotes z and p together: with either complex both are divided in complex arithmetic.)
  const bool cx = in.z.cx || in.p.cx;
  auto fix = [cx](std::vector<cplx>& out_roots, const cvec& roots) {
    if (cx) return;
    const std::size_t n = roots.size();
    for (std::size_t i = 0; i < n; ++i)
      if (roots.v[i].real() < 0) {
        out_roots[i] = std::conj(out_roots[i]);
        out_roots[i + n] = std::conj(out_roots[i + n]);
      }
  };
  fix(f.z, in.z);
  fix(f.p, in.p);
  return out(f, true, true);
}

}  // namespace cusci::signal

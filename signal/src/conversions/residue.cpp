// Roots grouping and partial-fraction expansions (scipy/signal/_signaltools.py: unique_roots,
// _group_poles, residue, residuez, invres, invresz, _compute_factors, _compute_residues), in SciPy's
// order of operations and NumPy's arithmetic.

#include <algorithm>
#include <cmath>
#include <numeric>

#include "conversions/conversions_detail.hpp"
#include "cusci/detail/numpy_sum.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using namespace detail::conv;

namespace {
const std::string P = "cusci::signal::";

bool lex_less(const cplx& a, const cplx& b) {
  if (a.real() != b.real()) return a.real() < b.real();
  return a.imag() < b.imag();
}

/// np.min / np.max / np.mean of a group of values (complex values ordered lexicographically, as NumPy).
cplx reduce(const std::vector<cplx>& g, root_type rt, bool cx) {
  switch (rt) {
    case root_type::min: return *std::min_element(g.begin(), g.end(), lex_less);
    case root_type::max: return *std::max_element(g.begin(), g.end(), lex_less);
    case root_type::avg: break;
  }
  const double n = static_cast<double>(g.size());
  if (!cx) {
    std::vector<double> r(g.size());
    for (std::size_t i = 0; i < g.size(); ++i) r[i] = g[i].real();
    return {cusci::detail::numpy_sum(r) / n, 0.0};
  }
  const cplx s = cusci::detail::numpy_sum(std::vector<std::complex<double>>(g.begin(), g.end()));
  return div(s, cplx(n, 0.0), true);
}

struct groups {
  cvec unique;
  std::vector<std::int64_t> mult;
};

groups unique_roots_impl(const cvec& p, double tol, root_type rt) {
  for (const auto& x : p.v)
    CUSCI_EXPECTS(std::isfinite(x.real()) && std::isfinite(x.imag()), value_error,
                  "cusci::signal::unique_roots: data must be finite, check for nan or inf values");
  groups r;
  r.unique.cx = p.cx;
  std::vector<char> used(p.size(), 0);
  const double tub = tol * tol;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (used[i]) continue;
    std::vector<cplx> g;
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (used[j]) continue;
      const double dx = p.v[j].real() - p.v[i].real(), dy = p.v[j].imag() - p.v[i].imag();
      if (dx * dx + dy * dy <= tub) {
        g.push_back(p.v[j]);
        used[j] = 1;
      }
    }
    r.unique.v.push_back(reduce(g, rt, p.cx));
    r.mult.push_back(static_cast<std::int64_t>(g.size()));
  }
  return r;
}

/// SciPy's _group_poles: runs of consecutive poles within tol of the run's first pole.
groups group_poles(const cvec& p, double tol, root_type rt, const std::string& F) {
  CUSCI_EXPECTS(!p.empty(), index_error, F + ": p must not be empty (index 0 is out of bounds)");
  groups r;
  r.unique.cx = p.cx;
  cplx pole = p.v[0];
  std::vector<cplx> block{pole};
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (std::abs(cplx(p.v[i].real() - pole.real(), p.v[i].imag() - pole.imag())) <= tol) {
      block.push_back(pole);
    } else {
      r.unique.v.push_back(reduce(block, rt, p.cx));
      r.mult.push_back(static_cast<std::int64_t>(block.size()));
      pole = p.v[i];
      block.assign(1, pole);
    }
  }
  r.unique.v.push_back(reduce(block, rt, p.cx));
  r.mult.push_back(static_cast<std::int64_t>(block.size()));
  return r;
}

/// SciPy's _cmplx_sort order: by magnitude (a stable sort).
std::vector<std::size_t> cmplx_order(const cvec& p) {
  std::vector<std::size_t> o(p.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(p.v[a]) < std::abs(p.v[b]);
  });
  return o;
}

cvec monomial(const cplx& pole, bool cx) { return cvec{{cplx(1.0, 0.0), -pole}, cx}; }

/// SciPy's _compute_factors: the product of (x - pole)^mult for the other poles, per pole (and power),
/// and the full product.
void compute_factors(const cvec& roots, const std::vector<std::int64_t>& mult, bool include_powers,
                     std::vector<cvec>& factors, cvec& full) {
  const std::size_t n = roots.size();
  cvec current{{cplx(1.0, 0.0)}, false};
  std::vector<cvec> suffixes{current};
  for (std::size_t i = n; i-- > 1;) {
    const cvec m = monomial(roots.v[i], roots.cx);
    for (std::int64_t t = 0; t < mult[i]; ++t) current = polymul(current, m);
    suffixes.push_back(current);
  }
  std::reverse(suffixes.begin(), suffixes.end());
  factors.clear();
  current = cvec{{cplx(1.0, 0.0)}, false};
  for (std::size_t i = 0; i < n; ++i) {
    const cvec m = monomial(roots.v[i], roots.cx);
    std::vector<cvec> block;
    for (std::int64_t t = 0; t < mult[i]; ++t) {
      if (t == 0 || include_powers) block.push_back(polymul(current, suffixes[i]));
      current = polymul(current, m);
    }
    factors.insert(factors.end(), block.rbegin(), block.rend());
  }
  full = current;
}

cvec scale(const cvec& f, const cplx& r, bool rcx) {
  cvec o{f.v, f.cx || rcx};
  for (auto& x : o.v) x = mul(r, x);
  return o;
}

/// SciPy's _compute_residues.
cvec compute_residues(const cvec& poles, const std::vector<std::int64_t>& mult, cvec numerator) {
  std::vector<cvec> factors;
  cvec full;
  compute_factors(poles, mult, false, factors, full);
  const bool cx = poles.cx;
  numerator.cx = cx;
  if (!cx)
    for (auto& x : numerator.v) x = cplx(x.real(), 0.0);
  cvec res{{}, cx};
  for (std::size_t i = 0; i < poles.size(); ++i) {
    const cplx pole = poles.v[i];
    if (mult[i] == 1) {
      const bool fcx = cx || factors[i].cx;
      res.v.push_back(div(polyval(numerator, pole, cx), polyval(factors[i], pole, fcx), cx));
    } else {
      cvec numer = numerator;
      const cvec m = monomial(pole, cx);
      cvec factor, d;
      polydiv(factors[i], m, factor, d);
      std::vector<cplx> block;
      for (std::int64_t t = 0; t < mult[i]; ++t) {
        cvec q, rem;
        polydiv(numer, m, q, rem);
        const cplx r = div(rem.v[0], d.v[0], cx);
        numer = polysub(q, scale(factor, r, cx));
        block.push_back(r);
      }
      res.v.insert(res.v.end(), block.rbegin(), block.rend());
    }
  }
  return res;
}

/// npy_cpow for an integer exponent 1 <= n < 100 (NumPy's repeated multiplication).
cplx cpow_int(const cplx& a, std::int64_t n) {
  if (n == 1) return a;
  if (n == 2) return mul(a, a);
  if (n == 3) return mul(a, mul(a, a));
  cplx aa(1.0, 0.0), p = a;
  std::int64_t mask = 1;
  while (true) {
    if (n & mask) aa = mul(aa, p);
    mask <<= 1;
    if (n < mask || mask <= 0) break;
    p = mul(p, p);
  }
  return aa;
}

struct prep {
  cvec b, a;
  bool cx = false;
};
prep prepare(const host_array& b, const host_array& a, const std::string& F) {
  prep r;
  r.b = read_1d(b, F, "b");
  r.a = read_1d(a, F, "a");
  r.cx = r.b.cx || r.a.cx;
  r.b.cx = r.a.cx = r.cx;
  return r;
}

residue_result empty_numerator(const cvec& poles) {
  const auto o = cmplx_order(poles);
  cvec s{{}, poles.cx};
  for (auto i : o) s.v.push_back(poles.v[i]);
  return {host_array(dtype::float64, shape_t{static_cast<std::int64_t>(poles.size())}), make(s),
          host_array(dtype::float64, shape_t{0})};
}
}  // namespace

root_type parse_root_type(std::string_view s) {
  if (s == "max" || s == "maximum") return root_type::max;
  if (s == "min" || s == "minimum") return root_type::min;
  if (s == "avg" || s == "mean") return root_type::avg;
  throw value_error("cusci::signal::parse_root_type: `rtype` must be one of {'max', 'maximum', 'min', 'minimum', "
                    "'avg', 'mean'}, got '" + std::string(s) + "'");
}

unique_roots_result unique_roots(const array_like& p_arg, const unique_roots_options& opts) {
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::unique_roots");
  const std::string F = P + "unique_roots";
  const groups g = unique_roots_impl(read_1d(p, F, "p"), opts.tol, opts.rtype);
  return {narrow(make(g.unique), single({p.dtype()})), host_array::from(g.mult)};
}

residue_result residue(const array_like& b_arg, const array_like& a_arg, const residue_options& opts) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::residue");
  const std::string F = P + "residue";
  prep in = prepare(b, a, F);
  cvec bt = trim_front(in.b), at = trim_front(in.a);
  CUSCI_EXPECTS(!at.empty(), value_error, F + ": Denominator `a` is zero.");
  cvec poles = np_roots(at, F);
  if (bt.empty()) return empty_numerator(poles);
  cvec k{{}, false};
  if (bt.size() >= at.size()) {
    cvec q, r;
    polydiv(bt, at, q, r);
    k = q;
    bt = r;
  }
  groups g = unique_roots_impl(poles, opts.tol, opts.rtype);
  const auto order = cmplx_order(g.unique);
  cvec up{{}, g.unique.cx};
  std::vector<std::int64_t> mult;
  for (auto i : order) {
    up.v.push_back(g.unique.v[i]);
    mult.push_back(g.mult[i]);
  }
  cvec res = compute_residues(up, mult, bt);
  std::size_t index = 0;
  for (std::size_t i = 0; i < up.size(); ++i)
    for (std::int64_t t = 0; t < mult[i]; ++t) poles.v[index++] = up.v[i];
  const bool rcx = res.cx || at.cx;
  for (auto& x : res.v) x = div(x, at.v[0], rcx);
  res.cx = rcx;
  return {make(res), make(poles), make(k)};
}

residue_result residuez(const array_like& b_arg, const array_like& a_arg, const residue_options& opts) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::residuez");
  const std::string F = P + "residuez";
  prep in = prepare(b, a, F);
  cvec bt = trim_back(in.b), at = trim_back(in.a);
  CUSCI_EXPECTS(!at.empty(), value_error, F + ": Denominator `a` is zero.");
  CUSCI_EXPECTS(at.v[0] != cplx(0.0, 0.0), value_error, F + ": First coefficient of determinant `a` must be non-zero.");
  cvec poles = np_roots(at, F);
  if (bt.empty()) return empty_numerator(poles);
  cvec b_rev = bt, a_rev = at;
  std::reverse(b_rev.v.begin(), b_rev.v.end());
  std::reverse(a_rev.v.begin(), a_rev.v.end());
  cvec k_rev{{}, false};
  if (b_rev.size() >= a_rev.size()) {
    cvec q, r;
    polydiv(b_rev, a_rev, q, r);
    k_rev = q;
    b_rev = r;
  }
  groups g = unique_roots_impl(poles, opts.tol, opts.rtype);
  const auto order = cmplx_order(g.unique);
  cvec inv{{}, g.unique.cx};
  std::vector<cplx> up;
  std::vector<std::int64_t> mult;
  for (auto i : order) {
    up.push_back(g.unique.v[i]);
    inv.v.push_back(div(cplx(1.0, 0.0), g.unique.v[i], g.unique.cx));
    mult.push_back(g.mult[i]);
  }
  cvec res = compute_residues(inv, mult, b_rev);
  std::size_t index = 0;
  std::vector<std::int64_t> powers(res.size());
  for (std::size_t i = 0; i < up.size(); ++i)
    for (std::int64_t t = 0; t < mult[i]; ++t) {
      poles.v[index] = up[i];
      powers[index] = 1 + t;
      ++index;
    }
  const bool rcx = res.cx || a_rev.cx;
  for (std::size_t i = 0; i < res.size(); ++i) {
    const cplx mp = -poles.v[i];
    const cplx pw = poles.cx ? cpow_int(mp, powers[i]) : cplx(std::pow(mp.real(), static_cast<double>(powers[i])), 0.0);
    res.v[i] = mul(res.v[i], div(pw, a_rev.v[0], rcx));
  }
  res.cx = rcx;
  std::reverse(k_rev.v.begin(), k_rev.v.end());
  return {make(res), make(poles), make(k_rev)};
}

namespace {
ba_coeffs invres_impl(const host_array& r, const host_array& p, const host_array& k, const residue_options& opts,
                      bool z_domain, const std::string& F) {
  const cvec rv = read_1d(r, F, "r"), pv = read_1d(p, F, "p");
  const cvec kv0 = read_1d(k, F, "k");
  const cvec kv = z_domain ? trim_back(kv0) : trim_front(kv0);
  const groups g = group_poles(pv, opts.tol, opts.rtype, F);
  std::vector<cvec> factors;
  cvec den;
  compute_factors(g.unique, g.mult, true, factors, den);
  auto rev = [](cvec c) {
    std::reverse(c.v.begin(), c.v.end());
    return c;
  };
  cvec num{{cplx(0.0, 0.0)}, false};
  if (!kv.empty()) num = z_domain ? polymul(rev(kv), rev(den)) : polymul(kv, den);
  const std::size_t n = std::min(rv.size(), factors.size());
  for (std::size_t i = 0; i < n; ++i) {
    const cvec f = z_domain ? rev(factors[i]) : factors[i];
    num = polyadd(num, scale(f, rv.v[i], rv.cx));
  }
  if (z_domain) num = rev(num);
  return {make(num), make(den)};
}
}  // namespace

ba_coeffs invres(const array_like& r_arg, const array_like& p_arg, const array_like& k_arg,
                 const residue_options& opts) {
  const host_array r = r_arg.to_host();
  const host_array p = p_arg.to_host();
  const host_array k = k_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::invres");
  return invres_impl(r, p, k, opts, false, P + "invres");
}

ba_coeffs invresz(const array_like& r_arg, const array_like& p_arg, const array_like& k_arg,
                  const residue_options& opts) {
  const host_array r = r_arg.to_host();
  const host_array p = p_arg.to_host();
  const host_array k = k_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::invresz");
  return invres_impl(r, p, k, opts, true, P + "invresz");
}

}  // namespace cusci::signal

// The zero-pole-gain transforms of SciPy's IIR design (see zpk_transforms.hpp).

#include "design/zpk_transforms.hpp"

#include <cmath>

#include "cusci/error.hpp"

namespace cusci::signal::detail::zpk {

// NumPy's complex arithmetic, reproduced so that signed zeros (which pick the branch of sqrt in the
// band transformations) and rounding match SciPy: a real operand is promoted to (r + 0j) first, and
// division uses Smith's algorithm as NumPy's loops do.
cplx np_div(const cplx& a, const cplx& b) {
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (std::abs(br) >= std::abs(bi)) {
    if (br == 0 && bi == 0) return {ar / std::abs(br), ai / std::abs(bi)};
    const double rat = bi / br, scl = 1.0 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const double rat = br / bi, scl = 1.0 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
cplx np_mul(const cplx& a, const cplx& b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

std::size_t relative_degree(const zpk_t& f) {
  CUSCI_EXPECTS(f.p.size() >= f.z.size(), value_error,
                "cusci::signal: Improper transfer function. Must have at least as many poles as zeros.");
  return f.p.size() - f.z.size();
}

cplx prod(const std::vector<cplx>& v, double shift, double sign) {
  // prod(shift + sign * v) in order, NumPy's arithmetic (shift - v for sign < 0, -v for shift 0).
  cplx r(1.0, 0.0);
  for (const auto& x : v) {
    const cplx t = sign < 0 ? (shift == 0 ? -x : np_sub(R(shift), x)) : np_add(R(shift), x);
    r = np_mul(r, t);
  }
  return r;
}

zpk_t lp2lp_zpk(const zpk_t& f, double wo) {
  const std::size_t degree = relative_degree(f);
  zpk_t r{f.z, f.p, f.k * std::pow(wo, static_cast<double>(degree)), f.z_real, f.p_real};
  for (auto& z : r.z) z = np_mul(R(wo), z);
  for (auto& p : r.p) p = np_mul(R(wo), p);
  return r;
}

zpk_t lp2hp_zpk(const zpk_t& f, double wo) {
  const std::size_t degree = relative_degree(f);
  zpk_t r{f.z, f.p, 0.0, f.z_real, f.p_real};
  for (auto& z : r.z) z = np_div(R(wo), z);
  for (auto& p : r.p) p = np_div(R(wo), p);
  for (std::size_t i = 0; i < degree; ++i) r.z.push_back(0.0);
  r.k = f.k * np_div(prod(f.z, 0.0, -1.0), prod(f.p, 0.0, -1.0)).real();
  return r;
}

/// The band transform's root split, as SciPy's lp2bp_zpk / lp2bs_zpk: for each scaled root v, the pair
/// v + sqrt(v^2 - wo^2) and v - sqrt(v^2 - wo^2); all the "+" roots first, then all the "-" roots.
std::vector<cplx> split_band(const std::vector<cplx>& v, double wo) {
  std::vector<cplx> plus, minus;
  for (const auto& x : v) {
    const cplx s = std::sqrt(np_sub(np_mul(x, x), R(wo * wo)));
    plus.push_back(np_add(x, s));
    minus.push_back(np_sub(x, s));
  }
  plus.insert(plus.end(), minus.begin(), minus.end());
  return plus;
}

zpk_t lp2bp_zpk(const zpk_t& f, double wo, double bw) {
  const std::size_t degree = relative_degree(f);
  zpk_t r{{}, {}, f.k * std::pow(bw, static_cast<double>(degree))};
  auto scaled = [&](const std::vector<cplx>& in) {
    std::vector<cplx> lp(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) lp[i] = np_div(np_mul(in[i], R(bw)), R(2.0));
    return lp;
  };
  r.z = split_band(scaled(f.z), wo);
  r.p = split_band(scaled(f.p), wo);
  for (std::size_t i = 0; i < degree; ++i) r.z.push_back(0.0);
  return r;
}

zpk_t lp2bs_zpk(const zpk_t& f, double wo, double bw) {
  const std::size_t degree = relative_degree(f);
  zpk_t r{{}, {}, 0.0};
  auto inverted = [&](const std::vector<cplx>& in) {
    std::vector<cplx> hp(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) hp[i] = np_div(R(bw / 2.0), in[i]);
    return hp;
  };
  r.z = split_band(inverted(f.z), wo);
  r.p = split_band(inverted(f.p), wo);
  for (std::size_t i = 0; i < degree; ++i) r.z.push_back(cplx(0.0, wo));
  for (std::size_t i = 0; i < degree; ++i) r.z.push_back(cplx(0.0, -wo));
  r.k = f.k * np_div(prod(f.z, 0.0, -1.0), prod(f.p, 0.0, -1.0)).real();
  return r;
}

zpk_t bilinear_zpk(const zpk_t& f, double fs) {
  const std::size_t degree = relative_degree(f);
  const double fs2 = 2.0 * fs;
  zpk_t r{{}, {}, 0.0, f.z_real, f.p_real};
  for (const auto& z : f.z) r.z.push_back(np_div(np_add(R(fs2), z), np_sub(R(fs2), z)));
  for (const auto& p : f.p) r.p.push_back(np_div(np_add(R(fs2), p), np_sub(R(fs2), p)));
  for (std::size_t i = 0; i < degree; ++i) r.z.push_back(-1.0);
  r.k = f.k * np_div(prod(f.z, fs2, -1.0), prod(f.p, fs2, -1.0)).real();
  return r;
}

}  // namespace cusci::signal::detail::zpk

#pragma once
// (internal; host) The zero-pole-gain machinery of SciPy's IIR design, shared by butter (filter_design.cpp)
// and the Chebyshev designs (chebyshev.cpp): NumPy's complex arithmetic (so that signed zeros, which pick
// the branch of sqrt in the band transformations, and rounding match SciPy's arrays), and the
// lp2lp / lp2hp / lp2bp / lp2bs / bilinear transforms of scipy/signal/_filter_design.py.

#include <complex>
#include <cstddef>
#include <vector>

namespace cusci::signal::detail::zpk {

using cplx = std::complex<double>;

/// Zeros, poles and gain, with the dtypes SciPy's arrays would have at this point of the pipeline: the
/// prototypes' zeros are float64 (buttap, cheb1ap, besselap) or complex128 (cheb2ap, ellipap), poles are
/// complex128; lp2lp / lp2hp / bilinear keep the dtypes, lp2bp / lp2bs make both complex128.
struct zpk_t {
  std::vector<cplx> z, p;
  double k;
  bool z_real = false;  ///< SciPy's z array is float64 (values all real)
  bool p_real = false;  ///< SciPy's p array is float64
};

/// NumPy's complex division (Smith's algorithm, as NumPy's loops) and multiplication; a real operand is
/// promoted to (r + 0j) first, as NumPy does.
cplx np_div(const cplx& a, const cplx& b);
cplx np_mul(const cplx& a, const cplx& b);
inline cplx R(double r) { return {r, 0.0}; }
inline cplx np_add(const cplx& a, const cplx& b) { return {a.real() + b.real(), a.imag() + b.imag()}; }
inline cplx np_sub(const cplx& a, const cplx& b) { return {a.real() - b.real(), a.imag() - b.imag()}; }

/// len(p) - len(z). @throws cusci::value_error for more zeros than poles (SciPy's message).
std::size_t relative_degree(const zpk_t& f);
/// prod(shift + sign * v) in order, in NumPy's arithmetic (shift - v for sign < 0, -v for shift 0).
cplx prod(const std::vector<cplx>& v, double shift, double sign);

zpk_t lp2lp_zpk(const zpk_t& f, double wo);
zpk_t lp2hp_zpk(const zpk_t& f, double wo);
zpk_t lp2bp_zpk(const zpk_t& f, double wo, double bw);
zpk_t lp2bs_zpk(const zpk_t& f, double wo, double bw);
zpk_t bilinear_zpk(const zpk_t& f, double fs);

}  // namespace cusci::signal::detail::zpk

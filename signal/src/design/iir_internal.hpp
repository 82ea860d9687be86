#pragma once
// (internal; host) The pieces of SciPy's IIR design pipeline shared by the design sources of this folder:
// the analog prototypes as zpk_t (with SciPy's array dtypes), the iirfilter pipeline, the output forms,
// and the numerical helpers SciPy borrows from scipy.special / scipy.optimize (iir_special.cpp).

#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/zpk_transforms.hpp"

namespace cusci::signal::detail::iir {

using zpk::cplx;
using zpk::zpk_t;

// ---- analog prototypes (F: the public function named in messages) -------------------------------
zpk_t buttap_zpk(int N, const std::string& F);
zpk_t cheb1ap_zpk(int N, double rp, const std::string& F);
zpk_t cheb2ap_zpk(int N, double rs, const std::string& F);
zpk_t ellipap_zpk(int N, double rp, double rs, const std::string& F);
zpk_t besselap_zpk(int N, bessel_norm norm, const std::string& F);

/// A zpk_t as the public zpk_coeffs (z / p float64 or complex128 as SciPy's arrays).
zpk_coeffs to_coeffs(const zpk_t& f);

/// SciPy's iirfilter with the checks in SciPy's order; messages name F.
iir_filter iirfilter_impl(const std::string& F, int N, std::vector<double> Wn, const iirfilter_options& o);

/// The output forms of iirfilter: zpk as is, ba through zpk2tf (float64 unless numpy.poly keeps a
/// complex result), sos through zpk2sos.
iir_filter make_output(const zpk_t& f, output_form out, bool analog);

/// numpy.poly of `r` scaled by `k` (k * poly(r)): float64 when `real_dtype` or when the roots are closed
/// under conjugation (sorted imaginary parts equal to the sorted negated ones, as numpy.poly tests),
/// complex128 otherwise.
host_array np_poly(const std::vector<cplx>& r, bool real_dtype, double k);

// ---- scipy.special (cephes) -----------------------------------------------------------------------
/// cephes ellpk(x): K(1 - x), the complete elliptic integral of the first kind of parameter m = 1 - x
/// (arithmetic-geometric mean); NaN for x < 0, K(1/x)/sqrt(x) for x > 1.
double ellpk(double x);
inline double ellipk(double m) { return ellpk(1.0 - m); }
inline double ellipkm1(double p) { return ellpk(p); }
/// cephes ellpj: Jacobi elliptic functions sn, cn, dn and the amplitude ph of u, parameter m in [0, 1]
/// (descending Landen / AGM; the small-m and m near 1 expansions of cephes).
struct jacobi_t {
  double sn, cn, dn, ph;
};
jacobi_t ellipj(double u, double m);

// ---- scipy.optimize -------------------------------------------------------------------------------
/// scipy.optimize.fminbound (bounded Brent, _minimize_scalar_bounded) with SciPy's defaults
/// xtol = 1e-5, maxfun = 500. @throws value_error when x1 > x2 or a bound is not finite.
double fminbound(const std::function<double(double)>& f, double x1, double x2, double xtol = 1e-5, int maxfun = 500,
                 const std::string& F = "cusci::signal");
/// scipy.optimize.newton without a derivative (secant method), tol 1.48e-8, maxiter 50, disp=True.
/// @throws runtime_error when it does not converge (SciPy's RuntimeError).
double newton_secant(const std::function<double(double)>& f, double x0, const std::string& F, double tol = 1.48e-8,
                     int maxiter = 50);
/// scipy.optimize.newton with a derivative, for complex x (Newton's method), disp=True.
cplx newton_complex(const std::function<cplx(cplx)>& f, const std::function<cplx(cplx)>& fp, cplx x0,
                    const std::string& F, double tol = 1.48e-8, int maxiter = 50);

}  // namespace cusci::signal::detail::iir

#pragma once
// (internal) Host numerics of the smoothing family (smoothing_math.cpp), standard library only.

#include <cstdint>
#include <vector>

namespace cusci::signal::detail {

/// Least squares through a Householder QR in double; `a` is m x n row-major, m >= n, no pivoting.
/// qr_lstsq: argmin ||a c - b|| (b: m entries; a zero column gets coefficient 0).
std::vector<double> qr_lstsq(std::vector<double> a, std::int64_t m, std::int64_t n, std::vector<double> b);
/// qr_min_norm: the minimum-norm c (m entries) with a^T c = rhs (rhs: n entries).
std::vector<double> qr_min_norm(std::vector<double> a, std::int64_t m, std::int64_t n, const std::vector<double>& rhs);

/// Savitzky-Golay coefficients (arguments already checked: polyorder < wl, 0 <= pos < wl, deriv >= 0,
/// delta != 0 when deriv > 0); zeros when deriv > polyorder. `conv`: reversed order.
std::vector<double> savgol_design(std::int64_t window_length, std::int64_t polyorder, int deriv, double delta,
                                  double pos, bool conv);

/// Whittaker-Henderson: the solution of (W + lamb D'D) x = W y (or its polynomial limit) and, with
/// calc_logdet, log det of the system matrix (SciPy's _solve_WH_banded).
struct wh_solution {
  std::vector<double> x;
  double logdet = 0.0;
  bool polynomial = false;
};
wh_solution wh_solve(const std::vector<double>& y, const std::vector<double>* w, int order, double lamb,
                     bool calc_logdet);
/// log det(D D') of the difference matrix of `order` over n points (SciPy's closed form).
double wh_logdet_difference_matrix(int order, std::int64_t n);
/// The profiled REML criterion at lamb (SciPy's _reml).
double wh_reml(double lamb, const std::vector<double>& y, int order, const std::vector<double>* w);
/// The lamb that maximises wh_reml: Brent's method over log(lamb) from the bracket [-10, 10].
/// @throws std::runtime_error when the bracket search exceeds its iteration limit.
double wh_reml_lamb(const std::vector<double>& y, int order, const std::vector<double>* w);

}  // namespace cusci::signal::detail

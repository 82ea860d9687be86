#pragma once
// (internal; host) What the host and device forms of lsim share: SciPy's discretisation of a continuous
// system for lsim (in SciPy's row-vector form: x[i] = x[i-1] Ad + u[i-1] Bd0 + u[i] Bd1), its checks of the
// time grid, the initial state, NumPy's linspace and SciPy's default response times.

#include <optional>
#include <string>
#include <vector>

#include "lti/lti_common.hpp"

namespace cusci::signal::detail::lti_impl {

/// numpy.linspace(start, stop, num, endpoint) (NumPy's arithmetic: i * step + start, last = stop).
std::vector<double> np_linspace(double start, double stop, std::int64_t num, bool endpoint);

/// SciPy's _default_response_times(A, n): linspace(0, 7 / min|Re eig(A)|, n) (1 when that minimum is 0).
/// @throws cusci::value_error for a system without states or n < 0.
std::vector<double> default_response_times(const rmat& A, std::int64_t n, const std::string& fn);

/// lsim's discretisation. Row-vector form, as SciPy's loop: Ad [n, n], Bd0 / Bd1 [m, n] (Bd1 only with
/// interp; neither without input); expAT_t0 = expm(A^T T[0]) when T[0] > 0.
struct lsim_plan {
  double t0 = 0, dt = 0;
  rmat Ad, Bd0, Bd1, expAT_t0;
};
/// Checks T (non-empty: index_error; T[0] >= 0, evenly spaced: value_error with SciPy's messages) and
/// computes the plan. With one time step only t0 / expAT_t0 are set.
lsim_plan plan_lsim(const real_ss& s, const std::vector<double>& T, bool interp, bool need_input,
                    const std::string& fn);
/// The state at T[0]: X0 (zero when empty; one value broadcast to every state) times expm(A^T T[0]).
/// @throws cusci::value_error for a length other than n.
std::vector<double> initial_state(const real_ss& s, const std::optional<host_array>& X0, const lsim_plan& p,
                                  const std::string& fn);

/// make_interp_spline(t, u, k=1)(x): the rows of u [M, m] at times t [M] linearly interpolated onto x
/// (extrapolated from the first / last interval), as dlsim does with `t`.
/// @throws cusci::value_error for len(t) != M, fewer than 2 points, t not strictly increasing.
rmat interp_linear(const std::vector<double>& t, const rmat& u, const std::vector<double>& x, const std::string& fn);

}  // namespace cusci::signal::detail::lti_impl

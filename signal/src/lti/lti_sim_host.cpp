// Time-domain simulation of LTI systems on the host, following SciPy 1.18's scipy/signal/_ltisys.py:
// lsim (one matrix exponential of the block matrix [[A dt, B dt, 0], [0, 0, I], [0, 0, 0]] for linear
// interpolation of the input, [[A dt, B dt], [0, 0]] for zero-order hold, expm(A^T dt) without input, then
// the row-vector recurrence SciPy runs), impulse / step through lsim on SciPy's default time grid, dlsim's
// loop (with the input linearly interpolated onto the output grid when t is given), dimpulse / dstep
// through dlsim, input by input.

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "lti/lti_common.hpp"
#include "lti/lti_sim_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace hl = cusci::detail::hostla;
using namespace detail::lti_impl;

namespace detail::lti_impl {

std::vector<double> np_linspace(double start, double stop, std::int64_t num, bool endpoint) {
  std::vector<double> y(static_cast<std::size_t>(std::max<std::int64_t>(num, 0)));
  if (num <= 0) return y;
  const std::int64_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  if (div > 0) {
    const double step = delta / static_cast<double>(div);
    if (step == 0) {
      for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<double>(i) / static_cast<double>(div) * delta + start;
    } else {
      for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<double>(i) * step + start;
    }
  } else {
    for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<double>(i) * delta + start;
  }
  if (endpoint && num > 1) y[num - 1] = stop;
  return y;
}

std::vector<double> default_response_times(const rmat& A, std::int64_t n, const std::string& fn) {
  CUSCI_EXPECTS(A.m > 0, value_error, fn + ": the system has no states (no default time grid)");
  const auto vals = hl::eigvals(A, fn.c_str());
  double r = std::abs(vals[0].real());
  for (const auto& v : vals) r = std::min(r, std::abs(v.real()));
  if (r == 0.0) r = 1.0;
  const double tc = 1.0 / r;
  CUSCI_EXPECTS(n >= 0, value_error, fn + ": Number of samples, " + std::to_string(n) + ", must be non-negative.");
  return np_linspace(0.0, 7 * tc, n, true);
}

lsim_plan plan_lsim(const real_ss& s, const std::vector<double>& T, bool interp, bool need_input,
                    const std::string& fn) {
  lsim_plan p;
  const std::int64_t n = s.A.m, m = s.B.n;
  CUSCI_EXPECTS(!T.empty(), index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (T is empty)");
  CUSCI_EXPECTS(!(T[0] < 0), value_error, fn + ": Initial time must be nonnegative");
  p.t0 = T[0];
  if (T[0] > 0) {
    rmat at = hl::transpose(s.A);
    for (auto& v : at.v) v *= T[0];
    p.expAT_t0 = hl::expm(at, fn.c_str());
  }
  if (T.size() == 1) return p;
  const double dt = T[1] - T[0];
  for (std::size_t i = 1; i < T.size(); ++i) {
    const double d = T[i] - T[i - 1];
    CUSCI_EXPECTS(std::abs(d - dt) <= 1e-8 + 1e-5 * std::abs(dt), value_error,
                  fn + ": Time steps are not equally spaced.");
  }
  p.dt = dt;
  if (!need_input) {
    rmat at = hl::transpose(s.A);
    for (auto& v : at.v) v *= dt;
    p.Ad = hl::expm(at, fn.c_str());
    return p;
  }
  if (!interp) {
    rmat M(n + m, n + m);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) M(i, j) = s.A(i, j) * dt;
      for (std::int64_t j = 0; j < m; ++j) M(i, n + j) = s.B(i, j) * dt;
    }
    const rmat E = hl::expm(hl::transpose(M), fn.c_str());
    p.Ad = rmat(n, n);
    p.Bd0 = rmat(m, n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) p.Ad(i, j) = E(i, j);
    for (std::int64_t k = 0; k < m; ++k)
      for (std::int64_t j = 0; j < n; ++j) p.Bd0(k, j) = E(n + k, j);
  } else {
    rmat M(n + 2 * m, n + 2 * m);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) M(i, j) = s.A(i, j) * dt;
      for (std::int64_t j = 0; j < m; ++j) M(i, n + j) = s.B(i, j) * dt;
    }
    for (std::int64_t k = 0; k < m; ++k) M(n + k, n + m + k) = 1.0;
    const rmat E = hl::expm(hl::transpose(M), fn.c_str());
    p.Ad = rmat(n, n);
    p.Bd0 = rmat(m, n);
    p.Bd1 = rmat(m, n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) p.Ad(i, j) = E(i, j);
    for (std::int64_t k = 0; k < m; ++k)
      for (std::int64_t j = 0; j < n; ++j) {
        p.Bd1(k, j) = E(n + m + k, j);
        p.Bd0(k, j) = E(n + k, j) - p.Bd1(k, j);
      }
  }
  return p;
}

std::vector<double> initial_state(const real_ss& s, const std::optional<host_array>& X0, const lsim_plan& p,
                                  const std::string& fn) {
  const std::int64_t n = s.A.m;
  std::vector<double> x0(static_cast<std::size_t>(n), 0.0);
  if (X0) {
    std::vector<double> v = to_dvec(*X0, fn, "X0");
    if (v.size() == 1 && n != 1) v.assign(static_cast<std::size_t>(n), v[0]);  // NumPy broadcasting
    CUSCI_EXPECTS(static_cast<std::int64_t>(v.size()) == n, value_error,
                  fn + ": X0 must have " + std::to_string(n) + " elements (one per state), got " +
                      std::to_string(v.size()));
    x0 = v;
  }
  if (p.t0 > 0) {
    std::vector<double> r(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k) r[j] += x0[k] * p.expAT_t0(k, j);
    x0 = r;
  }
  return x0;
}

/// make_interp_spline(t, u, k=1)(x): linear B-spline interpolation with SciPy's interval search
/// (extrapolation from the first / last interval).
rmat interp_linear(const std::vector<double>& t, const rmat& u, const std::vector<double>& x, const std::string& fn) {
  CUSCI_EXPECTS(static_cast<std::int64_t>(t.size()) == u.m, value_error,
                fn + ": Shapes of x (" + std::to_string(t.size()) + ",) and y (" + std::to_string(u.m) + ", " +
                    std::to_string(u.n) + ") are incompatible");
  CUSCI_EXPECTS(t.size() >= 2, value_error, fn + ": Need at least 2 data points for linear interpolation");
  for (std::size_t i = 1; i < t.size(); ++i)
    CUSCI_EXPECTS(t[i] > t[i - 1], value_error, fn + ": Expect x to not have duplicates and to be strictly increasing");
  rmat out(static_cast<std::int64_t>(x.size()), u.n);
  const std::size_t nint = t.size() - 1;
  for (std::size_t q = 0; q < x.size(); ++q) {
    const double xv = x[q];
    // interval l with t[l] <= x < t[l+1], clamped to [0, nint - 1]
    std::size_t l = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), xv) - t.begin());
    l = l == 0 ? 0 : l - 1;
    if (l > nint - 1) l = nint - 1;
    const double a = (xv - t[l]) / (t[l + 1] - t[l]);
    for (std::int64_t k = 0; k < u.n; ++k) out(static_cast<std::int64_t>(q), k) = (1.0 - a) * u(l, k) + a * u(l + 1, k);
  }
  return out;
}

}  // namespace detail::lti_impl

namespace {

/// U as an [N, m] matrix (1-D: one column), float64.
rmat input_matrix(const host_array& U, const std::string& fn) {
  CUSCI_EXPECTS(U.ndim() <= 2, value_error, fn + ": U must have at most 2 dimensions, got " + std::to_string(U.ndim()));
  rmat u = to_rmat(U, fn, "U");
  if (U.ndim() <= 1) u = hl::transpose(u);
  return u;
}

bool any_nonzero(const host_array& U) {
  for (double v : U.astype(dtype::float64).to_vector<double>())
    if (v != 0) return true;
  return false;
}

/// squeeze(a) for a float64 [r, c] matrix.
host_array squeezed(const rmat& a) { return squeeze(from_rmat(a)); }

/// out = squeeze(xout @ C^T) (+ squeeze(U @ D^T))
host_array outputs(const rmat& xout, const real_ss& s, const rmat* u) {
  rmat y = hl::matmul(xout, hl::transpose(s.C));
  if (u) {
    const rmat du = hl::matmul(*u, hl::transpose(s.D));
    for (std::size_t i = 0; i < y.v.size(); ++i) y.v[i] += du.v[i];
  }
  return squeezed(y);
}

}  // namespace

lsim_result lsim(const lti& system, const std::optional<host_array>& U, const array_like& T_arg,
                 const lsim_options& opts) {
  host_array T_copy;  // filled for a device array only
  const host_array& T = T_arg.host() ? *T_arg.host() : (T_copy = T_arg.to_host());
  CUSCI_NVTX_SCOPE("cusci::signal::lsim");
  const std::string fn = fname("lsim");
  const real_ss s = as_real_ss(system, fn);
  CUSCI_EXPECTS(T.ndim() <= 1, value_error, fn + ": T must be a rank-1 array.");
  const std::vector<double> t = to_dvec(T, fn, "T");
  const host_array tout = T.ndim() == 1 ? T : from_dvec(t);
  const bool no_input = !U || !any_nonzero(*U);
  const std::int64_t n = s.A.m, m = s.B.n, N = static_cast<std::int64_t>(t.size());
  rmat u;
  if (!no_input) u = input_matrix(*U, fn);
  // SciPy checks U's shape only on the path with input and more than one step.
  if (!no_input && N > 1) {
    CUSCI_EXPECTS(u.m == N, value_error, fn + ": U must have the same number of rows as elements in T.");
    CUSCI_EXPECTS(u.n == m, value_error, fn + ": System does not define that many inputs.");
  }
  const lsim_plan p = plan_lsim(s, t, opts.interp, !no_input, fn);
  rmat xout(N, n);
  const std::vector<double> x0 = initial_state(s, opts.X0, p, fn);
  for (std::int64_t j = 0; j < n; ++j) xout(0, j) = x0[j];
  if (N == 1) {
    if (no_input) return {tout, outputs(xout, s, nullptr), squeezed(xout)};
    // U @ D^T with U taken as one row of m values.
    rmat ur(1, static_cast<std::int64_t>(u.v.size()));
    ur.v = u.v;
    CUSCI_EXPECTS(ur.n == m, value_error, fn + ": U must have " + std::to_string(m) + " values for one time step");
    return {tout, outputs(xout, s, &ur), squeezed(xout)};
  }
  for (std::int64_t i = 1; i < N; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (std::int64_t k = 0; k < n; ++k) acc += xout(i - 1, k) * p.Ad(k, j);
      xout(i, j) = acc;
    }
    if (no_input) continue;
    for (std::int64_t j = 0; j < n; ++j) {
      double a0 = 0, a1 = 0;
      for (std::int64_t k = 0; k < m; ++k) a0 += u(i - 1, k) * p.Bd0(k, j);
      if (opts.interp)
        for (std::int64_t k = 0; k < m; ++k) a1 += u(i, k) * p.Bd1(k, j);
      xout(i, j) += a0 + a1;
    }
  }
  return {tout, outputs(xout, s, no_input ? nullptr : &u), squeezed(xout)};
}

time_response impulse(const lti& system, const impulse_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::impulse");
  const std::string fn = fname("impulse");
  const real_ss s = as_real_ss(system, fn);
  const std::int64_t n = s.A.m, m = s.B.n;
  // SciPy: X = squeeze(B (+ X0)); it then fails to store X as the initial state unless it has n values.
  CUSCI_EXPECTS(m == 1, value_error,
                fn + ": could not broadcast input array from shape (" + std::to_string(n) + "," + std::to_string(m) +
                    ") into shape (" + std::to_string(n) + ",) (impulse needs a single-input system)");
  std::vector<double> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) x[i] = s.B(i, 0);
  if (opts.X0) {
    const std::vector<double> x0 = to_dvec(*opts.X0, fn, "X0");
    // B [n, 1] + X0 [k] broadcasts to [n, k]: a valid initial state only when n == 1 and k == 1.
    CUSCI_EXPECTS(n == 1 && x0.size() == 1, value_error,
                  fn + ": could not broadcast input array from shape (" + std::to_string(n) + "," +
                      std::to_string(x0.size()) + ") into shape (" + std::to_string(n) +
                      ",) (SciPy adds X0 to B's column, which only works for one state)");
    x[0] += x0[0];
  }
  host_array T;
  if (opts.T) {
    T = *opts.T;
  } else {
    T = from_dvec(default_response_times(s.A, opts.N.value_or(100), fn));
  }
  const StateSpace sys(from_rmat(s.A), from_rmat(s.B), from_rmat(s.C), from_rmat(s.D));
  auto r = lsim(sys, std::nullopt, T, {.X0 = from_dvec(x), .interp = false});
  return {T, r.yout};
}

time_response step(const lti& system, const step_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::step");
  const std::string fn = fname("step");
  const real_ss s = as_real_ss(system, fn);
  host_array T;
  if (opts.T) {
    T = *opts.T;
  } else {
    T = from_dvec(default_response_times(s.A, opts.N.value_or(100), fn));
  }
  host_array U(dtype::float64, T.shape());
  double* pu = U.data_as<double>();
  for (std::int64_t i = 0; i < U.size(); ++i) pu[i] = 1.0;
  const StateSpace sys(from_rmat(s.A), from_rmat(s.B), from_rmat(s.C), from_rmat(s.D));
  auto r = lsim(sys, U, T, {.X0 = opts.X0, .interp = false});
  return {r.tout, r.yout};
}

namespace {

struct dsim_out {
  std::vector<double> tout;
  rmat yout, xout;
};

dsim_out dsim(const real_ss& s, double dt, const rmat& u, const std::optional<host_array>& t,
              const std::optional<host_array>& x0, const std::string& fn) {
  const std::int64_t n = s.A.m, m = s.B.n, p = s.C.m;
  std::int64_t N;
  double stoptime;
  std::vector<double> tv;
  if (!t) {
    N = u.m;
    stoptime = static_cast<double>(N - 1) * dt;
  } else {
    tv = to_dvec(*t, fn, "t");
    CUSCI_EXPECTS(!tv.empty(), index_error, fn + ": index -1 is out of bounds for axis 0 with size 0 (t is empty)");
    stoptime = tv.back();
    N = static_cast<std::int64_t>(std::floor(stoptime / dt)) + 1;
    CUSCI_EXPECTS(N >= 0, value_error, fn + ": negative dimensions are not allowed (t[-1] < -dt)");
  }
  CUSCI_EXPECTS(N > 0, index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (no output samples)");
  dsim_out o;
  o.tout = np_linspace(0.0, stoptime, N, true);
  o.xout = rmat(N, n);
  o.yout = rmat(N, p);
  if (x0) {
    std::vector<double> v = to_dvec(*x0, fn, "x0");
    if (v.size() == 1 && n != 1) v.assign(static_cast<std::size_t>(n), v[0]);
    CUSCI_EXPECTS(static_cast<std::int64_t>(v.size()) == n, value_error,
                  fn + ": x0 must have " + std::to_string(n) + " elements (one per state), got " + std::to_string(v.size()));
    for (std::int64_t j = 0; j < n; ++j) o.xout(0, j) = v[j];
  }
  const rmat ud = t ? interp_linear(tv, u, o.tout, fn) : u;
  CUSCI_EXPECTS(ud.n == m, value_error,
                fn + ": the input has " + std::to_string(ud.n) + " columns but the system has " + std::to_string(m) +
                    " inputs (shapes not aligned)");
  for (std::int64_t i = 0; i < N; ++i) {
    for (std::int64_t r = 0; r < p; ++r) {
      double a = 0, b = 0;
      for (std::int64_t k = 0; k < n; ++k) a += s.C(r, k) * o.xout(i, k);
      for (std::int64_t k = 0; k < m; ++k) b += s.D(r, k) * ud(i, k);
      o.yout(i, r) = a + b;
    }
    if (i + 1 == N) break;
    for (std::int64_t r = 0; r < n; ++r) {
      double a = 0, b = 0;
      for (std::int64_t k = 0; k < n; ++k) a += s.A(r, k) * o.xout(i, k);
      for (std::int64_t k = 0; k < m; ++k) b += s.B(r, k) * ud(i, k);
      o.xout(i + 1, r) = a + b;
    }
  }
  return o;
}

}  // namespace

lsim_result dlsim(const dlti& system, const array_like& u_arg, const dlsim_options& opts) {
  host_array u_copy;  // filled for a device array only
  const host_array& u = u_arg.host() ? *u_arg.host() : (u_copy = u_arg.to_host());
  CUSCI_NVTX_SCOPE("cusci::signal::dlsim");
  const std::string fn = fname("dlsim");
  const real_ss s = as_real_ss(system, fn);
  const bool is_ss = system.form() == lti_form::ss;
  const dsim_out o = dsim(s, system.dt(), input_matrix(u, fn), opts.t, opts.x0, fn);
  lsim_result r;
  r.tout = from_dvec(o.tout);
  r.yout = from_rmat(o.yout);
  if (is_ss) r.xout = from_rmat(o.xout);
  return r;
}

namespace {
dtime_response dresponse(const dlti& system, const dimpulse_options& opts, bool is_step, const char* name) {
  const std::string fn = fname(name);
  const real_ss s = as_real_ss(system, fn);
  const double dt = system.dt();
  const std::int64_t n = opts.n.value_or(100);
  host_array t;
  if (opts.t) {
    t = *opts.t;
  } else {
    CUSCI_EXPECTS(n >= 0, value_error, fn + ": Number of samples, " + std::to_string(n) + ", must be non-negative.");
    t = from_dvec(np_linspace(0.0, static_cast<double>(n) * dt, n, false));
  }
  const std::int64_t L = t.ndim() == 0 ? 1 : t.shape()[0];
  dtime_response r;
  const std::int64_t m = s.B.n;
  for (std::int64_t i = 0; i < m; ++i) {
    rmat u(L, m);
    if (is_step) {
      for (std::int64_t k = 0; k < L; ++k) u(k, i) = 1.0;
    } else if (L > 0) {
      u(0, i) = 1.0;
    }
    const dsim_out o = dsim(s, dt, u, t, opts.x0, fn);
    r.t = from_dvec(o.tout);
    r.yout.push_back(from_rmat(o.yout));
  }
  return r;
}
}  // namespace

dtime_response dimpulse(const dlti& system, const dimpulse_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::dimpulse");
  return dresponse(system, opts, false, "dimpulse");
}

dtime_response dstep(const dlti& system, const dstep_options& opts) { return dresponse(system, opts, true, "dstep"); }

}  // namespace cusci::signal

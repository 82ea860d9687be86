// lsim / dlsim over device inputs: the system is discretised on the host exactly as SciPy's lsim does
// (lti_sim_common.hpp), transposed from SciPy's row-vector form to x[k+1] = A x[k] + B0 u[k] + B1 u[k+1],
// and simulated on the GPU by the lti_sim engine (signal/src/lti_sim/lti_sim.hpp), asynchronously on the
// current stream.

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "lti/lti_common.hpp"
#include "lti/lti_sim_common.hpp"
#include "lti_sim/lti_sim.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace hl = cusci::detail::hostla;
using namespace detail::lti_impl;

namespace {

bool complex_dtype(dtype d) { return d == dtype::complex64 || d == dtype::complex128; }

/// An engine system from SciPy's row-vector plan: A = Ad^T, B = Bd0^T, B1 = Bd1^T.
detail::ss_system engine_system(const real_ss& s, const lsim_plan& p, bool interp) {
  detail::ss_system e;
  const std::int64_t n = s.A.m, m = s.B.n, q = s.C.m;
  e.n = static_cast<int>(n);
  e.m = static_cast<int>(m);
  e.p = static_cast<int>(q);
  e.A.assign(static_cast<std::size_t>(n * n), 0.0);
  e.B.assign(static_cast<std::size_t>(n * m), 0.0);
  if (p.Ad.m == n && n > 0)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) e.A[i * n + j] = p.Ad(j, i);
  if (p.Bd0.m == m && m > 0)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t k = 0; k < m; ++k) e.B[i * m + k] = p.Bd0(k, i);
  if (interp && p.Bd1.m == m && m > 0) {
    e.B1.assign(static_cast<std::size_t>(n * m), 0.0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t k = 0; k < m; ++k) e.B1[i * m + k] = p.Bd1(k, i);
  }
  e.C = s.C.v;
  e.D = s.D.v;
  return e;
}

detail::ss_system engine_system(const real_ss& s) {
  detail::ss_system e;
  e.n = static_cast<int>(s.A.m);
  e.m = static_cast<int>(s.B.n);
  e.p = static_cast<int>(s.C.m);
  e.A = s.A.v;
  e.B = s.B.v;
  e.C = s.C.v;
  e.D = s.D.v;
  return e;
}

std::vector<double> host_T(const ndarray& T, const std::string& fn) {
  CUSCI_EXPECTS(T.ndim() <= 1, value_error, fn + ": T must be a rank-1 array.");
  CUSCI_EXPECTS(!complex_dtype(T.dtype()), type_error, fn + ": T must be real");
  return to_host(T.astype(dtype::float64)).to_vector<double>();
}

void check_input(const ndarray& U, std::int64_t lead, std::int64_t N, std::int64_t m, const std::string& fn,
                 const char* name) {
  CUSCI_EXPECTS(!complex_dtype(U.dtype()), type_error, fn + ": complex " + name + " is not supported");
  const int base = lead >= 0 ? 1 : 0;
  CUSCI_EXPECTS(U.ndim() == base + 1 || U.ndim() == base + 2, value_error,
                fn + ": " + name + " must have " + std::to_string(base + 1) + " or " + std::to_string(base + 2) +
                    " dimensions, got " + std::to_string(U.ndim()));
  if (lead >= 0)
    CUSCI_EXPECTS(U.shape()[0] == lead, value_error,
                  fn + ": " + name + " must have one signal per system (" + std::to_string(lead) + "), got " +
                      std::to_string(U.shape()[0]));
  CUSCI_EXPECTS(U.shape()[base] == N, value_error, fn + ": U must have the same number of rows as elements in T.");
  const std::int64_t cols = U.ndim() == base + 2 ? U.shape()[base + 1] : 1;
  CUSCI_EXPECTS(cols == m, value_error, fn + ": System does not define that many inputs.");
}

/// SciPy's squeeze of lsim's outputs for a device [N, k] array.
ndarray squeeze_dev(const ndarray& a) { return a.size() ? a.squeeze() : a; }

}  // namespace

lsim_device_result lsim(const lti& system, const ndarray& U, const ndarray& T, const lsim_device_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::lsim");
  const std::string fn = fname("lsim");
  const real_ss s = as_real_ss(system, fn);
  const std::vector<double> t = host_T(T, fn);
  const std::int64_t N = static_cast<std::int64_t>(t.size());
  check_input(U, -1, N, s.B.n, fn, "U");
  const lsim_plan p = plan_lsim(s, t, opts.interp, true, fn);
  std::optional<host_array> X0;
  if (opts.X0) X0 = to_host(opts.X0->astype(dtype::float64));
  const std::vector<double> x0 = initial_state(s, X0, p, fn);
  const detail::ss_system e = engine_system(s, p, opts.interp);
  auto r = detail::simulate_ss(e, U, asarray(x0), true, fn.c_str());
  return {T, squeeze_dev(r.y), squeeze_dev(r.x)};
}

lsim_device_result lsim(const std::vector<lti>& systems, const ndarray& U, const ndarray& T,
                        const lsim_device_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::lsim");
  const std::string fn = fname("lsim");
  CUSCI_EXPECTS(!systems.empty(), value_error, fn + ": systems must not be empty");
  const std::vector<double> t = host_T(T, fn);
  const std::int64_t N = static_cast<std::int64_t>(t.size());
  const std::int64_t S = static_cast<std::int64_t>(systems.size());
  std::vector<detail::ss_system> es;
  std::vector<double> x0all;
  host_array X0h;
  if (opts.X0) X0h = to_host(opts.X0->astype(dtype::float64));
  for (std::int64_t i = 0; i < S; ++i) {
    const real_ss s = as_real_ss(systems[i], fn);
    if (i == 0) check_input(U, S, N, s.B.n, fn, "U");
    const lsim_plan p = plan_lsim(s, t, opts.interp, true, fn);
    std::optional<host_array> X0;
    if (opts.X0) {
      if (X0h.ndim() == 2) {
        CUSCI_EXPECTS(X0h.shape()[0] == S, value_error, fn + ": X0 must be [n] or [systems, n]");
        const std::int64_t n = X0h.shape()[1];
        std::vector<double> all = X0h.to_vector<double>();
        X0 = host_array::from(std::vector<double>(all.begin() + i * n, all.begin() + (i + 1) * n));
      } else {
        X0 = X0h;
      }
    }
    const std::vector<double> x0 = initial_state(s, X0, p, fn);
    x0all.insert(x0all.end(), x0.begin(), x0.end());
    es.push_back(engine_system(s, p, opts.interp));
  }
  const std::int64_t n = es[0].n;
  const ndarray U3 = U.ndim() == 2 ? U.reshape({S, N, 1}) : U;  // the engine takes [S, N, m]
  auto r = detail::simulate_ss_many(es, U3, asarray(x0all, shape_t{S, n}), true, fn.c_str());
  return {T, r.y, r.x};
}

lsim_device_result dlsim(const dlti& system, const ndarray& u, const dlsim_device_options& opts) {
  const std::string fn = fname("dlsim");
  const real_ss s = as_real_ss(system, fn);
  CUSCI_EXPECTS(u.ndim() >= 1, value_error, fn + ": u must have 1 or 2 dimensions, got 0");
  CUSCI_EXPECTS(!complex_dtype(u.dtype()), type_error, fn + ": complex u is not supported");
  const bool is_ss = system.form() == lti_form::ss;
  const double dt = system.dt();
  std::optional<ndarray> x0;
  if (opts.x0) x0 = *opts.x0;
  if (opts.t) {
    // Interpolate the input onto the output grid on the host (SciPy's make_interp_spline(t, u, k=1)).
    CUSCI_EXPECTS(u.ndim() <= 2, value_error, fn + ": u must have 1 or 2 dimensions, got " + std::to_string(u.ndim()));
    const std::vector<double> tv = host_T(*opts.t, fn);
    CUSCI_EXPECTS(!tv.empty(), index_error, fn + ": index -1 is out of bounds for axis 0 with size 0 (t is empty)");
    const double stoptime = tv.back();
    const std::int64_t N = static_cast<std::int64_t>(std::floor(stoptime / dt)) + 1;
    CUSCI_EXPECTS(N > 0, index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (no output samples)");
    const std::vector<double> tout = np_linspace(0.0, stoptime, N, true);
    rmat uh = to_rmat(to_host(u.astype(dtype::float64)), fn, "u");
    if (u.ndim() == 1) uh = hl::transpose(uh);
    const rmat ud = interp_linear(tv, uh, tout, fn);
    CUSCI_EXPECTS(ud.n == s.B.n, value_error, fn + ": System does not define that many inputs.");
    auto r = detail::simulate_ss(engine_system(s), asarray(from_rmat(ud)), x0, is_ss, fn.c_str());
    return {asarray(tout), r.y, is_ss ? r.x : ndarray()};
  }
  const std::int64_t N = u.shape()[0];
  CUSCI_EXPECTS(N > 0, index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (u is empty)");
  check_input(u, -1, N, s.B.n, fn, "u");
  auto r = detail::simulate_ss(engine_system(s), u, x0, is_ss, fn.c_str());
  ndarray tout = linspace(0.0, static_cast<double>(N - 1) * dt, N);
  return {tout, r.y, is_ss ? r.x : ndarray()};
}

lsim_device_result dlsim(const std::vector<dlti>& systems, const ndarray& u, const dlsim_device_options& opts) {
  const std::string fn = fname("dlsim");
  CUSCI_EXPECTS(!systems.empty(), value_error, fn + ": systems must not be empty");
  CUSCI_EXPECTS(!opts.t, value_error, fn + ": t is not supported with several systems (pass one input sample per dt)");
  const std::int64_t S = static_cast<std::int64_t>(systems.size());
  CUSCI_EXPECTS(u.ndim() >= 2, value_error, fn + ": u must be [systems, N] or [systems, N, m]");
  const std::int64_t N = u.shape()[1];
  CUSCI_EXPECTS(N > 0, index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (u is empty)");
  const double dt = systems[0].dt();
  bool all_ss = true;
  std::vector<detail::ss_system> es;
  for (std::int64_t i = 0; i < S; ++i) {
    CUSCI_EXPECTS(systems[i].dt() == dt, value_error, fn + ": every system must have the same dt");
    const real_ss s = as_real_ss(systems[i], fn);
    if (i == 0) check_input(u, S, N, s.B.n, fn, "u");
    all_ss = all_ss && systems[i].form() == lti_form::ss;
    es.push_back(engine_system(s));
  }
  std::optional<ndarray> x0;
  if (opts.x0) x0 = *opts.x0;
  const ndarray u3 = u.ndim() == 2 ? u.reshape({S, N, 1}) : u;  // the engine takes [S, N, m]
  auto r = detail::simulate_ss_many(es, u3, x0, all_ss, fn.c_str());
  ndarray tout = linspace(0.0, static_cast<double>(N - 1) * dt, N);
  return {tout, r.y, all_ss ? r.x : ndarray()};
}

}  // namespace cusci::signal

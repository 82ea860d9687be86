// cont2discrete (host, double precision), following SciPy 1.18's scipy/signal/_lti_conversion.py: the
// state-space transformations zoh / foh / impulse (matrix exponentials of block matrices) and the
// generalized bilinear transformation (solves with I - alpha dt A); the tf and zpk forms go through
// tf2ss / zpk2ss and back through ss2tf / ss2zpk, as SciPy.

#include <cmath>
#include <string>
#include <variant>

#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "lti/lti_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace hl = cusci::detail::hostla;
using namespace detail::lti_impl;

discretization_method parse_discretization_method(std::string_view s) {
  if (s == "gbt") return discretization_method::gbt;
  if (s == "bilinear" || s == "tustin") return discretization_method::bilinear;
  if (s == "euler" || s == "forward_diff") return discretization_method::euler;
  if (s == "backward_diff") return discretization_method::backward_diff;
  if (s == "zoh") return discretization_method::zoh;
  if (s == "foh") return discretization_method::foh;
  if (s == "impulse") return discretization_method::impulse;
  throw value_error("cusci::signal::cont2discrete: Unknown transformation method '" + std::string(s) + "'");
}

namespace {

const char* const F = "cusci::signal::cont2discrete";

/// Sub-block [r0, r0 + rows) x [c0, c0 + cols) of a.
rmat block(const rmat& a, std::int64_t r0, std::int64_t c0, std::int64_t rows, std::int64_t cols) {
  rmat r(rows, cols);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) r(i, j) = a(r0 + i, c0 + j);
  return r;
}

void check_options(const cont2discrete_options& o) {
  if (o.method == discretization_method::gbt) {
    CUSCI_EXPECTS(o.alpha.has_value(), value_error,
                  std::string(F) + ": Alpha parameter must be specified for the generalized bilinear transform "
                                   "(gbt) method");
    CUSCI_EXPECTS(!(*o.alpha < 0 || *o.alpha > 1), value_error,
                  std::string(F) + ": Alpha parameter must be within the interval [0,1] for the gbt method");
  }
}

real_ss gbt(const real_ss& s, double dt, double alpha) {
  const std::int64_t n = s.A.m;
  rmat ima = rmat::identity(n), ipa = rmat::identity(n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      ima(i, j) -= alpha * dt * s.A(i, j);
      ipa(i, j) += (1.0 - alpha) * dt * s.A(i, j);
    }
  real_ss d;
  d.A = hl::solve(ima, ipa, F);
  rmat bdt = s.B;
  for (auto& v : bdt.v) v *= dt;
  d.B = hl::solve(ima, bdt, F);
  d.C = hl::transpose(hl::solve(hl::transpose(ima), hl::transpose(s.C), F));
  const rmat cb = hl::matmul(s.C, d.B);
  d.D = s.D;
  for (std::size_t i = 0; i < d.D.v.size(); ++i) d.D.v[i] += alpha * cb.v[i];
  return d;
}

real_ss zoh(const real_ss& s, double dt) {
  const std::int64_t n = s.A.m, m = s.B.n;
  rmat em(n + m, n + m);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) em(i, j) = dt * s.A(i, j);
    for (std::int64_t j = 0; j < m; ++j) em(i, n + j) = dt * s.B(i, j);
  }
  const rmat ms = hl::expm(em, F);
  return {block(ms, 0, 0, n, n), block(ms, 0, n, n, m), s.C, s.D};
}

real_ss foh(const real_ss& s, double dt) {
  const std::int64_t n = s.A.m, m = s.B.n;
  rmat em(n + 2 * m, n + 2 * m);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) em(i, j) = s.A(i, j) * dt;
    for (std::int64_t j = 0; j < m; ++j) em(i, n + j) = s.B(i, j) * dt;
  }
  for (std::int64_t i = 0; i < m; ++i) em(n + i, n + m + i) = 1.0;
  const rmat ms = hl::expm(em, F);
  const rmat ms11 = block(ms, 0, 0, n, n), ms12 = block(ms, 0, n, n, m), ms13 = block(ms, 0, n + m, n, m);
  real_ss d;
  d.A = ms11;
  const rmat p = hl::matmul(ms11, ms13);
  d.B = rmat(n, m);
  for (std::size_t i = 0; i < d.B.v.size(); ++i) d.B.v[i] = ms12.v[i] - ms13.v[i] + p.v[i];
  d.C = s.C;
  const rmat cm = hl::matmul(s.C, ms13);
  d.D = s.D;
  for (std::size_t i = 0; i < d.D.v.size(); ++i) d.D.v[i] += cm.v[i];
  return d;
}

real_ss impulse_method(const real_ss& s, double dt) {
  for (double v : s.D.v)
    CUSCI_EXPECTS(std::abs(v) <= 1e-8, value_error,
                  std::string(F) + ": Impulse method is only applicable to strictly proper systems");
  rmat adt = s.A;
  for (auto& v : adt.v) v *= dt;
  real_ss d;
  d.A = hl::expm(adt, F);
  d.B = hl::matmul(d.A, s.B);
  for (auto& v : d.B.v) v *= dt;
  d.C = s.C;
  d.D = hl::matmul(s.C, s.B);
  for (auto& v : d.D.v) v *= dt;
  return d;
}

real_ss discretize(const real_ss& s, double dt, const cont2discrete_options& o) {
  switch (o.method) {
    case discretization_method::gbt: return gbt(s, dt, *o.alpha);
    case discretization_method::bilinear: return gbt(s, dt, 0.5);
    case discretization_method::euler: return gbt(s, dt, 0.0);
    case discretization_method::backward_diff: return gbt(s, dt, 1.0);
    case discretization_method::zoh: return zoh(s, dt);
    case discretization_method::foh: return foh(s, dt);
    case discretization_method::impulse: return impulse_method(s, dt);
  }
  throw value_error(std::string(F) + ": Unknown transformation method");
}

real_ss normalized(const host_array& A, const host_array& B, const host_array& C, const host_array& D) {
  for (const host_array* m : {&A, &B, &C, &D})
    if (is_complex(*m)) throw not_implemented_error(std::string(F) + ": complex systems are not supported");
  const ss_coeffs s = abcd_normalize(A, B, C, D);
  return {to_rmat(s.A, F, "A"), to_rmat(s.B, F, "B"), to_rmat(s.C, F, "C"), to_rmat(s.D, F, "D")};
}

}  // namespace

discrete_ss cont2discrete(const array_like& A_arg, const array_like& B_arg, const array_like& C_arg,
                          const array_like& D_arg,
                          double dt, const cont2discrete_options& opts) {
  const host_array A = A_arg.to_host();
  const host_array B = B_arg.to_host();
  const host_array C = C_arg.to_host();
  const host_array D = D_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::cont2discrete");
  check_options(opts);
  const real_ss d = discretize(normalized(A, B, C, D), dt, opts);
  return {from_rmat(d.A), from_rmat(d.B), from_rmat(d.C), from_rmat(d.D), dt};
}

discrete_tf cont2discrete(const array_like& num_arg, const array_like& den_arg, double dt,
                          const cont2discrete_options& opts) {
  const host_array num = num_arg.to_host();
  const host_array den = den_arg.to_host();
  check_options(opts);
  if (is_complex(num) || is_complex(den))
    throw not_implemented_error(std::string(F) + ": complex systems are not supported");
  const ss_coeffs s = tf2ss(num, den);
  const discrete_ss d = cont2discrete(s.A, s.B, s.C, s.D, dt, opts);
  ba_coeffs tf = ss2tf(d.A, d.B, d.C, d.D);
  return {tf.b, tf.a, dt};
}

discrete_zpk cont2discrete(const array_like& zeros_arg, const array_like& poles_arg, double gain, double dt,
                           const cont2discrete_options& opts) {
  const host_array zeros = zeros_arg.to_host();
  const host_array poles = poles_arg.to_host();
  check_options(opts);
  // Complex zeros and poles in conjugate pairs give a real zpk2ss; anything else is refused when the
  // matrices are read (not_implemented_error).
  const ss_coeffs s = zpk2ss(zeros, poles, gain);
  const discrete_ss d = cont2discrete(s.A, s.B, s.C, s.D, dt, opts);
  zpk_coeffs z = ss2zpk(d.A, d.B, d.C, d.D);
  return {z.z, z.p, z.k, dt};
}

namespace {
void check_continuous(bool discrete) {
  CUSCI_EXPECTS(!discrete, value_error,
                std::string(F) + ": system must be continuous-time (use a system without dt)");
}
}  // namespace

TransferFunction cont2discrete(const TransferFunction& system, double dt, const cont2discrete_options& opts) {
  check_continuous(system.is_discrete());
  const discrete_tf d = cont2discrete(system.num(), system.den(), dt, opts);
  return TransferFunction(d.num, d.den, dt);
}

ZerosPolesGain cont2discrete(const ZerosPolesGain& system, double dt, const cont2discrete_options& opts) {
  check_continuous(system.is_discrete());
  const discrete_zpk d = cont2discrete(system.zeros(), system.poles(), system.gain(), dt, opts);
  return ZerosPolesGain(d.zeros, d.poles, d.gain, dt);
}

StateSpace cont2discrete(const StateSpace& system, double dt, const cont2discrete_options& opts) {
  check_continuous(system.is_discrete());
  const discrete_ss d = cont2discrete(system.A(), system.B(), system.C(), system.D(), dt, opts);
  return StateSpace(d.A, d.B, d.C, d.D, dt);
}

dlti cont2discrete(const lti& system, double dt, const cont2discrete_options& opts) {
  return std::visit([&](const auto& s) { return dlti(cont2discrete(s, dt, opts)); }, system.system());
}

}  // namespace cusci::signal

#pragma once
// Shared by the least-squares solvers' tests: the reference cases (tests/golden/gen_sparse_linalg_lsq.py),
// their options, and the comparison of a result with SciPy's within the case's tolerances (see the
// generator's docstring: tolerances from SciPy's own spread under rounding-level perturbations).

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/least_squares.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::lsq_test {

namespace la = cusci::sparse::linalg;
using case_t = testing::golden_case;
inline const std::string kModule = "sparse_linalg_lsq";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }
inline host_array garray(const std::string& name) { return testing::golden(kModule, name); }
inline sparse::shape2 shape_of(const case_t& c) {
  const auto v = c.get<std::vector<std::int64_t>>("shape");
  return {v.at(0), v.at(1)};
}

/// The case's solver options (x0 given separately: it needs the device).
inline la::lsqr_options lsqr_opts(const case_t& c) {
  la::lsqr_options o;
  o.damp = c.get<double>("damp");
  o.atol = c.get<double>("opt_atol");
  o.btol = c.get<double>("opt_btol");
  o.conlim = c.get<double>("conlim");
  if (c.has("iter_lim")) o.iter_lim = c.get<std::int64_t>("iter_lim");
  o.calc_var = c.get_or<bool>("calc_var", false);
  return o;
}
inline la::lsmr_options lsmr_opts(const case_t& c) {
  la::lsmr_options o;
  o.damp = c.get<double>("damp");
  o.atol = c.get<double>("opt_atol");
  o.btol = c.get<double>("opt_btol");
  o.conlim = c.get<double>("conlim");
  if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
  return o;
}

/// ||a - e|| / ||e|| over complex<double> (||a|| when e == 0).
inline double rel_err(const host_array& a, const host_array& e) {
  REQUIRE(a.size() == e.size());
  double num = 0, den = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const std::complex<double> x = testing::element(a, i), y = testing::element(e, i);
    num += std::norm(x - y);
    den += std::norm(y);
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

/// Compares a solver's outputs with the case: x's dtype, shape [n] and values, istop among SciPy's,
/// itn within itn_tol, each named scalar within its tolerance (the looser _itn tolerances when the
/// iteration count differs from SciPy's), and the history (itn + 1 entries, the last the final
/// residual estimate `rlast`, times non-decreasing).
inline void check_result(const case_t& c, const ndarray& x, std::int64_t istop, std::int64_t itn,
                         const std::vector<std::pair<std::string, double>>& scalars,
                         const la::convergence_history& h, double rlast) {
  const host_array xr = c.array("x");
  const host_array xh = to_host(x);
  CHECK_MESSAGE(dtype_name(xh.dtype()) == c.get<std::string>("x_dtype"),
                "x dtype " << dtype_name(xh.dtype()) << ", SciPy's " << c.get<std::string>("x_dtype"));
  REQUIRE(xh.ndim() == 1);
  REQUIRE(xh.shape()[0] == shape_of(c)[1]);
  const auto istops = c.get<std::vector<std::int64_t>>("istops");
  bool istop_ok = false;
  for (auto s : istops) istop_ok = istop_ok || s == istop;
  CHECK_MESSAGE(istop_ok, "istop " << istop << ", SciPy's " << c.get<std::int64_t>("istop"));
  const std::int64_t itn_ref = c.get<std::int64_t>("itn");
  CHECK_MESSAGE(std::llabs(itn - itn_ref) <= c.get<std::int64_t>("itn_tol"),
                "itn " << itn << ", SciPy's " << itn_ref << " (tolerance " << c.get<std::int64_t>("itn_tol") << ")");
  const bool same_itn = itn == itn_ref;
  const double xtol = c.get<double>(same_itn ? "x_rtol" : "x_rtol_itn");
  const double err = rel_err(xh, xr);
  CHECK_MESSAGE(err <= xtol, "x relative error " << err << " > " << xtol << " (itn " << itn << ", SciPy's "
                                                 << itn_ref << ")");
  for (const auto& [name, v] : scalars) {
    const double ref = c.get<double>(name);
    const double tol = c.get<double>((same_itn ? "tol_" : "tol_itn_") + name);
    CHECK_MESSAGE(std::fabs(v - ref) <= tol, name << " " << v << ", SciPy's " << ref << " (tolerance " << tol << ")");
  }
  REQUIRE(h.residual_norms.size() == static_cast<std::size_t>(itn + 1));
  REQUIRE(h.seconds.size() == h.residual_norms.size());
  CHECK(h.residual_norms.back() == rlast);
  for (std::size_t i = 1; i < h.seconds.size(); ++i) CHECK(h.seconds[i] >= h.seconds[i - 1]);
}

}  // namespace cusci::lsq_test

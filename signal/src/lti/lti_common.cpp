// Helpers of the lti family (lti_common.hpp): host_array <-> host linear algebra matrices, the real
// state-space form of a system, NumPy's squeeze.

#include "lti/lti_common.hpp"

#include <cstring>
#include <variant>

#include "cusci/error.hpp"

namespace cusci::signal::detail::lti_impl {

bool is_complex(const host_array& a) {
  return a.dtype() == dtype::complex64 || a.dtype() == dtype::complex128;
}

rmat to_rmat(const host_array& a, const std::string& fn, const char* what) {
  if (is_complex(a))
    throw not_implemented_error(fn + ": complex " + what + " is not supported (real systems only)");
  CUSCI_EXPECTS(a.ndim() <= 2, value_error, fn + ": " + what + " must have at most 2 dimensions, got " +
                                                std::to_string(a.ndim()));
  const host_array d = a.dtype() == dtype::float64 ? a : a.astype(dtype::float64);
  std::int64_t m = 1, n = 1;
  if (a.ndim() == 1) n = a.shape()[0];
  if (a.ndim() == 2) {
    m = a.shape()[0];
    n = a.shape()[1];
  }
  rmat r(m, n);
  if (m * n > 0) std::memcpy(r.v.data(), d.data(), static_cast<std::size_t>(m * n) * sizeof(double));
  return r;
}

std::vector<double> to_dvec(const host_array& a, const std::string& fn, const char* what) {
  if (is_complex(a))
    throw not_implemented_error(fn + ": complex " + what + " is not supported (real values only)");
  const host_array d = a.dtype() == dtype::float64 ? a : a.astype(dtype::float64);
  return d.to_vector<double>();
}

std::vector<cplx> to_cvec(const host_array& a) {
  const host_array d = a.dtype() == dtype::complex128 ? a : a.astype(dtype::complex128);
  return d.to_vector<cplx>();
}

host_array from_rmat(const rmat& a) { return host_array::from(a.v, shape_t{a.m, a.n}); }
host_array from_cmat(const cmat& a) { return host_array::from(a.v, shape_t{a.m, a.n}); }
host_array from_dvec(const std::vector<double>& v) { return host_array::from(v); }
host_array from_cvec(const std::vector<cplx>& v) { return host_array::from(v); }

real_ss as_real_ss(const StateSpace& s, const std::string& fn) {
  return {to_rmat(s.A(), fn, "system matrix A"), to_rmat(s.B(), fn, "system matrix B"),
          to_rmat(s.C(), fn, "system matrix C"), to_rmat(s.D(), fn, "system matrix D")};
}
real_ss as_real_ss(const lti& s, const std::string& fn) {
  if (const auto* ss = std::get_if<StateSpace>(&s.system())) return as_real_ss(*ss, fn);
  return as_real_ss(s.to_ss(), fn);
}
real_ss as_real_ss(const dlti& s, const std::string& fn) {
  if (const auto* ss = std::get_if<StateSpace>(&s.system())) return as_real_ss(*ss, fn);
  return as_real_ss(s.to_ss(), fn);
}

host_array squeeze(const host_array& a) {
  shape_t s;
  for (auto d : a.shape())
    if (d != 1) s.push_back(d);
  host_array r(a.dtype(), s);
  if (a.nbytes()) std::memcpy(r.data(), a.data(), a.nbytes());
  return r;
}

}  // namespace cusci::signal::detail::lti_impl

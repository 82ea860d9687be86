// The LTI system classes of lti.hpp (scipy/signal/_ltisys.py: TransferFunction, ZerosPolesGain,
// StateSpace and the lti / dlti factories): construction normalises as SciPy's __init__ does, the
// conversions go through the functions of conversions.hpp, and poles / zeros through to_zpk() as
// SciPy's LinearTimeInvariant properties do.

#include "cusci/signal/lti.hpp"

#include <cmath>
#include <sstream>

#include "conversions/conversions_detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"

namespace cusci::signal {

using namespace detail::conv;

namespace {
/// A copy as float64 (real dtypes) or complex128 (complex dtypes), NumPy's atleast_1d applied.
host_array inexact_1d(const host_array& a, const char* fn, const char* what, int max_ndim) {
  CUSCI_EXPECTS(a.ndim() <= max_ndim, value_error,
                std::string("cusci::signal::") + fn + ": " + what + " must have at most " + std::to_string(max_ndim) +
                    " dimension(s), got shape " + cusci::detail::shape_str(a.shape()));
  // float32 / complex64 are kept (SciPy keeps the given arrays); other dtypes become float64 / complex128
  const bool keep = a.dtype() == dtype::float32 || a.dtype() == dtype::complex64;
  host_array r = keep ? a : a.astype(is_complex(a.dtype()) ? dtype::complex128 : dtype::float64);
  if (r.ndim() == 0) {
    host_array o(r.dtype(), shape_t{1});
    std::copy(static_cast<const std::byte*>(r.data()), static_cast<const std::byte*>(r.data()) + r.nbytes(),
              static_cast<std::byte*>(o.data()));
    return o;
  }
  return r;
}

host_array one() { return host_array::from(std::vector<double>{1.0}); }

std::string dt_text(double dt) {
  std::ostringstream s;
  s << dt;
  return s.str();
}
}  // namespace

// ---- TransferFunction ------------------------------------------------------------------------------

TransferFunction::TransferFunction() : num_(one()), den_(one()) {}

TransferFunction::TransferFunction(const array_like& num_arg, const array_like& den_arg,
                                   std::optional<double> dt) : dt_(dt) {
  const host_array num = num_arg.to_host();
  const host_array den = den_arg.to_host();
  const norm_t n = normalize_impl(num, den, "cusci::signal::TransferFunction");
  num_ = num_array(n);
  den_ = narrow(make(n.den), n.den_f32);
}

void TransferFunction::set_num(const array_like& num) {
  num_ = inexact_1d(num.to_host(), "TransferFunction", "num", 2);
}
void TransferFunction::set_den(const array_like& den) {
  den_ = inexact_1d(den.to_host(), "TransferFunction", "den", 1);
}

std::int64_t TransferFunction::outputs() const noexcept { return num_.ndim() == 2 ? num_.shape()[0] : 1; }

host_array TransferFunction::poles() const { return to_zpk().poles(); }
host_array TransferFunction::zeros() const { return to_zpk().zeros(); }

TransferFunction TransferFunction::to_tf() const { return *this; }

ZerosPolesGain TransferFunction::to_zpk() const {
  const zpk_coeffs f = tf2zpk(num_, den_);
  return ZerosPolesGain(f.z, f.p, f.k, dt_);
}

StateSpace TransferFunction::to_ss() const {
  const ss_coeffs s = tf2ss(num_, den_);
  return StateSpace(s.A, s.B, s.C, s.D, dt_);
}

// ---- ZerosPolesGain --------------------------------------------------------------------------------

ZerosPolesGain::ZerosPolesGain()
    : zeros_(dtype::float64, shape_t{0}), poles_(dtype::float64, shape_t{0}), gain_(1.0) {}

ZerosPolesGain::ZerosPolesGain(const array_like& zeros, const array_like& poles, double gain, std::optional<double> dt)
    : zeros_(inexact_1d(zeros.to_host(), "ZerosPolesGain", "zeros", 1)),
      poles_(inexact_1d(poles.to_host(), "ZerosPolesGain", "poles", 1)),
      gain_(gain),
      dt_(dt) {}

void ZerosPolesGain::set_zeros(const array_like& z) { zeros_ = inexact_1d(z.to_host(), "ZerosPolesGain", "zeros", 1); }
void ZerosPolesGain::set_poles(const array_like& p) { poles_ = inexact_1d(p.to_host(), "ZerosPolesGain", "poles", 1); }

TransferFunction ZerosPolesGain::to_tf() const {
  // SciPy's gain is a Python float, which takes the zeros' and poles' precision
  const host_array k = narrow(host_array::from(std::vector<double>{gain_}), single({zeros_.dtype(), poles_.dtype()}));
  const ba_coeffs t = zpk2tf(zeros_, poles_, k);
  return TransferFunction(t.b, t.a, dt_);
}

ZerosPolesGain ZerosPolesGain::to_zpk() const { return *this; }

StateSpace ZerosPolesGain::to_ss() const {
  const ss_coeffs s = zpk2ss(zeros_, poles_, gain_);
  return StateSpace(s.A, s.B, s.C, s.D, dt_);
}

// ---- StateSpace ------------------------------------------------------------------------------------

StateSpace::StateSpace()
    : A_(dtype::float64, shape_t{0, 0}),
      B_(dtype::float64, shape_t{0, 0}),
      C_(dtype::float64, shape_t{0, 0}),
      D_(dtype::float64, shape_t{0, 0}) {}

StateSpace::StateSpace(const array_like& A_arg, const array_like& B_arg, const array_like& C_arg,
                       const array_like& D_arg,
                       std::optional<double> dt)
    : dt_(dt) {
  const host_array A = A_arg.to_host();
  const host_array B = B_arg.to_host();
  const host_array C = C_arg.to_host();
  const host_array D = D_arg.to_host();
  ss_coeffs s = abcd_normalize(A, B, C, D);
  A_ = std::move(s.A);
  B_ = std::move(s.B);
  C_ = std::move(s.C);
  D_ = std::move(s.D);
}

std::int64_t StateSpace::nstates() const noexcept { return A_.ndim() == 2 ? A_.shape()[0] : 0; }
std::int64_t StateSpace::inputs() const noexcept { return B_.ndim() == 2 ? B_.shape()[1] : 0; }
std::int64_t StateSpace::outputs() const noexcept { return C_.ndim() == 2 ? C_.shape()[0] : 0; }

host_array StateSpace::poles() const { return to_zpk().poles(); }
host_array StateSpace::zeros() const { return to_zpk().zeros(); }

TransferFunction StateSpace::to_tf(std::int64_t input) const {
  const ba_coeffs t = ss2tf(A_, B_, C_, D_, input);
  return TransferFunction(t.b, t.a, dt_);
}

ZerosPolesGain StateSpace::to_zpk(std::int64_t input) const {
  const zpk_coeffs f = ss2zpk(A_, B_, C_, D_, input);
  return ZerosPolesGain(f.z, f.p, f.k, dt_);
}

StateSpace StateSpace::to_ss() const { return *this; }

// ---- lti / dlti ------------------------------------------------------------------------------------

namespace {
template <class S>
const S& continuous(const S& s) {
  CUSCI_EXPECTS(!s.dt().has_value(), value_error,
                "cusci::signal::lti: the system must be continuous-time (dt unset), got dt=" + dt_text(*s.dt()));
  return s;
}
template <class S>
const S& discrete(const S& s) {
  CUSCI_EXPECTS(s.dt().has_value(), value_error,
                "cusci::signal::dlti: the system must be discrete-time (dt set), got a continuous-time system");
  return s;
}

host_array poles_of(const lti::system_type& s) {
  return std::visit([](const auto& x) { return host_array(x.poles()); }, s);
}
host_array zeros_of(const lti::system_type& s) {
  return std::visit([](const auto& x) { return host_array(x.zeros()); }, s);
}
TransferFunction tf_of(const lti::system_type& s, std::int64_t input) {
  if (const auto* t = std::get_if<TransferFunction>(&s)) return *t;
  if (const auto* z = std::get_if<ZerosPolesGain>(&s)) return z->to_tf();
  return std::get<StateSpace>(s).to_tf(input);
}
ZerosPolesGain zpk_of(const lti::system_type& s, std::int64_t input) {
  if (const auto* t = std::get_if<TransferFunction>(&s)) return t->to_zpk();
  if (const auto* z = std::get_if<ZerosPolesGain>(&s)) return *z;
  return std::get<StateSpace>(s).to_zpk(input);
}
StateSpace ss_of(const lti::system_type& s) {
  return std::visit([](const auto& x) { return x.to_ss(); }, s);
}
}  // namespace

lti::lti(const TransferFunction& sys) : sys_(continuous(sys)) {}
lti::lti(const ZerosPolesGain& sys) : sys_(continuous(sys)) {}
lti::lti(const StateSpace& sys) : sys_(continuous(sys)) {}
lti::lti(const array_like& num, const array_like& den) : sys_(TransferFunction(num, den)) {}
lti::lti(const array_like& zeros, const array_like& poles, double gain) : sys_(ZerosPolesGain(zeros, poles, gain)) {}
lti::lti(const array_like& A, const array_like& B, const array_like& C, const array_like& D)
    : sys_(StateSpace(A, B, C, D)) {}

host_array lti::poles() const { return poles_of(sys_); }
host_array lti::zeros() const { return zeros_of(sys_); }
TransferFunction lti::to_tf(std::int64_t input) const { return tf_of(sys_, input); }
ZerosPolesGain lti::to_zpk(std::int64_t input) const { return zpk_of(sys_, input); }
StateSpace lti::to_ss() const { return ss_of(sys_); }

dlti::dlti(const TransferFunction& sys) : sys_(discrete(sys)) {}
dlti::dlti(const ZerosPolesGain& sys) : sys_(discrete(sys)) {}
dlti::dlti(const StateSpace& sys) : sys_(discrete(sys)) {}
dlti::dlti(const array_like& num, const array_like& den, const dlti_options& opts)
    : sys_(TransferFunction(num, den, opts.dt)) {}
dlti::dlti(const array_like& zeros, const array_like& poles, double gain, const dlti_options& opts)
    : sys_(ZerosPolesGain(zeros, poles, gain, opts.dt)) {}
dlti::dlti(const array_like& A, const array_like& B, const array_like& C, const array_like& D, const dlti_options& opts)
    : sys_(StateSpace(A, B, C, D, opts.dt)) {}

double dlti::dt() const noexcept {
  return std::visit([](const auto& x) { return x.dt().value_or(1.0); }, sys_);
}
host_array dlti::poles() const { return poles_of(sys_); }
host_array dlti::zeros() const { return zeros_of(sys_); }
TransferFunction dlti::to_tf(std::int64_t input) const { return tf_of(sys_, input); }
ZerosPolesGain dlti::to_zpk(std::int64_t input) const { return zpk_of(sys_, input); }
StateSpace dlti::to_ss() const { return ss_of(sys_); }

}  // namespace cusci::signal

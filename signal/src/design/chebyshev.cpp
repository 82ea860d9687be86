// Chebyshev type I and II filter design (host, double precision), following SciPy 1.18's
// scipy/signal/_filter_design.py: cheb1ap / cheb2ap, and cheby1 / cheby2 through the iirfilter pipeline
// of iirfilter.cpp. NumPy's complex arithmetic is design/zpk_transforms.hpp's.

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/iir_internal.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace detail::iir {

using namespace detail::zpk;
namespace {
constexpr double pi = 3.14159265358979323846;
}

zpk_t cheb1ap_zpk(int N, double rp, const std::string& F) {
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, std::pow(10.0, -rp / 20), true, false};
  const double eps = std::sqrt(std::pow(10.0, 0.1 * rp) - 1.0);
  CUSCI_EXPECTS(eps != 0, value_error, F + ": float division by zero (rp = 0 gives a zero ripple factor)");
  const double mu = 1.0 / N * std::asinh(1 / eps);
  zpk_t f{{}, {}, 1.0, true, false};
  for (int m = -N + 1; m < N; m += 2) {
    const double theta = pi * static_cast<double>(m) / (2.0 * N);
    f.p.push_back(-std::sinh(cplx(mu, theta)));
  }
  cplx k(1.0, 0.0);
  for (const auto& v : f.p) k = np_mul(k, -v);
  f.k = k.real();
  if (N % 2 == 0) f.k = f.k / std::sqrt(1 + eps * eps);
  return f;
}

zpk_t cheb2ap_zpk(int N, double rs, const std::string& F) {
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, 1.0, false, false};
  const double de0 = std::sqrt(std::pow(10.0, 0.1 * rs) - 1);
  CUSCI_EXPECTS(de0 != 0, value_error, F + ": float division by zero (rs = 0 gives a zero ripple factor)");
  const double de = 1.0 / de0;
  const double mu = std::asinh(1.0 / de) / N;
  zpk_t f{{}, {}, 1.0, false, false};
  std::vector<double> m;
  if (N % 2) {
    for (int i = -N + 1; i < 0; i += 2) m.push_back(i);
    for (int i = 2; i < N; i += 2) m.push_back(i);
  } else {
    for (int i = -N + 1; i < N; i += 2) m.push_back(i);
  }
  for (double v : m) f.z.push_back(np_div(cplx(0.0, 1.0), R(std::sin(v * pi / (2.0 * N)))));
  for (int i = -N + 1; i < N; i += 2) {
    const double theta = pi * static_cast<double>(i) / (2.0 * N);
    f.p.push_back(-np_div(R(1.0), std::sinh(cplx(mu, theta))));
  }
  f.k = np_div(prod(f.p, 0.0, -1.0), prod(f.z, 0.0, -1.0)).real();
  return f;
}

}  // namespace detail::iir

zpk_coeffs cheb1ap(int N, double rp) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheb1ap");
  return detail::iir::to_coeffs(detail::iir::cheb1ap_zpk(N, rp, "cusci::signal::cheb1ap"));
}
zpk_coeffs cheb2ap(int N, double rs) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheb2ap");
  return detail::iir::to_coeffs(detail::iir::cheb2ap_zpk(N, rs, "cusci::signal::cheb2ap"));
}

iir_filter cheby1(int N, double rp, const std::vector<double>& Wn, const cheby1_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheby1");
  return detail::iir::iirfilter_impl(
      "cusci::signal::cheby1", N, Wn,
      {.rp = rp, .btype = o.btype, .analog = o.analog, .ftype = iir_ftype::cheby1, .output = o.output, .fs = o.fs});
}
iir_filter cheby1(int N, double rp, double Wn, const cheby1_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheby1");
  return cheby1(N, rp, std::vector<double>{Wn}, o);
}
iir_filter cheby2(int N, double rs, const std::vector<double>& Wn, const cheby2_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheby2");
  return detail::iir::iirfilter_impl(
      "cusci::signal::cheby2", N, Wn,
      {.rs = rs, .btype = o.btype, .analog = o.analog, .ftype = iir_ftype::cheby2, .output = o.output, .fs = o.fs});
}
iir_filter cheby2(int N, double rs, double Wn, const cheby2_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::cheby2");
  return cheby2(N, rs, std::vector<double>{Wn}, o);
}

}  // namespace cusci::signal

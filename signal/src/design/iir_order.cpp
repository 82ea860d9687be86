// IIR order selection and complete design from specifications (host, double precision), following
// SciPy 1.18's scipy/signal/_filter_design.py: buttord, cheb1ord, cheb2ord, ellipord, band_stop_obj and
// their shared steps (_validate_wp_ws, _pre_warp, _find_nat_freq with fminbound for bandstops,
// _postprocess_wn), and iirdesign.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/warnings.hpp"
#include "design/iir_internal.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {
using detail::fmt;
constexpr double pi = 3.14159265358979323846;

void validate_gpass_gstop(const std::string& F, double gpass, double gstop) {
  CUSCI_EXPECTS(!(gpass <= 0.0), value_error, F + ": gpass should be larger than 0.0");
  CUSCI_EXPECTS(!(gstop <= 0.0), value_error, F + ": gstop should be larger than 0.0");
  CUSCI_EXPECTS(!(gpass > gstop), value_error, F + ": gpass should be smaller than gstop");
}

double pow10m1(double x) { return std::expm1(std::log(10.0) * x); }

// Python's int(math.ceil(v)) / int(np.ceil(v)): NaN -> ValueError, inf -> OverflowError (both
// value_error in cusci).
int to_order(const std::string& F, double v) {
  CUSCI_EXPECTS(!std::isnan(v), value_error, F + ": cannot convert float NaN to integer");
  CUSCI_EXPECTS(!std::isinf(v), value_error, F + ": cannot convert float infinity to integer");
  const double c = std::ceil(v);
  CUSCI_EXPECTS(std::abs(c) < 2147483647.0, value_error, F + ": order " + fmt(c) + " does not fit in an int");
  return static_cast<int>(c);
}

struct spec {
  std::vector<double> wp, ws;  // normalized (fs applied)
  int filter_type = 1;         // 1 low, 2 high, 3 stop, 4 pass
  std::vector<double> passb, stopb;
};

spec validate_and_warp(const std::string& F, const std::vector<double>& wp_in, const std::vector<double>& ws_in,
                       const iirord_options& o) {
  spec s;
  s.wp = wp_in;
  s.ws = ws_in;
  CUSCI_EXPECTS(!s.wp.empty() && !s.ws.empty(), value_error, F + ": wp and ws must not be empty");
  CUSCI_EXPECTS(s.wp.size() == s.ws.size(), value_error,
                F + ": wp and ws must have the same length, got " + std::to_string(s.wp.size()) + " and " +
                    std::to_string(s.ws.size()));
  if (o.fs) {
    CUSCI_EXPECTS(!o.analog, value_error, F + ": fs cannot be specified for an analog filter");
    for (auto& w : s.wp) w = 2 * w / *o.fs;
    for (auto& w : s.ws) w = 2 * w / *o.fs;
  }
  s.filter_type = 2 * (static_cast<int>(s.wp.size()) - 1) + 1;
  if (s.wp[0] >= s.ws[0]) s.filter_type += 1;
  CUSCI_EXPECTS(s.filter_type <= 4, value_error, F + ": should not happen: filter_type = " + std::to_string(s.filter_type) + ".");
  s.passb = s.wp;
  s.stopb = s.ws;
  if (!o.analog) {
    for (auto& v : s.passb) v = std::tan(pi * v / 2.0);
    for (auto& v : s.stopb) v = std::tan(pi * v / 2.0);
  }
  return s;
}

double band_stop_obj_impl(double wp, int ind, const std::vector<double>& passb, const std::vector<double>& stopb,
                          double gpass, double gstop, band_stop_type type) {
  std::vector<double> pc = passb;
  pc[static_cast<std::size_t>(ind)] = wp;
  // Python's builtin min over the two values: the first unless the second compares smaller.
  double nat = 0.0;
  for (std::size_t i = 0; i < 2; ++i) {
    const double v = std::abs(stopb[i] * (pc[0] - pc[1]) / (stopb[i] * stopb[i] - pc[0] * pc[1]));
    if (i == 0 || v < nat) nat = v;
  }
  switch (type) {
    case band_stop_type::butter: {
      const double GSTOP = std::pow(10.0, 0.1 * std::abs(gstop)), GPASS = std::pow(10.0, 0.1 * std::abs(gpass));
      return std::log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * std::log10(nat));
    }
    case band_stop_type::cheby: {
      const double GSTOP = std::pow(10.0, 0.1 * std::abs(gstop)), GPASS = std::pow(10.0, 0.1 * std::abs(gpass));
      return std::acosh(std::sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / std::acosh(nat);
    }
    case band_stop_type::ellip: {
      const double GSTOP = std::pow(10.0, 0.1 * gstop), GPASS = std::pow(10.0, 0.1 * gpass);
      const double arg1 = std::sqrt((GPASS - 1.0) / (GSTOP - 1.0));
      const double arg0 = 1.0 / nat;
      const double d00 = detail::iir::ellipk(arg0 * arg0), d01 = detail::iir::ellipk(1 - arg0 * arg0);
      const double d10 = detail::iir::ellipk(arg1 * arg1), d11 = detail::iir::ellipk(1 - arg1 * arg1);
      return d00 * d11 / (d01 * d10);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// _find_nat_freq: the low-pass prototype's stopband edge (and, for bandstops, the optimized passband).
double find_nat_freq(const std::string& F, spec& s, double gpass, double gstop, band_stop_type kind) {
  std::vector<double> nat;
  const auto& stopb = s.stopb;
  auto& passb = s.passb;
  switch (s.filter_type) {
    case 1: nat = {stopb[0] / passb[0]}; break;
    case 2: nat = {passb[0] / stopb[0]}; break;
    case 3: {
      const std::vector<double> pb = passb, sb = stopb;
      const double wp0 = detail::iir::fminbound(
          [&](double w) { return band_stop_obj_impl(w, 0, pb, sb, gpass, gstop, kind); }, pb[0], sb[0] - 1e-12, 1e-5,
          500, F);
      const double wp1 = detail::iir::fminbound(
          [&](double w) { return band_stop_obj_impl(w, 1, pb, sb, gpass, gstop, kind); }, sb[1] + 1e-12, pb[1], 1e-5,
          500, F);
      passb = {wp0, wp1};
      for (std::size_t i = 0; i < 2; ++i)
        nat.push_back((stopb[i] * (passb[0] - passb[1])) / (stopb[i] * stopb[i] - passb[0] * passb[1]));
      break;
    }
    default:
      for (std::size_t i = 0; i < 2; ++i)
        nat.push_back((stopb[i] * stopb[i] - passb[0] * passb[1]) / (stopb[i] * (passb[0] - passb[1])));
      break;
  }
  double m = std::abs(nat[0]);
  for (std::size_t i = 1; i < nat.size(); ++i) {
    const double v = std::abs(nat[i]);
    if (std::isnan(v) || std::isnan(m))
      m = std::numeric_limits<double>::quiet_NaN();
    else
      m = std::min(m, v);
  }
  return m;
}

std::vector<double> postprocess_wn(std::vector<double> WN, const iirord_options& o) {
  if (!o.analog)
    for (auto& w : WN) w = std::atan(w) * 2.0 / pi;
  if (o.fs)
    for (auto& w : WN) w = w * *o.fs / 2;
  return WN;
}

}  // namespace

band_stop_type parse_band_stop_type(std::string_view s) {
  if (s == "butter") return band_stop_type::butter;
  if (s == "cheby") return band_stop_type::cheby;
  if (s == "ellip") return band_stop_type::ellip;
  throw value_error("cusci::signal::parse_band_stop_type: Incorrect type: " + std::string(s));
}

double band_stop_obj(double wp, int ind, const std::vector<double>& passb, const std::vector<double>& stopb,
                     double gpass, double gstop, band_stop_type type) {
  CUSCI_NVTX_SCOPE("cusci::signal::band_stop_obj");
  const std::string F = "cusci::signal::band_stop_obj";
  validate_gpass_gstop(F, gpass, gstop);
  CUSCI_EXPECTS(passb.size() == 2 && stopb.size() == 2, value_error, F + ": passb and stopb must have two elements");
  CUSCI_EXPECTS(ind == 0 || ind == 1, value_error, F + ": ind must be 0 or 1, got " + std::to_string(ind));
  return band_stop_obj_impl(wp, ind, passb, stopb, gpass, gstop, type);
}

iir_order buttord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                  const iirord_options& o) {
  const std::string F = "cusci::signal::buttord";
  validate_gpass_gstop(F, gpass, gstop);
  spec s = validate_and_warp(F, wp, ws, o);
  const double nat = find_nat_freq(F, s, gpass, gstop, band_stop_type::butter);
  const double GSTOP = std::pow(10.0, 0.1 * std::abs(gstop)), GPASS = std::pow(10.0, 0.1 * std::abs(gpass));
  const double ratio = (GSTOP - 1.0) / (GPASS - 1.0);
  CUSCI_EXPECTS(ratio > 0 && nat > 0, value_error, F + ": math domain error");
  const double den = 2 * std::log10(nat);
  CUSCI_EXPECTS(den != 0, value_error, F + ": float division by zero");
  const int ord = to_order(F, std::log10(ratio) / den);
  double W0;
  if (ord == 0) {
    W0 = 1.0;
    warn("RuntimeWarning", F, "Order is zero...check input parameters.");
  } else {
    W0 = std::pow(GPASS - 1.0, -1.0 / (2.0 * ord));
  }
  std::vector<double> WN;
  const auto& passb = s.passb;
  switch (s.filter_type) {
    case 1: WN = {W0 * passb[0]}; break;
    case 2: WN = {passb[0] / W0}; break;
    case 3: {
      const double discr = std::sqrt((passb[1] - passb[0]) * (passb[1] - passb[0]) + 4 * W0 * W0 * passb[0] * passb[1]);
      const double WN0 = ((passb[1] - passb[0]) + discr) / (2 * W0);
      const double WN1 = ((passb[1] - passb[0]) - discr) / (2 * W0);
      WN = {std::abs(WN0), std::abs(WN1)};
      std::sort(WN.begin(), WN.end());
      break;
    }
    default: {
      for (double w0 : {-W0, W0})
        WN.push_back(std::abs(-w0 * (passb[1] - passb[0]) / 2.0 +
                              std::sqrt(w0 * w0 / 4.0 * (passb[1] - passb[0]) * (passb[1] - passb[0]) + passb[0] * passb[1])));
      std::sort(WN.begin(), WN.end());
      break;
    }
  }
  return {ord, postprocess_wn(WN, o)};
}
iir_order buttord(double wp, double ws, double gpass, double gstop, const iirord_options& o) {
  return buttord(std::vector<double>{wp}, std::vector<double>{ws}, gpass, gstop, o);
}

iir_order cheb1ord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& o) {
  const std::string F = "cusci::signal::cheb1ord";
  validate_gpass_gstop(F, gpass, gstop);
  spec s = validate_and_warp(F, wp, ws, o);
  const double nat = find_nat_freq(F, s, gpass, gstop, band_stop_type::cheby);
  const double GSTOP = std::pow(10.0, 0.1 * std::abs(gstop)), GPASS = std::pow(10.0, 0.1 * std::abs(gpass));
  const double v_pass_stop = std::acosh(std::sqrt((GSTOP - 1.0) / (GPASS - 1.0)));
  const int ord = to_order(F, v_pass_stop / std::acosh(nat));
  return {ord, postprocess_wn(s.passb, o)};
}
iir_order cheb1ord(double wp, double ws, double gpass, double gstop, const iirord_options& o) {
  return cheb1ord(std::vector<double>{wp}, std::vector<double>{ws}, gpass, gstop, o);
}

iir_order cheb2ord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& o) {
  const std::string F = "cusci::signal::cheb2ord";
  validate_gpass_gstop(F, gpass, gstop);
  spec s = validate_and_warp(F, wp, ws, o);
  const double nat0 = find_nat_freq(F, s, gpass, gstop, band_stop_type::cheby);
  const double GSTOP = std::pow(10.0, 0.1 * std::abs(gstop)), GPASS = std::pow(10.0, 0.1 * std::abs(gpass));
  const double v_pass_stop = std::acosh(std::sqrt((GSTOP - 1.0) / (GPASS - 1.0)));
  const int ord = to_order(F, v_pass_stop / std::acosh(nat0));
  CUSCI_EXPECTS(ord != 0, value_error, F + ": float division by zero");
  const double new_freq = 1.0 / std::cosh(1.0 / ord * v_pass_stop);
  const auto& passb = s.passb;
  std::vector<double> nat;
  switch (s.filter_type) {
    case 1: nat = {passb[0] / new_freq}; break;
    case 2: nat = {passb[0] * new_freq}; break;
    case 3: {
      const double n0 = new_freq / 2.0 * (passb[0] - passb[1]) +
                        std::sqrt(new_freq * new_freq * (passb[1] - passb[0]) * (passb[1] - passb[0]) / 4.0 +
                                  passb[1] * passb[0]);
      nat = {n0, passb[1] * passb[0] / n0};
      break;
    }
    default: {
      const double n0 = 1.0 / (2.0 * new_freq) * (passb[0] - passb[1]) +
                        std::sqrt((passb[1] - passb[0]) * (passb[1] - passb[0]) / (4.0 * new_freq * new_freq) +
                                  passb[1] * passb[0]);
      nat = {n0, passb[0] * passb[1] / n0};
      break;
    }
  }
  return {ord, postprocess_wn(nat, o)};
}
iir_order cheb2ord(double wp, double ws, double gpass, double gstop, const iirord_options& o) {
  return cheb2ord(std::vector<double>{wp}, std::vector<double>{ws}, gpass, gstop, o);
}

iir_order ellipord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& o) {
  const std::string F = "cusci::signal::ellipord";
  validate_gpass_gstop(F, gpass, gstop);
  spec s = validate_and_warp(F, wp, ws, o);
  const double nat = find_nat_freq(F, s, gpass, gstop, band_stop_type::ellip);
  const double arg1_sq = pow10m1(0.1 * gpass) / pow10m1(0.1 * gstop);
  const double arg0 = 1.0 / nat;
  const double d00 = detail::iir::ellipk(arg0 * arg0), d01 = detail::iir::ellipkm1(arg0 * arg0);
  const double d10 = detail::iir::ellipk(arg1_sq), d11 = detail::iir::ellipkm1(arg1_sq);
  const int ord = to_order(F, d00 * d11 / (d01 * d10));
  return {ord, postprocess_wn(s.passb, o)};
}
iir_order ellipord(double wp, double ws, double gpass, double gstop, const iirord_options& o) {
  return ellipord(std::vector<double>{wp}, std::vector<double>{ws}, gpass, gstop, o);
}

iir_filter iirdesign(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                     const iirdesign_options& o) {
  const std::string F = "cusci::signal::iirdesign";
  const bool bessel = o.ftype == iir_ftype::bessel_phase || o.ftype == iir_ftype::bessel_delay ||
                      o.ftype == iir_ftype::bessel_mag;
  if (bessel) {
    const char* name = o.ftype == iir_ftype::bessel_phase   ? "bessel"
                       : o.ftype == iir_ftype::bessel_delay ? "bessel_delay"
                                                            : "bessel_mag";
    throw value_error(F + ": " + name + " does not have order selection. Use iirfilter function.");
  }
  validate_gpass_gstop(F, gpass, gstop);
  CUSCI_EXPECTS(wp.size() == ws.size() && (wp.size() == 1 || wp.size() == 2), value_error,
                F + ": wp and ws must have one or two elements each, and the same shape, got (" +
                    std::to_string(wp.size()) + ",) and (" + std::to_string(ws.size()) + ",)");
  for (std::size_t i = 0; i < wp.size(); ++i)
    CUSCI_EXPECTS(!(wp[i] <= 0 || ws[i] <= 0), value_error, F + ": Values for wp, ws must be greater than 0");
  if (!o.analog) {
    if (!o.fs) {
      for (std::size_t i = 0; i < wp.size(); ++i)
        CUSCI_EXPECTS(!(wp[i] >= 1 || ws[i] >= 1), value_error, F + ": Values for wp, ws must be less than 1");
    } else {
      const double h = *o.fs / 2;
      for (std::size_t i = 0; i < wp.size(); ++i)
        CUSCI_EXPECTS(!(wp[i] >= h || ws[i] >= h), value_error,
                      F + ": Values for wp, ws must be less than fs/2 (fs=" + fmt(*o.fs) + " -> fs/2=" + fmt(h) + ")");
    }
  }
  if (wp.size() == 2)
    CUSCI_EXPECTS((ws[0] < wp[0] && wp[1] < ws[1]) || (wp[0] < ws[0] && ws[1] < wp[1]), value_error,
                  F + ": Passband must lie strictly inside stopband or vice versa");
  int band = 2 * (static_cast<int>(wp.size()) - 1) + 1;
  if (wp[0] >= ws[0]) band += 1;
  const band_type bt = band == 1   ? band_type::lowpass
                       : band == 2 ? band_type::highpass
                       : band == 3 ? band_type::bandstop
                                   : band_type::bandpass;
  const iirord_options oo{.analog = o.analog, .fs = o.fs};
  iir_order ord;
  switch (o.ftype) {
    case iir_ftype::butter: ord = buttord(wp, ws, gpass, gstop, oo); break;
    case iir_ftype::cheby1: ord = cheb1ord(wp, ws, gpass, gstop, oo); break;
    case iir_ftype::cheby2: ord = cheb2ord(wp, ws, gpass, gstop, oo); break;
    default: ord = ellipord(wp, ws, gpass, gstop, oo); break;
  }
  return detail::iir::iirfilter_impl(
      F, ord.N, ord.Wn,
      {.rp = gpass, .rs = gstop, .btype = bt, .analog = o.analog, .ftype = o.ftype, .output = o.output, .fs = o.fs});
}
iir_filter iirdesign(double wp, double ws, double gpass, double gstop, const iirdesign_options& o) {
  return iirdesign(std::vector<double>{wp}, std::vector<double>{ws}, gpass, gstop, o);
}

}  // namespace cusci::signal

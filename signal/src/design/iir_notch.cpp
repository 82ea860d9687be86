// Second-order notch / peak filters, comb filters and gammatone filters (host, double precision),
// following SciPy 1.18's scipy/signal/_filter_design.py (iirnotch, iirpeak, _design_notch_peak_filter,
// iircomb, gammatone; Orfanidis, "Introduction to Signal Processing", sections 11.3-11.5, and Slaney's
// "An Efficient Implementation of the Patterson-Holdsworth Auditory Filter Bank").

#include <algorithm>
#include <cctype>
#include <cfenv>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/warnings.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {
using detail::fmt;
using cplx = std::complex<double>;
constexpr double pi = 3.14159265358979323846;

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// Python's repr of a float for messages ("60.0", "0.1").
std::string pyfloat(double v) {
  std::string s = fmt(v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

ba_coeffs notch_peak(const char* fn, double w0, double Q, double fs, bool notch) {
  const std::string F = std::string("cusci::signal::") + fn;
  CUSCI_EXPECTS(fs != 0, value_error, F + ": float division by zero (fs == 0)");
  w0 = 2 * w0 / fs;
  CUSCI_EXPECTS(!(w0 > 1.0 || w0 < 0.0), value_error, F + ": w0 should be such that 0 < w0 < 1");
  CUSCI_EXPECTS(Q != 0, value_error, F + ": float division by zero (Q == 0)");
  double bw = w0 / Q;
  bw = bw * pi;
  w0 = w0 * pi;
  const double beta = std::tan(bw / 2.0);
  const double gain = 1.0 / (1.0 + beta);
  std::vector<double> b;
  if (notch)
    b = {gain * 1.0, gain * (-2.0 * std::cos(w0)), gain * 1.0};
  else
    b = {(1.0 - gain) * 1.0, (1.0 - gain) * 0.0, (1.0 - gain) * -1.0};
  const std::vector<double> a{1.0, -2.0 * gain * std::cos(w0), (2.0 * gain - 1.0)};
  return {host_array::from(b), host_array::from(a)};
}
}  // namespace

ba_coeffs iirnotch(double w0, double Q, double fs) { return notch_peak("iirnotch", w0, Q, fs, true); }
ba_coeffs iirpeak(double w0, double Q, double fs) { return notch_peak("iirpeak", w0, Q, fs, false); }

comb_type parse_comb_type(std::string_view s) {
  const std::string l = lower(s);
  if (l == "notch") return comb_type::notch;
  if (l == "peak") return comb_type::peak;
  throw value_error("cusci::signal::parse_comb_type: ftype must be either notch or peak.");
}

gammatone_type parse_gammatone_type(std::string_view s) {
  const std::string l = lower(s);
  if (l == "fir") return gammatone_type::fir;
  if (l == "iir") return gammatone_type::iir;
  throw value_error("cusci::signal::parse_gammatone_type: ftype must be either fir or iir.");
}

ba_coeffs iircomb(double w0, double Q, const iircomb_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::iircomb");
  const std::string F = "cusci::signal::iircomb";
  const double fs = o.fs;
  CUSCI_EXPECTS(0 < w0 && w0 < fs / 2, value_error,
                F + ": w0 must be between 0 and " + pyfloat(fs / 2) + " (Nyquist), but given " + pyfloat(w0) + ".");
  // Python's round(): half to even (the default rounding mode's nearbyint).
  const double Nd = std::nearbyint(fs / w0);
  CUSCI_EXPECTS(Nd >= 1 && Nd < 1e9, value_error, F + ": fs / w0 is out of range");
  const auto N = static_cast<std::int64_t>(Nd);
  CUSCI_EXPECTS(!(std::abs(w0 - fs / static_cast<double>(N)) / fs > 1e-14), value_error,
                F + ": fs must be divisible by w0.");
  CUSCI_EXPECTS(Q != 0, value_error, F + ": float division by zero (Q == 0)");
  const double w = (2 * pi * w0) / fs;
  const double w_delta = w / Q;
  const double G0 = o.ftype == comb_type::notch ? 1 : 0, G = o.ftype == comb_type::notch ? 0 : 1;
  const double beta = std::tan(static_cast<double>(N) * w_delta / 4);
  const double ax = (1 - beta) / (1 + beta);
  const double bx = (G0 + G * beta) / (1 + beta);
  const double cx = (G0 - G * beta) / (1 + beta);
  const bool negative = (o.ftype == comb_type::peak && o.pass_zero) || (o.ftype == comb_type::notch && !o.pass_zero);
  const double sgn = negative ? -1.0 : 1.0;
  std::vector<double> b(static_cast<std::size_t>(N) + 1, 0.0), a(static_cast<std::size_t>(N) + 1, 0.0);
  b[0] = bx;
  b[static_cast<std::size_t>(N)] = sgn * cx;
  a[0] = 1.0;
  a[static_cast<std::size_t>(N)] = sgn * ax;
  return {host_array::from(b), host_array::from(a)};
}

ba_coeffs gammatone(double freq, gammatone_type ftype, const gammatone_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::gammatone");
  const std::string F = "cusci::signal::gammatone";
  const double fs = o.fs.value_or(2.0);
  CUSCI_EXPECTS(0 < freq && freq < fs / 2, value_error,
                F + ": The frequency must be between 0 and " + pyfloat(fs / 2) + " (Nyquist), but given " +
                    pyfloat(freq) + ".");
  auto hz_to_erb = [](double hz) { return hz / 9.26449 + 24.7; };
  if (ftype == gammatone_type::fir) {
    const int order = o.order.value_or(4);
    const std::int64_t numtaps = o.numtaps.value_or(std::max<std::int64_t>(static_cast<std::int64_t>(fs * 0.015), 15));
    CUSCI_EXPECTS(0 < order && order <= 24, value_error, F + ": Invalid order: order must be > 0 and <= 24.");
    const double bw = 1.019 * hz_to_erb(freq);
    const double c_exp = -2 * pi * bw, c_cos = 2 * pi * freq;
    double scale = 2 * std::pow(2 * pi * bw, order);
    double fact = 1.0;
    for (int i = 2; i <= order - 1; ++i) fact *= i;
    scale /= fact;
    scale /= fs;
    std::vector<double> b(static_cast<std::size_t>(std::max<std::int64_t>(numtaps, 0)));
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double t = static_cast<double>(i) / fs;
      double v = std::pow(t, order - 1) * std::exp(c_exp * t);
      v = v * std::cos(c_cos * t);
      b[i] = v * scale;
    }
    return {host_array::from(b), host_array::from(std::vector<double>{1.0})};
  }
  if (o.order) warn("UserWarning", F, "order is not used for IIR gammatone filter.");
  if (o.numtaps) warn("UserWarning", F, "numtaps is not used for IIR gammatone filter.");
  const double T = 1. / fs;
  const double bw = 2 * pi * 1.019 * hz_to_erb(freq);
  const double fr = 2 * freq * pi * T;
  const double bwT = bw * T;
  const cplx g1 = -2.0 * std::exp(cplx(0.0, 2 * fr)) * T;
  const cplx g2 = 2.0 * std::exp(cplx(-bwT, fr)) * T;
  const double g3 = std::sqrt(3 + std::pow(2.0, 3.0 / 2)) * std::sin(fr);
  const double g4 = std::sqrt(3 - std::pow(2.0, 3.0 / 2)) * std::sin(fr);
  const cplx g5 = std::exp(cplx(0.0, 2 * fr));
  cplx g = g1 + g2 * (std::cos(fr) - g4);
  g *= (g1 + g2 * (std::cos(fr) + g4));
  g *= (g1 + g2 * (std::cos(fr) - g3));
  g *= (g1 + g2 * (std::cos(fr) + g3));
  const cplx d = -2 / std::exp(2 * bwT) - 2.0 * g5 + 2.0 * (1.0 + g5) / std::exp(bwT);
  g /= (d * d) * (d * d);
  const double gm = std::hypot(g.real(), g.imag());
  const double T4 = std::pow(T, 4);
  std::vector<double> b(5), a(9);
  b[0] = T4 / gm;
  b[1] = -4 * T4 * std::cos(fr) / std::exp(bw * T) / gm;
  b[2] = 6 * T4 * std::cos(2 * fr) / std::exp(2 * bw * T) / gm;
  b[3] = -4 * T4 * std::cos(3 * fr) / std::exp(3 * bw * T) / gm;
  b[4] = T4 * std::cos(4 * fr) / std::exp(4 * bw * T) / gm;
  a[0] = 1;
  a[1] = -8 * std::cos(fr) / std::exp(bw * T);
  a[2] = 4 * (4 + 3 * std::cos(2 * fr)) / std::exp(2 * bw * T);
  a[3] = -8 * (6 * std::cos(fr) + std::cos(3 * fr));
  a[3] /= std::exp(3 * bw * T);
  a[4] = 2 * (18 + 16 * std::cos(2 * fr) + std::cos(4 * fr));
  a[4] /= std::exp(4 * bw * T);
  a[5] = -8 * (6 * std::cos(fr) + std::cos(3 * fr));
  a[5] /= std::exp(5 * bw * T);
  a[6] = 4 * (4 + 3 * std::cos(2 * fr)) / std::exp(6 * bw * T);
  a[7] = -8 * std::cos(fr) / std::exp(7 * bw * T);
  a[8] = std::exp(-8 * bw * T);
  return {host_array::from(b), host_array::from(a)};
}

}  // namespace cusci::signal

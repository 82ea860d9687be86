// Host filter design (double precision), following SciPy 1.18's algorithms step by step:
// scipy/signal/_fir_filter_design.py (firwin, kaiser_beta, kaiser_atten), and
// scipy/signal/_filter_design.py (zpk2tf, zpk2sos, _cplxreal), scipy/signal/_signaltools.py
// (lfilter_zi, sosfilt_zi). The IIR designs (butter and the others) are in iirfilter.cpp.

#include "cusci/detail/shape.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/signal/filter_design.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>

#include "cusci/detail/numpy_sum.hpp"
#include "cusci/error.hpp"
#include "design/zpk_transforms.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

using cplx = std::complex<double>;
using namespace detail::zpk;
constexpr double pi = 3.14159265358979323846;
using detail::fmt;

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::vector<double> to_double_vector(const host_array& h, const char* fn, const char* param) {
  CUSCI_EXPECTS(!is_complex(h.dtype()), type_error,
                std::string(fn) + ": " + param + " must be real, got dtype " + std::string(dtype_name(h.dtype())));
  host_array d = h.astype(dtype::float64);
  return d.to_vector<double>();
}

std::vector<cplx> to_complex_vector(const host_array& h) {
  host_array d = h.astype(dtype::complex128);
  auto v = d.to_vector<std::complex<double>>();
  return std::vector<cplx>(v.begin(), v.end());
}

host_array from_real(const std::vector<double>& v) { return host_array::from(v); }
host_array from_complex(const std::vector<cplx>& v) { return host_array::from(v); }

double sinc(double x) {
  const double y = pi * (x == 0 ? 1.0e-20 : x);
  return std::sin(y) / y;
}

// ------------------------------------------------------------------------------------------------
// IIR design helpers (scipy/signal/_filter_design.py)

// numpy.poly: coefficients of prod (x - r), highest power first, by repeated convolution with
// [1, -r]; complex arithmetic, real part returned.
std::vector<double> poly(const std::vector<cplx>& roots) {
  std::vector<cplx> a{cplx(1.0, 0.0)};
  for (const auto& r : roots) {
    std::vector<cplx> n(a.size() + 1);
    n[0] = a[0];
    for (std::size_t i = 1; i < a.size(); ++i) n[i] = a[i] + a[i - 1] * (-r);
    n[a.size()] = a[a.size() - 1] * (-r);
    a.swap(n);
  }
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i].real();
  return out;
}

bool isreal(const cplx& c) { return c.imag() == 0.0; }

// scipy.signal._filter_design._cplxreal: (one of each conjugate pair, the real values).
std::pair<std::vector<cplx>, std::vector<cplx>> cplxreal(std::vector<cplx> z) {
  if (z.empty()) return {{}, {}};
  const double tol = 100 * std::numeric_limits<double>::epsilon();
  std::stable_sort(z.begin(), z.end(), [](const cplx& a, const cplx& b) {
    if (a.real() != b.real()) return a.real() < b.real();
    return std::abs(a.imag()) < std::abs(b.imag());
  });
  std::vector<cplx> zr, rest;
  for (const auto& v : z) {
    if (std::abs(v.imag()) <= tol * std::abs(v))
      zr.push_back(cplx(v.real(), 0.0));
    else
      rest.push_back(v);
  }
  if (rest.empty()) return {{}, zr};
  std::vector<cplx> zp, zn;
  for (const auto& v : rest) {
    if (v.imag() > 0) zp.push_back(v);
    if (v.imag() < 0) zn.push_back(v);
  }
  CUSCI_EXPECTS(zp.size() == zn.size(), value_error,
                "cusci::signal::zpk2sos: Array contains complex value with no matching conjugate.");
  // Runs of (approximately) equal real part, each sorted by |imag|.
  const std::size_t n = zp.size();
  std::size_t i = 0;
  while (i + 1 < n) {
    if (zp[i + 1].real() - zp[i].real() <= tol * std::abs(zp[i])) {
      std::size_t j = i + 1;
      while (j + 1 < n && zp[j + 1].real() - zp[j].real() <= tol * std::abs(zp[j])) ++j;
      auto by_imag = [](const cplx& a, const cplx& b) { return std::abs(a.imag()) < std::abs(b.imag()); };
      std::stable_sort(zp.begin() + static_cast<std::ptrdiff_t>(i), zp.begin() + static_cast<std::ptrdiff_t>(j + 1), by_imag);
      std::stable_sort(zn.begin() + static_cast<std::ptrdiff_t>(i), zn.begin() + static_cast<std::ptrdiff_t>(j + 1), by_imag);
      i = j + 1;
    } else {
      ++i;
    }
  }
  std::vector<cplx> zc(n);
  for (std::size_t k = 0; k < n; ++k) {
    CUSCI_EXPECTS(!(std::abs(zp[k] - std::conj(zn[k])) > tol * std::abs(zn[k])), value_error,
                  "cusci::signal::zpk2sos: Array contains complex value with no matching conjugate.");
    zc[k] = (zp[k] + std::conj(zn[k])) / 2.0;
  }
  return {zc, zr};
}

// Index of `fro` nearest to `to` among all / real / complex entries (argsort by distance).
std::size_t nearest_idx(const std::vector<cplx>& fro, const cplx& to, int which /*0 any, 1 real, 2 complex*/) {
  std::vector<std::size_t> order(fro.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::abs(fro[a] - to) < std::abs(fro[b] - to); });
  for (std::size_t i : order) {
    if (which == 0) return i;
    if ((which == 1) == isreal(fro[i])) return i;
  }
  // SciPy indexes an empty selection here (IndexError), e.g. for odd-order analog Chebyshev II / elliptic
  // band-pass designs converted to sos.
  throw index_error("cusci::signal::zpk2sos: no matching zero to pair with a pole");
}

std::array<double, 6> single_zpksos(const std::vector<cplx>& z, const std::vector<cplx>& p) {
  std::array<double, 6> s{0, 0, 0, 0, 0, 0};
  auto b = poly(z), a = poly(p);
  for (std::size_t i = 0; i < b.size(); ++i) s[3 - b.size() + i] = b[i];
  for (std::size_t i = 0; i < a.size(); ++i) s[6 - a.size() + i] = a[i];
  return s;
}

host_array zpk2sos_impl(std::vector<cplx> z, std::vector<cplx> p, double k, sos_pairing pairing, bool analog) {
  CUSCI_EXPECTS(!(analog && pairing != sos_pairing::minimal), value_error,
                "cusci::signal::zpk2sos: for analog zpk2sos conversion, pairing must be \"minimal\"");
  if (z.empty() && p.empty()) {
    std::vector<double> s = analog ? std::vector<double>{0., 0., k, 0., 0., 1.} : std::vector<double>{k, 0., 0., 1., 0., 0.};
    return host_array::from(s, shape_t{1, 6});
  }
  std::size_t n_sections;
  if (pairing != sos_pairing::minimal) {
    while (p.size() < z.size()) p.push_back(0.0);
    while (z.size() < p.size()) z.push_back(0.0);
    n_sections = (std::max(p.size(), z.size()) + 1) / 2;
    if (p.size() % 2 == 1 && pairing == sos_pairing::nearest) {
      p.push_back(0.0);
      z.push_back(0.0);
    }
  } else {
    CUSCI_EXPECTS(p.size() >= z.size(), value_error,
                  "cusci::signal::zpk2sos: for analog zpk2sos conversion, must have len(p)>=len(z)");
    n_sections = (p.size() + 1) / 2;
  }
  {
    auto [zc, zr] = cplxreal(z);
    z = zc;
    z.insert(z.end(), zr.begin(), zr.end());
    auto [pc, pr] = cplxreal(p);
    p = pc;
    p.insert(p.end(), pr.begin(), pr.end());
  }
  auto idx_worst = [&](const std::vector<cplx>& v, const std::vector<std::size_t>& idx) {
    std::size_t best = idx[0];
    double bv = std::numeric_limits<double>::infinity();
    bool first = true;
    for (std::size_t i : idx) {
      const double d = analog ? std::abs(v[i].real()) : std::abs(1 - std::abs(v[i]));
      if (first || d < bv) {
        bv = d;
        best = i;
        first = false;
      }
    }
    return best;
  };
  auto all_idx = [](const std::vector<cplx>& v) {
    std::vector<std::size_t> r(v.size());
    std::iota(r.begin(), r.end(), 0);
    return r;
  };
  auto count_real = [](const std::vector<cplx>& v) {
    return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](const cplx& c) { return isreal(c); }));
  };
  auto take = [](std::vector<cplx>& v, std::size_t i) {
    cplx r = v[i];
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
    return r;
  };
  std::vector<std::array<double, 6>> sos(n_sections);
  for (std::size_t si1 = n_sections; si1-- > 0;) {
    CUSCI_EXPECTS(!p.empty(), value_error, "cusci::signal::zpk2sos: ran out of poles while pairing");
    const cplx p1 = take(p, idx_worst(p, all_idx(p)));
    if (isreal(p1) && count_real(p) == 0) {
      if (pairing != sos_pairing::minimal) {
        const cplx z1 = take(z, nearest_idx(z, p1, 1));
        sos[si1] = single_zpksos({z1, 0.0}, {p1, 0.0});
      } else if (!z.empty()) {
        const cplx z1 = take(z, nearest_idx(z, p1, 1));
        sos[si1] = single_zpksos({z1}, {p1});
      } else {
        sos[si1] = single_zpksos({}, {p1});
      }
    } else if (p.size() + 1 == z.size() && !isreal(p1) && count_real(p) == 1 && count_real(z) == 1) {
      const cplx z1 = take(z, nearest_idx(z, p1, 2));
      sos[si1] = single_zpksos({z1, std::conj(z1)}, {p1, std::conj(p1)});
    } else {
      cplx p2;
      if (isreal(p1)) {
        std::vector<std::size_t> realidx;
        for (std::size_t i = 0; i < p.size(); ++i)
          if (isreal(p[i])) realidx.push_back(i);
        p2 = take(p, idx_worst(p, realidx));
      } else {
        p2 = std::conj(p1);
      }
      if (!z.empty()) {
        const cplx z1 = take(z, nearest_idx(z, p1, 0));
        if (!isreal(z1)) {
          sos[si1] = single_zpksos({z1, std::conj(z1)}, {p1, p2});
        } else if (!z.empty()) {
          const cplx z2 = take(z, nearest_idx(z, p1, 1));
          sos[si1] = single_zpksos({z1, z2}, {p1, p2});
        } else {
          sos[si1] = single_zpksos({z1}, {p1, p2});
        }
      } else {
        sos[si1] = single_zpksos({}, {p1, p2});
      }
    }
  }
  CUSCI_EXPECTS(p.empty() && z.empty(), value_error, "cusci::signal::zpk2sos: unpaired poles or zeros left");
  std::vector<double> flat;
  for (std::size_t s = 0; s < n_sections; ++s)
    for (int j = 0; j < 6; ++j) flat.push_back(sos[s][j] * ((s == 0 && j < 3) ? k : 1.0));
  return host_array::from(flat, shape_t{static_cast<std::int64_t>(n_sections), 6});
}

}  // namespace

// ------------------------------------------------------------------------------------------------

band_type parse_band_type(std::string_view s) {
  const std::string l = lower(s);
  if (l == "band" || l == "bandpass" || l == "pass" || l == "bp") return band_type::bandpass;
  if (l == "bs" || l == "bandstop" || l == "bands" || l == "stop") return band_type::bandstop;
  if (l == "l" || l == "low" || l == "lowpass" || l == "lp") return band_type::lowpass;
  if (l == "high" || l == "highpass" || l == "h" || l == "hp") return band_type::highpass;
  throw value_error("cusci::signal::parse_band_type: '" + std::string(s) + "' is an invalid bandtype for filter.");
}

output_form parse_output_form(std::string_view s) {
  const std::string l = lower(s);
  if (l == "ba") return output_form::ba;
  if (l == "zpk") return output_form::zpk;
  if (l == "sos") return output_form::sos;
  throw value_error("cusci::signal::parse_output_form: '" + std::string(s) + "' is not a valid output form.");
}

sos_pairing parse_sos_pairing(std::string_view s) {
  if (s == "nearest") return sos_pairing::nearest;
  if (s == "keep_odd") return sos_pairing::keep_odd;
  if (s == "minimal") return sos_pairing::minimal;
  throw value_error("cusci::signal::parse_sos_pairing: pairing must be one of ['nearest', 'keep_odd', 'minimal'], not " +
                    std::string(s));
}

double kaiser_beta(double a) {
  CUSCI_NVTX_SCOPE("cusci::signal::kaiser_beta");
  if (a > 50) return 0.1102 * (a - 8.7);
  if (a > 21) return 0.5842 * std::pow(a - 21, 0.4) + 0.07886 * (a - 21);
  return 0.0;
}

double kaiser_atten(std::int64_t numtaps, double width) {
  CUSCI_NVTX_SCOPE("cusci::signal::kaiser_atten");
  return 2.285 * static_cast<double>(numtaps - 1) * pi * width + 7.95;
}

host_array firwin(std::int64_t numtaps, double cutoff, const firwin_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::firwin");
  return firwin(numtaps, std::vector<double>{cutoff}, opts);
}

host_array firwin(std::int64_t numtaps, const std::vector<double>& cutoff_in, const firwin_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::firwin");
  const std::string F = "cusci::signal::firwin";
  const double fs = opts.fs.value_or(2.0);
  const double nyq = 0.5 * fs;
  std::vector<double> cutoff(cutoff_in.size());
  for (std::size_t i = 0; i < cutoff.size(); ++i) cutoff[i] = cutoff_in[i] / nyq;
  CUSCI_EXPECTS(!cutoff.empty(), value_error, F + ": At least one cutoff frequency must be given.");
  for (double c : cutoff)
    CUSCI_EXPECTS(c > 0 && c < 1, value_error,
                  F + ": Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.");
  for (std::size_t i = 1; i < cutoff.size(); ++i)
    CUSCI_EXPECTS(cutoff[i] - cutoff[i - 1] > 0, value_error,
                  F + ": Invalid cutoff frequencies: the frequencies must be strictly increasing.");
  window_spec window = opts.window;
  if (opts.width) {
    const double atten = kaiser_atten(numtaps, *opts.width / nyq);
    window = window_spec(kaiser_beta(atten));
  }
  bool pass_zero;
  const auto& pz = opts.pass_zero;
  std::string pzs = pz.text;
  if (!pz.is_bool && pz.band) {
    switch (*pz.band) {
      case band_type::lowpass: pzs = "lowpass"; break;
      case band_type::highpass: pzs = "highpass"; break;
      case band_type::bandpass: pzs = "bandpass"; break;
      case band_type::bandstop: pzs = "bandstop"; break;
    }
  }
  const std::string shape = "(" + std::to_string(cutoff.size()) + ",)";
  if (pz.is_bool) {
    pass_zero = pz.value;
  } else if (pzs == "bandstop" || pzs == "lowpass") {
    if (pzs == "lowpass")
      CUSCI_EXPECTS(cutoff.size() == 1, value_error,
                    F + ": cutoff must have one element if pass_zero==\"lowpass\", got " + shape);
    else
      CUSCI_EXPECTS(cutoff.size() > 1, value_error,
                    F + ": cutoff must have at least two elements if pass_zero==\"bandstop\", got " + shape);
    pass_zero = true;
  } else if (pzs == "bandpass" || pzs == "highpass") {
    if (pzs == "highpass")
      CUSCI_EXPECTS(cutoff.size() == 1, value_error,
                    F + ": cutoff must have one element if pass_zero==\"highpass\", got " + shape);
    else
      CUSCI_EXPECTS(cutoff.size() > 1, value_error,
                    F + ": cutoff must have at least two elements if pass_zero==\"bandpass\", got " + shape);
    pass_zero = false;
  } else {
    throw value_error(F + ": Parameter pass_zero='" + pzs +
                      "' not in (True, False, 'bandpass', 'lowpass', 'highpass', 'bandstop')");
  }
  const bool pass_nyquist = ((cutoff.size() % 2 == 0) == pass_zero);
  CUSCI_EXPECTS(!(pass_nyquist && numtaps % 2 == 0), value_error,
                F + ": A filter with an even number of coefficients must have zero response at the Nyquist frequency.");
  std::vector<double> edges;
  if (pass_zero) edges.push_back(0.0);
  edges.insert(edges.end(), cutoff.begin(), cutoff.end());
  if (pass_nyquist) edges.push_back(1.0);
  CUSCI_EXPECTS(numtaps > 0, value_error, F + ": Parameter Nx=" + std::to_string(numtaps) + " is not a positive integer");
  // SciPy's arange(numtaps) float64 taps: an absurd numtaps fails here (MemoryError) before any loop.
  (void)cusci::detail::checked_host_count(numtaps, sizeof(double), F, "numtaps");

  const double alpha = 0.5 * static_cast<double>(numtaps - 1);
  std::vector<double> m(static_cast<std::size_t>(numtaps)), h(static_cast<std::size_t>(numtaps), 0.0);
  for (std::int64_t i = 0; i < numtaps; ++i) m[i] = static_cast<double>(i) - alpha;
  for (std::size_t j = 0; j + 1 < edges.size(); j += 2) {
    const double left = edges[j], right = edges[j + 1];
    for (std::int64_t i = 0; i < numtaps; ++i) h[i] += right * sinc(right * m[i]);
    for (std::int64_t i = 0; i < numtaps; ++i) h[i] -= left * sinc(left * m[i]);
  }
  const auto win = detail::get_window_vec(window, numtaps, false, F.c_str());
  for (std::int64_t i = 0; i < numtaps; ++i) h[i] *= win[i];
  if (opts.scale) {
    const double left = edges[0], right = edges[1];
    const double sf = left == 0 ? 0.0 : (right == 1 ? 1.0 : 0.5 * (left + right));
    double s = 0;
    for (std::int64_t i = 0; i < numtaps; ++i) s += h[i] * std::cos(pi * m[i] * sf);
    for (auto& v : h) v /= s;
  }
  return from_real(h);
}

ba_coeffs zpk2tf(const array_like& z_arg, const array_like& p_arg, double k) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::zpk2tf");
  CUSCI_EXPECTS(z.ndim() <= 1 && p.ndim() <= 1, value_error, "cusci::signal::zpk2tf: z and p must be 1-D");
  // The general form (conversions.hpp) applies SciPy's rule for the result dtype: real when the roots
  // come in conjugate pairs, complex otherwise.
  return zpk2tf(z, p, host_array::from(std::vector<double>{k}));
}

host_array zpk2sos(const array_like& z_arg, const array_like& p_arg, double k, const zpk2sos_options& opts) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::zpk2sos");
  CUSCI_EXPECTS(z.ndim() <= 1 && p.ndim() <= 1, value_error, "cusci::signal::zpk2sos: z and p must be 1-D");
  const sos_pairing pairing = opts.pairing.value_or(opts.analog ? sos_pairing::minimal : sos_pairing::nearest);
  return zpk2sos_impl(to_complex_vector(z), to_complex_vector(p), k, pairing, opts.analog);
}

namespace {
// SciPy's closed form zi[k] = sum_{i > k} (b[i] - y_inf a[i]), y_inf = sum(b) / sum(a), with NumPy's
// pairwise sums for sum(a) and sum(b): for filters with poles near z = 1, sum(a) is tiny and its last
// bits decide zi's, so the order of summation must be NumPy's.
template <class V>
std::vector<V> lfilter_zi_vec(std::vector<V> b, std::vector<V> a, const char* fn) {
  const std::string F(fn);
  CUSCI_EXPECTS(!b.empty() && !a.empty(), value_error, F + ": b and a must be non-empty 1-D arrays");
  CUSCI_EXPECTS(a[0] != V(0), value_error, F + ": First coefficient of parameter `a` must be non-zero!");
  if (a[0] != V(1)) {
    const V a0 = a[0];
    for (auto& v : b) v /= a0;
    for (auto& v : a) v /= a0;
  }
  const V sum_a = cusci::detail::numpy_sum(a), sum_b = cusci::detail::numpy_sum(b);
  CUSCI_EXPECTS(sum_a != V(0), value_error, F + ": Filter not stable due to sum(a) == 0, i.e., having a pole at z = 1!");
  const V y_inf = sum_b / sum_a;
  const std::size_t n = std::max(a.size(), b.size());
  b.resize(n, V(0));
  a.resize(n, V(0));
  std::vector<V> zi(n - 1);
  V acc = V(0);
  for (std::size_t i = n; i-- > 1;) {
    acc += b[i] - y_inf * a[i];
    zi[i - 1] = acc;
  }
  return zi;
}
}  // namespace

host_array lfilter_zi(const array_like& b_arg, const array_like& a_arg) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::lfilter_zi");
  const char* F = "cusci::signal::lfilter_zi";
  CUSCI_EXPECTS(b.ndim() <= 1 && a.ndim() <= 1, value_error,
                std::string(F) + ": Numerator `b` and Denominator `a` must be 1-D arrays");
  const dtype rt = promote_types(b.dtype(), a.dtype());
  host_array r;
  if (is_complex(rt)) {
    r = from_complex(lfilter_zi_vec(to_complex_vector(b), to_complex_vector(a), F));
    if (rt == dtype::complex64) r = r.astype(dtype::complex64);
  } else {
    r = from_real(lfilter_zi_vec(to_double_vector(b, F, "b"), to_double_vector(a, F, "a"), F));
    if (rt == dtype::float32) r = r.astype(dtype::float32);
  }
  return r;
}

namespace {
template <class V>
std::vector<V> sosfilt_zi_vec(const std::vector<V>& s, std::int64_t ns, const char* F) {
  std::vector<V> zi(static_cast<std::size_t>(2 * ns));
  V scale = V(1);
  for (std::int64_t i = 0; i < ns; ++i) {
    std::vector<V> b(s.begin() + 6 * i, s.begin() + 6 * i + 3), a(s.begin() + 6 * i + 3, s.begin() + 6 * i + 6);
    auto z = lfilter_zi_vec(b, a, F);
    zi[static_cast<std::size_t>(2 * i)] = scale * z[0];
    zi[static_cast<std::size_t>(2 * i + 1)] = scale * z[1];
    scale *= (b[0] + b[1] + b[2]) / (a[0] + a[1] + a[2]);
  }
  return zi;
}
}  // namespace

host_array sosfilt_zi(const array_like& sos_arg) {
  const host_array sos = sos_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::sosfilt_zi");
  const char* F = "cusci::signal::sosfilt_zi";
  CUSCI_EXPECTS(sos.ndim() == 2 && sos.shape()[1] == 6, value_error, std::string(F) + ": sos must be shape (n_sections, 6)");
  const std::int64_t ns = sos.shape()[0];
  host_array r;
  if (is_complex(sos.dtype())) {
    r = host_array::from(sosfilt_zi_vec(to_complex_vector(sos), ns, F), shape_t{ns, 2});
    if (sos.dtype() == dtype::complex64) r = r.astype(dtype::complex64);
  } else {
    r = host_array::from(sosfilt_zi_vec(to_double_vector(sos, F, "sos"), ns, F), shape_t{ns, 2});
    if (sos.dtype() == dtype::float32) r = r.astype(dtype::float32);
  }
  return r;
}

}  // namespace cusci::signal

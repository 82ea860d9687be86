// Windows of scipy.signal.windows on the host (double precision): the closed-form windows and
// get_window with its names, aliases and parameter rules. Each window evaluates SciPy 1.18's formula
// in the same order of operations (scipy/signal/windows/_windows.py), so results agree to rounding.
// chebwin and dpss are in windows_spectral.cpp.

#include <limits>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/windows.hpp"
#include "windows/window_impl.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal::windows {

using vec = std::vector<double>;
using i64 = std::int64_t;

namespace impl {

bool len_guard(i64 M, const std::string& F) {
  CUSCI_EXPECTS(M >= 0, value_error,
                F + ": Window length M must be a non-negative integer, got M=" + std::to_string(M));
  // SciPy's float64 arrays of M (+ 1 for a periodic window) points: an absurd M fails here
  // (MemoryError) before anything is allocated or filled.
  (void)cusci::detail::checked_host_count(M < std::numeric_limits<i64>::max() ? M + 1 : M, sizeof(double), F,
                                          "window length M");
  return M <= 1;
}

}  // namespace impl

namespace {

constexpr double pi = 3.14159265358979323846;
using impl::len_guard;

// A window of M > 1 points is written by a fill function fill(w, M, Me): w[0..M) are the first M points
// of the symmetric window of Me points, Me = M (sym) or M + 1 (sym false: SciPy's _extend and
// _truncate, without computing the dropped point). as_array / as_vec check M (_len_guards), give
// ones(M) for M <= 1, and otherwise let the fill function write straight into the result.
template <class Fill>
host_array as_array(i64 M, bool sym, const std::string& F, Fill&& fill) {
  const bool small = len_guard(M, F);
  host_array a(dtype::float64, shape_t{M});
  double* w = a.data_as<double>();
  if (small)
    std::fill(w, w + M, 1.0);
  else
    fill(w, M, sym ? M : M + 1);
  return a;
}
template <class Fill>
vec as_vec(i64 M, bool sym, const std::string& F, Fill&& fill) {
  const bool small = len_guard(M, F);
  vec w(static_cast<std::size_t>(M), 1.0);
  if (!small) fill(w.data(), M, sym ? M : M + 1);
  return w;
}

// exp(x), 0 below -746 where exp underflows to 0 anyway (glibc's underflow path is slow).
double exp_(double x) { return x < -746.0 ? 0.0 : std::exp(x); }

// numpy.sinc(x) = sin(pi x) / (pi x) (1 at 0).
double sinc(double x) {
  const double y = pi * (x == 0.0 ? 1.0e-20 : x);
  return std::sin(y) / y;
}

// sum_k a[k] cos(k x) on x = numpy.linspace(-pi, pi, Me), accumulated in SciPy's order (k = 0 first;
// cos(0 x) is exactly 1).
void general_cosine_fill(double* w, i64 M, i64 Me, const vec& a) {
  const double step = (pi - -pi) / static_cast<double>(Me - 1);
  for (i64 i = 0; i < M; ++i) {
    const double fac = i == Me - 1 ? pi : static_cast<double>(i) * step + -pi;
    double s = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) s += k == 0 ? a[0] : a[k] * std::cos(static_cast<double>(k) * fac);
    w[i] = s;
  }
}
auto cosine_sum(const vec& a) {
  return [&a](double* w, i64 M, i64 Me) { general_cosine_fill(w, M, Me, a); };
}
const vec& hamming_coefs() { static const vec a{0.54, 1.0 - 0.54}; return a; }
const vec& hann_coefs() { static const vec a{0.5, 1.0 - 0.5}; return a; }
const vec& blackman_coefs() { static const vec a{0.42, 0.50, 0.08}; return a; }
const vec& blackmanharris_coefs() { static const vec a{0.35875, 0.48829, 0.14128, 0.01168}; return a; }
const vec& nuttall_coefs() { static const vec a{0.3635819, 0.4891775, 0.1365995, 0.0106411}; return a; }
const vec& flattop_coefs() {
  static const vec a{0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368};
  return a;
}

void boxcar_fill(double* w, i64 M, i64) { std::fill(w, w + M, 1.0); }

void triang_fill(double* w, i64 M, i64 Me) {
  const i64 h = (Me + 1) / 2;
  const double m = static_cast<double>(Me);
  for (i64 i = 0; i < M; ++i) {
    const double n = static_cast<double>((i < h ? i : Me - 1 - i) + 1);
    w[i] = Me % 2 == 0 ? (2 * n - 1.0) / m : 2 * n / (m + 1.0);
  }
}

void parzen_fill(double* w, i64 M, i64 Me) {
  const double m = static_cast<double>(Me);
  const double start = -(m - 1) / 2.0;
  for (i64 i = 0; i < M; ++i) {
    const double an = std::abs(start + static_cast<double>(i));  // numpy.arange(start, stop, 1.0)
    const double r = an / (m / 2.0);
    w[i] = an <= (m - 1) / 4.0 ? 1 - 6 * (r * r) + 6 * std::pow(r, 3.0) : 2 * std::pow(1 - r, 3.0);
  }
}

void bohman_fill(double* w, i64 M, i64 Me) {
  const double step = 2.0 / static_cast<double>(Me - 1);  // numpy.linspace(-1, 1, Me)
  for (i64 i = 0; i < M; ++i) {
    if (i == 0 || i == Me - 1) {
      w[i] = 0.0;
      continue;
    }
    const double fac = std::abs(static_cast<double>(i) * step + -1.0);
    w[i] = (1 - fac) * std::cos(pi * fac) + 1.0 / pi * std::sin(pi * fac);
  }
}

void bartlett_fill(double* w, i64 M, i64 Me) {
  const double d = static_cast<double>(Me - 1);
  for (i64 i = 0; i < M; ++i) {
    const double n = static_cast<double>(i);
    w[i] = n <= d / 2.0 ? 2.0 * n / d : 2.0 - 2.0 * n / d;
  }
}

auto tukey_fill(double alpha, const std::string& F) {
  return [alpha, &F](double* w, i64 M, i64 Me) {
    if (alpha <= 0) return boxcar_fill(w, M, Me);
    if (alpha >= 1.0) return general_cosine_fill(w, M, Me, hann_coefs());
    CUSCI_EXPECTS(!std::isnan(alpha), value_error, F + ": alpha must not be NaN (cannot convert float NaN to integer)");
    const double d = static_cast<double>(Me - 1);
    const i64 width = static_cast<i64>(std::floor(alpha * d / 2.0));
    for (i64 i = 0; i < M; ++i) {
      const double n = static_cast<double>(i);
      if (i <= width)
        w[i] = 0.5 * (1 + std::cos(pi * (-1 + 2.0 * n / alpha / d)));
      else if (i < Me - width - 1)
        w[i] = 1.0;
      else
        w[i] = 0.5 * (1 + std::cos(pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / d)));
    }
  };
}

void barthann_fill(double* w, i64 M, i64 Me) {
  for (i64 i = 0; i < M; ++i) {
    const double fac = std::abs(static_cast<double>(i) / (static_cast<double>(Me) - 1.0) - 0.5);
    w[i] = 0.62 - 0.48 * fac + 0.38 * std::cos(2 * pi * fac);
  }
}

// The modified Bessel function I0 (Cephes' i0, as scipy.special.i0: Chebyshev expansions of
// exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on (8, inf)).
double chbevl(double x, const double* c, int n) {
  double b0 = c[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5 * (b0 - b2);
}

double bessel_i0(double x) {
  static const double A[] = {
      -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
      1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
      -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
      9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
      -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
      1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
      -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
      1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
      -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
      1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
  static const double B[] = {
      -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
      3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
      1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
      -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
      7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
      -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
      3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
      2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
      8.04490411014108831608E-1};
  x = std::abs(x);
  if (x <= 8.0) return std::exp(x) * chbevl(x / 2.0 - 2.0, A, 30);
  return std::exp(x) * chbevl(32.0 / x - 2.0, B, 25) / std::sqrt(x);
}

// Points i and Me - 1 - i get the same value (i - alpha and alpha - i are exact, so SciPy's two
// values are bitwise equal too): the left half is computed and mirrored.
auto kaiser_fill(double beta) {
  return [beta](double* w, i64 M, i64 Me) {
    const double alpha = (static_cast<double>(Me) - 1) / 2.0;
    const double den = bessel_i0(beta);
    for (i64 i = 0; i < (Me + 1) / 2; ++i) {
      const double r = (static_cast<double>(i) - alpha) / alpha;
      w[i] = bessel_i0(beta * std::sqrt(1 - r * r)) / den;
      if (Me - 1 - i < M) w[Me - 1 - i] = w[i];
    }
  };
}

vec kaiser_bessel_derived_v(i64 M, double beta, bool sym, const std::string& F) {
  CUSCI_EXPECTS(sym, value_error, F + ": Kaiser-Bessel Derived windows are only defined for symmetric shapes");
  if (M < 1) return {};
  CUSCI_EXPECTS(M % 2 == 0, value_error,
                F + ": Kaiser-Bessel Derived windows are only defined for even number of points, got M=" +
                    std::to_string(M));
  const i64 h = M / 2;
  vec csum(static_cast<std::size_t>(h + 1));
  kaiser_fill(beta)(csum.data(), h + 1, h + 1);
  for (i64 i = 1; i <= h; ++i) csum[i] += csum[i - 1];
  vec w(static_cast<std::size_t>(M));
  for (i64 i = 0; i < h; ++i) {
    w[i] = std::sqrt(csum[i] / csum[h]);
    w[M - 1 - i] = w[i];
  }
  return w;
}

auto gaussian_fill(double std_) {
  return [std_](double* w, i64 M, i64 Me) {
    const double sig2 = 2 * std_ * std_;
    for (i64 i = 0; i < M; ++i) {
      const double n = static_cast<double>(i) - (static_cast<double>(Me) - 1.0) / 2.0;
      w[i] = exp_(-(n * n) / sig2);
    }
  };
}

auto general_gaussian_fill(double p, double sig) {
  return [p, sig](double* w, i64 M, i64 Me) {
    for (i64 i = 0; i < M; ++i) {
      const double n = static_cast<double>(i) - (static_cast<double>(Me) - 1.0) / 2.0;
      w[i] = exp_(-0.5 * std::pow(std::abs(n / sig), 2 * p));
    }
  };
}

void cosine_fill(double* w, i64 M, i64 Me) {
  for (i64 i = 0; i < M; ++i) w[i] = std::sin(pi / static_cast<double>(Me) * (static_cast<double>(i) + .5));
}

auto exponential_fill(std::optional<double> center, double tau) {
  return [center, tau](double* w, i64 M, i64 Me) {
    const double c = center ? *center : static_cast<double>(Me - 1) / 2;
    for (i64 i = 0; i < M; ++i) w[i] = exp_(-std::abs(static_cast<double>(i) - c) / tau);
  };
}
void exponential_check(std::optional<double> center, bool sym, const std::string& F) {
  CUSCI_EXPECTS(!(sym && center), value_error, F + ": If sym==True, center must be None.");
}

auto taylor_fill(i64 nbar, double sll, bool norm, const std::string& F) {
  return [=, &F](double* w, i64 M, i64 Me) {
    CUSCI_EXPECTS(nbar >= 1, value_error,
                  F + ": nbar must be at least 1 (negative dimensions are not allowed), got nbar=" +
                      std::to_string(nbar));
    const double m = static_cast<double>(Me);
    const double B = std::pow(10.0, sll / 20);
    const double A = std::acosh(B) / pi;
    const double nb = static_cast<double>(nbar);
    const double s2 = nb * nb / (A * A + (nb - 0.5) * (nb - 0.5));
    const i64 K = nbar - 1;
    vec ma(static_cast<std::size_t>(K)), Fm(static_cast<std::size_t>(K));
    for (i64 i = 0; i < K; ++i) ma[i] = static_cast<double>(i + 1);
    for (i64 mi = 0; mi < K; ++mi) {
      const double m2 = ma[mi] * ma[mi];
      double p = 1.0;
      for (i64 j = 0; j < K; ++j) p *= 1 - m2 / s2 / (A * A + (ma[j] - 0.5) * (ma[j] - 0.5));
      const double numer = ((mi % 2 == 0) ? 1.0 : -1.0) * p;
      double d1 = 1.0, d2 = 1.0;
      for (i64 j = 0; j < mi; ++j) d1 *= 1 - m2 / (ma[j] * ma[j]);
      for (i64 j = mi + 1; j < K; ++j) d2 *= 1 - m2 / (ma[j] * ma[j]);
      Fm[mi] = numer / (2 * d1 * d2);
    }
    auto W = [&](double n) {
      double s = 0.0;
      for (i64 j = 0; j < K; ++j) s += Fm[j] * std::cos(2 * pi * ma[j] * (n - m / 2.0 + 0.5) / m);
      return 1 + 2 * s;
    };
    // W is even about the centre and n - Me/2 + 0.5 is exact, so points i and Me - 1 - i are equal.
    for (i64 i = 0; i < (Me + 1) / 2; ++i) {
      w[i] = W(static_cast<double>(i));
      if (Me - 1 - i < M) w[Me - 1 - i] = w[i];
    }
    if (norm) {
      const double scale = 1.0 / W((m - 1) / 2);
      for (i64 i = 0; i < M; ++i) w[i] *= scale;
    }
  };
}

// sinc(2 k / (Me - 1) - 1) on the right half (k >= ceil(Me / 2)), mirrored; 1 in the middle for odd Me.
void lanczos_fill(double* w, i64 M, i64 Me) {
  const double d = static_cast<double>(Me - 1);
  for (i64 k = (Me + 1) / 2; k < Me; ++k) {
    const double v = sinc(2.0 * static_cast<double>(k) / d - 1.0);
    if (k < M) w[k] = v;
    w[Me - 1 - k] = v;
  }
  if (Me % 2 == 1) w[Me / 2] = 1.0;
}

std::string win_fn(const char* name) { return std::string("cusci::signal::windows::") + name; }

}  // namespace

host_array barthann(i64 M, bool sym) { return as_array(M, sym, win_fn("barthann"), barthann_fill); }
host_array bartlett(i64 M, bool sym) { return as_array(M, sym, win_fn("bartlett"), bartlett_fill); }
host_array blackman(i64 M, bool sym) { return as_array(M, sym, win_fn("blackman"), cosine_sum(blackman_coefs())); }
host_array blackmanharris(i64 M, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::blackmanharris");
  return as_array(M, sym, win_fn("blackmanharris"), cosine_sum(blackmanharris_coefs()));
}
host_array bohman(i64 M, bool sym) { return as_array(M, sym, win_fn("bohman"), bohman_fill); }
host_array boxcar(i64 M, bool sym) { return as_array(M, sym, win_fn("boxcar"), boxcar_fill); }
host_array cosine(i64 M, bool sym) { return as_array(M, sym, win_fn("cosine"), cosine_fill); }
host_array exponential(i64 M, std::optional<double> center, double tau, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::exponential");
  const std::string F = win_fn("exponential");
  exponential_check(center, sym, F);
  return as_array(M, sym, F, exponential_fill(center, tau));
}
host_array flattop(i64 M, bool sym) { return as_array(M, sym, win_fn("flattop"), cosine_sum(flattop_coefs())); }
host_array gaussian(i64 M, double std_, bool sym) { return as_array(M, sym, win_fn("gaussian"), gaussian_fill(std_)); }
host_array general_cosine(i64 M, const std::vector<double>& a, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::general_cosine");
  return as_array(M, sym, win_fn("general_cosine"), cosine_sum(a));
}
host_array general_gaussian(i64 M, double p, double sig, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::general_gaussian");
  return as_array(M, sym, win_fn("general_gaussian"), general_gaussian_fill(p, sig));
}
host_array general_hamming(i64 M, double alpha, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::general_hamming");
  const vec a{alpha, 1.0 - alpha};
  return as_array(M, sym, win_fn("general_hamming"), cosine_sum(a));
}
host_array hamming(i64 M, bool sym) { return as_array(M, sym, win_fn("hamming"), cosine_sum(hamming_coefs())); }
host_array hann(i64 M, bool sym) { return as_array(M, sym, win_fn("hann"), cosine_sum(hann_coefs())); }
host_array kaiser(i64 M, double beta, bool sym) { return as_array(M, sym, win_fn("kaiser"), kaiser_fill(beta)); }
host_array kaiser_bessel_derived(i64 M, double beta, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::kaiser_bessel_derived");
  return host_array::from(kaiser_bessel_derived_v(M, beta, sym, win_fn("kaiser_bessel_derived")));
}
host_array lanczos(i64 M, bool sym) { return as_array(M, sym, win_fn("lanczos"), lanczos_fill); }
host_array nuttall(i64 M, bool sym) { return as_array(M, sym, win_fn("nuttall"), cosine_sum(nuttall_coefs())); }
host_array parzen(i64 M, bool sym) { return as_array(M, sym, win_fn("parzen"), parzen_fill); }
host_array taylor(i64 M, i64 nbar, double sll, bool norm, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::taylor");
  const std::string F = win_fn("taylor");
  return as_array(M, sym, F, taylor_fill(nbar, sll, norm, F));
}
host_array triang(i64 M, bool sym) { return as_array(M, sym, win_fn("triang"), triang_fill); }
host_array tukey(i64 M, double alpha, bool sym) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::tukey");
  const std::string F = win_fn("tukey");
  return as_array(M, sym, F, tukey_fill(alpha, F));
}
host_array chebwin(i64 M, double at, bool sym) { return host_array::from(impl::chebwin(M, at, sym, win_fn("chebwin"))); }

dpss_norm parse_dpss_norm(std::string_view s) {
  if (s == "2") return dpss_norm::two;
  if (s == "approximate") return dpss_norm::approximate;
  if (s == "subsample") return dpss_norm::subsample;
  if (s == "None" || s.empty()) return dpss_norm::none;
  throw value_error("cusci::signal::windows::parse_dpss_norm: norm must be one of (2, 'approximate', 'subsample'), "
                    "got " + std::string(s));
}

dpss_result dpss(i64 M, double NW, const dpss_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::windows::dpss");
  auto v = impl::dpss(M, NW, o.Kmax, o.sym, o.norm, o.return_ratios, win_fn("dpss"));
  dpss_result r;
  if (o.Kmax && M > 1)
    r.windows = host_array::from(v.windows, shape_t{v.rows, v.cols});
  else
    r.windows = host_array::from(v.windows);
  if (o.return_ratios) {
    if (o.Kmax)
      r.ratios = host_array::from(v.ratios);
    else
      r.ratios = host_array::from(v.ratios, shape_t{});
  }
  return r;
}

// ---- get_window --------------------------------------------------------------------------------------

namespace {

enum class win_id {
  barthann, bartlett, blackman, blackmanharris, bohman, boxcar, chebwin, cosine, dpss, exponential, flattop,
  gaussian, general_cosine, general_gaussian, general_hamming, hamming, hann, kaiser, kaiser_bessel_derived,
  lanczos, nuttall, parzen, taylor, triang, tukey
};
enum class takes { none, required, optional };

struct win_entry {
  win_id id;
  takes args;
  std::vector<const char*> names;
};

// SciPy's _WIN_FUNC_DATA: the names (canonical first), whether parameters are allowed / required.
const std::vector<win_entry>& window_table() {
  static const std::vector<win_entry> t = {
      {win_id::barthann, takes::none, {"barthann", "brthan", "bth"}},
      {win_id::bartlett, takes::none, {"bartlett", "bart", "brt"}},
      {win_id::blackman, takes::none, {"blackman", "black", "blk"}},
      {win_id::blackmanharris, takes::none, {"blackmanharris", "blackharr", "bkh"}},
      {win_id::bohman, takes::none, {"bohman", "bman", "bmn"}},
      {win_id::boxcar, takes::none, {"boxcar", "box", "ones", "rect", "rectangular"}},
      {win_id::chebwin, takes::required, {"chebwin", "cheb"}},
      {win_id::cosine, takes::none, {"cosine", "halfcosine"}},
      {win_id::dpss, takes::required, {"dpss"}},
      {win_id::exponential, takes::optional, {"exponential", "poisson"}},
      {win_id::flattop, takes::none, {"flattop", "flat", "flt"}},
      {win_id::gaussian, takes::required, {"gaussian", "gauss", "gss"}},
      {win_id::general_cosine, takes::required, {"general_cosine", "general cosine"}},
      {win_id::general_gaussian, takes::required,
       {"general_gaussian", "general gaussian", "general gauss", "general_gauss", "ggs"}},
      {win_id::general_hamming, takes::required, {"general_hamming", "general hamming"}},
      {win_id::hamming, takes::none, {"hamming", "hamm", "ham"}},
      {win_id::hann, takes::none, {"hann", "han"}},
      {win_id::kaiser, takes::required, {"kaiser", "ksr"}},
      {win_id::kaiser_bessel_derived, takes::required, {"kaiser_bessel_derived", "kaiser bessel derived", "kbd"}},
      {win_id::lanczos, takes::none, {"lanczos", "sinc"}},
      {win_id::nuttall, takes::none, {"nuttall", "nutl", "nut"}},
      {win_id::parzen, takes::none, {"parzen", "parz", "par"}},
      {win_id::taylor, takes::optional, {"taylor", "taylorwin"}},
      {win_id::triang, takes::none, {"triang", "triangle", "tri"}},
      {win_id::tukey, takes::optional, {"tukey", "tuk"}},
  };
  return t;
}

// Python's repr of a float (shortest round trip, ".0" for integral values).
std::string py_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string param_repr(const window_param& p) {
  switch (p.type) {
    case window_param::kind::number:
      return p.integer ? std::to_string(static_cast<long long>(p.value)) : py_float(p.value);
    case window_param::kind::boolean: return p.value != 0 ? "True" : "False";
    case window_param::kind::none: return "None";
    case window_param::kind::array: {
      std::string s = "[";
      for (std::size_t i = 0; i < p.values.size(); ++i) s += (i ? ", " : "") + py_float(p.values[i]);
      return s + "]";
    }
  }
  return "";
}

// The window argument as SciPy prints it: 'name', ('name', p1, ...) or a bare number.
std::string window_repr(const window_spec& w) {
  if (w.bare_beta && w.args.size() == 1) return param_repr(w.args[0]);
  if (w.args.empty()) return "'" + w.name + "'";
  std::string s = "('" + w.name + "'";
  for (const auto& a : w.args) s += ", " + param_repr(a);
  return s + ")";
}

// Positional parameter i of the window as a number (a boolean counts as 0 / 1, as in Python).
double num_arg(const window_spec& w, std::size_t i, const std::string& F, const char* what) {
  const auto& p = w.args[i];
  CUSCI_EXPECTS(p.type == window_param::kind::number || p.type == window_param::kind::boolean, type_error,
                F + ": parameter " + what + " of window=" + window_repr(w) + " must be a number, got " +
                    param_repr(p));
  return p.value;
}

i64 int_arg(const window_spec& w, std::size_t i, const std::string& F, const char* what) {
  const double v = num_arg(w, i, F, what);
  CUSCI_EXPECTS(w.args[i].integer || w.args[i].type == window_param::kind::boolean, type_error,
                F + ": parameter " + what + " of window=" + window_repr(w) + " must be an integer, got " +
                    param_repr(w.args[i]));
  return static_cast<i64>(v);
}

}  // namespace

}  // namespace cusci::signal::windows

namespace cusci::signal {

namespace detail {

std::vector<double> get_window_vec(const window_spec& window, std::int64_t Nx, bool fftbins, const char* fn,
                                   bool general_cosine_ok) {
  namespace W = cusci::signal::windows;
  using W::win_id;
  const std::string F(fn);
  CUSCI_EXPECTS(Nx > 0, value_error, F + ": Parameter Nx=" + std::to_string(Nx) + " is not a positive integer");
  bool sym = !fftbins;
  std::string name = window.name;
  auto ends_with = [&](const std::string& suf) {
    return name.size() >= suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0;
  };
  if (ends_with("_symmetric")) {
    sym = true;
    name.resize(name.size() - 10);
  } else if (ends_with("_periodic")) {
    sym = false;
    name.resize(name.size() - 9);
  }
  const W::win_entry* found = nullptr;
  for (const auto& e : W::window_table())
    for (const char* a : e.names)
      if (name == a) found = &e;
  const std::string rep = W::window_repr(window);
  CUSCI_EXPECTS(found, value_error, F + ": Invalid window name '" + name + "' in parameter window=" + rep + "!");
  const std::size_t nargs = window.args.size();
  CUSCI_EXPECTS(!(nargs > 0 && found->args == W::takes::none), value_error,
                F + ": '" + name + "' does not allow parameters, but window=" + rep + "!");
  CUSCI_EXPECTS(!(nargs == 0 && found->args == W::takes::required), value_error,
                F + ": '" + name + "' must have parameters, but window=" + rep + "!");
  const std::string canon = found->names[0];
  // Python's TypeError for a call with more positional parameters than the function has.
  auto at_most = [&](std::size_t n) {
    CUSCI_EXPECTS(nargs <= n, type_error,
                  F + ": " + canon + "() takes at most " + std::to_string(n) + " parameter(s) after the length, got window=" +
                      rep);
  };
  const std::int64_t M = Nx;
  switch (found->id) {
    case win_id::barthann: return W::as_vec(M, sym, F, W::barthann_fill);
    case win_id::bartlett: return W::as_vec(M, sym, F, W::bartlett_fill);
    case win_id::blackman: return W::as_vec(M, sym, F, W::cosine_sum(W::blackman_coefs()));
    case win_id::blackmanharris: return W::as_vec(M, sym, F, W::cosine_sum(W::blackmanharris_coefs()));
    case win_id::bohman: return W::as_vec(M, sym, F, W::bohman_fill);
    case win_id::boxcar: return W::as_vec(M, sym, F, W::boxcar_fill);
    case win_id::cosine: return W::as_vec(M, sym, F, W::cosine_fill);
    case win_id::flattop: return W::as_vec(M, sym, F, W::cosine_sum(W::flattop_coefs()));
    case win_id::hamming: return W::as_vec(M, sym, F, W::cosine_sum(W::hamming_coefs()));
    case win_id::hann: return W::as_vec(M, sym, F, W::cosine_sum(W::hann_coefs()));
    case win_id::lanczos: return W::as_vec(M, sym, F, W::lanczos_fill);
    case win_id::nuttall: return W::as_vec(M, sym, F, W::cosine_sum(W::nuttall_coefs()));
    case win_id::parzen: return W::as_vec(M, sym, F, W::parzen_fill);
    case win_id::triang: return W::as_vec(M, sym, F, W::triang_fill);
    case win_id::dpss: {
      CUSCI_EXPECTS(nargs == 1, value_error, F + ": Window " + name + " must have one parameter but window=" + rep);
      const double NW = W::num_arg(window, 0, F, "NW");
      return W::impl::dpss(M, NW, std::nullopt, sym, W::dpss_norm::none, false, F).windows;
    }
    case win_id::general_cosine: {
      CUSCI_EXPECTS(general_cosine_ok, value_error,
                    F + ": 'general_cosine' does not accept the parameters xp and device not being None!");
      at_most(1);
      const auto& p = window.args[0];
      CUSCI_EXPECTS(p.type == window_param::kind::array, index_error,
                    F + ": the parameter of general_cosine must be an array of coefficients, got window=" + rep);
      return W::as_vec(M, sym, F, W::cosine_sum(p.values));
    }
    case win_id::chebwin: {
      at_most(1);
      return W::impl::chebwin(M, W::num_arg(window, 0, F, "at"), sym, F);
    }
    case win_id::exponential: {
      at_most(2);
      std::optional<double> center;
      if (nargs >= 1 && window.args[0].type != window_param::kind::none) center = W::num_arg(window, 0, F, "center");
      const double tau = nargs >= 2 ? W::num_arg(window, 1, F, "tau") : 1.0;
      W::exponential_check(center, sym, F);
      return W::as_vec(M, sym, F, W::exponential_fill(center, tau));
    }
    case win_id::gaussian: at_most(1); return W::as_vec(M, sym, F, W::gaussian_fill(W::num_arg(window, 0, F, "std")));
    case win_id::general_gaussian: {
      at_most(2);
      CUSCI_EXPECTS(nargs == 2, type_error,
                    F + ": general_gaussian() missing 1 required positional argument: 'sig' (window=" + rep + ")");
      return W::as_vec(M, sym, F, W::general_gaussian_fill(W::num_arg(window, 0, F, "p"), W::num_arg(window, 1, F, "sig")));
    }
    case win_id::general_hamming:
      at_most(1);
    {
      const double alpha = W::num_arg(window, 0, F, "alpha");
      const std::vector<double> a{alpha, 1.0 - alpha};
      return W::as_vec(M, sym, F, W::cosine_sum(a));
    }
    case win_id::kaiser: at_most(1); return W::as_vec(M, sym, F, W::kaiser_fill(W::num_arg(window, 0, F, "beta")));
    case win_id::kaiser_bessel_derived:
      at_most(1);
      return W::kaiser_bessel_derived_v(M, W::num_arg(window, 0, F, "beta"), sym, F);
    case win_id::taylor: {
      at_most(3);
      const std::int64_t nbar = nargs >= 1 ? W::int_arg(window, 0, F, "nbar") : 4;
      const double sll = nargs >= 2 ? W::num_arg(window, 1, F, "sll") : 30.0;
      bool norm = true;
      if (nargs >= 3) {
        const auto& p = window.args[2];
        // Python truthiness: None is false, an array is rejected (ambiguous truth value).
        CUSCI_EXPECTS(p.type != window_param::kind::array, value_error,
                      F + ": the norm parameter of taylor must be a boolean, got window=" + rep);
        norm = p.type != window_param::kind::none && p.value != 0.0;
      }
      return W::as_vec(M, sym, F, W::taylor_fill(nbar, sll, norm, F));
    }
    case win_id::tukey: {
      at_most(1);
      const double alpha = nargs >= 1 ? W::num_arg(window, 0, F, "alpha") : 0.5;
      return W::as_vec(M, sym, F, W::tukey_fill(alpha, F));
    }
  }
  throw value_error(F + ": Invalid window name '" + name + "' in parameter window=" + rep + "!");
}

}  // namespace detail

host_array get_window(const window_spec& window, std::int64_t Nx, bool fftbins) {
  CUSCI_NVTX_SCOPE("cusci::signal::get_window");
  return host_array::from(detail::get_window_vec(window, Nx, fftbins, "cusci::signal::get_window", true));
}

}  // namespace cusci::signal

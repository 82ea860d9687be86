// Windows of scipy.signal.windows on the host (double precision), following SciPy 1.18's
// scipy/signal/windows/_windows.py step by step (get_window and the windows it dispatches to).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/filter_design.hpp"
#include "windows/windows.hpp"

namespace cusci::signal {

namespace {

constexpr double pi = 3.14159265358979323846;
using detail::fmt;


// numpy.linspace(start, stop, num) with endpoint: start + i * step, last value exactly stop.
std::vector<double> linspace(double start, double stop, std::int64_t num) {
  std::vector<double> y(static_cast<std::size_t>(num));
  if (num == 0) return y;
  const std::int64_t div = num - 1;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<double>(i) * step + start;
  if (num > 1) y[num - 1] = stop;
  return y;
}

std::vector<double> general_cosine(std::int64_t M, const std::vector<double>& a, bool sym) {
  if (M <= 1) return std::vector<double>(static_cast<std::size_t>(M), 1.0);
  const bool trunc = !sym;
  const std::int64_t Me = trunc ? M + 1 : M;
  auto fac = linspace(-pi, pi, Me);
  std::vector<double> w(static_cast<std::size_t>(Me), 0.0);
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::int64_t i = 0; i < Me; ++i) w[i] += a[k] * std::cos(static_cast<double>(k) * fac[i]);
  if (trunc) w.pop_back();
  return w;
}

std::vector<double> window_impl(const std::string& name, const std::vector<double>& args, std::int64_t M, bool sym) {
  if (name == "boxcar") return std::vector<double>(static_cast<std::size_t>(M), 1.0);
  if (name == "hamming") return general_cosine(M, {0.54, 1.0 - 0.54}, sym);
  if (name == "hann") return general_cosine(M, {0.5, 1.0 - 0.5}, sym);
  if (name == "general_hamming") return general_cosine(M, {args[0], 1.0 - args[0]}, sym);
  if (name == "blackman") return general_cosine(M, {0.42, 0.50, 0.08}, sym);
  if (name == "blackmanharris") return general_cosine(M, {0.35875, 0.48829, 0.14128, 0.01168}, sym);
  if (name == "nuttall") return general_cosine(M, {0.3635819, 0.4891775, 0.1365995, 0.0106411}, sym);
  if (name == "flattop")
    return general_cosine(M, {0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368}, sym);
  if (name == "general_cosine") return general_cosine(M, args, sym);
  if (M <= 1) return std::vector<double>(static_cast<std::size_t>(M), 1.0);
  const bool trunc = !sym;
  const std::int64_t Me = trunc ? M + 1 : M;
  std::vector<double> w;
  if (name == "triang") {
    const std::int64_t h = (Me + 1) / 2;
    std::vector<double> half(static_cast<std::size_t>(h));
    for (std::int64_t i = 0; i < h; ++i) {
      const double n = static_cast<double>(i + 1);
      half[i] = (Me % 2 == 0) ? (2 * n - 1.0) / static_cast<double>(Me) : 2 * n / (static_cast<double>(Me) + 1.0);
    }
    w = half;
    const std::int64_t mirror = (Me % 2 == 0) ? h : h - 1;
    for (std::int64_t i = mirror - 1; i >= 0; --i) w.push_back(half[i]);
  } else if (name == "bartlett") {
    w.resize(static_cast<std::size_t>(Me));
    for (std::int64_t i = 0; i < Me; ++i) {
      const double n = static_cast<double>(i), d = static_cast<double>(Me - 1);
      w[i] = n <= d / 2.0 ? 2.0 * n / d : 2.0 - 2.0 * n / d;
    }
  } else if (name == "cosine") {
    w.resize(static_cast<std::size_t>(Me));
    for (std::int64_t i = 0; i < Me; ++i) w[i] = std::sin(pi / static_cast<double>(Me) * (static_cast<double>(i) + .5));
  } else if (name == "kaiser") {
    const double beta = args[0];
    w.resize(static_cast<std::size_t>(Me));
    const double alpha = (static_cast<double>(Me) - 1) / 2.0;
    const double den = std::cyl_bessel_i(0.0, std::abs(beta));
    for (std::int64_t i = 0; i < Me; ++i) {
      const double r = (static_cast<double>(i) - alpha) / alpha;
      const double arg = beta * std::sqrt(std::max(0.0, 1 - r * r));
      w[i] = std::cyl_bessel_i(0.0, std::abs(arg)) / den;
    }
  } else if (name == "tukey") {
    const double alpha = args.empty() ? 0.5 : args[0];
    if (alpha <= 0) return std::vector<double>(static_cast<std::size_t>(M), 1.0);
    if (alpha >= 1.0) return general_cosine(M, {0.5, 0.5}, sym);
    w.resize(static_cast<std::size_t>(Me));
    const std::int64_t width = static_cast<std::int64_t>(std::floor(alpha * static_cast<double>(Me - 1) / 2.0));
    const double d = static_cast<double>(Me - 1);
    for (std::int64_t i = 0; i < Me; ++i) {
      const double n = static_cast<double>(i);
      if (i <= width)
        w[i] = 0.5 * (1 + std::cos(pi * (-1 + 2.0 * n / alpha / d)));
      else if (i < Me - width - 1)
        w[i] = 1.0;
      else
        w[i] = 0.5 * (1 + std::cos(pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / d)));
    }
  }
  if (trunc) w.pop_back();
  return w;
}

struct window_entry {
  const char* canonical;
  std::vector<const char*> aliases;
  int has_args;  // 0: none, 1: required, 2: optional
};

const std::vector<window_entry>& supported_windows() {
  static const std::vector<window_entry> w = {
      {"boxcar", {"boxcar", "box", "ones", "rect", "rectangular"}, 0},
      {"triang", {"triangle", "triang", "tri"}, 0},
      {"bartlett", {"bartlett", "bart", "brt"}, 0},
      {"hann", {"hann", "han"}, 0},
      {"hamming", {"hamming", "hamm", "ham"}, 0},
      {"blackman", {"blackman", "black", "blk"}, 0},
      {"blackmanharris", {"blackmanharris", "blackharr", "bkh"}, 0},
      {"nuttall", {"nuttall", "nutl", "nut"}, 0},
      {"flattop", {"flattop", "flat", "flt"}, 0},
      {"cosine", {"cosine", "halfcosine"}, 0},
      {"kaiser", {"kaiser", "ksr"}, 1},
      {"general_hamming", {"general hamming", "general_hamming"}, 1},
      {"general_cosine", {"general cosine", "general_cosine"}, 1},
      {"tukey", {"tukey", "tuk"}, 2},
  };
  return w;
}

// Names SciPy knows that cusci does not provide.
const std::vector<const char*>& scipy_only_windows() {
  static const std::vector<const char*> w = {
      "barthann", "brthan", "bth", "bohman", "bman", "bmn", "chebwin", "cheb", "dpss", "exponential",
      "poisson", "gaussian", "gauss", "gss", "general gaussian", "general_gaussian", "general gauss",
      "general_gauss", "ggs", "kaiser bessel derived", "kaiser_bessel_derived", "kbd", "lanczos", "sinc",
      "parzen", "parz", "par", "taylor", "taylorwin"};
  return w;
}

std::string window_repr(const window_spec& w) {
  if (w.args.empty()) return "'" + w.name + "'";
  std::string s = "('" + w.name + "'";
  for (double a : w.args) s += ", " + fmt(a);
  return s + ")";
}

}  // namespace

namespace detail {

std::vector<double> get_window_vec(const window_spec& window, std::int64_t Nx, bool fftbins, const char* fn) {
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
  const window_entry* found = nullptr;
  for (const auto& e : supported_windows())
    for (const char* a : e.aliases)
      if (name == a) found = &e;
  if (!found) {
    for (const char* a : scipy_only_windows())
      CUSCI_EXPECTS(name != a, value_error,
                    F + ": window '" + name + "' is not supported by cusci (supported: boxcar, triang, bartlett, "
                        "hann, hamming, blackman, blackmanharris, nuttall, flattop, cosine, kaiser, "
                        "general_hamming, general_cosine, tukey)");
    throw value_error(F + ": Invalid window name '" + name + "' in parameter window=" + window_repr(window) + "!");
  }
  const std::size_t nargs = window.args.size();
  CUSCI_EXPECTS(!(nargs > 0 && found->has_args == 0), value_error,
                F + ": '" + name + "' does not allow parameters, but window=" + window_repr(window) + "!");
  CUSCI_EXPECTS(!(nargs == 0 && found->has_args == 1), value_error,
                F + ": '" + name + "' must have parameters, but window=" + window_repr(window) + "!");
  const std::string canon = found->canonical;
  CUSCI_EXPECTS(!(canon == "general_cosine" && F == "cusci::signal::firwin"), value_error,
                F + ": 'general_cosine' does not accept the parameters xp and device not being None!");
  CUSCI_EXPECTS(canon == "general_cosine" || nargs <= 1, value_error,
                F + ": window '" + name + "' takes one parameter, got window=" + window_repr(window));
  return window_impl(canon, window.args, Nx, sym);
}

}  // namespace detail

host_array get_window(const window_spec& window, std::int64_t M, bool fftbins) {
  return host_array::from(detail::get_window_vec(window, M, fftbins, "cusci::signal::get_window"));
}

}  // namespace cusci::signal

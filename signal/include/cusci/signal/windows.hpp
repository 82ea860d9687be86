#pragma once
/// @file windows.hpp
/// Window functions on the host: the 26 windows of scipy.signal.windows (namespace
/// `cusci::signal::windows`) and `cusci::signal::get_window`, in double precision. Every function is
/// synchronous host code returning a float64 `host_array` (no device work, no stream). `window_spec`
/// is the window argument of `get_window` and of the design functions that draw a window (`firwin`,
/// `resample_poly`, `resample`).
///
/// Common conventions (SciPy's): `M` is the number of points; M == 0 gives an empty array and M == 1
/// gives [1.] (except kaiser_bessel_derived, see there); M < 0 throws cusci::value_error
/// ("Window length M must be a non-negative integer"), and M + 1 float64 points beyond the host's
/// memory cusci::out_of_memory at once (SciPy's MemoryError), before anything is allocated or
/// filled. `sym` = true gives the symmetric window (filter design); `sym` = false the periodic, DFT-even one (spectral analysis): the symmetric window of M + 1
/// points without its last point.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

/// One parameter of a window given with parameters: an entry after the name in SciPy's tuple
/// `(name, p1, p2, ...)`. It is a number (`8.6`, `4`), a boolean (`true`: taylor's `norm`), None
/// (`std::nullopt`: exponential's `center`) or an array of numbers (general_cosine's coefficients,
/// `std::vector<double>{...}`).
struct window_param {
  enum class kind { number, boolean, none, array };
  kind type = kind::none;
  double value = 0.0;          ///< number (or 0/1 for a boolean)
  bool integer = false;        ///< a number given as a C++ integer (Python's int: taylor's nbar needs one)
  std::vector<double> values;  ///< array

  window_param(double v) : type(kind::number), value(v) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  window_param(T v) : type(kind::number), value(static_cast<double>(v)), integer(true) {}
  window_param(bool b) : type(kind::boolean), value(b ? 1.0 : 0.0) {}
  window_param(std::nullopt_t) : type(kind::none) {}
  window_param(std::vector<double> a) : type(kind::array), values(std::move(a)) {}
};

/// A window as SciPy's `window` argument of get_window / firwin:
/// - a name: `"hann"`, `"hamming"`, ... (SciPy's names and aliases, below);
/// - a name with parameters, SciPy's tuple: `{"kaiser", {8.6}}` is `('kaiser', 8.6)`,
///   `{"exponential", {std::nullopt, 3.0}}` is `('exponential', None, 3.0)`,
///   `{"general_cosine", {std::vector<double>{0.5, 0.5}}}` is `('general_cosine', [0.5, 0.5])`;
/// - a bare number, which is a Kaiser window with that beta (SciPy's `get_window(8.6, M)`).
///
/// Names (aliases after the canonical name; p: parameters required, o: optional):
/// barthann (brthan, bth), bartlett (bart, brt), blackman (black, blk), blackmanharris (blackharr, bkh),
/// bohman (bman, bmn), boxcar (box, ones, rect, rectangular), chebwin (cheb; p: at), cosine
/// (halfcosine), dpss (p: NW, exactly one), exponential (poisson; o: center, tau), flattop (flat, flt),
/// gaussian (gauss, gss; p: std), general_cosine ('general cosine'; p: a, an array), general_gaussian
/// ('general gaussian', 'general gauss', general_gauss, ggs; p: p, sig), general_hamming ('general
/// hamming'; p: alpha), hamming (hamm, ham), hann (han), kaiser (ksr; p: beta), kaiser_bessel_derived
/// ('kaiser bessel derived', kbd; p: beta), lanczos (sinc), nuttall (nutl, nut), parzen (parz, par),
/// taylor (taylorwin; o: nbar, sll, norm), triang (triangle, tri), tukey (tuk; o: alpha). A suffix
/// `_periodic` / `_symmetric` on the name overrides `fftbins`, as in SciPy.
///
/// SciPy: firwin in SciPy 1.18.1 takes no array of window values (its get_window rejects anything
/// that is not a string, a tuple or a float), so neither does window_spec; resample / resample_poly
/// take an array through their own `filter_window` argument.
struct window_spec {
  std::string name = "hamming";
  std::vector<window_param> args{};
  /// True for the bare-number form (a Kaiser window with beta args[0]); only changes messages.
  bool bare_beta = false;

  window_spec() = default;
  window_spec(const char* n) : name(n) {}
  window_spec(std::string n) : name(std::move(n)) {}
  window_spec(std::string n, std::initializer_list<window_param> a) : name(std::move(n)), args(a) {}
  window_spec(std::string n, std::vector<window_param> a) : name(std::move(n)), args(std::move(a)) {}
  /// Numeric parameters: `window_spec("kaiser", std::vector<double>{8.6})`.
  window_spec(std::string n, const std::vector<double>& a) : name(std::move(n)), args(a.begin(), a.end()) {}
  /// A Kaiser window with shape parameter `beta`.
  window_spec(double beta) : name("kaiser"), args{beta}, bare_beta(true) {}
};

/// The window `window` of length Nx: symmetric when `fftbins` is false, periodic (DFT-even, for
/// spectral analysis) when true; a `_symmetric` / `_periodic` suffix of the name overrides it.
/// Parameters are passed to the window positionally, after Nx, as SciPy does (see window_spec).
/// @return float64 [Nx]. Host only, synchronous.
/// @throws cusci::value_error for Nx <= 0, an unknown name ("Invalid window name ..."), parameters
///         given to a window that takes none, none given to one that needs them (kaiser, gaussian,
///         general_gaussian, general_hamming, general_cosine, chebwin, dpss, kaiser_bessel_derived),
///         dpss with other than one parameter, kaiser_bessel_derived with fftbins (SciPy's "only
///         defined for symmetric shapes") or an odd Nx, and what the window itself rejects;
///         cusci::out_of_memory (SciPy's MemoryError) at once for Nx + 1 float64 points beyond the
///         host's memory.
/// @throws cusci::type_error for more parameters than the window takes, too few for
///         general_gaussian, or a parameter of the wrong kind (None or an array where a number is
///         needed, a taylor nbar that is not a C++ integer: `{"taylor", {5}}`, not `{5.0}`) (Python's
///         TypeError in SciPy).
/// @throws cusci::index_error for a general_cosine parameter that is not an array (SciPy's IndexError).
/// SciPy: `scipy.signal.get_window` (`xp`, `device` not taken: the result is a host array).
host_array get_window(const window_spec& window, std::int64_t Nx, bool fftbins = true);

}  // namespace cusci::signal

/// The windows of scipy.signal.windows. Each returns float64 [M] (dpss: see there) computed on the
/// host, synchronously, following SciPy's formulas and evaluation order (results equal SciPy's to
/// rounding). Each throws cusci::value_error for M < 0.
namespace cusci::signal::windows {

/// Modified Bartlett-Hann window. SciPy: `scipy.signal.windows.barthann`.
host_array barthann(std::int64_t M, bool sym = true);
/// Bartlett (triangular, zero at both ends) window. SciPy: `scipy.signal.windows.bartlett`.
host_array bartlett(std::int64_t M, bool sym = true);
/// Blackman window (general_cosine with [0.42, 0.50, 0.08]). SciPy: `scipy.signal.windows.blackman`.
host_array blackman(std::int64_t M, bool sym = true);
/// Minimum 4-term Blackman-Harris window. SciPy: `scipy.signal.windows.blackmanharris`.
host_array blackmanharris(std::int64_t M, bool sym = true);
/// Bohman window. SciPy: `scipy.signal.windows.bohman`.
host_array bohman(std::int64_t M, bool sym = true);
/// Rectangular window (all ones). SciPy: `scipy.signal.windows.boxcar`.
host_array boxcar(std::int64_t M, bool sym = true);
/// Dolph-Chebyshev window.
/// @param at  sidelobe attenuation in dB (its absolute value is used). Below 45 dB the window is
///            returned with a "UserWarning" (cusci::warn) as SciPy warns.
/// Algorithm: Chebyshev polynomial samples transformed by a host FFT (SciPy's construction).
/// SciPy: `scipy.signal.windows.chebwin`.
host_array chebwin(std::int64_t M, double at, bool sym = true);
/// Half-cosine (sine) window. SciPy: `scipy.signal.windows.cosine`.
host_array cosine(std::int64_t M, bool sym = true);

/// SciPy's `norm` of dpss: None (`none`: 'approximate' when Kmax is not given, 2 when it is), 2
/// (`two`: unit energy), 'approximate', 'subsample'.
enum class dpss_norm { none, two, approximate, subsample };
/// Parses SciPy's norm values: "2", "approximate", "subsample", "None" / "" (none).
/// @throws cusci::value_error for anything else.
dpss_norm parse_dpss_norm(std::string_view s);

/// Keyword arguments of `dpss`, with SciPy's names and defaults.
struct dpss_options {
  /// Number of windows: unset returns one window [M]; a value returns [Kmax, M] (0 < Kmax <= M).
  std::optional<std::int64_t> Kmax{};
  bool sym = true;
  dpss_norm norm = dpss_norm::none;
  /// Also return the concentration ratios.
  bool return_ratios = false;
};

/// Result of `dpss`.
struct dpss_result {
  /// float64 [M] when Kmax is unset; [Kmax, M] when it is set (for M <= 1 always [M] of ones, as SciPy).
  host_array windows;
  /// With return_ratios: the concentration ratios, float64 0-d (Kmax unset) or [Kmax] (for M <= 1:
  /// 0-d 1.0, or [1] of 1.0). Unset without return_ratios.
  std::optional<host_array> ratios;
};

/// Discrete prolate spheroidal (Slepian) sequences.
/// @param NW  standardized half-bandwidth (2*NW = bandwidth * M), 0 < NW < M/2.
/// @throws cusci::value_error for M < 0, Kmax not in (0, M] ("Kmax must be greater than 0 and less
///         than M"), NW >= M/2, NW <= 0 or NaN (these checked only for M > 1, as SciPy).
/// @throws cusci::runtime_error when the tridiagonal eigensolver does not converge.
/// Algorithm: eigenvectors of the tridiagonal commuting matrix for the Kmax largest eigenvalues
/// (host eigh_tridiagonal, LAPACK stebz/stein's method as scipy.linalg.eigh_tridiagonal), SciPy's
/// sign conventions; ratios from the FFT autocorrelation.
/// SciPy: `scipy.signal.windows.dpss` (returns a struct instead of an array or a tuple).
dpss_result dpss(std::int64_t M, double NW, const dpss_options& opts = {});

/// Exponential (Poisson) window exp(-|n - center| / tau).
/// @param center  unset: the centre (M-1)/2; must be unset when sym is true.
/// @param tau     decay parameter.
/// @throws cusci::value_error for sym with a center ("If sym==True, center must be None.").
/// SciPy: `scipy.signal.windows.exponential`.
host_array exponential(std::int64_t M, std::optional<double> center = std::nullopt, double tau = 1.0,
                       bool sym = true);
/// Flat top window. SciPy: `scipy.signal.windows.flattop`.
host_array flattop(std::int64_t M, bool sym = true);
/// Gaussian window exp(-n^2 / (2 std^2)), n measured from the centre; `std` in samples.
/// SciPy: `scipy.signal.windows.gaussian`.
host_array gaussian(std::int64_t M, double std, bool sym = true);
/// Generalized cosine window sum_k (-1)^k a[k] cos(2 pi k n / (M-1)) (written as SciPy: a sum of
/// a[k] cos(k x) on x = linspace(-pi, pi, M)).
/// @param a  [K] coefficients.
/// SciPy: `scipy.signal.windows.general_cosine`.
host_array general_cosine(std::int64_t M, const std::vector<double>& a, bool sym = true);
/// Generalized Gaussian window exp(-0.5 |n / sig|^(2p)). SciPy: `scipy.signal.windows.general_gaussian`.
host_array general_gaussian(std::int64_t M, double p, double sig, bool sym = true);
/// Generalized Hamming window (general_cosine with [alpha, 1 - alpha]).
/// SciPy: `scipy.signal.windows.general_hamming`.
host_array general_hamming(std::int64_t M, double alpha, bool sym = true);
/// Hamming window (general_hamming with alpha 0.54). SciPy: `scipy.signal.windows.hamming`.
host_array hamming(std::int64_t M, bool sym = true);
/// Hann window (general_hamming with alpha 0.5). SciPy: `scipy.signal.windows.hann`.
host_array hann(std::int64_t M, bool sym = true);
/// Kaiser window I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta).
/// SciPy: `scipy.signal.windows.kaiser`.
host_array kaiser(std::int64_t M, double beta, bool sym = true);
/// Kaiser-Bessel derived window (for the MDCT), from the cumulative sum of a Kaiser window of
/// M/2 + 1 points.
/// @return float64 [M]; M <= 0 (negative included, as SciPy) gives an empty array.
/// @throws cusci::value_error for sym == false ("only defined for symmetric shapes") or an odd M
///         ("only defined for even number of points"; M == 1 included).
/// SciPy: `scipy.signal.windows.kaiser_bessel_derived` (sym is keyword-only there).
host_array kaiser_bessel_derived(std::int64_t M, double beta, bool sym = true);
/// Lanczos (sinc) window. SciPy: `scipy.signal.windows.lanczos` (sym is keyword-only there).
host_array lanczos(std::int64_t M, bool sym = true);
/// Minimum 4-term Blackman-Harris window of Nuttall. SciPy: `scipy.signal.windows.nuttall`.
host_array nuttall(std::int64_t M, bool sym = true);
/// Parzen window. SciPy: `scipy.signal.windows.parzen`.
host_array parzen(std::int64_t M, bool sym = true);
/// Taylor window (radar), as SciPy's construction from Carrara, Goodman, Majewski.
/// @param nbar  number of nearly constant-level sidelobes next to the main lobe (>= 1).
/// @param sll   desired suppression of the sidelobes in dB (positive).
/// @param norm  divide by the value at the centre (M-1)/2 so the peak is 1 (for odd M exactly).
/// @throws cusci::value_error for nbar < 1 (NumPy's "negative dimensions are not allowed" in SciPy,
///         raised for nbar <= 0).
/// SciPy: `scipy.signal.windows.taylor`.
host_array taylor(std::int64_t M, std::int64_t nbar = 4, double sll = 30, bool norm = true, bool sym = true);
/// Triangular window (non-zero end points). SciPy: `scipy.signal.windows.triang`.
host_array triang(std::int64_t M, bool sym = true);
/// Tukey (tapered cosine) window; alpha <= 0 gives boxcar, alpha >= 1 hann.
/// @throws cusci::value_error for a NaN alpha when M > 1 (SciPy's "cannot convert float NaN to integer").
/// SciPy: `scipy.signal.windows.tukey`.
host_array tukey(std::int64_t M, double alpha = 0.5, bool sym = true);

}  // namespace cusci::signal::windows

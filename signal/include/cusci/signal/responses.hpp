#pragma once
/// @file responses.hpp
/// Frequency responses of digital and analog filters, with SciPy's semantics: `freqz`, `freqz_sos`
/// (and its legacy alias `sosfreqz`), `freqz_zpk`, `freqs`, `freqs_zpk`, `group_delay` and `findfreqs`.
///
/// Where they run: coefficients given as `cusci::host_array` are evaluated on the host (synchronous,
/// double precision) and the results are host arrays, as SciPy computes them in NumPy. `freqz`,
/// `freqz_sos` and `freqz_zpk` also take device coefficients (`cusci::ndarray`): the response is then
/// evaluated on the GPU, asynchronously on `cusci::get_current_stream()`, into device arrays; that is
/// the form for large grids (2^20 points) and for many filters at once. The host overloads take
/// `array_like` coefficients (filtering.hpp): a host_array, scalar, braced list `{1.0, -0.5}` or
/// std::vector; a device ndarray where no device overload matches (`freqs`, `freqs_zpk`, `findfreqs`,
/// or `freqz` with a host denominator) is copied to the host first, which synchronizes.
///
/// Frequencies: digital responses are evaluated at z = exp(i w), w in radians/sample, and returned in
/// the units of `fs` (default 2 pi: radians/sample); analog responses at s = i w, w in rad/s.
///
/// Evaluation, in float64 / complex128: Horner's rule (`freqz`, `freqs`, `group_delay`, each section of
/// `freqz_sos`) or products of root factors (`freqz_zpk`, `freqs_zpk`); FIR filters of more than 16
/// (host) / 256 (GPU) taps on an integer grid take SciPy's FFT of the zero-padded coefficients. Results
/// agree with SciPy to rounding (docs/signal-responses.md).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/filter_design.hpp"

namespace cusci::signal {

/// SciPy's `worN` (and `w` of `group_delay`): either a number of points on SciPy's default grid or
/// explicit frequencies (host or device array, any real dtype; a Python list is a `std::vector`).
struct freq_points {
  freq_points(int n) : count(n) {}
  freq_points(std::int64_t n) : count(n) {}
  freq_points(host_array f) : host(std::move(f)), is_host(true) {}
  freq_points(const std::vector<double>& f) : host(host_array::from(f)), is_host(true) {}
  freq_points(std::initializer_list<double> f) : host(host_array::from(std::vector<double>(f))), is_host(true) {}
  freq_points(ndarray f) : device(std::move(f)), is_device(true) {}
  std::optional<std::int64_t> count{};
  host_array host{};
  ndarray device{};
  bool is_host = false;
  bool is_device = false;
};

/// Keyword arguments of `freqz` (SciPy's `plot` is not provided).
struct freqz_options {
  /// Integer worN: the grid covers [0, 2 pi) instead of [0, pi).
  bool whole = false;
  /// Sampling frequency: explicit frequencies are in its units and `w` is returned in them.
  double fs = 2 * 3.14159265358979323846;
  /// Integer worN with whole == false: the grid includes the Nyquist frequency (endpoint of linspace).
  bool include_nyquist = false;
};

/// Keyword arguments of `freqz_sos`, `freqz_zpk` and `group_delay`.
struct freqz_sos_options {
  bool whole = false;
  double fs = 2 * 3.14159265358979323846;
};
using freqz_zpk_options = freqz_sos_options;
using group_delay_options = freqz_sos_options;

/// A frequency response on the host: w (frequencies) and h (complex response).
struct freq_response {
  host_array w, h;
};
/// A frequency response on the device.
struct device_freq_response {
  ndarray w, h;
};
/// `group_delay`'s result: w and the delay gd in samples (float64).
struct group_delay_result {
  host_array w, gd;
};

/// SciPy's `kind` of `findfreqs`.
enum class findfreqs_kind { ba, zp };
/// Parses 'ba' and 'zp'. @throws cusci::value_error otherwise ("input must be one of {'ba', 'zp'}").
findfreqs_kind parse_findfreqs_kind(std::string_view s);

/// Frequency response of a digital filter b(z) / a(z) (coefficients in descending powers of z, i.e.
/// ascending powers of z^-1): H(w) = sum b[k] e^{-iwk} / sum a[k] e^{-iwk}.
/// @param b     [ntaps] or [ntaps, d1, ..., dm, 1]: several filters, one per index (d1, ..., dm), the
///              coefficients along the first axis (SciPy's layout for N-D b); any real or complex dtype.
/// @param a     [na] or [na, d1, ..., dm, 1] (or trailing dimensions all 1); empty: a = 1. Both are
///              array_like (`freqz({1.0, 1.0}, {1.0, -0.5})`; a device array is copied: synchronizes).
/// @param worN  a number of points N >= 0 (grid linspace(0, pi or 2 pi, N), endpoint only with
///              include_nyquist), or explicit frequencies in the units of fs (any shape for 1-D b; 1-D
///              for N-D b).
/// @return w: [N] (or worN's shape), float64 (float32 when b and a are both float32 / complex64; for
///         explicit frequencies the dtype of result_type(b, a), as SciPy, which can be complex);
///         h: [d1, ..., dm, N] (1-D b: [N] or worN's shape), complex128 (complex64 as SciPy for float32
///         coefficients). Host only, synchronous.
/// @throws cusci::value_error for a negative N, b with more than one dimension whose last dimension is
///         not 1, a whose trailing shape does not match b's, N-D b with N-D explicit frequencies;
///         cusci::index_error for an empty a (SciPy's IndexError), and for an empty b unless SciPy's
///         FFT path applies (a of size 1, an integer grid with n_fft = N (whole), 2N - 2
///         (include_nyquist) or 2N greater than 0): there h = 0, as SciPy's FFT of nothing.
/// SciPy: `scipy.signal.freqz`. Deviations: no `plot`; N-D b must have the shape (ntaps, ..., 1)
/// (SciPy broadcasts b.shape[1:] against the frequencies, which only makes sense in that form).
freq_response freqz(const array_like& b, const std::optional<array_like>& a = std::nullopt,
                    const freq_points& worN = 512, const freqz_options& opts = {});
/// As above with the denominator as a braced list, `freqz({1.0, 1.0}, {1.0, -0.5})` (a braced list
/// cannot initialise the std::optional; `{}` is an empty a, an index_error as SciPy's `a=[]`).
inline freq_response freqz(const array_like& b, std::initializer_list<double> a, const freq_points& worN = 512,
                           const freqz_options& opts = {}) {
  return freqz(b, std::optional<array_like>(array_like(a)), worN, opts);
}

/// `freqz` on the GPU: the same semantics and result shapes and dtypes, with device coefficients; explicit
/// frequencies may be a host or device array. Many filters at once: b as [ntaps, K, 1] gives h [K, N].
/// Asynchronous on the current stream. Direct evaluation in float64 (one thread per frequency, each
/// evaluating the 8 filters of its group by Horner's rule); FIR filters of more than 256 taps on an
/// integer grid: batched FFTs of the zero-padded coefficients (core's plan cache), as SciPy.
/// Temporaries: contiguous float64 / complex128 copies of the coefficients (and the FFT path's
/// transformed rows, K (N + 1) complex128).
/// @throws as the host overload (checks on shapes only; no value is read back).
device_freq_response freqz(const ndarray& b, const std::optional<ndarray>& a = std::nullopt,
                           const freq_points& worN = 512, const freqz_options& opts = {});

/// Frequency response of a digital filter in second-order sections: the product of the sections'
/// responses, H(w) = prod_j (b0 + b1 e^{-iw} + b2 e^{-2iw}) / (a0 + a1 e^{-iw} + a2 e^{-2iw}).
/// @param sos  [n_sections, 6] (b0, b1, b2, a0 = 1, a1, a2) any real or complex dtype.
/// @return w [N] float64, h [N] complex128 (worN's shape for explicit frequencies). Host, synchronous.
/// @throws cusci::value_error for a sos not of shape (n_sections, 6), sos[:, 3] not all 1, no sections
///         ("Cannot compute frequencies with no sections"), a negative N.
/// SciPy: `scipy.signal.freqz_sos`.
freq_response freqz_sos(const array_like& sos, const freq_points& worN = 512, const freqz_sos_options& opts = {});

/// `freqz_sos` on the GPU, asynchronous. Extension: sos may be a batch [K, n_sections, 6] of filters,
/// giving h [K, N] (SciPy accepts 2-D sos only).
/// Deviation: sos[:, 3] == 1 is not checked (it would need a synchronization); each section is
/// divided by its own a0, which gives the exact response of the given coefficients.
/// @throws cusci::value_error for a shape other than (n_sections, 6) / (K, n_sections, 6), no sections,
///         a negative N.
device_freq_response freqz_sos(const ndarray& sos, const freq_points& worN = 512, const freqz_sos_options& opts = {});

/// Legacy alias of `freqz_sos` (SciPy: `scipy.signal.sosfreqz`).
inline freq_response sosfreqz(const array_like& sos, const freq_points& worN = 512,
                              const freqz_sos_options& opts = {}) {
  return freqz_sos(sos, worN, opts);
}
inline device_freq_response sosfreqz(const ndarray& sos, const freq_points& worN = 512,
                                     const freqz_sos_options& opts = {}) {
  return freqz_sos(sos, worN, opts);
}

/// Frequency response of a digital filter in zeros/poles/gain form:
/// H(w) = k prod(e^{iw} - z) / prod(e^{iw} - p).
/// @param z, p  [nz], [np] any real or complex dtype.
/// @return w [N] (float32 unless result_type(z, p) is float64 / complex128, as SciPy; explicit
///         frequencies keep their dtype, integers become float64), h complex128 (complex64 when z and p
///         are float32 / complex64). Host, synchronous. The grid never includes the endpoint.
/// @throws cusci::value_error for a negative N.
/// SciPy: `scipy.signal.freqz_zpk`.
freq_response freqz_zpk(const array_like& z, const array_like& p, double k, const freq_points& worN = 512,
                        const freqz_zpk_options& opts = {});
/// `freqz_zpk` on the GPU (z, p device arrays), asynchronous; same results.
device_freq_response freqz_zpk(const ndarray& z, const ndarray& p, double k, const freq_points& worN = 512,
                               const freqz_zpk_options& opts = {});

/// Frequency response of an analog filter b(s) / a(s) at s = i w.
/// @param b, a  [nb], [na] any real or complex dtype (descending powers of s).
/// @param worN  a number of points (the grid of `findfreqs(b, a, N)`) or explicit frequencies in rad/s.
/// @return w [N] float64 (explicit frequencies are returned as given), h complex128. Host, synchronous.
/// @throws cusci::value_error for a negative N (findfreqs' linspace).
/// SciPy: `scipy.signal.freqs` (no `plot`).
freq_response freqs(const array_like& b, const array_like& a, const freq_points& worN = 200);

/// Frequency response of an analog filter in zeros/poles/gain form at s = i w:
/// H = k prod(s - z) / prod(s - p).
/// @return w [N] float64 (explicit frequencies as given), h complex128. Host, synchronous.
/// @throws cusci::value_error for a negative N.
/// SciPy: `scipy.signal.freqs_zpk`.
freq_response freqs_zpk(const array_like& z, const array_like& p, double k, const freq_points& worN = 200);

/// Group delay of a digital filter, -d(arg H)/dw in samples, by SciPy's method (the derivative of the
/// product b(z) conj(a(1/conj z)) z^-(na-1), Shpak's formula).
/// @param system  {b, a}: [nb], [na] real or complex coefficients.
/// @param w       a number of points (linspace(0, pi or 2 pi, N), no endpoint) or explicit
///                frequencies in the units of fs.
/// @return w [N] float64 in the units of fs, gd [N] float64. Frequencies where the delay is singular
///         get 0 and a "UserWarning" through `cusci::warn` (SciPy's message); where the denominator is
///         below 10 * 2e-16 in magnitude, the same warning category with SciPy's near-singular message.
///         Host, synchronous.
/// @throws cusci::value_error for a negative N, an empty b or a (NumPy's convolve).
/// SciPy: `scipy.signal.group_delay`.
group_delay_result group_delay(const ba_coeffs& system, const freq_points& w = 512, const group_delay_options& opts = {});

/// A frequency grid of N points (rad/s) covering the interesting part of an analog filter's response:
/// logspace over decades chosen from its poles and zeros (SciPy's rule).
/// @param num, den  kind ba: numerator / denominator coefficients; kind zp: zeros / poles.
/// @return [N] float64. Host, synchronous (polynomial roots on the host).
/// @throws cusci::value_error for a negative N, or no pole or zero in the upper half plane to scale
///         from (NumPy's empty-reduction error).
/// SciPy: `scipy.signal.findfreqs`.
host_array findfreqs(const array_like& num, const array_like& den, std::int64_t N,
                     findfreqs_kind kind = findfreqs_kind::ba);

}  // namespace cusci::signal

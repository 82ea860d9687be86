#pragma once
/// @file multirate.hpp
/// Multirate signal processing on the GPU with SciPy's semantics: `upfirdn` (upsample, FIR filter,
/// downsample), `resample_poly` (polyphase resampling with a designed or given FIR filter),
/// `resample` (Fourier-method resampling) and `decimate` (anti-aliasing filter + downsampling).
///
/// Algorithm of `upfirdn` (and so of `resample_poly` and FIR `decimate`): the polyphase form of
/// P. P. Vaidyanathan, "Multirate Systems and Filter Banks", Prentice Hall 1993, fig. 4.3-8d. Output
/// n of a line is y[n] = sum_m h[m * up + t] * xe[i - m] with t = (n * down) mod up and
/// i = floor(n * down / up), where xe is the input extended past its ends by `mode`. One fused kernel
/// computes every output once: a block stages a tile of the input line (with the extension) and the
/// polyphase taps in shared memory, each thread computes several outputs of one phase from registers
/// (the taps of a phase are split by residue modulo `down` so that consecutive outputs reuse the same
/// input values), and the tile's outputs are written coalesced through shared memory. Filters too long
/// for shared memory use a direct kernel reading the taps and the input from global memory.
///
/// Coefficient arguments are `array_like` (filtering.hpp): a host_array, or a device ndarray that is
/// copied to the host first (which synchronizes), as SciPy also prepares the filter on the host.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal {

/// Signal extension mode of `upfirdn` (SciPy's `mode`): values beyond the ends of the input.
/// constant: `cval`; symmetric: reflection including the edge sample (3 2 1 | 1 2 3 | 3 2 1);
/// reflect: reflection about the edge sample (3 2 | 1 2 3 | 2 1); edge: the edge sample; wrap:
/// periodic; smooth: the line through the last two samples at each end; antisymmetric / antireflect:
/// the anti-symmetric versions of symmetric / reflect; line: the line through the first and the last
/// sample.
enum class extension_mode { constant, symmetric, reflect, edge, wrap, smooth, antisymmetric, antireflect, line };

/// Parses SciPy's mode names ('constant', 'symmetric', 'reflect', 'edge', 'wrap', 'smooth',
/// 'antisymmetric', 'antireflect', 'line'), case-insensitive as `upfirdn` lowers them.
/// @throws cusci::value_error for any other string ("Unknown mode: x").
extension_mode parse_extension_mode(std::string_view s);

/// Keyword arguments of `upfirdn` (SciPy's `axis`, `mode`, `cval`).
struct upfirdn_options {
  /// The axis of x that is filtered; negative counts from the end.
  int axis = -1;
  extension_mode mode = extension_mode::constant;
  /// The value beyond the ends for mode == constant (converted to the output dtype).
  double cval = 0.0;
};

/// Upsamples by `up` (zero insertion), filters with the FIR filter `h`, downsamples by `down`.
/// @param h     [K] filter taps, K >= 1; any real or complex dtype.
/// @param x     [..., n, ...] any layout; bool, integers, float16/32/64, complex64/128.
/// @param up    upsampling factor, >= 1.   @param down  downsampling factor, >= 1.
/// @return y with x's shape except along `axis`: ((n - 1) * up + K - 1) // down + 1 samples; dtype
///         `result_type(h, x, float32)` (float32, float64, complex64 or complex128). For axis != last
///         the result is a view of a C-contiguous array with the filtered axis moved back into place.
/// Asynchronous on the current stream (a device `h` is copied to the host first: synchronizes).
/// @throws cusci::value_error for h not 1-D or empty ("h must be 1-D with non-zero length"), up or
///         down < 1 ("Both up and down must be >= 1"), a mode other than constant on an empty axis or
///         smooth / reflect / antireflect on an axis of length 1 (SciPy reads out of bounds or divides
///         by zero there); cusci::index_error for a 0-d x or axis out of range.
/// SciPy: `scipy.signal.upfirdn`. Deviations: the products are summed in another order than SciPy's
/// loop (float32 results differ in the last bits); the cases SciPy cannot compute (above) raise.
ndarray upfirdn(const array_like& h, const ndarray& x, std::int64_t up = 1, std::int64_t down = 1,
                const upfirdn_options& opts = {});

/// How `resample_poly` extends the signal (SciPy's `padtype`): one of the `upfirdn` extension modes,
/// or the statistic of the line that is subtracted before filtering and added back afterwards.
enum class resample_padtype {
  constant, symmetric, reflect, edge, wrap, smooth, antisymmetric, antireflect, line,
  mean, median, maximum, minimum
};

/// Parses SciPy's padtype strings (the extension modes above plus 'mean', 'median', 'maximum',
/// 'minimum'). @throws cusci::value_error for any other string.
resample_padtype parse_resample_padtype(std::string_view s);

/// A filter argument: a window for the filter design (`window_spec`: a name, a name with
/// parameters, or a bare number = Kaiser beta) or explicit FIR taps (a host or device array).
/// `resample_poly` designs `firwin(2 * half_len + 1, 1 / max_rate, window=...)` from a window; `resample`
/// applies a window in the frequency domain (`fftshift(get_window(window, n))`, or the array itself).
struct filter_window {
  filter_window(window_spec w = window_spec("kaiser", {5.0})) : spec(std::move(w)) {}
  filter_window(const char* name) : spec(window_spec(name)) {}
  filter_window(double beta) : spec(window_spec(beta)) {}
  filter_window(host_array taps) : host_taps(std::move(taps)) {}
  filter_window(ndarray taps) : device_taps(std::move(taps)) {}
  std::optional<window_spec> spec{};
  std::optional<host_array> host_taps{};
  std::optional<ndarray> device_taps{};
  bool is_array() const noexcept { return host_taps.has_value() || device_taps.has_value(); }
};

/// Keyword arguments of `resample_poly`, with SciPy's names and defaults.
struct resample_poly_options {
  /// The axis that is resampled (SciPy's default is 0).
  int axis = 0;
  /// Window of the designed low-pass filter, or the FIR taps to use (applied at the upsampled rate).
  filter_window window = window_spec("kaiser", {5.0});
  resample_padtype padtype = resample_padtype::constant;
  /// Value beyond the ends for padtype == constant; unset: 0. Setting it with another padtype is
  /// an error, as in SciPy.
  std::optional<double> cval{};
};

/// Resamples by up / down with a zero-phase polyphase FIR filter (SciPy's algorithm: the factors are
/// reduced by their gcd; a window -> `firwin(2 * 10 * max(up, down) + 1, 1 / max(up, down), window)`;
/// the taps scaled by up and padded so that the outputs are centred; `upfirdn`; the first
/// ceil(n * up / down) centred outputs kept, fused into the same kernel).
/// @param x  [..., n, ...] any layout; bool, integers, float16/32/64, complex64/128.
/// @return [..., ceil(n * up / down), ...]: dtype x's for float32/64 and complex (the designed taps
///         are rounded to x's dtype as SciPy does), float64 for integer / bool x, float32 for float16;
///         a copy of x (its dtype kept) when up == down after the gcd reduction.
/// Asynchronous on the current stream (explicit device taps are copied to the host: synchronizes).
/// @throws cusci::value_error for up or down < 1, cval with a padtype other than constant, an explicit
///         window that is not 1-D or is empty, an invalid window name or parameters (as firwin), and
///         the extension-mode errors of `upfirdn`; cusci::index_error for a 0-d x or axis out of range.
/// SciPy: `scipy.signal.resample_poly`. Deviations: float16 input is computed in float32 (SciPy rounds
/// the taps and the background to float16); padtype median of complex data is not supported
/// (cusci::type_error).
ndarray resample_poly(const ndarray& x, std::int64_t up, std::int64_t down, const resample_poly_options& opts = {});

/// The domain of `resample`'s input (SciPy's `domain`).
enum class resample_domain { time, freq };
/// Parses 'time', 'freq'. @throws cusci::value_error otherwise ("Parameter domain='x' not in ...").
resample_domain parse_resample_domain(std::string_view s);

/// Keyword arguments of `resample`, with SciPy's names and defaults.
struct resample_options {
  /// The time/frequency axis (SciPy's default is 0).
  int axis = 0;
  /// Spectral window: unset = none; a window_spec -> fftshift(get_window(window, n)); an array of
  /// length n -> used as is. (SciPy's callable form has no counterpart.)
  std::optional<filter_window> window{};
  resample_domain domain = resample_domain::time;
};

/// `resample`'s result when timestamps are given: the resampled signal and its timestamps.
struct resample_result {
  ndarray x;  ///< the resampled signal
  ndarray t;  ///< [num] float64: t[0] + (t[1] - t[0]) * n / num * arange(num)
};

/// Resamples to `num` samples along `axis` with the Fourier method (rfft / irfft for real time-domain
/// data, fft / ifft otherwise, with SciPy's handling of the unpaired Nyquist bin).
/// @param x    [..., n, ...] any layout, n >= 1; any numeric dtype.
/// @param num  number of output samples, >= 1.
/// @return [..., num, ...]: float32 / float64 for real time-domain data (float64 for integers),
///         complex64 / complex128 otherwise (domain freq always gives complex); C-contiguous when
///         axis is last, else a view with the axis moved back into place.
/// Asynchronous on the current stream (a window array on the device is copied to the host first,
/// which synchronizes; a window_spec is computed on the host).
/// @throws cusci::value_error for num < 1 (SciPy: ZeroDivisionError / ValueError), a window array whose
///         shape is not (n,), an invalid window; cusci::index_error for a 0-d x or axis out of range.
/// SciPy: `scipy.signal.resample`. Deviations: no callable window.
ndarray resample(const ndarray& x, std::int64_t num, const resample_options& opts = {});
/// As above, also returning the timestamps of the output computed from `t` (at least 2 values; only
/// t[0] and t[1] are used; synchronizes when t is on the device).
/// @throws cusci::index_error when t has fewer than 2 values (SciPy's IndexError).
resample_result resample(const ndarray& x, std::int64_t num, const array_ref& t, const resample_options& opts = {});

/// The anti-aliasing filter of `decimate` (SciPy's `ftype`; dlti instances have no counterpart).
enum class decimate_ftype { iir, fir };
/// Parses 'iir', 'fir'. @throws cusci::value_error otherwise ("invalid ftype").
decimate_ftype parse_decimate_ftype(std::string_view s);

/// Keyword arguments of `decimate`, with SciPy's names and defaults.
struct decimate_options {
  /// Filter order; unset: 8 for iir, 20 * q for fir (the FIR filter has n + 1 taps).
  std::optional<int> n{};
  decimate_ftype ftype = decimate_ftype::iir;
  int axis = -1;
  /// iir: filter forwards and backwards (`sosfiltfilt`) instead of once (`sosfilt`); fir: centre the
  /// output (`resample_poly(x, 1, q, window=b)`) instead of `upfirdn(b, x, 1, q)`.
  bool zero_phase = true;
};

/// Downsamples by the integer factor q after an anti-aliasing filter, as SciPy: iir ->
/// `cheby1(n, 0.05, 0.8 / q, output='sos')` cast to the result dtype, then `sosfiltfilt` (or
/// `sosfilt`) and every q-th sample; fir -> `firwin(n + 1, 1 / q, window='hamming')` then
/// `resample_poly` / `upfirdn` as described at `decimate_options::zero_phase`.
/// @param x  [..., n, ...] any layout; float32/64 and complex keep their dtype, integers, bool and
///           float16 become float64 (as SciPy).
/// @return [..., ceil(n / q), ...] of the result dtype (a strided view for iir).
/// Asynchronous on the current stream.
/// @throws cusci::value_error for q < 1, n < 0 (through the filter design); the errors of
///         sosfiltfilt (e.g. x too short for its padding) and resample_poly; cusci::index_error for a
///         0-d x or axis out of range.
/// SciPy: `scipy.signal.decimate`. Deviations: no dlti `ftype`. q < 1 raises value_error where SciPy
/// fails in the filter design with ValueError or ZeroDivisionError.
ndarray decimate(const ndarray& x, std::int64_t q, const decimate_options& opts = {});

}  // namespace cusci::signal

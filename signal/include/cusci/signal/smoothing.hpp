#pragma once
/// @file smoothing.hpp
/// Smoothing filters of cusci::signal with scipy.signal 1.18's semantics: the median and order
/// filters (medfilt, medfilt2d, order_filter), the Wiener filter (wiener), Savitzky-Golay
/// coefficients and filtering (savgol_coeffs, savgol_filter) and Whittaker-Henderson smoothing
/// (whittaker_henderson).
///
/// Common rules:
/// - The median / order filters are scipy.ndimage rank filters with zero padding (SciPy calls
///   `ndimage.rank_filter(..., mode='constant')`); cusci runs them on cusci::ndimage's rank engine,
///   except 1-D float32 / float64 medians with windows of 3 to 25, which take a dedicated selection
///   kernel (see medfilt).
/// - savgol_filter is ndimage's convolve1d with the Savitzky-Golay coefficients (mode as given,
///   "interp": constant, then the first and last window_length // 2 outputs of every line replaced by
///   the value of the least-squares polynomial fitted to the line's first / last window_length
///   samples, evaluated on the GPU for all lines at once as fixed linear combinations of those
///   samples, designed on the host in double).
/// - Every function enqueues its work on the current stream and returns without synchronizing,
///   except where its comment says "synchronizes".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal {

// ----------------------------------------------------------------------------------- median / order

/// Median filter of an N-D array with zero padding: each output is the median of the
/// kernel_size[0] x ... x kernel_size[ndim-1] window centred on it, values outside the array
/// counting as 0.
/// @param volume      [any shape; a 0-d array is treated as shape (1,)] int8..int64, uint8..uint64,
///                    float32, float64; any layout.
/// @param kernel_size one odd size for every axis or one per axis (ndim values); not given: 3.
/// @return [volume.shape] (at least 1-D), volume's dtype, C-contiguous.
/// Asynchronous on the current stream, except 1-D float32 / float64 arrays with an odd window of
/// 3..25: they take a register selection kernel over a shared-memory tile that also flags NaN, and
/// synchronize once to read the flag back; when the array holds a NaN the result is recomputed by
/// ndimage's path, which replays SciPy's NaN-dependent order (so this path cannot be captured in a
/// CUDA graph).
/// @throws cusci::value_error for an unsupported dtype (bool, float16, complex: "dtype=... is not
///         supported by medfilt"), an even kernel size ("Each element of kernel_size should be
///         odd."), a size < 1; cusci::index_error for fewer kernel sizes than dimensions;
///         cusci::runtime_error for more ("sequence argument must have length equal to input
///         rank", from ndimage).
/// SciPy: `scipy.signal.medfilt`. Deviations: no UserWarning when the kernel exceeds the array
/// (zero padding applies, as SciPy); negative odd sizes raise value_error (SciPy: ValueError from
/// ndimage, the same).
ndarray medfilt(const ndarray& volume, const ndimage::per_axis<std::int64_t>& kernel_size = {});

/// 2-D median filter with zero padding (medfilt of a 2-D array).
/// @param input       [m, n] uint8, float32, float64 (SciPy's own 2-D path); any other integer
///                    dtype goes through medfilt as SciPy does (and then any number of dimensions).
/// @param kernel_size one odd size for both axes or two; default 3.
/// @return [input.shape], input's dtype, C-contiguous.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for an input that is not 2-D (uint8 / float32 / float64), an even
///         size ("Each element of kernel_size should be odd."), a size < 1, a kernel_size of length
///         other than 2 ("Size must be a length two sequence"), and medfilt's errors for other
///         dtypes.
/// SciPy: `scipy.signal.medfilt2d`. Deviations: windows holding NaN give ndimage's median_filter
/// value (SciPy's C quickselect gives another, order-dependent one); kernel sizes < 1 and sequences
/// of 3 or more sizes raise value_error (SciPy reads out of bounds).
ndarray medfilt2d(const ndarray& input, const ndimage::per_axis<std::int64_t>& kernel_size = 3);

/// Order filter: each output is the element of rank `rank` (0 = smallest; negative counts from
/// the end, as ndimage) among the input values under the nonzero elements of `domain` centred on
/// it, with zero padding.
/// @param a      [any shape] int8..int64, uint8..uint64, float32, float64; any layout.
/// @param domain [a.ndim dimensions, each odd] the mask (nonzero = inside); a host array, or a
///               device array copied to the host (synchronizes).
/// @param rank   in [-n, n), n = number of nonzero elements of domain.
/// @return [a.shape], a's dtype, C-contiguous.
/// Asynchronous on the current stream (except the copy of a device domain).
/// @throws cusci::value_error for an even domain dimension ("Each dimension of domain argument
///         should have an odd number of elements."), an unsupported dtype ("dtype=... is not
///         supported by order_filter"); cusci::runtime_error for a rank outside the footprint
///         ("rank not within filter footprint size", also for an all-zero domain) and a domain whose
///         ndim differs from a's (from ndimage).
/// SciPy: `scipy.signal.order_filter`. No deviation.
ndarray order_filter(const ndarray& a, const array_like& domain, std::int64_t rank);

// ------------------------------------------------------------------------------------------- wiener

/// Wiener filter: with the local mean m and variance v over a window of `mysize` (zero padded)
/// and the noise power `noise` (default: the mean of v over the array), out = m where v < noise,
/// else m + (1 - noise / v) (im - m).
/// @param im     [any shape] bool, integer, float16/32/64; any layout.
/// @param mysize one window size for every axis or one per axis; not given: 3 (even sizes are
///               accepted, as SciPy, and centred as signal.correlate(..., 'same') centres them).
/// @param noise  the noise power; not given: estimated (a mean reduction, asynchronous).
/// @return [im.shape] float64 (as SciPy, whose correlate promotes with float64 ones), C-contiguous.
/// Asynchronous on the current stream (the noise estimate stays on the device). im ** 2 is formed
/// in im's dtype (it wraps for small integer dtypes, as NumPy's power). 2-D float32 / float64 images
/// with windows of at most 15 x 15 take one tiled kernel for the local sums (in double); other inputs
/// are converted to float64 and go through ndimage's uniform_filter (mode constant).
/// @throws cusci::value_error for a mysize sequence whose length differs from im.ndim ("in1 and in2
///         should have the same dimensionality"), a size < 1; cusci::not_implemented_error for
///         complex input.
/// SciPy: `scipy.signal.wiener`. Deviations: complex input is not supported; the local sums are
/// direct or running box sums rather than SciPy's correlate (direct or FFT), so values agree to
/// rounding (a value whose local variance sits within rounding of the noise power may take the other
/// branch).
ndarray wiener(const ndarray& im, const ndimage::per_axis<std::int64_t>& mysize = {},
               std::optional<double> noise = std::nullopt);

// ------------------------------------------------------------------------------------ Savitzky-Golay

/// How savgol_coeffs orders the coefficients (SciPy's `use`).
enum class savgol_use {
  conv,  ///< "conv": reversed, for a convolution
  dot,   ///< "dot": in window order, for a dot product
};

/// Parses "conv" / "dot". @throws cusci::value_error otherwise ("`use` must be 'conv' or 'dot'").
savgol_use parse_savgol_use(std::string_view name);

/// Keyword arguments of savgol_coeffs (SciPy's names and defaults).
struct savgol_coeffs_options {
  /// Order of the derivative (0 = smoothing).
  int deriv = 0;
  /// Sample spacing (the derivative is scaled by 1 / delta ** deriv).
  double delta = 1.0;
  /// Position in the window where the fit is evaluated; not given: the centre
  /// (window_length // 2, or window_length / 2 - 0.5 for an even length).
  std::optional<double> pos{};
  savgol_use use = savgol_use::conv;
};

/// Savitzky-Golay FIR coefficients: the linear combination of window samples that gives the
/// value (or derivative `deriv`) at `pos` of the least-squares polynomial of degree `polyorder`.
/// @return [window_length] float64 host array (zeros when deriv > polyorder).
/// Host only: a Householder QR of the scaled Vandermonde matrix in double (the minimum-norm
/// solution SciPy's lstsq returns), agreeing with SciPy to about 1e-12 relative for common sizes.
/// @throws cusci::value_error for polyorder >= window_length ("polyorder must be less than
///         window_length."), pos outside [0, window_length) (also window_length <= 0), a negative
///         deriv <= polyorder ("factorial() not defined for negative values"), delta == 0 with
///         deriv > 0 (SciPy: ZeroDivisionError).
/// SciPy: `scipy.signal.savgol_coeffs`. No deviation (no `xp` / `device` arguments).
host_array savgol_coeffs(std::int64_t window_length, std::int64_t polyorder, const savgol_coeffs_options& opts = {});

/// Boundary handling of savgol_filter (SciPy's `mode`).
enum class savgol_mode {
  mirror,    ///< "mirror": ndimage's mirror (whole-sample symmetric)
  constant,  ///< "constant": cval beyond the edges
  nearest,   ///< "nearest": the edge value repeated
  wrap,      ///< "wrap": periodic
  interp,    ///< "interp" (default): polynomial fits to the edge windows
};

/// Parses "mirror", "constant", "nearest", "wrap", "interp".
/// @throws cusci::value_error otherwise (SciPy's "mode must be 'mirror', 'constant', 'nearest'
///         'wrap' or 'interp'.").
savgol_mode parse_savgol_mode(std::string_view name);

/// Keyword arguments of savgol_filter (SciPy's names and defaults).
struct savgol_filter_options {
  int deriv = 0;
  double delta = 1.0;
  int axis = -1;
  savgol_mode mode = savgol_mode::interp;
  /// Value beyond the edges for mode constant.
  double cval = 0.0;
};

/// Savitzky-Golay filter along `axis`: ndimage convolve1d with savgol_coeffs(window_length,
/// polyorder, deriv, delta); in mode interp the first and last window_length // 2 outputs of each
/// line are the fitted polynomial (its derivative) evaluated there.
/// @param x [..., n, ...] any layout; float32 stays float32, float64 stays float64, every other
///          real dtype is converted to float64 (as SciPy's astype).
/// @param window_length >= 1 (even lengths are accepted, as SciPy); in mode interp <= n.
/// @param polyorder < window_length.
/// @return [x.shape], float32 or float64, C-contiguous.
/// Asynchronous on the current stream (the coefficients are designed on the host and passed as
/// kernel parameters).
/// @throws cusci::value_error as savgol_coeffs, for window_length > n in mode interp ("If mode is
///         'interp', window_length must be less than or equal to the size of x."), polyorder < 0
///         in mode interp ("expected deg >= 0"); cusci::index_error for a bad axis or a 0-d x;
///         cusci::not_implemented_error for complex x.
/// SciPy: `scipy.signal.savgol_filter`. Deviations: complex input is refused (SciPy discards the
/// imaginary part with a ComplexWarning); the edge fits are computed in double for float32 data
/// (SciPy fits in float32), so float32 edges agree to float32 rounding of the exact fit; an interp
/// filter over an axis of an array with no lines (another dimension 0) returns the empty result
/// (SciPy's lstsq raises).
ndarray savgol_filter(const ndarray& x, std::int64_t window_length, std::int64_t polyorder,
                      const savgol_filter_options& opts = {});

// -------------------------------------------------------------------------------- Whittaker-Henderson

/// SciPy's `lamb`: the string "reml" (choose the penalty by restricted maximum likelihood) or a
/// non-negative penalty. Converts implicitly from a number or a string, as in SciPy.
class whittaker_lamb {
 public:
  whittaker_lamb(double v) : value_(v) {}                // NOLINT: implicit, as SciPy's float
  whittaker_lamb(const char* s) : name_(s), is_name_(true) {}  // NOLINT: implicit, as SciPy's str
  whittaker_lamb(std::string s) : name_(std::move(s)), is_name_(true) {}  // NOLINT
  bool is_name() const noexcept { return is_name_; }
  const std::string& name() const noexcept { return name_; }
  double value() const noexcept { return value_; }

 private:
  double value_ = 0.0;
  std::string name_{};
  bool is_name_ = false;
};

/// Keyword arguments of whittaker_henderson (SciPy's names and defaults).
struct whittaker_henderson_options {
  whittaker_lamb lamb = "reml";
  /// Order p of the difference penalty, >= 1.
  int order = 2;
  /// Case weights [n] (finite); not given: all ones. Zero weights mark values to inter- or
  /// extrapolate (such signal values may be non-finite).
  std::optional<ndarray> weights{};
};

/// Result of whittaker_henderson (SciPy's _RichResult fields).
struct whittaker_henderson_result {
  /// [n] the smoothed signal: float64 (for lamb == 0: a copy of the signal in its dtype, as SciPy).
  ndarray x;
  /// The penalty used (the REML optimum for "reml").
  double lamb = 0.0;
};

/// Whittaker-Henderson smoothing: x = argmin sum_i w_i (y_i - x_i)^2 + lamb sum_i (Delta^p x_i)^2,
/// solved through the normal equations (W + lamb D'D) x = W y, a symmetric positive-definite band
/// matrix of half-bandwidth p, by a banded Cholesky factorization in double. lamb = "reml" maximises
/// the profiled REML criterion over log(lamb) with Brent's method from the bracket [-10, 10] (as
/// SciPy's minimize_scalar). For lamb so large that the system loses the identity's contribution
/// (lamb * eps > 8 without weights, or W + 8 w == W on the diagonal), or when the factorization
/// breaks down, the limit is returned: the least-squares polynomial of degree p - 1 (weights w as
/// numpy's Polynomial.fit applies them).
/// @param signal [n] with n >= order + 1; any real dtype; finite unless weights mark it.
/// @return {x, lamb}.
/// Synchronizes: the signal (and weights) are copied to the host, solved there (the problem is
/// one sequential band solve, O(n p^2)) and x is copied back.
/// @throws cusci::value_error for order < 1, a signal that is not 1-D or shorter than order + 1,
///         weights of another shape or non-finite, a non-finite signal value with nonzero weight
///         (or any without weights), lamb negative or a string other than "reml";
///         cusci::not_implemented_error for complex input.
/// SciPy: `scipy.signal.whittaker_henderson` (1.18). Deviations: no UserWarning when the solver
/// falls back to the polynomial; complex signals are refused; the REML optimum agrees with SciPy's to
/// the optimiser's tolerance (about 1e-8 in log(lamb)).
whittaker_henderson_result whittaker_henderson(const ndarray& signal, const whittaker_henderson_options& opts = {});

}  // namespace cusci::signal

#pragma once
/// @file peaks.hpp
/// Peak finding of scipy.signal on the GPU: `find_peaks` with every condition and property,
/// `peak_prominences`, `peak_widths`, the relative extrema `argrelmin` / `argrelmax` /
/// `argrelextrema`, and the wavelet-based `find_peaks_cwt`.
///
/// Dtypes follow SciPy: the 1-D functions convert x to float64 (as SciPy's `np.asarray(x,
/// dtype=np.float64)`): float64 data are used in place when contiguous, other real dtypes are cast
/// once; indices are int64 (SciPy's intp), every floating-point property float64. `argrelextrema`
/// compares in the data's own dtype (any real dtype).
///
/// Stream behaviour: every function enqueues its work on the current stream of the current device.
/// Those whose result size depends on the data (find_peaks, argrel*, find_peaks_cwt) or whose errors
/// and warnings do (peak_prominences, peak_widths) synchronize: they read counts and flags back.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ conditions

/// One border of an interval condition of `find_peaks`: a number, or an array with one value per
/// sample of x (device or host, any real dtype, size x.size; the value at each peak's index is used).
using peak_border = std::variant<double, ndarray, host_array>;

/// An interval condition of `find_peaks` (SciPy's `height`, `threshold`, `prominence`, `width`,
/// `plateau_size`): a lower border only (`peak_interval{1.0}` or just `1.0`, SciPy's scalar), or the
/// pair (min, max) with either end open (std::nullopt, SciPy's None).
struct peak_interval {
  std::optional<peak_border> min{};
  std::optional<peak_border> max{};
  peak_interval() = default;
  peak_interval(double lo) : min(lo) {}                 // NOLINT: SciPy's scalar condition
  peak_interval(ndarray lo) : min(std::move(lo)) {}     // NOLINT: an array as the lower border
  peak_interval(host_array lo) : min(std::move(lo)) {}  // NOLINT
  peak_interval(std::optional<peak_border> lo, std::optional<peak_border> hi)
      : min(std::move(lo)), max(std::move(hi)) {}
};

// ------------------------------------------------------------------------------------ find_peaks

/// Keyword arguments of `find_peaks` (SciPy's names, order and defaults; None = not given).
struct find_peaks_options {
  std::optional<peak_interval> height{};
  std::optional<peak_interval> threshold{};
  /// Minimal horizontal distance (>= 1) between neighbouring peaks; smaller peaks are removed first.
  std::optional<double> distance{};
  std::optional<peak_interval> prominence{};
  std::optional<peak_interval> width{};
  /// Window length (> 1, rounded up) bounding the prominence search (with prominence or width).
  std::optional<double> wlen{};
  /// Relative height at which widths are measured (>= 0; used with width).
  double rel_height = 0.5;
  std::optional<peak_interval> plateau_size{};
};

/// The peaks of `find_peaks` and the properties SciPy's dict holds: each optional member is present
/// exactly when SciPy's `properties` has that key. Every array has one entry per peak.
struct find_peaks_result {
  ndarray peaks;  ///< int64 [npeaks]: indices of the peaks in x, increasing
  std::optional<ndarray> peak_heights;      ///< float64, with height
  std::optional<ndarray> left_thresholds;   ///< float64 x[p] - x[p-1], with threshold
  std::optional<ndarray> right_thresholds;  ///< float64 x[p] - x[p+1], with threshold
  std::optional<ndarray> prominences;       ///< float64, with prominence or width
  std::optional<ndarray> left_bases;        ///< int64, with prominence or width
  std::optional<ndarray> right_bases;       ///< int64, with prominence or width
  std::optional<ndarray> width_heights;     ///< float64, with width
  std::optional<ndarray> widths;            ///< float64 (samples), with width
  std::optional<ndarray> left_ips;          ///< float64 interpolated left crossing, with width
  std::optional<ndarray> right_ips;         ///< float64 interpolated right crossing, with width
  std::optional<ndarray> plateau_sizes;     ///< int64, with plateau_size
  std::optional<ndarray> left_edges;        ///< int64 first sample of the plateau, with plateau_size
  std::optional<ndarray> right_edges;       ///< int64 last sample of the plateau, with plateau_size
};

/// Finds the local maxima of a 1-D signal (the middle sample of a flat top, rounded down) and keeps
/// those meeting every given condition, applied in SciPy's order: plateau_size, height, threshold,
/// distance, prominence, width.
/// @param x  [n] any real dtype (computed in float64), any layout.
/// @param opts  the conditions (each None by default).
/// @return the peaks (int64 [npeaks]) and the properties SciPy returns for the conditions given.
/// Synchronizes (the number of peaks is read back after each filtering stage).
/// @throws cusci::value_error when x is not 1-D ("`x` must be a 1-D array"), distance < 1, an array
///         border whose size differs from x's, wlen <= 1 (with prominence or width), rel_height < 0
///         (with width).
/// Warnings: `PeakPropertyWarning` ("some peaks have a prominence of 0", "some peaks have a width of
/// 0") as SciPy; `ComplexWarning` for complex x, whose real part is used (NumPy's cast).
/// Peaks with a NaN neighbourhood follow SciPy's comparisons (a NaN sample is never a peak and stops
/// plateaus, prominence and width searches).
/// Algorithm (docs/signal-peaks.md): one pass over x flags every rising sample whose flat run ends
/// with a fall (a bounded look-ahead; longer plateaus are resolved through a min/max pyramid of x
/// built in the same pass) and compacts them; one kernel per peak applies the pointwise conditions;
/// distance runs rounds of "keep a peak no undecided higher peak can remove, remove a peak next to a
/// kept one" (exactly SciPy's greedy), finished on the host in the rare case they do not converge;
/// prominences and widths walk the pyramid (O(log n) per peak, not O(n)).
/// SciPy: `scipy.signal.find_peaks(x, height=None, threshold=None, distance=None, prominence=None,
/// width=None, wlen=None, rel_height=0.5, plateau_size=None)`. Deviation: among peaks of EQUAL height
/// closer than `distance`, SciPy's choice depends on NumPy's unstable default argsort (its order
/// among ties varies with the CPU's SIMD sort); cusci uses the stable order (of equal peaks the
/// rightmost is kept first). With distinct heights the results are identical.
find_peaks_result find_peaks(const ndarray& x, const find_peaks_options& opts = {});

// ------------------------------------------------------------------------------------ prominences

/// Result of `peak_prominences` (SciPy's tuple).
struct peak_prominences_result {
  ndarray prominences;  ///< float64 [npeaks]
  ndarray left_bases;   ///< int64 [npeaks]
  ndarray right_bases;  ///< int64 [npeaks]
};

/// The prominence of each peak: its height above the higher of the lowest points between it and a
/// higher sample (or the window's end) on each side.
/// @param x  [n] any real dtype (float64 computation). @param peaks  [npeaks] integer indices into
///           x (int8..int64, uint8..uint32, bool: dtypes that cast safely to int64).
/// @param wlen  window length in samples (> 1, rounded up; even lengths act as the next odd one).
/// @return float64 prominences and int64 bases, [npeaks] each.
/// Synchronizes (index check). @throws cusci::value_error for x or peaks not 1-D, an index outside
/// [0, n) ("peak 7 is not a valid index for `x`"), wlen <= 1; cusci::type_error for peaks of another
/// dtype ("cannot safely cast `peaks` to dtype('intp')"). Complex x: as find_peaks.
/// Warnings: PeakPropertyWarning "some peaks have a prominence of 0".
/// SciPy: `scipy.signal.peak_prominences(x, peaks, wlen=None)`.
peak_prominences_result peak_prominences(const ndarray& x, const ndarray& peaks,
                                         std::optional<double> wlen = std::nullopt);

/// Result of `peak_widths` (SciPy's tuple).
struct peak_widths_result {
  ndarray widths;         ///< float64 [npeaks], in samples
  ndarray width_heights;  ///< float64 [npeaks]
  ndarray left_ips;       ///< float64 [npeaks]
  ndarray right_ips;      ///< float64 [npeaks]
};

/// Keyword arguments of `peak_widths`.
struct peak_widths_options {
  /// The height, relative to the prominence, at which the width is measured (>= 0).
  double rel_height = 0.5;
  /// The result of `peak_prominences` for the same x and peaks; computed when absent.
  std::optional<peak_prominences_result> prominence_data{};
  /// As peak_prominences (used only when prominence_data is absent).
  std::optional<double> wlen{};
};

/// The width of each peak at x[peak] - prominence * rel_height, with linear interpolation between
/// the samples where the signal crosses that height (searched within the prominence bases).
/// @param x, peaks  as `peak_prominences`.
/// @return float64 [npeaks] each.
/// Synchronizes. @throws cusci::value_error as peak_prominences, rel_height < 0, prominence_data
/// arrays of another length ("arrays in `prominence_data` must have the same shape as `peaks`"),
/// bases that do not bracket their peak inside x ("prominence data is invalid for peak 3").
/// Warnings: PeakPropertyWarning "some peaks have a width of 0".
/// SciPy: `scipy.signal.peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None)`.
/// Deviation: prominence_data arrays of any real dtype are converted (SciPy requires float64/intp).
peak_widths_result peak_widths(const ndarray& x, const ndarray& peaks, const peak_widths_options& opts = {});

// ------------------------------------------------------------------------------------ argrelextrema

/// The comparators `argrelextrema` accepts (SciPy takes any NumPy comparison function).
enum class extrema_comparator {
  greater,        ///< np.greater (argrelmax)
  less,           ///< np.less (argrelmin)
  greater_equal,  ///< np.greater_equal
  less_equal,     ///< np.less_equal
};
/// Parses "greater", "less", "greater_equal", "less_equal" (also "np.greater", ...).
/// @throws cusci::value_error otherwise.
extrema_comparator parse_extrema_comparator(std::string_view s);

/// How `argrelextrema` treats the neighbours past the ends (NumPy's `take` modes).
enum class extrema_mode {
  clip,   ///< "clip" (default): the end sample is its own neighbour
  wrap,   ///< "wrap": periodic
  raise,  ///< "raise": NumPy's take raises IndexError for any non-empty axis
};
/// Parses "clip", "wrap", "raise". @throws cusci::value_error otherwise ("clipmode not understood").
extrema_mode parse_extrema_mode(std::string_view s);

/// Keyword arguments of `argrelextrema` / `argrelmin` / `argrelmax` (after the comparator).
struct argrelextrema_options {
  int axis = 0;
  /// How many samples on each side the comparison covers (>= 1).
  std::int64_t order = 1;
  extrema_mode mode = extrema_mode::clip;
};

/// The indices of the samples for which comparator(x[i], x[i +- k]) holds for k = 1..order along
/// `axis`: one int64 array per dimension of `data` (`np.nonzero` of the mask, C order).
/// @param data  [...] any real dtype (compared in its dtype), any layout.
/// Synchronizes (the count). @throws cusci::value_error for order < 1 ("Order must be an int >= 1");
/// cusci::index_error for a 0-d array or an axis out of range, and for mode raise on a non-empty
/// axis; cusci::type_error for complex data.
/// SciPy: `scipy.signal.argrelextrema(data, comparator, axis=0, order=1, mode='clip')`.
/// Deviation: complex data (which NumPy orders lexicographically) are refused.
std::vector<ndarray> argrelextrema(const ndarray& data, extrema_comparator comparator,
                                   const argrelextrema_options& opts = {});
/// argrelextrema with `less`. SciPy: `scipy.signal.argrelmin(data, axis=0, order=1, mode='clip')`.
std::vector<ndarray> argrelmin(const ndarray& data, const argrelextrema_options& opts = {});
/// argrelextrema with `greater`. SciPy: `scipy.signal.argrelmax(data, axis=0, order=1, mode='clip')`.
std::vector<ndarray> argrelmax(const ndarray& data, const argrelextrema_options& opts = {});

// ------------------------------------------------------------------------------------ find_peaks_cwt

/// Keyword arguments of `find_peaks_cwt` (the wavelet is SciPy's default, the Ricker wavelet).
struct find_peaks_cwt_options {
  /// Largest column shift of a ridge line between rows, per row (default widths / 4); at least as
  /// many values as widths.
  std::optional<std::vector<double>> max_distances{};
  /// Rows a ridge line may skip (default ceil(widths[0])).
  std::optional<double> gap_thresh{};
  /// Minimal ridge-line length in rows (default ceil(len(widths) / 4)).
  std::optional<double> min_length{};
  /// Minimal signal-to-noise ratio of a ridge line's start.
  double min_snr = 1.0;
  /// Percentile of the smallest-width transform taken as the noise floor.
  double noise_perc = 10.0;
  /// Window of the noise percentile (default ceil(len(vector) / 20)).
  std::optional<double> window_size{};
};

/// Peaks of a 1-D signal found by ridge lines of its continuous wavelet transform (Ricker wavelet).
/// @param vector  [n] any real dtype. @param widths  the wavelet widths (>= 1 value).
/// @return int64 [npeaks] sorted indices, on the device.
/// Synchronizes: runs on the host (the transform is n * sum(min(10 w, n)) multiply-adds and the
/// ridge-line tracking is sequential; SciPy's algorithm step by step).
/// @throws cusci::value_error for vector not 1-D, max_distances shorter than widths ("Max_distances
///         must have at least as many rows as matr"), noise_perc outside [0, 100];
///         cusci::index_error for empty widths (SciPy's widths[0]).
/// SciPy: `scipy.signal.find_peaks_cwt(vector, widths, wavelet=None, max_distances=None,
/// gap_thresh=None, min_length=None, min_snr=1, noise_perc=10, window_size=None)`. Deviations: only
/// the default wavelet; the transform is a direct convolution (SciPy's `convolve` may use an FFT),
/// so ridge decisions on near-ties can differ at rounding level; no peaks give an empty int64 array
/// (SciPy's `np.asarray([])` is float64).
ndarray find_peaks_cwt(const ndarray& vector, const std::vector<double>& widths,
                       const find_peaks_cwt_options& opts = {});

}  // namespace cusci::signal

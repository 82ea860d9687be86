#pragma once
/// @file generic.hpp
/// scipy.ndimage's filters with a user function: generic_filter, generic_filter1d and
/// vectorized_filter, in their run-time-compiled form. The function is the CUDA C++ source of a
/// `__device__` function (cusci::ndimage::device_function); cusci generates a kernel around it and
/// compiles it with NVRTC through cusci::rtc the first time it is used with a given source, options
/// and signature (cached in memory and on disk like every cusci::rtc module, see cusci/rtc.hpp).
/// Programs compiled with nvcc may pass a device functor instead through the templates of
/// cusci/ndimage/nvcc/generic_filters.cuh (same options, same results).
///
/// How the filters run (both forms):
/// - The input is first copied, extended beyond its edges by the boundary mode, into a C-contiguous
///   padded array (float64 for generic_filter / generic_filter1d, converted as SciPy's line buffers
///   convert it; the input's own dtype for vectorized_filter, as SciPy's `np.pad`). The copy also
///   makes `output` = the input itself give the values of a separate output.
/// - generic_filter / vectorized_filter: one GPU thread per output element gathers the values under
///   the footprint's true elements, in C order over the footprint, into a per-thread buffer (local
///   memory for windows of up to 64 elements, a global scratch buffer otherwise) and calls the
///   function once. generic_filter1d: one thread per line calls the function once with the extended
///   line (so few long lines run on few threads: the function itself sees a whole line).
/// - The function's results are stored in float64 and converted to the output dtype as SciPy's C
///   code converts them (generic_filter / generic_filter1d: a C cast as compiled for x86-64: integer
///   outputs truncate toward zero, NaN and out-of-range values give the "integer indefinite" value,
///   then its low bits, bool the byte of that conversion); vectorized_filter stores each result into
///   the output type with NumPy's casting (below).
/// - Everything is enqueued on the current stream (cusci::get_current_stream()) and the call returns
///   without synchronizing; the first call with a new function compiles it (blocking the host).
///
/// Deviations common to the three functions:
/// - SciPy's `extra_arguments` / `extra_keywords` do not exist: write constants into the source (or
///   pass `-DNAME=value` in `device_function::options`), or capture them in the functor (nvcc form).
/// - The function cannot report an error (SciPy's callbacks return an error status): a device-side
///   trap surfaces as a cusci::cuda_error at the next synchronization.
/// - A compile error in the user's source raises cusci::rtc::compile_error (NVRTC's log in `log()`);
///   a `name` that the source does not define raises the same (the generated kernel calls it).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/device_function.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of generic_filter (SciPy's names and defaults, less extra_arguments /
/// extra_keywords).
struct generic_filter_options {
  /// The neighbourhood (nonzero = inside), one dimension per filtered axis; replaces `size` (SciPy
  /// warns when both are given; cusci ignores `size` silently).
  std::optional<host_array> footprint{};
  /// Output dtype or array (bool, integer, float32 or float64); default: the input dtype.
  ndimage::output_arg output{};
  /// One boundary mode for every axis (SciPy's generic_filter takes a single mode).
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the window, one value or one per filtered axis: -(extent / 2) <= origin <= (extent - 1) / 2.
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
};

/// Keyword arguments of generic_filter1d (SciPy's names and defaults, less extra_arguments /
/// extra_keywords).
struct generic_filter1d_options {
  /// Output dtype or array (bool, integer, float32 or float64); default: the input dtype.
  ndimage::output_arg output{};
  ndimage::mode mode = mode::reflect;
  double cval = 0.0;
  /// Shift of the window: -(filter_size / 2) <= origin <= (filter_size - 1) / 2.
  std::int64_t origin = 0;
};

/// vectorized_filter's `mode`: one of the boundary modes, or SciPy's "valid" (no extension: the
/// output shrinks by size - 1 along each filtered axis). Converts implicitly from ndimage::mode and
/// from SciPy's strings.
class vectorized_mode {
 public:
  vectorized_mode(ndimage::mode m) noexcept : mode_(m) {}  // NOLINT: implicit, as SciPy's strings
  /// "reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant",
  /// "grid-wrap" or "valid". @throws cusci::value_error for anything else (SciPy's ValueError
  /// "`mode` must be one of ...").
  vectorized_mode(std::string_view name);    // NOLINT
  vectorized_mode(const char* name) : vectorized_mode(std::string_view(name)) {}  // NOLINT
  /// The mode "valid".
  static vectorized_mode valid() noexcept {
    vectorized_mode v(mode::reflect);
    v.valid_ = true;
    return v;
  }
  bool is_valid() const noexcept { return valid_; }
  /// The boundary mode (meaningless when is_valid()).
  ndimage::mode boundary() const noexcept { return mode_; }

 private:
  ndimage::mode mode_ = mode::reflect;
  bool valid_ = false;
};

/// Keyword arguments of vectorized_filter (SciPy's names and defaults; all keyword-only in SciPy).
struct vectorized_filter_options {
  /// Window lengths, one or one per filtered axis (each >= 1); exactly one of size and footprint.
  per_axis<std::int64_t> size{};
  /// The neighbourhood (nonzero = inside), one dimension per filtered axis (in the order of `axes`).
  std::optional<host_array> footprint{};
  /// SciPy's output is an array (the function's result is assigned into it, NumPy casting); cusci
  /// also accepts a dtype (a new array of that dtype). Default: a new array of the input dtype (SciPy:
  /// the dtype the Python callable returns; see vectorized_filter).
  ndimage::output_arg output{};
  vectorized_mode mode = mode::reflect;
  /// Value outside the edges; only with mode constant / grid_constant (SciPy's cval=None is 0).
  std::optional<double> cval{};
  /// Shift of the window, one value or one per filtered axis (SciPy's None is 0).
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter, in the order of the footprint's / size's dimensions; default: all axes.
  std::optional<std::vector<int>> axes{};
  /// SciPy's bound on the bytes of one batch of windows: must be > 0 (cusci::value_error); it
  /// also bounds the global scratch buffer of windows longer than 64 elements (at least one block of
  /// windows is always allocated).
  std::int64_t batch_memory = std::int64_t{1} << 30;
};

/// Multidimensional filter with a user function: each output element is
/// `function(buffer, filter_size)` where buffer holds, as double, the input values under the true
/// elements of the footprint (the box of `size` when no footprint is given) centred on the element
/// (shifted by `origin`), in C order over the footprint, the input extended by `opts.mode`.
///
/// `function` must define
/// `__device__ double NAME(const double* buffer, std::ptrdiff_t filter_size)` (any return type
/// convertible to double; `std::ptrdiff_t` and `ptrdiff_t` are predeclared). SciPy's LowLevelCallable
/// `int callback(double* buffer, npy_intp filter_size, double* return_value, void* user_data)` maps
/// to it with the return value returned and no user_data. filter_size may be 0 (all-false
/// footprint), as in SciPy.
/// @param input  [any shape] bool, integer, float32 or float64, any layout. A 0-d input is a window
///               of itself.
/// @param size   window lengths, one or one per filtered axis; ignored when opts.footprint is given.
/// @param opts   footprint, output, mode, cval, origin, axes (footprint and size dimensions follow the
///               filtered axes in increasing order; origin follows `axes` as given when some axes
///               are left out, else the array's axes; both as SciPy).
/// @return [input.shape], dtype `opts.output` or input.dtype(); `opts.output`'s array when given
///         (which may be the input itself).
/// Asynchronous on the current stream; the first call with a new function compiles it.
/// @throws cusci::type_error for a complex input ("Complex type not supported");
///         cusci::runtime_error for no size and no footprint, a size sequence of the wrong length, a
///         footprint whose dimensions do not match the filtered axes, float16 input or output or a
///         complex output ("array type not supported"), an output array of another shape;
///         cusci::value_error for an invalid origin, bad axes, a window above 2^30 elements, more
///         than 32 dimensions; cusci::rtc::compile_error for source NVRTC rejects. Arguments are
///         checked before anything is allocated.
/// SciPy: `scipy.ndimage.generic_filter`. Deviations: see the file comment (no extra_arguments).
ndarray generic_filter(const ndarray& input, const device_function& function, const per_axis<std::int64_t>& size = {},
                       const generic_filter_options& opts = {});

/// One-dimensional filter with a user function along `axis`: for every line of the input along the
/// axis (length L), the function receives the line as double extended by the boundary mode to
/// L + filter_size - 1 values (filter_size / 2 + origin before the line, the rest after it) and
/// writes the L outputs.
///
/// `function` must define `__device__ void NAME(const double* input_line, std::ptrdiff_t input_length,
/// double* output_line, std::ptrdiff_t output_length)` (a return value is ignored). SciPy's
/// LowLevelCallable `int function(double* input_line, npy_intp input_length, double* output_line,
/// npy_intp output_length, void* user_data)` maps to it without user_data and status. The output
/// line starts as zeros (SciPy: unspecified); values the function does not write stay 0.
/// @param input        [any shape, ndim >= 1] bool, integer, float32 or float64, any layout.
/// @param filter_size  >= 1 (cusci::runtime_error "invalid filter size").
/// @param axis         in [-ndim, ndim).
/// @return [input.shape], dtype `opts.output` or input.dtype(); `opts.output`'s array when given.
/// One GPU thread per line; asynchronous on the current stream.
/// @throws cusci::type_error for a complex input; cusci::runtime_error for filter_size < 1,
///         float16 input or output, a complex output, an output array of another shape;
///         cusci::value_error for an invalid origin, a line above 2^30 values, more than 32
///         dimensions; cusci::index_error for a bad axis (also for a 0-d input);
///         cusci::rtc::compile_error.
/// SciPy: `scipy.ndimage.generic_filter1d`. Deviations: see the file comment.
ndarray generic_filter1d(const ndarray& input, const device_function& function, std::int64_t filter_size,
                         int axis = -1, const generic_filter1d_options& opts = {});

/// Filter with a per-window user function in the input's own type: SciPy's vectorized_filter, whose
/// callable `function(window, *, axis)` reduces a batch of windows along `axis`; on the GPU the
/// reduction of one window is one call of the device function
/// `__device__ R NAME(const T* window, std::ptrdiff_t size)`, where T is the input's element type
/// (`bool`, `signed char`/`short`/`int`/`long long` and unsigned, `float`, `double`, `__half` for
/// float16 (cuda_fp16.h is included), `cuda::std::complex<float/double>` for complex64/128
/// (<cuda/std/complex> is included)) and `window` holds the values under the footprint's true
/// elements in C order over the footprint (for `size`, the whole box), i.e. SciPy's
/// `window[..., footprint]` of one output element. R is a real or complex arithmetic type (or any type
/// for which `static_cast<output type>(R)` compiles). The generated source typedefs `cusci_input_t` and
/// `cusci_output_t`.
///
/// The output dtype is `opts.output`'s (dtype or array), else the input dtype (SciPy: the dtype the
/// callable returns; here a device function has no dtype the host can see). Unlike generic_filter,
/// every dtype is accepted (float16 and complex included), as SciPy's.
/// @param input [any shape] any dtype, any layout.
/// @param opts  size or footprint, output, mode (a boundary mode or "valid"), cval (only with
///              constant modes), origin, axes, batch_memory.
/// @return input.shape, or for "valid" the shape less (extent - 1) along each filtered axis; an input
///         with no elements is returned as is (as SciPy). `opts.output`'s array when given.
/// Asynchronous on the current stream.
/// @throws cusci::value_error (SciPy's ValueError) for neither or both of size and footprint, a size
///         < 1, more axes than input dimensions, a size / footprint / origin that does not match the
///         axes, "valid" with a nonzero origin, a cval with a non-constant mode, batch_memory <= 0, an
///         origin outside [-(extent / 2), (extent - 1) / 2] (SciPy: np.pad's ValueError), a window
///         larger than the input with "valid", repeated axes, an output array of another shape (NumPy's
///         broadcast ValueError); cusci::index_error for an axis out of range; cusci::rtc::compile_error
///         (also when the result cannot be converted to the output type).
/// The function's results are stored with NumPy's casting, as SciPy's `output[...] = result`: a real
/// floating result into an integer output is C's conversion as on x86-64 (NaN and out-of-range
/// values give the "integer indefinite" value, then its low bits), into bool `v != 0`, a complex result
/// into a real output its real part (NumPy warns); other pairs static_cast.
/// SciPy: `scipy.ndimage.vectorized_filter`. Deviations: the output dtype (above); multi-valued
/// functions are not supported.
ndarray vectorized_filter(const ndarray& input, const device_function& function,
                          const vectorized_filter_options& opts = {});

}  // namespace cusci::ndimage

#pragma once
// Argument handling shared by the host wrappers of cusci::ndimage's filters (SciPy's
// _ni_support: output dtype and array, axes, per-axis sequences, the dtypes SciPy's C filters
// accept). Host C++ only.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage::detail {

/// "cusci::ndimage::<fn>".
std::string fname(const char* fn);

/// A double as Python prints it for messages ("2.0", "-1.5").
std::string num(double v);

/// `axis` in [0, ndim). @throws cusci::index_error "<fn>: <param> A is out of bounds for array of
/// dimension N".
int normalize_axis(int axis, int ndim, const char* fn, const char* param);

/// SciPy's _get_output for a dtype argument (or None): the input dtype, or the dtype given; with a
/// complex input (`complex_output`), a real dtype is promoted to complex as SciPy does for a dtype
/// argument. No check of what the kernels support (check_kernel_dtypes).
dtype result_dtype(const ndarray& in, std::optional<dtype> out, bool complex_output);

/// SciPy's _get_output for `output=`: a dtype as result_dtype; an array gives its own dtype, and
/// with `complex_output` a real array is refused (cusci::runtime_error "output must have complex
/// dtype", SciPy's RuntimeError). The array's shape is not checked here (check_output_shape).
dtype result_dtype(const ndarray& in, const output_arg& out, const char* fn, bool complex_output);

/// What SciPy's C filters accept, checked where a filter pass runs: float16 input or output
/// (cusci::runtime_error "array type float16 not supported"), a complex output for a real input
/// (cusci::runtime_error, SciPy: "array type dtype('complex64') not supported"), a real output for a
/// complex input (cusci::runtime_error "output must have complex dtype").
void check_kernel_dtypes(dtype in, dtype out, const char* fn);

/// SciPy's _get_output for a dtype argument (or None), refusing a real output for a complex input
/// (unless `promote_complex`, which promotes it to complex) and a complex output for a real input:
/// cusci::runtime_error (SciPy's RuntimeError). float16 is not checked here (check_kernel_dtypes).
dtype output_dtype(const ndarray& in, std::optional<dtype> out, const char* fn, bool promote_complex = true);

/// output_dtype for SciPy's `output=` argument: for an array, its dtype (never promoted: a real
/// array for a complex input raises cusci::runtime_error, SciPy's "output must have complex
/// dtype"). The array's shape is not checked here (check_output_shape).
dtype output_dtype(const ndarray& in, const output_arg& out, const char* fn, bool promote_complex = true);

/// Delivers `result` (a new array of the output dtype and the result shape) as SciPy's `output=`
/// asks: returned as is when no array was given; otherwise copied into the given array, which is
/// returned. The given array must have `result`'s shape (cusci::runtime_error "output shape not
/// correct", SciPy's RuntimeError) and live on the same device. Enqueues on the current stream.
ndarray deliver_output(ndarray result, const output_arg& out, const char* fn);

/// Checks an `output=` array against the result shape before any work (SciPy's _get_output):
/// cusci::runtime_error "output shape not correct" when they differ. No-op without an array.
void check_output_shape(const output_arg& out, const shape_t& shape, const char* fn);

/// The array a filter writes its result into: the `output=` array itself (shape `shape`, checked by
/// check_output_shape; it must live on `device`, else cusci::value_error), or a new C-contiguous
/// array of `shape` and dtype `od` (SciPy allocates C order whatever the input's layout).
ndarray make_output(const output_arg& out, const shape_t& shape, dtype od, int device, const char* fn);

/// Whether the elements of `a` and `b` may share bytes (their byte extents intersect; arrays of
/// size 0 never do). Conservative, as NumPy's may_share_memory.
bool may_share_memory(const ndarray& a, const ndarray& b);

/// Whether `a` and `b` view exactly the same elements the same way (same address, dtype, shape and
/// strides).
bool same_view(const ndarray& a, const ndarray& b);

/// SciPy's `output[...] = input[...]` of a filter that filters no axis: `src` cast into `dst` (same
/// shape, any layouts, any overlap). Enqueues on the current stream.
void copy_into(const ndarray& src, const ndarray& dst);

/// SciPy's _check_axes: all axes when not given; each in [-ndim, ndim) and unique, normalized.
/// @throws cusci::value_error "specified axis: A is out of range" / "axes must be unique" (SciPy's
/// ValueError texts).
std::vector<int> check_axes(const std::optional<std::vector<int>>& axes, int ndim, const char* fn);

/// SciPy's _normalize_sequence: a scalar repeated `n` times, or exactly `n` values.
/// @throws cusci::runtime_error when a sequence's length is not `n` (SciPy's RuntimeError "sequence
/// argument must have length equal to input rank").
template <class T>
std::vector<T> expand(const per_axis<T>& v, std::size_t n, const char* fn, const char* param) {
  if (v.is_scalar) return std::vector<T>(n, v.values.front());
  if (v.values.size() != n)
    throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank: " + param +
                        " must be a single value or have one value per filtered axis (" + std::to_string(n) +
                        "), got " + std::to_string(v.values.size()) + " values");
  return v.values;
}

/// A boundary mode the filters know (a value of the enum mode).
/// @throws cusci::runtime_error "boundary mode not supported" (SciPy's RuntimeError) otherwise.
void check_mode(mode m, const char* fn);

/// Refuses dtypes SciPy's filters do not support (float16: "array type not supported").
/// @throws cusci::runtime_error naming `what` (SciPy's RuntimeError).
void check_real_kernel_dtype(dtype dt, const char* fn, const char* what);

/// Largest filter window accepted (the kernels count taps in int).
inline constexpr std::int64_t max_filter_size = std::int64_t{1} << 30;

/// A window length: at least 1 (cusci::runtime_error "incorrect filter size", SciPy's RuntimeError)
/// and at most max_filter_size (cusci::value_error).
void check_size(std::int64_t size, const char* fn);

/// SciPy's origin test of a window of `size`: size / 2 + origin in [0, size).
/// @throws cusci::value_error "invalid origin".
void check_origin(std::int64_t size, std::int64_t origin, const char* fn);

}  // namespace cusci::ndimage::detail

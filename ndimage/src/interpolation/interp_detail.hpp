#pragma once
// Internal interface of the interpolation family (host C++ only): SciPy's interpolation mode codes
// and the two kernel entry points.

#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage::detail {

/// ni_support.h's NI_ExtendMode codes, as `_extend_mode_to_code(mode)` (is_filter=False) gives them.
enum interp_code : int {
  ic_nearest = 0,
  ic_wrap = 1,
  ic_reflect = 2,  // reflect and grid-mirror
  ic_mirror = 3,
  ic_constant = 4,
  ic_grid_wrap = 5,
  ic_grid_constant = 6,
};

int interp_mode_code(mode m) noexcept;

/// One spline_filter1d pass: `dst` (float64, C-contiguous, src's shape; may be src itself) receives
/// the B-spline coefficients of order 2..5 of every line of `src` (any real dtype except float16, any
/// layout) along `axis`, with the initial conditions of mode code `code`. Asynchronous.
/// `sequential` keeps SciPy's order of operations on every line (bit-exact; used where the result is
/// converted to an integer type, whose truncation would turn a rounding difference into a whole unit);
/// otherwise lines of at least `min_parallel_length` samples run the recursions in parallel chunks
/// (values equal to SciPy's up to rounding).
void spline_filter_pass(const ndarray& src, const ndarray& dst, int axis, int order, int code,
                        bool sequential = false);

/// Lines shorter than this always take the sequential (bit-exact) kernel.
inline constexpr std::int64_t min_parallel_length = 64;

/// dst[...] = src (same shape, any layouts, any real dtypes) with C's conversion from double as
/// SciPy's builds on x86-64 perform it (ni_support.c's line copies, NumPy's unsafe casts): truncation
/// toward zero, integers narrower than 32 bits and uint32 taking the low bits of the 32- / 64-bit
/// truncation (-23.7 -> uint8 233), out-of-range int32 / int64 giving the minimum. Values are read as
/// double, so use it for floating `src` only. Asynchronous.
void c_cast_copy(const ndarray& src, const ndarray& dst);

/// How output positions map to input coordinates.
struct resample_spec {
  enum kind_t { zoom_shift = 0, affine = 1, coordinates = 2 } kind = zoom_shift;
  // zoom_shift: cc = o + shift, then (grid_mode ? (cc + 0.5) * zoom - 0.5 : cc * zoom).
  bool has_zoom = false, has_shift = false, grid_mode = false;
  std::vector<double> zoom, shift;
  // affine: cc[d] = offset[d] + sum_l o[l] * matrix[d * n_out + l] (left to right).
  std::vector<double> matrix, offset;
  // coordinates: float32 or float64 array [n_in, out_shape...], any layout.
  ndarray coords;
  int order = 3;
  int mode = ic_constant;
  double cval = 0.0;
  std::int64_t npad = 0;
  /// Leading axes of `in` and `out` that are not interpolated (the planes of rotate): the output
  /// position there is the input position.
  int n_batch = 0;
};

/// Resamples `in` (any real dtype except float16, any layout) into `out` (any real dtype except
/// float16, any layout; must not overlap `in`). Asynchronous.
void resample(const ndarray& in, const ndarray& out, const resample_spec& spec);

// --- SciPy's argument handling, shared by the host wrappers (interpolation.cpp,
// --- geometric_transform.cpp) -------------------------------------------------------------------

/// `order` in [lo, 5], else cusci::runtime_error (SciPy's "spline order not supported").
void interp_check_order(int order, const char* fn, int lo = 0);

/// float16 data: cusci::runtime_error (SciPy's "array type dtype('float16') not supported").
void interp_check_data_dtype(dtype dt, const char* fn, const char* what);

/// The output dtype and SciPy's _get_output checks (shape `shape`; a real output array for a complex
/// input is SciPy's RuntimeError "output must have complex dtype"; a complex output for a real input
/// and float16 outputs are refused as SciPy's C code refuses them).
dtype interp_result_dtype(const ndarray& input, const output_arg& out, const shape_t& shape, const char* fn);

/// A complex cval with a real input: cusci::type_error (SciPy's TypeError from the C argument parser).
void interp_check_cval(const ndarray& input, std::complex<double> cval, const char* fn);

/// SciPy's prefilter of the resampling functions for a real array: (coefficients, npad). `axes`
/// are the axes filtered (and padded): all of them, or rotate's plane. Returns (x, 0) when
/// `prefilter` is false or order <= 1.
std::pair<ndarray, std::int64_t> interp_prefiltered(const ndarray& x, int order, mode m, double cval, bool prefilter,
                                                    const std::vector<int>& axes);

}  // namespace cusci::ndimage::detail

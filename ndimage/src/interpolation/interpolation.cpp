// Host wrappers of cusci::ndimage's interpolation functions: SciPy 1.18's argument handling
// (scipy/ndimage/_interpolation.py), the prefilter with its padding (_prepad_for_spline_filter),
// complex inputs as their real and imaginary parts, then the kernels of spline_filter.cu and
// resample.cu. geometric_transform lives in geometric_transform.cpp and shares the argument handling
// through interp_detail.hpp.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "filters/filter_common.hpp"
#include "interpolation/interp_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace detail {

int interp_mode_code(mode m) noexcept {
  switch (m) {
    case mode::nearest: return ic_nearest;
    case mode::wrap: return ic_wrap;
    case mode::reflect:
    case mode::grid_mirror: return ic_reflect;
    case mode::mirror: return ic_mirror;
    case mode::constant: return ic_constant;
    case mode::grid_wrap: return ic_grid_wrap;
    case mode::grid_constant: return ic_grid_constant;
  }
  return ic_constant;
}

}  // namespace detail

namespace {

using detail::fname;

constexpr std::int64_t prepad = 12;  // _prepad_for_spline_filter's npad

void check_order(int order, const char* fn, int lo = 0) {
  if (order < lo || order > 5)
    throw runtime_error(fname(fn) + ": spline order not supported: order must be in [" + std::to_string(lo) +
                        ", 5], got " + std::to_string(order));
}

// SciPy's C code raises RuntimeError ("array type dtype('float16') not supported" / "data type not
// supported") for float16 inputs and outputs.
void check_data_dtype(dtype dt, const char* fn, const char* what) {
  if (dt == dtype::float16)
    throw runtime_error(fname(fn) + ": " + what + " array type float16 not supported");
}

/// `x` converted to `od` as SciPy's C line copies and NumPy's assignments do (C's truncating casts
/// for a floating `x` into an integer type; astype otherwise).
ndarray cast_like_c(const ndarray& x, dtype od) {
  if (x.dtype() == od) return x;
  const bool from_float = x.dtype() == dtype::float32 || x.dtype() == dtype::float64;
  const bool to_float = od == dtype::float32 || od == dtype::float64 || is_complex(od);
  if (!from_float || to_float) return x.astype(od);
  ndarray r(x.shape(), od);
  detail::c_cast_copy(x, r);
  return r;
}

/// dst[...] = x with cast_like_c's conversions.
void assign_like_c(const ndarray& x, ndarray dst) {
  const bool from_float = x.dtype() == dtype::float32 || x.dtype() == dtype::float64;
  const dtype od = dst.dtype();
  const bool to_float = od == dtype::float32 || od == dtype::float64 || is_complex(od);
  if (from_float && !to_float) detail::c_cast_copy(x, dst);
  else cusci::detail::copy_cast(x, dst);
}

bool is_integer_output(dtype od) {
  return !(od == dtype::float32 || od == dtype::float64 || is_complex(od));
}

/// The output dtype and SciPy's _get_output checks (shape; a real output array for a complex input
/// is SciPy's RuntimeError "output must have complex dtype").
dtype result_dtype(const ndarray& input, const output_arg& out, const shape_t& shape, const char* fn) {
  if (out.is_array()) {
    detail::check_output_shape(out, shape, fn);
    if (is_complex(input.dtype()) && !is_complex(out.array().dtype()))
      throw runtime_error(fname(fn) + ": output must have complex dtype for an input of dtype " +
                          std::string(dtype_name(input.dtype())) + ", got " +
                          std::string(dtype_name(out.array().dtype())));
  }
  const dtype od = detail::output_dtype(input, out, fn);
  check_data_dtype(od, fn, "output");
  return od;
}

void check_cval(const ndarray& input, std::complex<double> cval, const char* fn) {
  if (!is_complex(input.dtype()) && cval.imag() != 0.0)
    throw type_error(fname(fn) + ": cval must be a real number for an input of real dtype " +
                     std::string(dtype_name(input.dtype())));
}

/// SciPy's _normalize_sequence: RuntimeError for a sequence of the wrong length.
std::vector<double> normalize_sequence(const per_axis<double>& v, int rank, const char* fn, const char* param) {
  if (v.is_scalar) return std::vector<double>(static_cast<std::size_t>(rank), v.values.front());
  if (static_cast<int>(v.values.size()) != rank)
    throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank (" +
                        std::to_string(rank) + "), " + param + " has " + std::to_string(v.values.size()) + " values");
  return v.values;
}

/// spline_filter over `axes` (in that order) of a real array; the passes' intermediate results are
/// stored in `od` as SciPy's chained passes store them in the output (C's casts). `sequential`: see
/// detail::spline_filter_pass.
ndarray spline_filter_axes(const ndarray& x, int order, dtype od, int code, const std::vector<int>& axes,
                           bool sequential = false) {
  ndarray work(x.shape(), dtype::float64);
  ndarray cur = x;
  for (int ax : axes) {
    detail::spline_filter_pass(cur, work, ax, order, code, sequential);
    cur = od == dtype::float64 ? work : cast_like_c(work, od);
  }
  return cur;
}

/// SciPy's prefilter of the resampling functions for a real array: (coefficients, npad). `axes`
/// are the axes filtered (and padded): all of them, or rotate's plane.
std::pair<ndarray, std::int64_t> prefiltered(const ndarray& x, int order, mode m, double cval, bool prefilter,
                                             const std::vector<int>& axes) {
  if (!prefilter || order <= 1) return {x, 0};
  ndarray padded = x;
  std::int64_t npad = 0;
  if (m == mode::nearest || m == mode::grid_constant) {
    npad = prepad;
    pad_width_t w(static_cast<std::size_t>(x.ndim()), {0, 0});
    for (int ax : axes) w[static_cast<std::size_t>(ax)] = {prepad, prepad};
    if (m == mode::nearest) {
      padded = pad(x, w, pad_mode::edge);
    } else {
      pad_options po;
      po.constant_values = {scalar_pair{scalar(cval), scalar(cval)}};
      padded = pad(x, w, pad_mode::constant, po);
    }
  }
  return {spline_filter_axes(padded, order, dtype::float64, detail::interp_mode_code(m), axes), npad};
}

std::vector<int> all_axes(int ndim) {
  std::vector<int> a;
  for (int d = 0; d < ndim; ++d) a.push_back(d);
  return a;
}

/// Runs `spec` on a real input into `out` (a view of the result), prefiltering first.
void resample_real(const ndarray& x, const ndarray& out, detail::resample_spec spec, mode m, double cval,
                   bool prefilter, const std::vector<int>& filter_axes) {
  auto [coef, npad] = prefiltered(x, spec.order, m, cval, prefilter, filter_axes);
  spec.npad = npad;
  spec.mode = detail::interp_mode_code(m);
  spec.cval = cval;
  detail::resample(coef, out, spec);
}

/// The result array for `input` (real or complex) filled part by part through `run(x, out, cval)`.
template <class Run>
ndarray resample_parts(const ndarray& input, const shape_t& shape, dtype od, const output_arg& output,
                       std::complex<double> cval, const char* fn, Run&& run) {
  ndarray result(shape, od);
  if (is_complex(input.dtype())) {
    run(cusci::real(input), cusci::real(result), cval.real());
    run(cusci::imag(input), cusci::imag(result), cval.imag());
  } else {
    run(input, result, cval.real());
  }
  return detail::deliver_output(std::move(result), output, fn);
}

// cephes' sindg / cosdg (scipy.special), which rotate uses for its matrix: reduction to an octant in
// degrees, then the sine or cosine polynomial.
double polevl(double x, const double* c, int n) {
  double a = c[0];
  for (int i = 1; i <= n; ++i) a = a * x + c[i];
  return a;
}
constexpr double sin_coef[] = {1.58962301572218447952E-10, -2.50507477628503540135E-8, 2.75573136213856773549E-6,
                               -1.98412698295895384658E-4, 8.33333333332211858862E-3,  -1.66666666666666307295E-1};
constexpr double cos_coef[] = {1.13678171382044553091E-11, -2.08758833757683644217E-9, 2.75573155429816611547E-7,
                               -2.48015872936186303776E-5, 1.38888888888806666760E-3,  -4.16666666666666348141E-2,
                               4.99999999999999999798E-1};
constexpr double deg_to_rad = 1.74532925199432957692E-2;

double trig_degrees(double x, bool cosine) {
  int sign = 1;
  if (x < 0) {
    x = -x;
    if (!cosine) sign = -1;
  }
  if (x > 1.0e14) return 0.0;
  double y = std::floor(x / 45.0);
  double z = std::floor(std::ldexp(y, -4));
  z = y - std::ldexp(z, 4);
  int j = static_cast<int>(z);
  if (j & 1) {
    j += 1;
    y += 1.0;
  }
  j &= 7;
  if (j > 3) {
    sign = -sign;
    j -= 4;
  }
  if (cosine && j > 1) sign = -sign;
  volatile double zr = x - y * 45.0;
  zr = zr * deg_to_rad;
  const double zz = zr * zr;
  const bool use_cos = cosine ? !(j == 1 || j == 2) : (j == 1 || j == 2);
  double r;
  if (use_cos) {
    volatile double p = zz * polevl(zz, cos_coef, 6);
    r = 1.0 - p;
  } else {
    volatile double p = zz * polevl(zz, sin_coef, 5);
    volatile double q = zr * p;
    r = zr + q;
  }
  return sign < 0 ? -r : r;
}

}  // namespace

// The argument handling above, for the other host wrappers of the family (interp_detail.hpp).
namespace detail {
void interp_check_order(int order, const char* fn, int lo) { ::cusci::ndimage::check_order(order, fn, lo); }
void interp_check_data_dtype(dtype dt, const char* fn, const char* what) {
  ::cusci::ndimage::check_data_dtype(dt, fn, what);
}
dtype interp_result_dtype(const ndarray& input, const output_arg& out, const shape_t& shape, const char* fn) {
  return ::cusci::ndimage::result_dtype(input, out, shape, fn);
}
void interp_check_cval(const ndarray& input, std::complex<double> cval, const char* fn) {
  ::cusci::ndimage::check_cval(input, cval, fn);
}
std::pair<ndarray, std::int64_t> interp_prefiltered(const ndarray& x, int order, mode m, double cval, bool prefilter,
                                                    const std::vector<int>& axes) {
  return ::cusci::ndimage::prefiltered(x, order, m, cval, prefilter, axes);
}
}  // namespace detail

ndarray spline_filter1d(const ndarray& input, int order, int axis, const spline_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::spline_filter1d");
  const char* fn = "spline_filter1d";
  check_order(order, fn);
  check_data_dtype(input.dtype(), fn, "input");
  const dtype od = result_dtype(input, opts.output, input.shape(), fn);
  if (order <= 1) return detail::deliver_output(cast_like_c(input, od), opts.output, fn);
  const int ax = detail::normalize_axis(axis, input.ndim(), fn, "axis");
  const int code = detail::interp_mode_code(opts.mode);
  // integer outputs truncate: SciPy's exact order of operations keeps them SciPy's
  const bool sequential = is_integer_output(od);
  if (!is_complex(input.dtype()) && od == dtype::float64)  // the coefficients are the result
    return detail::deliver_output(spline_filter_axes(input, order, od, code, {ax}), opts.output, fn);
  ndarray result(input.shape(), od);
  auto part = [&](const ndarray& x, ndarray dst) {
    ndarray r = spline_filter_axes(x, order, dtype::float64, code, {ax}, sequential);
    assign_like_c(r, dst);
  };
  if (is_complex(input.dtype())) {
    part(cusci::real(input), cusci::real(result));
    part(cusci::imag(input), cusci::imag(result));
  } else {
    part(input, result);
  }
  return detail::deliver_output(std::move(result), opts.output, fn);
}

ndarray spline_filter(const ndarray& input, int order, const spline_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::spline_filter");
  const char* fn = "spline_filter";
  check_order(order, fn, 2);
  check_data_dtype(input.dtype(), fn, "input");
  const dtype od = result_dtype(input, opts.output, input.shape(), fn);
  if (input.ndim() == 0) return detail::deliver_output(cast_like_c(input, od), opts.output, fn);
  const int code = detail::interp_mode_code(opts.mode);
  const bool sequential = is_integer_output(od);
  if (!is_complex(input.dtype()))  // the last pass's array (new, C-contiguous, dtype od) is the result
    return detail::deliver_output(spline_filter_axes(input, order, od, code, all_axes(input.ndim()), sequential),
                                  opts.output, fn);
  ndarray result(input.shape(), od);
  auto part = [&](const ndarray& x, ndarray dst) {
    const dtype pd = is_complex(od) ? (od == dtype::complex64 ? dtype::float32 : dtype::float64) : od;
    ndarray r = spline_filter_axes(x, order, pd, code, all_axes(x.ndim()), sequential);
    assign_like_c(r, dst);
  };
  if (is_complex(input.dtype())) {
    part(cusci::real(input), cusci::real(result));
    part(cusci::imag(input), cusci::imag(result));
  } else {
    part(input, result);
  }
  return detail::deliver_output(std::move(result), opts.output, fn);
}

ndarray map_coordinates(const ndarray& input, const ndarray& coordinates, const map_coordinates_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::map_coordinates");
  const char* fn = "map_coordinates";
  check_order(opts.order, fn);
  if (is_complex(coordinates.dtype())) throw type_error(fname(fn) + ": Complex type not supported for coordinates");
  if (input.ndim() < 1 || coordinates.ndim() < 2)
    throw runtime_error(fname(fn) + ": input and output rank must be > 0 (input shape " +
                        cusci::detail::shape_str(input.shape()) + ", coordinates shape " +
                        cusci::detail::shape_str(coordinates.shape()) + ")");
  if (coordinates.shape()[0] != input.ndim())
    throw runtime_error(fname(fn) + ": invalid shape for coordinate array: coordinates.shape[0] must be " +
                        std::to_string(input.ndim()) + ", got " + std::to_string(coordinates.shape()[0]));
  check_data_dtype(input.dtype(), fn, "input");
  if (coordinates.dtype() == dtype::float16)
    throw runtime_error(fname(fn) + ": coordinate array data type not supported: float16");
  check_cval(input, opts.cval, fn);
  const shape_t oshape(coordinates.shape().begin() + 1, coordinates.shape().end());
  const dtype od = result_dtype(input, opts.output, oshape, fn);
  detail::resample_spec spec;
  spec.kind = detail::resample_spec::coordinates;
  spec.order = opts.order;
  spec.coords = (coordinates.dtype() == dtype::float32 || coordinates.dtype() == dtype::float64)
                    ? coordinates
                    : coordinates.astype(dtype::float64);
  return resample_parts(input, oshape, od, opts.output, opts.cval, fn, [&](const ndarray& x, const ndarray& out, double cv) {
    resample_real(x, out, spec, opts.mode, cv, opts.prefilter, all_axes(x.ndim()));
  });
}

ndarray affine_transform(const ndarray& input, const host_array& matrix_in, const affine_transform_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::affine_transform");
  const char* fn = "affine_transform";
  check_order(opts.order, fn);
  shape_t oshape = opts.output_shape ? *opts.output_shape
                                     : (opts.output.is_array() ? opts.output.array().shape() : input.shape());
  if (input.ndim() < 1 || oshape.empty())
    throw runtime_error(fname(fn) + ": input and output rank must be > 0");
  check_data_dtype(input.dtype(), fn, "input");
  check_cval(input, opts.cval, fn);
  cusci::detail::checked_size(oshape, fname(fn));
  const dtype od = result_dtype(input, opts.output, oshape, fn);
  const int nd = input.ndim();
  if (is_complex(matrix_in.dtype())) throw type_error(fname(fn) + ": matrix must be real");
  const host_array m64 = matrix_in.astype(dtype::float64);
  const double* m = m64.data_as<double>();
  const shape_t& ms = m64.shape();
  if ((ms.size() != 1 && ms.size() != 2) || ms[0] < 1)
    throw runtime_error(fname(fn) + ": no proper affine matrix provided (shape " + cusci::detail::shape_str(ms) + ")");
  std::vector<double> mat;
  std::vector<double> offset;
  std::int64_t rows = ms[0], cols = ms.size() == 2 ? ms[1] : 0;
  bool homogeneous = false;
  if (ms.size() == 2 && cols == nd + 1 && (rows == nd || rows == nd + 1)) {
    if (rows == nd + 1) {
      for (int l = 0; l <= nd; ++l) {
        const double want = l == nd ? 1.0 : 0.0;
        if (m[nd * cols + l] != want)
          throw value_error(fname(fn) + ": Expected homogeneous transformation matrix with shape " +
                            cusci::detail::shape_str(ms) + " for image shape " +
                            cusci::detail::shape_str(input.shape()) + ", but bottom row was not equal to [0, ..., 0, 1]");
      }
    }
    homogeneous = true;
    for (int r = 0; r < nd; ++r) {
      offset.push_back(m[r * cols + nd]);
      for (int l = 0; l < nd; ++l) mat.push_back(m[r * cols + l]);
    }
    rows = nd;
    cols = nd;
  } else {
    mat.assign(m, m + m64.size());
  }
  if (rows != nd)
    throw runtime_error(fname(fn) + ": affine matrix has wrong number of rows: expected " + std::to_string(nd) +
                        ", got " + std::to_string(rows));
  if (ms.size() == 2 && cols != static_cast<std::int64_t>(oshape.size()))
    throw runtime_error(fname(fn) + ": affine matrix has wrong number of columns: expected " +
                        std::to_string(oshape.size()) + ", got " + std::to_string(cols));
  if (!homogeneous) offset = normalize_sequence(opts.offset, nd, fn, "offset");
  detail::resample_spec spec;
  spec.order = opts.order;
  if (ms.size() == 1) {
    if (static_cast<int>(oshape.size()) != nd)
      throw runtime_error(fname(fn) + ": a diagonal matrix needs an output of the input's rank " + std::to_string(nd));
    spec.kind = detail::resample_spec::zoom_shift;
    spec.has_zoom = spec.has_shift = true;
    spec.zoom = mat;
    for (int d = 0; d < nd; ++d) spec.shift.push_back(offset[static_cast<std::size_t>(d)] / mat[static_cast<std::size_t>(d)]);
  } else {
    spec.kind = detail::resample_spec::affine;
    spec.matrix = mat;
    spec.offset = offset;
  }
  return resample_parts(input, oshape, od, opts.output, opts.cval, fn, [&](const ndarray& x, const ndarray& out, double cv) {
    resample_real(x, out, spec, opts.mode, cv, opts.prefilter, all_axes(x.ndim()));
  });
}

ndarray shift(const ndarray& input, const per_axis<double>& shift, const shift_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::shift");
  const char* fn = "shift";
  check_order(opts.order, fn);
  if (input.ndim() < 1) throw runtime_error(fname(fn) + ": input and output rank must be > 0");
  check_data_dtype(input.dtype(), fn, "input");
  check_cval(input, opts.cval, fn);
  const dtype od = result_dtype(input, opts.output, input.shape(), fn);
  std::vector<double> s = normalize_sequence(shift, input.ndim(), fn, "shift");
  for (double& v : s) v = -v;
  detail::resample_spec spec;
  spec.kind = detail::resample_spec::zoom_shift;
  spec.order = opts.order;
  spec.has_shift = true;
  spec.shift = s;
  return resample_parts(input, input.shape(), od, opts.output, opts.cval, fn,
                        [&](const ndarray& x, const ndarray& out, double cv) {
                          resample_real(x, out, spec, opts.mode, cv, opts.prefilter, all_axes(x.ndim()));
                        });
}

ndarray zoom(const ndarray& input, const per_axis<double>& zoom, const zoom_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::zoom");
  const char* fn = "zoom";
  check_order(opts.order, fn);
  if (input.ndim() < 1) throw runtime_error(fname(fn) + ": input and output rank must be > 0");
  check_data_dtype(input.dtype(), fn, "input");
  check_cval(input, opts.cval, fn);
  const int nd = input.ndim();
  const std::vector<double> z = normalize_sequence(zoom, nd, fn, "zoom");
  shape_t oshape;
  for (int d = 0; d < nd; ++d) {
    const double v = static_cast<double>(input.shape()[static_cast<std::size_t>(d)]) * z[static_cast<std::size_t>(d)];
    if (!std::isfinite(v)) throw value_error(fname(fn) + ": zoom must be finite (output shape overflows)");
    oshape.push_back(static_cast<std::int64_t>(std::nearbyint(v)));  // Python's round: halves to even
  }
  cusci::detail::checked_size(oshape, fname(fn));
  const dtype od = result_dtype(input, opts.output, oshape, fn);
  bool all_one = true;
  for (double v : z) all_one = all_one && v == 1.0;
  if (all_one && opts.prefilter) return detail::deliver_output(cast_like_c(input, od), opts.output, fn);
  detail::resample_spec spec;
  spec.kind = detail::resample_spec::zoom_shift;
  spec.order = opts.order;
  spec.has_zoom = true;
  // SciPy 1.18 zooms the real and imaginary parts of a complex input by calling zoom on each without
  // passing grid_mode on: complex inputs are zoomed with grid_mode=False whatever grid_mode says.
  const bool grid_mode = opts.grid_mode && !is_complex(input.dtype());
  spec.grid_mode = grid_mode;
  for (int d = 0; d < nd; ++d) {
    std::int64_t div = oshape[static_cast<std::size_t>(d)];
    std::int64_t num = input.shape()[static_cast<std::size_t>(d)];
    if (!grid_mode) {
      --div;
      --num;
    }
    spec.zoom.push_back(div != 0 ? static_cast<double>(num) / static_cast<double>(div) : 1.0);
  }
  return resample_parts(input, oshape, od, opts.output, opts.cval, fn, [&](const ndarray& x, const ndarray& out, double cv) {
    resample_real(x, out, spec, opts.mode, cv, opts.prefilter, all_axes(x.ndim()));
  });
}

ndarray rotate(const ndarray& input, double angle, const rotate_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::rotate");
  const char* fn = "rotate";
  const int nd = input.ndim();
  if (nd < 2) throw value_error(fname(fn) + ": input array should be at least 2D, got ndim " + std::to_string(nd));
  if (opts.axes.size() != 2)
    throw value_error(fname(fn) + ": axes should contain exactly two values, got " + std::to_string(opts.axes.size()));
  int a0 = opts.axes[0], a1 = opts.axes[1];
  if (a0 < 0) a0 += nd;
  if (a1 < 0) a1 += nd;
  if (a0 < 0 || a1 < 0 || a0 >= nd || a1 >= nd)
    throw value_error(fname(fn) + ": invalid rotation plane specified: axes (" + std::to_string(opts.axes[0]) + ", " +
                      std::to_string(opts.axes[1]) + ") for an array of dimension " + std::to_string(nd));
  if (a0 > a1) std::swap(a0, a1);
  const double c = trig_degrees(angle, true), s = trig_degrees(angle, false);
  // rot_matrix = [[c, s], [-s, c]]
  const double iy = static_cast<double>(input.shape()[static_cast<std::size_t>(a0)]);
  const double ix = static_cast<double>(input.shape()[static_cast<std::size_t>(a1)]);
  std::int64_t oy = input.shape()[static_cast<std::size_t>(a0)], ox = input.shape()[static_cast<std::size_t>(a1)];
  if (opts.reshape) {
    // out_bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]; shape = int(ptp + 0.5)
    const double r0[4] = {c * 0 + s * 0, c * 0 + s * ix, c * iy + s * 0, c * iy + s * ix};
    const double r1[4] = {-s * 0 + c * 0, -s * 0 + c * ix, -s * iy + c * 0, -s * iy + c * ix};
    double lo0 = r0[0], hi0 = r0[0], lo1 = r1[0], hi1 = r1[0];
    for (int k = 1; k < 4; ++k) {
      lo0 = std::min(lo0, r0[k]);
      hi0 = std::max(hi0, r0[k]);
      lo1 = std::min(lo1, r1[k]);
      hi1 = std::max(hi1, r1[k]);
    }
    oy = static_cast<std::int64_t>((hi0 - lo0) + 0.5);
    ox = static_cast<std::int64_t>((hi1 - lo1) + 0.5);
  }
  // out_center = rot @ ((out_plane_shape - 1) / 2); in_center = (in_plane_shape - 1) / 2
  const double oc0 = (static_cast<double>(oy) - 1) / 2, oc1 = (static_cast<double>(ox) - 1) / 2;
  const double out_c0 = c * oc0 + s * oc1, out_c1 = -s * oc0 + c * oc1;
  const double off0 = (iy - 1) / 2 - out_c0, off1 = (ix - 1) / 2 - out_c1;
  shape_t oshape = input.shape();
  oshape[static_cast<std::size_t>(a0)] = oy;
  oshape[static_cast<std::size_t>(a1)] = ox;
  cusci::detail::checked_size(oshape, fname(fn));
  check_data_dtype(input.dtype(), fn, "input");
  check_cval(input, opts.cval, fn);
  check_order(opts.order, fn);
  const dtype od = result_dtype(input, opts.output, oshape, fn);
  detail::resample_spec spec;
  spec.kind = detail::resample_spec::affine;
  spec.order = opts.order;
  spec.matrix = {c, s, -s, c};
  spec.offset = {off0, off1};
  spec.n_batch = nd - 2;
  // The planes: the other axes first (batch axes, in order), then a0, a1.
  std::vector<int> perm;
  for (int d = 0; d < nd; ++d)
    if (d != a0 && d != a1) perm.push_back(d);
  perm.push_back(a0);
  perm.push_back(a1);
  return resample_parts(input, oshape, od, opts.output, opts.cval, fn, [&](const ndarray& x, const ndarray& out, double cv) {
    const ndarray xp = x.transpose(perm);
    const ndarray op = out.transpose(perm);
    resample_real(xp, op, spec, opts.mode, cv, opts.prefilter, {nd - 2, nd - 1});
  });
}

}  // namespace cusci::ndimage

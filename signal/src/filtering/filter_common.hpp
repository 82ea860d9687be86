#pragma once
// (internal) Argument handling shared by lfilter and sosfilt: dtypes, coefficients, and the filtered
// axis moved last in a C-contiguous copy of the right dtype (the axis helpers themselves are core's,
// cusci/detail/shape.hpp).

#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal::detail {

using cusci::detail::inverse_perm;
using cusci::detail::move_last_axis_to;
using cusci::detail::normalize_axis;
using cusci::detail::shape_str;

/// The result dtype of SciPy's filters: NumPy's result_type of the operands; float32 / float64 /
/// complex64 / complex128. @throws cusci::not_implemented_error otherwise (integer-only inputs, as SciPy).
dtype filter_result_dtype(const std::vector<dtype>& dts, const std::string& fn);

/// `a` converted to `dt` and C-contiguous (a copy only when needed).
ndarray contiguous_as(const ndarray& a, dtype dt);

/// `a` with `axis` moved last, converted to `dt`, C-contiguous (a copy only when needed).
inline ndarray canonical(const ndarray& a, int axis, dtype dt) {
  return contiguous_as(cusci::detail::move_axis_last(a, axis), dt);
}

/// Coefficients as a complex128 host vector (real ones with zero imaginary parts). @throws
/// cusci::value_error for an empty or more than 1-D array.
std::vector<std::complex<double>> coeff_cvector(const array_like& c, const std::string& fn, const char* param);

}  // namespace cusci::signal::detail

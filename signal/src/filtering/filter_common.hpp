#pragma once
// (internal) Argument handling shared by lfilter and sosfilt: axes, dtypes, moving the filtered axis
// last in a C-contiguous copy of the right dtype, and moving it back.

#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal::detail {

/// Axis in [0, ndim). @throws cusci::index_error naming `fn`.
int normalize_axis(int axis, int ndim, const std::string& fn);

/// The result dtype of SciPy's filters: NumPy's result_type of the operands; float32 / float64 only.
/// @throws cusci::not_implemented_error otherwise (integer-only inputs, as SciPy; complex).
dtype filter_result_dtype(const std::vector<dtype>& dts, const std::string& fn);

/// Permutation moving `axis` to the end, and its inverse.
std::vector<int> axis_last_perm(int ndim, int axis);
std::vector<int> inverse_perm(const std::vector<int>& p);

/// `a` with `axis` moved last, converted to `dt`, C-contiguous (a copy only when needed).
ndarray canonical(const ndarray& a, int axis, dtype dt);

/// Coefficients as a float64 host vector; `fn` / `param` name the error. @throws cusci::value_error
/// for an empty or more than 1-D array; cusci::not_implemented_error for complex.
std::vector<double> coeff_vector(const array_like& c, const std::string& fn, const char* param);

std::string shape_str(const shape_t& s);

}  // namespace cusci::signal::detail

#pragma once
// (internal; host) Helpers shared by the lti family's sources: conversions between host_array and the
// row-major matrices of core's host linear algebra, and the real state-space form of a system.

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/signal/lti.hpp"

namespace cusci::signal::detail::lti_impl {

using cusci::detail::hostla::cmat;
using cusci::detail::hostla::cplx;
using cusci::detail::hostla::rmat;

/// True for complex64 / complex128.
bool is_complex(const host_array& a);

/// A real host array of at most 2 dimensions as a matrix: 0-d -> 1 x 1, 1-D [k] -> 1 x k (NumPy's
/// atleast_2d), 2-D as is. Real dtypes are converted to float64.
/// @throws cusci::not_implemented_error (naming fn and what) for a complex array; cusci::value_error for
///         more than 2 dimensions.
rmat to_rmat(const host_array& a, const std::string& fn, const char* what);
/// The elements of a real array of any shape as float64 (complex: not_implemented_error).
std::vector<double> to_dvec(const host_array& a, const std::string& fn, const char* what);
/// The elements as complex128 (any dtype).
std::vector<cplx> to_cvec(const host_array& a);

/// float64 [m, n] host array of a matrix.
host_array from_rmat(const rmat& a);
/// complex128 [m, n] host array of a matrix.
host_array from_cmat(const cmat& a);
/// float64 [k] / complex128 [k] 1-D arrays.
host_array from_dvec(const std::vector<double>& v);
host_array from_cvec(const std::vector<cplx>& v);

/// A real state-space system (A n x n, B n x m, C p x n, D p x m).
struct real_ss {
  rmat A, B, C, D;
};
/// The state-space form of a continuous / discrete system (SciPy's `_as_ss`), as real matrices.
/// @throws cusci::not_implemented_error for complex matrices.
real_ss as_real_ss(const StateSpace& s, const std::string& fn);
real_ss as_real_ss(const lti& s, const std::string& fn);
real_ss as_real_ss(const dlti& s, const std::string& fn);

/// numpy.squeeze of a C-order float64 array with shape `shape` (drops every axis of length 1).
host_array squeeze(const host_array& a);

/// The message prefix "cusci::signal::<name>".
inline std::string fname(const char* name) { return std::string("cusci::signal::") + name; }

}  // namespace cusci::signal::detail::lti_impl

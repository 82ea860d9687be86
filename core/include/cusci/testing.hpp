#pragma once
/// @file testing.hpp
/// Array assertions with NumPy's semantics and NumPy's failure messages, for checking a port against
/// arrays computed by NumPy: `assert_allclose`, `assert_array_equal`, `assert_array_almost_equal`,
/// `assert_array_less`. NumPy: `numpy.testing` (2.5).
///
/// Operands (`cusci::testing::operand`): a device `ndarray` (any layout), a `host_array`, a C++
/// scalar (bool, integer, floating, std::complex, `cusci::scalar`: a 0-d array of NumPy's dtype for
/// the value: bool, int64 (uint64 for unsigned types), float64, complex128, or the scalar's own dtype
/// when strong), or the path of a `.npy` file written by `np.save` (`std::filesystem::path`, also a
/// string literal or `std::string`), read with `cusci::io::read_npy`.
///
/// Where the comparison runs: on the host. A device operand is copied to host memory first
/// (`cusci::to_host`: synchronizes the current stream of its device, once per device operand); the
/// comparison itself is a host loop over the elements (fine for the array sizes one checks in tests;
/// memory: one host copy of each device operand).
///
/// Semantics (as `np.testing.assert_array_compare`): the shapes must be equal, or one operand 0-d
/// (it is compared with every element of the other; NumPy 2.5 broadcasts nothing else: shapes (3,)
/// and (1,) are a mismatch); with `strict` the shapes must be equal and the dtypes too. With
/// `equal_nan` NaNs must lie at the same places and are then equal; infinities must lie at the same
/// places with the same sign (not for `assert_array_less`). The values are compared in NumPy's
/// promoted dtype (float32 operands in float32 arithmetic, integers exactly).
///
/// Failure: `cusci::testing::assertion_error` (derives from `cusci::error`) whose `what()` is the
/// message NumPy's AssertionError carries, line for line: header (with rtol/atol), err_msg, the
/// reason ("(shapes (3,), (4,) mismatch)", "(dtypes float32, float64 mismatch)", "nan location
/// mismatch:", "inf location mismatch:", "inf values mismatch:") or the remarks "Mismatched elements:
/// 2 / 3 (66.7%)", "Mismatch at index:" / "Mismatch at indices:" / "First 5 mismatches are at
/// indices:" with up to five " [i, j]: 4.0 (ACTUAL), 5.0 (DESIRED)" lines, "Max absolute difference
/// among violations: ...", "Max relative difference among violations: ...", then (when `verbose`)
/// " ACTUAL: array([...])" and " DESIRED: array([...])" in NumPy's repr (at most three lines each,
/// then "..."). Deviation: the arrays are printed by a simple formatter (`format_array_repr`) that
/// follows NumPy's repr (line width 75, summarization above 1000 elements, NumPy's float modes) but
/// may differ from NumPy in rare spacing/rounding details; the remark lines are NumPy's exactly.

#include <complex>
#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <variant>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci::testing {

/// A failed assertion. `what()` is NumPy's AssertionError message (it starts with a newline, as
/// NumPy's does). Python: `AssertionError`.
class assertion_error : public cusci::error {
 public:
  using cusci::error::error;
};

/// One side of an assertion: a device array, a host array, a scalar or a `.npy` path (see the file
/// comment). Implicitly constructible, so each assertion accepts any of them.
class operand {
 public:
  operand(const ndarray& a) : v_(a) {}
  operand(const host_array& a) : v_(a) {}
  operand(const std::filesystem::path& p) : v_(p) {}
  operand(const char* p) : v_(std::filesystem::path(p)) {}
  operand(const std::string& p) : v_(std::filesystem::path(p)) {}
  operand(const cusci::scalar& s) : v_(s) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  operand(T v) : v_(cusci::scalar(v)) {}
  template <class T>
  operand(std::complex<T> v) : v_(cusci::scalar(v)) {}

  /// The operand as a host array: a device array is copied (synchronizes), a path is read with
  /// `io::read_npy`, a scalar becomes a 0-d array (see the file comment).
  /// @throws what `to_host` / `io::read_npy` throw (cusci::error for a missing file, ...).
  host_array to_host_array() const;

 private:
  std::variant<ndarray, host_array, std::filesystem::path, cusci::scalar> v_;
};

/// Options of `assert_allclose`, in NumPy's signature order.
struct allclose_options {
  double rtol = 1e-7;
  double atol = 0.0;
  /// NaNs compare equal (and must lie at the same places).
  bool equal_nan = true;
  /// Text added to the failure message.
  std::string err_msg{};
  /// Print the arrays in the failure message.
  bool verbose = true;
  /// Require equal shapes (no 0-d operand against an array) and equal dtypes.
  bool strict = false;
};

/// Checks `|actual - desired| <= atol + rtol * |desired|` elementwise (NumPy's `isclose` with
/// `desired` as the reference: computed in the promoted dtype of `actual` and of `desired` made
/// inexact; `x == y` also passes, so equal infinities pass), after NaN/inf placement checks (see the
/// file comment). Any dtypes, any shapes as described there. Synchronizes for device operands.
/// @throws assertion_error with NumPy's message (header "Not equal to tolerance rtol=1e-07,
///         atol=0"); what `operand::to_host_array` throws.
/// NumPy: `np.testing.assert_allclose(actual, desired, rtol, atol, equal_nan, err_msg, verbose,
/// strict=strict)`.
void assert_allclose(const operand& actual, const operand& desired, const allclose_options& opts = {});

/// Options of `assert_array_equal`, in NumPy's signature order.
struct array_equal_options {
  std::string err_msg{};
  bool verbose = true;
  bool strict = false;
};

/// Checks `actual == desired` elementwise (NaNs at the same places are equal; integers compared
/// exactly). Synchronizes for device operands.
/// @throws assertion_error with NumPy's message (header "Arrays are not equal").
/// NumPy: `np.testing.assert_array_equal(actual, desired, err_msg, verbose, strict=strict)`.
void assert_array_equal(const operand& actual, const operand& desired, const array_equal_options& opts = {});

/// Options of `assert_array_almost_equal`, in NumPy's signature order.
struct array_almost_equal_options {
  int decimal = 6;
  std::string err_msg{};
  bool verbose = true;
};

/// Checks `abs(desired - actual) < 1.5 * 10**(-decimal)` elementwise (in the promoted dtype of
/// `actual` and of `desired` made inexact), after the NaN/inf checks; the arrays in the message are
/// printed with `decimal` digits of precision. Synchronizes for device operands.
/// @throws assertion_error (header "Arrays are not almost equal to 6 decimals").
/// NumPy: `np.testing.assert_array_almost_equal(actual, desired, decimal, err_msg, verbose)`.
void assert_array_almost_equal(const operand& actual, const operand& desired,
                               const array_almost_equal_options& opts = {});

/// Options of `assert_array_less`, in NumPy's signature order.
struct array_less_options {
  std::string err_msg{};
  bool verbose = true;
  bool strict = false;
};

/// Checks `x < y` elementwise (complex values ordered lexicographically, as NumPy); NaNs must lie at
/// the same places (and are then skipped); infinities are compared as values. The message names the
/// operands `x` and `y`. Synchronizes for device operands.
/// @throws assertion_error (header "Arrays are not strictly ordered `x < y`").
/// NumPy: `np.testing.assert_array_less(x, y, err_msg, verbose, strict=strict)`.
void assert_array_less(const operand& x, const operand& y, const array_less_options& opts = {});

/// NumPy's `repr(a)` of a host array as `np.testing` prints it (`array_repr(a, precision=...)`, line
/// width 75): the one place where the assertions format arrays. Host only.
/// NumPy: `np.array_repr(a, precision=precision)` (deviation: a simple formatter, see the file comment).
std::string format_array_repr(const host_array& a, int precision = 8);

}  // namespace cusci::testing

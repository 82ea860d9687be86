#pragma once
/// @file printing.hpp
/// NumPy's array printing: `str(a)` / `print(a)` (`operator<<`, `to_string`, `array_str`), `repr(a)`
/// (`array_repr`), `np.array2string`, and the print options (`set_printoptions`, `get_printoptions`,
/// the `printoptions` guard). The strings are NumPy 2.5's, character for character: float formatting
/// in every floatmode (shortest unique digits, rounded to `precision`, padded to a common width; the
/// switch to scientific notation), integers, bools, complex, float16, `nan`/`inf`, summarisation with
/// `...`, line wrapping and the indentation of nested dimensions, 0-d and empty arrays, and repr's
/// `shape=` / `dtype=` suffixes. Page: docs/core-printing.md.
///
/// Deviations from NumPy: no `formatter`, `legacy` or `override_repr` options (NumPy's defaults, i.e.
/// `legacy=False`, are what cusci prints); no structured, string, datetime or object dtypes (cusci
/// has none).
///
/// Print options are per thread: each thread starts from NumPy's defaults and `set_printoptions`
/// changes the calling thread's options only. NumPy's are context-local (a `contextvars.ContextVar`;
/// a new Python thread starts from the defaults too), so per-thread storage is the C++ equivalent.
///
/// Device arrays: every function taking an `ndarray` copies the values it prints to the host and so
/// synchronizes the current stream of the array's device. A summarised array (size > threshold)
/// copies only its edge items: NumPy's `_leading_trailing` corners, gathered on the device by one
/// `concatenate` of two slices per summarised axis, then one device-to-host copy.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "cusci/ndarray.hpp"

namespace cusci {

/// How floats are printed. NumPy: the `floatmode` strings of `np.set_printoptions`.
enum class float_mode {
  /// Always exactly `precision` fractional digits, even when fewer would identify the value.
  fixed,
  /// The fewest digits that identify each value uniquely; `precision` is ignored.
  unique,
  /// At most `precision` fractional digits, fewer where they suffice (the default).
  maxprec,
  /// At most `precision` digits, the same number for every element (the largest needed).
  maxprec_equal,
};

/// Parses NumPy's "fixed", "unique", "maxprec", "maxprec_equal". Host only.
/// @throws cusci::value_error "floatmode option must be one of "fixed", "unique", "maxprec",
///         "maxprec_equal"" (NumPy's ValueError).
float_mode float_mode_from_string(std::string_view s);

/// Sign of positive values. NumPy: the `sign` strings '-', '+', ' ' of `np.set_printoptions`.
enum class print_sign : char {
  minus = '-',  ///< only negative values carry a sign (the default)
  plus = '+',   ///< positive values get '+'
  space = ' ',  ///< positive values get a space in the sign position
};

/// Parses NumPy's "-", "+", " ". Host only.
/// @throws cusci::value_error "sign option must be one of ' ', '+', or '-'" (NumPy's ValueError).
print_sign print_sign_from_string(std::string_view s);

/// The print options, NumPy's defaults, fields in `np.set_printoptions`' order.
/// NumPy: the dict `np.get_printoptions()` returns (without formatter, legacy, override_repr).
struct print_options {
  /// Digits after the decimal point (floatmode fixed / maxprec / maxprec_equal). >= 0.
  int precision = 8;
  /// Arrays with more than `threshold` elements are summarised with "...".
  std::int64_t threshold = 1000;
  /// Items shown at the beginning and end of each summarised dimension. >= 0.
  int edgeitems = 3;
  /// Characters per line before a line break is inserted.
  int linewidth = 75;
  /// true: fixed-point notation always (numbers that round to zero at `precision` print as zero);
  /// false: scientific notation when the smallest magnitude is < 1e-4 or the ratio of the largest
  /// to the smallest exceeds 1e3.
  bool suppress = false;
  /// Text of a NaN element.
  std::string nanstr = "nan";
  /// Text of an infinite element (after its sign).
  std::string infstr = "inf";
  print_sign sign = print_sign::minus;
  cusci::float_mode floatmode = cusci::float_mode::maxprec;
};

/// A partial update of the print options: the fields given replace the current ones, the others
/// are kept (NumPy's `set_printoptions(precision=3)` leaves the other options as they are).
/// Fields in `np.set_printoptions`' order; see print_options for their meaning.
struct print_options_update {
  std::optional<int> precision{};
  std::optional<std::int64_t> threshold{};
  std::optional<int> edgeitems{};
  std::optional<int> linewidth{};
  std::optional<bool> suppress{};
  std::optional<std::string> nanstr{};
  std::optional<std::string> infstr{};
  std::optional<print_sign> sign{};
  std::optional<cusci::float_mode> floatmode{};
};

/// Changes the calling thread's print options: `set_printoptions({.precision = 3, .suppress = true})`.
/// Host only. @throws cusci::value_error for precision < 0 ("precision must be >= 0"), edgeitems < 0
/// or threshold < 0 (NumPy accepts and misprints those; cusci rejects them); nothing changes then.
/// NumPy: `np.set_printoptions(...)` (no formatter, legacy, override_repr).
void set_printoptions(const print_options_update& update);

/// Restores NumPy's defaults (print_options{}) for the calling thread. Host only.
/// NumPy: `np.set_printoptions(**defaults)` (NumPy has no single call for this).
void reset_printoptions() noexcept;

/// The calling thread's print options. Host only. NumPy: `np.get_printoptions()`.
print_options get_printoptions();

/// RAII guard: applies `update` on construction (as set_printoptions) and restores the previous
/// options of this thread on destruction. Not copyable or movable; use it on the thread that made
/// it. NumPy: `with np.printoptions(...):`.
class printoptions {
 public:
  explicit printoptions(const print_options_update& update);
  ~printoptions();
  printoptions(const printoptions&) = delete;
  printoptions& operator=(const printoptions&) = delete;

 private:
  print_options saved_;
};

/// Keyword arguments of array2string, in NumPy's signature order. A field left unset takes the
/// thread's current print option (get_printoptions()).
struct array2string_options {
  std::optional<int> max_line_width{};  ///< linewidth
  std::optional<int> precision{};
  std::optional<bool> suppress_small{};  ///< suppress
  /// Inserted between elements (a trailing space is dropped at a line break).
  std::string separator = " ";
  /// Not printed: its length indents every line after the first (as if the prefix preceded them).
  std::string prefix = "";
  std::optional<std::int64_t> threshold{};
  std::optional<int> edgeitems{};
  std::optional<print_sign> sign{};
  std::optional<cusci::float_mode> floatmode{};
  /// Not printed: its length is kept free on the last line (the line width is reduced by it).
  std::string suffix = "";
};

/// Keyword arguments of array_str and array_repr (NumPy's signature order); unset: current option.
struct array_str_options {
  std::optional<int> max_line_width{};
  std::optional<int> precision{};
  std::optional<bool> suppress_small{};
};

/// The text of the values of `a`, any shape and dtype, nested in brackets: "[[1 2]\n [3 4]]"; a 0-d
/// array prints its element as an element of an array would print ("1." for 1.0); an array of size
/// 0, any shape, prints "[]". Synchronizes (device copy; see the file comment).
/// @throws cusci::value_error for precision < 0 or edgeitems < 0; cusci::runtime_error "Float
/// formatting result too large" when more than 16000 digits would be printed (NumPy: RuntimeError
/// beyond its 16384-character buffer); cusci::cuda_error.
/// NumPy: `np.array2string(a, ...)` (no formatter / legacy; `style` was removed from NumPy 2).
std::string array2string(const ndarray& a, const array2string_options& options = {});
/// The same for a host array (no synchronization).
std::string array2string(const host_array& a, const array2string_options& options = {});

/// `str(a)`: array2string with separator " " for arrays of dimension >= 1; a 0-d array prints as
/// NumPy's scalar of that dtype does (`str(np.float64(1.0))` is "1.0", `str(np.complex128(2j))` is
/// "2j"; print options do not apply, as in NumPy). Synchronizes.
/// @throws as array2string. NumPy: `np.array_str(a, max_line_width, precision, suppress_small)`.
std::string array_str(const ndarray& a, const array_str_options& options = {});
std::string array_str(const host_array& a, const array_str_options& options = {});

/// `repr(a)`: "array([1., 2.], dtype=float32)": array2string with separator ", " and prefix
/// "array(", then `shape=(...)` when the array is summarised (size > threshold) or empty with a shape
/// other than (0,), and `dtype=name` unless the dtype is implied (bool, int64, float64, complex128)
/// and the array is not empty; these go on a new line, indented by 6, when they would pass the line
/// width. Synchronizes.
/// @throws as array2string. NumPy: `np.array_repr(a, max_line_width, precision, suppress_small)`.
std::string array_repr(const ndarray& a, const array_str_options& options = {});
std::string array_repr(const host_array& a, const array_str_options& options = {});

/// `str(a)` with the current options (array_str(a)). Synchronizes. NumPy: `str(a)`.
std::string to_string(const ndarray& a);
std::string to_string(const host_array& a);

/// Writes `str(a)` (no newline), as Python's `print(a)` without its newline. Synchronizes.
/// NumPy: `print(a)`.
std::ostream& operator<<(std::ostream& os, const ndarray& a);
std::ostream& operator<<(std::ostream& os, const host_array& a);

/// `str()` of element `i` (flat, C order) of `a` as the NumPy scalar of a's dtype prints:
/// "1.0", "1e+16", "(1+2j)", "True", "-3". Print options do not apply (as in NumPy). Used for 0-d
/// arrays and for the values of sparse matrices. Host only.
/// @throws cusci::index_error when i is not in [0, a.size()).
/// NumPy: `str(a.flat[i])`.
std::string scalar_str(const host_array& a, std::int64_t i = 0);

}  // namespace cusci

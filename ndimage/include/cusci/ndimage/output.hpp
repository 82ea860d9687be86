#pragma once
/// @file output.hpp
/// SciPy's `output=` argument of cusci::ndimage's functions.

#include <optional>
#include <utility>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::ndimage {

/// Where a result goes, as SciPy's `output=`: not given (a new array of the function's default
/// dtype, usually the input's), a dtype (a new array of that dtype), or an existing device array that
/// receives the result and is returned (its dtype is the result dtype; its shape must be the result's
/// shape; any layout; it may be the input itself, which gives the same values as a separate output).
/// Converts implicitly from a dtype, from `std::optional<dtype>` and from an ndarray, so
/// `{.output = cusci::dtype::float32}` and `{.output = out}` both read as in SciPy.
class output_arg {
 public:
  output_arg() = default;
  output_arg(std::nullopt_t) noexcept {}                           // NOLINT: implicit, as SciPy's None
  output_arg(cusci::dtype t) noexcept : dtype_(t) {}                // NOLINT: implicit, as SciPy's dtype
  output_arg(std::optional<cusci::dtype> t) noexcept : dtype_(t) {}  // NOLINT
  output_arg(ndarray a) : array_(std::move(a)) {}                    // NOLINT: implicit, as SciPy's array
  /// True when a dtype or an array was given.
  bool has_value() const noexcept { return dtype_.has_value() || array_.has_value(); }
  /// True when an existing array was given.
  bool is_array() const noexcept { return array_.has_value(); }
  /// The dtype given, or the given array's dtype; nullopt when nothing was given.
  std::optional<cusci::dtype> dtype() const noexcept {
    if (array_) return array_->dtype();
    return dtype_;
  }
  /// The array given (precondition: is_array()).
  const ndarray& array() const { return *array_; }

 private:
  std::optional<cusci::dtype> dtype_{};
  std::optional<ndarray> array_{};
};

}  // namespace cusci::ndimage

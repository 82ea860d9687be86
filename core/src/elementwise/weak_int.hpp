#pragma once
/// @file weak_int.hpp  (internal)
/// Range check of a weak (Python) integer scalar against the integer dtype it is converted to.

#include <cstdint>

#include "cusci/dtype.hpp"
#include "cusci/scalar.hpp"

namespace cusci::detail {

/// NumPy 2 raises OverflowError for a Python int that does not fit the integer dtype it is
/// converted to; cusci raises value_error with NumPy's wording.
inline bool weak_int_fits(const scalar& s, dtype t) {
  if (!s.is_weak() || !is_integer(t)) return true;
  if (s.dtype() != dtype::int64 && s.dtype() != dtype::uint64) return true;
  const bool neg = s.dtype() == dtype::int64 && s.value<std::int64_t>() < 0;
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (is_unsigned_integer(t)) {
    if (neg) return false;
    const std::uint64_t v = s.value<std::uint64_t>();
    return bits == 64 || v <= ((std::uint64_t{1} << bits) - 1);
  }
  if (neg) {
    const std::int64_t v = s.value<std::int64_t>();
    return bits == 64 || v >= -(std::int64_t{1} << (bits - 1));
  }
  const std::uint64_t v = s.dtype() == dtype::uint64 ? s.value<std::uint64_t>()
                                                     : static_cast<std::uint64_t>(s.value<std::int64_t>());
  return v <= ((std::uint64_t{1} << (bits - 1)) - 1);
}

}  // namespace cusci::detail

#pragma once
// (internal; nvcc only) The conversion of a double to an output dtype that SciPy's C code performs
// on x86-64, shared by both ndimage engines.

#include <cstdint>
#include <type_traits>

namespace cusci::ndimage::detail {

/// C's conversion of a double to an integer type as compiled for x86-64: cvttsd2si into 32 bits for
/// types up to 32 bits signed (INT_MIN when out of range or NaN), into 64 bits for uint32 and int64
/// (INT64_MIN likewise), and the two-range sequence for uint64; then the low bits.
template <class T>
__device__ __forceinline__ T x86_cast(double d) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(d);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    constexpr double two63 = 9223372036854775808.0;
    auto cvt64 = [](double v) -> long long {
      return (v >= -two63 && v < two63) ? static_cast<long long>(v) : static_cast<long long>(1ull << 63);
    };
    return d >= two63 ? static_cast<std::uint64_t>(cvt64(d - two63)) ^ (1ull << 63)
                      : static_cast<std::uint64_t>(cvt64(d));
  } else if constexpr (sizeof(T) == 8 || std::is_same_v<T, std::uint32_t>) {
    constexpr double two63 = 9223372036854775808.0;
    const long long i = (d >= -two63 && d < two63) ? static_cast<long long>(d) : static_cast<long long>(1ull << 63);
    return static_cast<T>(i);
  } else {
    const int i = (d >= -2147483648.0 && d < 2147483648.0) ? static_cast<int>(d) : static_cast<int>(0x80000000u);
    return static_cast<T>(i);
  }
}

}  // namespace cusci::ndimage::detail

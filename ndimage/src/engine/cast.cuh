#pragma once
// (internal; nvcc only) The conversion of a double to an output dtype that SciPy's C code performs
// on x86-64, shared by both ndimage engines (device side) and by the filters that convert cval to
// the input's type on the host (SciPy's `(_type)cval`: min_max.cu, rank.cu, rank_box.cu).

#include <cstdint>
#include <type_traits>

namespace cusci::ndimage::detail {

/// C's conversion of a double to T as compiled for x86-64: cvttsd2si to 32 bits for int8 .. int32
/// and uint8 / uint16 (NaN and out of range give INT32_MIN, then the low bits), to 64 bits for
/// uint32 and int64 (INT64_MIN, then the low bits), and for uint64 the two-branch sequence (below
/// 2^63 and NaN: the signed conversion; from 2^63: the signed conversion of d - 2^63 with the top bit
/// flipped, so 2^64 and above give 0). Floating types: the plain conversion.
template <class T>
__host__ __device__ __forceinline__ T x86_cast(double d) {
  constexpr double two31 = 2147483648.0, two63 = 9223372036854775808.0;
  auto cvt64 = [](double v) -> long long {
    return (v >= -two63 && v < two63) ? static_cast<long long>(v) : static_cast<long long>(0x8000000000000000ull);
  };
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(d);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (d >= two63) return static_cast<std::uint64_t>(cvt64(d - two63)) ^ (1ull << 63);
    return static_cast<std::uint64_t>(cvt64(d));
  } else if constexpr (sizeof(T) == 8 || std::is_same_v<T, std::uint32_t>) {
    return static_cast<T>(static_cast<std::uint64_t>(cvt64(d)));
  } else {
    const int i = (d > -two31 - 1.0 && d < two31) ? static_cast<int>(d) : static_cast<int>(0x80000000u);
    return static_cast<T>(static_cast<unsigned>(i));
  }
}

}  // namespace cusci::ndimage::detail

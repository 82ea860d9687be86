#pragma once
// Host-side helpers shared by the drivers of cusci::linalg's families (internal; plain C++): SciPy's LAPACK
// dtype of an operand, the cast to a working dtype, and SciPy's error for non-finite input.

#include <string>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg::detail {

/// SciPy's LAPACK type of one array (find_best_lapack_type / _normalize_lapack_dtype): float32, float64,
/// complex64, complex128 kept; bool, int8, uint8, int16, uint16, float16 -> float32; other integers ->
/// float64.
inline dtype lapack_dtype(dtype t) {
  switch (t) {
    case dtype::float32:
    case dtype::float64:
    case dtype::complex64:
    case dtype::complex128: return t;
    case dtype::bool_:
    case dtype::int8:
    case dtype::uint8:
    case dtype::int16:
    case dtype::uint16:
    case dtype::float16: return dtype::float32;
    default: return dtype::float64;
  }
}

/// `a` itself when it already has dtype `dt`, else a.astype(dt).
inline ndarray cast_to(const ndarray& a, dtype dt) { return a.dtype() == dt ? a : a.astype(dt); }

/// SciPy's _asarray_validated error for an array with infs or NaNs (check_finite).
[[noreturn]] inline void throw_nonfinite(const std::string& fn) {
  throw value_error(fn + ": array must not contain infs or NaNs");
}

}  // namespace cusci::linalg::detail

#pragma once
// Internal interface between numeric.cpp and the kernels of numeric.cu.
#include <complex>
#include <cstdint>
#include <optional>

namespace cusci::detail::numeric {

/// interp on contiguous float64 data: x [nx], xp [n], fp [n] (complex: interleaved pairs), res [nx]
/// (interleaved pairs for complex). Asynchronous on the current stream.
void interp_launch(const double* x, std::int64_t nx, const double* xp, const double* fp, std::int64_t n,
                   bool complex_fp, std::optional<std::complex<double>> left,
                   std::optional<std::complex<double>> right, double* res);
/// (left / right: none means fp[0] / fp[n-1].)

/// isclose of two contiguous arrays of n float32 (is_double false) or float64 elements into out [n].
void isclose_launch(const void* a, const void* b, std::int64_t n, bool is_double, double rtol, double atol,
                    bool equal_nan, bool* out);

}  // namespace cusci::detail::numeric

#pragma once
// The device entry point of cusci::ndimage's Fourier filters (fourier.cu), called by the host
// wrappers in fourier.cpp once SciPy's argument handling is done. Host C++ only.

#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::ndimage::detail {

/// The filter families of SciPy's NI_FourierFilter (gaussian, uniform, ellipsoid) and NI_FourierShift.
enum class fourier_kind : int { gaussian = 0, uniform = 1, ellipsoid = 2, shift = 3 };

/// Writes the filtered `in` into `out` on the current stream.
/// Preconditions (checked by the caller): same shape and device, in.size() > 0, `params` holds one
/// value per axis of `in` (sigma, size or shift), `axis` is normalized, `n` is SciPy's `n` (< 0: complex
/// FFT input), in.dtype() is bool/integer/float32/float64/complex64/complex128, out.dtype() is
/// float32/float64 (real input, not shift) or complex64/complex128, and `out` does not share memory
/// with `in` unless it is the very same view (same data pointer, dtype and strides).
/// For ellipsoid, 1 <= in.ndim() <= 3.
/// @throws cusci::value_error for more than 16 axes longer than 1; cusci::out_of_memory; cusci::cuda_error.
void fourier_apply(fourier_kind kind, const ndarray& in, const ndarray& out, const std::vector<double>& params,
                   std::int64_t n, int axis);

}  // namespace cusci::ndimage::detail

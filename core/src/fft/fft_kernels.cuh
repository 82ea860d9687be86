#pragma once
// Internal declarations shared by fft.cu (the DFTs) and fft_dct.cu (DCT/DST): argument handling,
// the cuFFT execution helpers and the copy kernels' entry points.
#include <cstdint>
#include <string>
#include <vector>

#include <cufft.h>

#include "cusci/fft.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::fft::detail {

/// Promotes x as scipy.fft does: float32/float64/complex64/complex128 unchanged, bool and integers to
/// float64, float16 to float32 (a device cast).
ndarray promote(const ndarray& x, const char* fn);

/// Normalizes a 1-D axis; index_error (SciPy: IndexError) for a 0-d input or an axis out of range.
int normalize_axis(int axis, int ndim, const char* fn);

/// SciPy's _init_nd_shape_and_axes: fills `lens` and `axes` (normalized, in the given order).
void init_nd(const ndarray& x, const std::optional<shape_t>& s, const std::optional<std::vector<int>>& axes,
             const char* fn, shape_t& lens, std::vector<int>& out_axes, bool c2r_default_last);

/// The scale factor of `norm` for a transform of logical size `n`, forward or inverse direction.
double norm_factor(norm_mode norm, double n, bool forward);

/// Copies x (any layout; float32/64 or complex64/128) into the C-contiguous dst (float or complex of
/// the same precision; real -> complex gives zero imaginary parts), cropping each axis to dst's length
/// and zero-padding it, multiplied by `scale` and conjugated when `conj`.
void pad_copy(const ndarray& x, ndarray& dst, double scale, bool conj);

/// Multiplies the contiguous array a by scale (and conjugates it when conj), in place.
void scale_inplace(ndarray& a, double scale, bool conj);

/// Element strides of an input viewed as [outer, axis, inner] (all > 0).
struct in_layout {
  std::int64_t axis, outer, inner;
};

/// One cuFFT transform of logical length n along the middle axis of buffers laid out as
/// [outer, in_len, inner] (contiguous, or with the element strides `lay` when given) and the
/// contiguous [outer, out_len, inner]; type is a cufftType, dir CUFFT_FORWARD / CUFFT_INVERSE (C2C
/// only). In place when in == out (C2C, contiguous only). Length 1 is handled without cuFFT (contiguous
/// input only).
void run_axis(int type, std::int64_t n, std::int64_t in_len, std::int64_t out_len, std::int64_t outer,
              std::int64_t inner, const void* in, void* out, int dir, const in_layout* lay = nullptr);

}  // namespace cusci::fft::detail

#pragma once
// (internal) The convolution family's entry points between the host logic (convolution.cpp: SciPy's
// argument checks, swaps, dtype rules and method choice) and the kernels (direct.cu: direct N-D and
// tiled 2-D sums; fftconv.cu: the overlap-save engine and the multiply of the N-D FFT path).

#include <complex>
#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/convolution.hpp"

namespace cusci::signal::detail {

/// Most dimensions of the direct N-D kernel.
inline constexpr int direct_max_ndim = 8;

/// Direct N-D correlation: out[o] = sum_k X[o + k - p] * W[k] with X zero outside its shape; X and W
/// are views of any strides (negative too) of the same dtype `dt` (float32, float64, complex64,
/// complex128 or int64), conjugated on the fly when conj_x / conj_w. Returns a new C-contiguous
/// array of `out_shape` and dtype dt. Asynchronous.
ndarray direct_correlate(const ndarray& x, const ndarray& w, const shape_t& out_shape, const std::vector<std::int64_t>& p,
                         bool conj_x, bool conj_w);

/// Boundary of the 2-D kernel, as conv_boundary.
/// 2-D correlation with boundary: out[i, j] = sum_{a, b} E[i + a - p0, j + b - p1] * W[a, b] where E
/// extends X by `boundary` (fill: `fill`, wrap: periodic, symm: mirrored with the edge repeated). X,
/// W any strides, dtype dt (as direct_correlate); W conjugated when conj_w; when flip_out the output is
/// written reversed in both axes. Returns a new C-contiguous [r, c] array. Asynchronous.
ndarray direct_correlate2d(const ndarray& x, const ndarray& w, std::int64_t out_rows, std::int64_t out_cols,
                           std::int64_t p0, std::int64_t p1, conv_boundary boundary, const std::complex<double>& fill,
                           bool conj_w, bool flip_out);

/// Overlap-save block length (a power of two) for a filter of M taps; 0 when none fits.
std::int64_t oa_block_length(std::int64_t M);

/// Overlap-save convolution of every line of the C-contiguous x [lines, N] with the contiguous 1-D
/// filter h [M] (same dtype: float32, float64, complex64, complex128), writing the samples
/// [o0, o0 + Lout) of each line's full convolution (length N + M - 1) into the C-contiguous
/// out [lines, Lout]. `nfft` from oa_block_length. Asynchronous.
void oa_convolve_lines(const ndarray& x, const ndarray& h, std::int64_t o0, std::int64_t Lout, ndarray& out,
                       std::int64_t nfft);

}  // namespace cusci::signal::detail

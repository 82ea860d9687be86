#pragma once
/// @file fft.hpp
/// Discrete Fourier, cosine and sine transforms on the GPU with SciPy's `scipy.fft` semantics:
/// fft/ifft/rfft/irfft/hfft/ihfft and their 2-D / N-D forms (fast Hankel transform: fftlog.hpp), dct/idct/dst/idst (types I-IV) and
/// their N-D forms, the frequency and shift helpers, fast-length helpers, and the cuFFT plan cache.
///
/// Dtypes (as `scipy.fft`): float32 and complex64 compute in single precision, float64 and
/// complex128 in double; bool and integer inputs are promoted to float64 (complex128), float16 to
/// float32 (complex64). Inputs may have any layout (C, F, strided views, negative strides).
///
/// Stream behaviour: every transform enqueues its work on the current stream of the current device
/// and returns without synchronizing. The input may be released right after the call (the pool's
/// stream-ordered reuse keeps it valid for the queued work). Host helpers (next_fast_len,
/// prev_fast_len, fftfreq_host, rfftfreq_host, parse_norm) touch no device.
///
/// Normalization (`norm`), as SciPy: with `n` the product of the transformed lengths, the forward
/// transforms (fft, rfft, hfft, dct, dst) are scaled by 1 (backward), 1/sqrt(n) (ortho) or 1/n
/// (forward), their inverses by 1/n, 1/sqrt(n), 1 respectively.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::fft {

/// SciPy's `norm=` strings.
enum class norm_mode {
  backward,  ///< "backward" (SciPy's default, also `norm=None`)
  ortho,     ///< "ortho"
  forward,   ///< "forward"
};

/// Parses SciPy's norm strings: "backward" (or "" for `None`), "ortho", "forward".
/// @throws cusci::value_error for any other string (SciPy's message: 'Invalid norm value ...').
norm_mode parse_norm(std::string_view s);

/// Options of the 1-D transforms (SciPy's keyword arguments; `overwrite_x`, `workers` and `plan`
/// have no counterpart).
struct fft_options {
  /// Length of the transformed axis of the output (of the input for irfft/hfft: their output
  /// length); the input is cropped or zero-padded to it. Default: the input's length (for irfft
  /// and hfft: 2 * (m - 1) with m the input's length).
  std::optional<std::int64_t> n{};
  /// Axis over which to transform (negative counts from the end).
  int axis = -1;
  norm_mode norm = norm_mode::backward;
};

/// Options of the N-D transforms (fftn, ifftn, rfftn, irfftn, and the 2-D ones).
struct fftn_options {
  /// Output lengths of the transformed axes (input lengths of the last one for irfftn; see SciPy).
  /// Default: the input's lengths along `axes` (irfftn: 2 * (m - 1) for the last axis).
  std::optional<shape_t> s{};
  /// Axes to transform; default: all axes, or the last len(s) axes when `s` is given. Repeated
  /// axes are rejected (cusci::value_error), as SciPy.
  std::optional<std::vector<int>> axes{};
  norm_mode norm = norm_mode::backward;
};

/// Options of the 2-D transforms: as fftn_options with SciPy's default `axes=(-2, -1)`.
struct fft2_options {
  std::optional<shape_t> s{};
  std::vector<int> axes{-2, -1};
  norm_mode norm = norm_mode::backward;
};

/// 1-D discrete Fourier transform along `axis`.
/// @param x     input [..., m, ...] of any dtype but complex-only restrictions below; any layout.
/// @param opts  n (output length along axis, crop/zero-pad), axis, norm.
/// @return complex64 (float32/complex64/float16 inputs) or complex128 array, C-contiguous, shape of
///         x with axis length n.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for n < 1 or an empty transformed axis; cusci::index_error for a 0-d
///         input or an axis out of range; cusci::out_of_memory; cusci::cufft_error.
/// SciPy: `scipy.fft.fft(x, n, axis, norm)`.
ndarray fft(const ndarray& x, const fft_options& opts = {});
/// Inverse 1-D DFT. As `fft`. SciPy: `scipy.fft.ifft`.
ndarray ifft(const ndarray& x, const fft_options& opts = {});
/// 1-D DFT of a real input: the n/2 + 1 non-negative frequency terms.
/// @param x  real input (bool, integer, float16/32/64), any layout.
/// @return complex, shape of x with axis length n // 2 + 1.
/// @throws cusci::type_error for a complex input ("x must be a real sequence"); else as `fft`.
/// SciPy: `scipy.fft.rfft`.
ndarray rfft(const ndarray& x, const fft_options& opts = {});
/// Inverse of rfft: real output of length n (default 2 * (m - 1)) along axis; the input is
/// cropped/zero-padded to n // 2 + 1 terms; the imaginary parts of the zero (and, for even n,
/// the Nyquist) terms are ignored, as SciPy does.
/// @return float32 or float64, shape of x with axis length n.
/// @throws cusci::value_error for n < 1 (also an input of length 1 without n); else as `fft`.
/// SciPy: `scipy.fft.irfft`.
ndarray irfft(const ndarray& x, const fft_options& opts = {});
/// DFT of a Hermitian-symmetric signal given by its first half: real output of length n
/// (default 2 * (m - 1)). SciPy: `scipy.fft.hfft` (a forward transform: no scaling with
/// norm backward). Throws as irfft.
ndarray hfft(const ndarray& x, const fft_options& opts = {});
/// Inverse of hfft: the n // 2 + 1 terms of the inverse DFT of a real input.
/// @throws cusci::type_error for a complex input. SciPy: `scipy.fft.ihfft`.
ndarray ihfft(const ndarray& x, const fft_options& opts = {});

/// 2-D DFT over `axes` (default the last two). As `fftn`. SciPy: `scipy.fft.fft2`.
ndarray fft2(const ndarray& x, const fft2_options& opts = {});
/// SciPy: `scipy.fft.ifft2`.
ndarray ifft2(const ndarray& x, const fft2_options& opts = {});
/// SciPy: `scipy.fft.rfft2`.
ndarray rfft2(const ndarray& x, const fft2_options& opts = {});
/// SciPy: `scipy.fft.irfft2`.
ndarray irfft2(const ndarray& x, const fft2_options& opts = {});
/// 2-D FFT of a Hermitian-symmetric input (real output) over `axes`; as `hfftn`.
/// SciPy: `scipy.fft.hfft2`.
ndarray hfft2(const ndarray& x, const fft2_options& opts = {});
/// Inverse of hfft2 (real input); as `ihfftn`. SciPy: `scipy.fft.ihfft2`.
ndarray ihfft2(const ndarray& x, const fft2_options& opts = {});

/// N-D DFT over `axes`.
/// @param x  input [any shape, ndim >= 1], any dtype, any layout.
/// @return complex array, C-contiguous, shape of x with the transformed axes' lengths from `s`.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a length < 1, repeated axes, len(s) != len(axes), more lengths
///         than axes of x; cusci::index_error for an axis out of range; cusci::out_of_memory;
///         cusci::cufft_error.
/// SciPy: `scipy.fft.fftn(x, s, axes, norm)`. With `axes` empty the input is returned as a copy
/// (its dtype kept), as SciPy returns it unchanged.
ndarray fftn(const ndarray& x, const fftn_options& opts = {});
/// SciPy: `scipy.fft.ifftn`.
ndarray ifftn(const ndarray& x, const fftn_options& opts = {});
/// N-D DFT of a real input: the last of `axes` is halved to s[-1] // 2 + 1.
/// @throws cusci::type_error for a complex input; cusci::value_error for empty axes; else as fftn.
/// SciPy: `scipy.fft.rfftn`.
ndarray rfftn(const ndarray& x, const fftn_options& opts = {});
/// Inverse of rfftn: real output, the last of `axes` of length s[-1] (default 2 * (m - 1)).
/// SciPy: `scipy.fft.irfftn`.
ndarray irfftn(const ndarray& x, const fftn_options& opts = {});
/// N-D FFT of a Hermitian-symmetric input: real output, the last of `axes` of length s[-1] (default
/// 2 * (m - 1)); computed as the real-output inverse transform of conj(x) with a forward transform's
/// normalization (scaled by 1 with norm backward), as SciPy's. Real inputs are promoted to complex.
/// Shapes and throws as irfftn. SciPy: `scipy.fft.hfftn(x, s, axes, norm)`.
ndarray hfftn(const ndarray& x, const fftn_options& opts = {});
/// Inverse of hfftn: the conjugate of rfftn(x) with an inverse transform's normalization (1/n with
/// norm backward); the last of `axes` is halved to s[-1] // 2 + 1.
/// @throws cusci::type_error for a complex input; else as rfftn. SciPy: `scipy.fft.ihfftn`.
ndarray ihfftn(const ndarray& x, const fftn_options& opts = {});

// --- DCT / DST -------------------------------------------------------------------------------

/// Options of dct/idct/dst/idst.
struct dct_options {
  int type = 2;                        ///< 1, 2, 3 or 4
  std::optional<std::int64_t> n{};     ///< transform length (crop / zero-pad); default: input's
  int axis = -1;
  norm_mode norm = norm_mode::backward;
  /// SciPy's `orthogonalize`: default (nullopt) is true when norm is ortho, false otherwise.
  std::optional<bool> orthogonalize{};
};

/// Options of dctn/idctn/dstn/idstn.
struct dctn_options {
  int type = 2;
  std::optional<shape_t> s{};
  std::optional<std::vector<int>> axes{};
  norm_mode norm = norm_mode::backward;
  std::optional<bool> orthogonalize{};
};

/// Discrete cosine transform of type 1-4 along `axis`, with SciPy's definitions and scaling.
/// @param x  input [..., m, ...]; real inputs (bool/integer -> float64, float16 -> float32);
///           complex inputs transform their real and imaginary parts separately (as SciPy; like
///           SciPy 1.18, `orthogonalize` is then ignored: orthogonalized exactly when norm is ortho).
/// @return float32/float64 (complex64/complex128 for complex inputs), C-contiguous, shape of x with
///         axis length n.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a type other than 1-4, n < 1, or a DCT-I of length 1 (SciPy
///         raises a RuntimeError there); cusci::index_error for an axis out of range / 0-d input.
/// Algorithms: type I by the even extension of length 2(N-1) and a real FFT; type II by
/// Makhoul's N-point reordering and a real FFT, type III by its inverse (J. Makhoul, "A fast
/// cosine transform in one and two dimensions", IEEE Trans. ASSP 28(1), 1980); type IV through a
/// zero-padded complex FFT of length 2N with pre- and post-twiddles.
/// SciPy: `scipy.fft.dct(x, type, n, axis, norm, orthogonalize=...)`.
ndarray dct(const ndarray& x, const dct_options& opts = {});
/// Inverse DCT (idct of type t is the DCT of the inverse type with the inverse scaling).
/// SciPy: `scipy.fft.idct`.
ndarray idct(const ndarray& x, const dct_options& opts = {});
/// Discrete sine transform of type 1-4 (type I by the odd extension of length 2(N+1); II/III by
/// the DCT II/III of the sign-alternated / reversed sequence; IV as DCT-IV). Throws as dct (a
/// DST-I of length 1 is fine). SciPy: `scipy.fft.dst`.
ndarray dst(const ndarray& x, const dct_options& opts = {});
/// SciPy: `scipy.fft.idst`.
ndarray idst(const ndarray& x, const dct_options& opts = {});
/// N-D DCT over `axes` (default all; or the last len(s)), one axis after another.
/// SciPy: `scipy.fft.dctn(x, type, s, axes, norm, orthogonalize=...)`.
ndarray dctn(const ndarray& x, const dctn_options& opts = {});
/// SciPy: `scipy.fft.idctn`.
ndarray idctn(const ndarray& x, const dctn_options& opts = {});
/// SciPy: `scipy.fft.dstn`.
ndarray dstn(const ndarray& x, const dctn_options& opts = {});
/// SciPy: `scipy.fft.idstn`.
ndarray idstn(const ndarray& x, const dctn_options& opts = {});

// --- helpers -------------------------------------------------------------------------------

/// Sample frequencies [0, 1, ..., ceil(n/2)-1, -floor(n/2), ..., -1] / (d * n), float64 [n].
/// Host only. @throws cusci::value_error for n < 1 (SciPy: ZeroDivisionError for 0) or d == 0.
/// SciPy: `scipy.fft.fftfreq(n, d)`.
host_array fftfreq_host(std::int64_t n, double d = 1.0);
/// The same on the current device (an asynchronous upload). SciPy: `scipy.fft.fftfreq`.
ndarray fftfreq(std::int64_t n, double d = 1.0);
/// [0, 1, ..., n // 2] / (d * n), float64 [n // 2 + 1]. Host only; throws as fftfreq_host.
/// SciPy: `scipy.fft.rfftfreq(n, d)`.
host_array rfftfreq_host(std::int64_t n, double d = 1.0);
/// The same on the current device. SciPy: `scipy.fft.rfftfreq`.
ndarray rfftfreq(std::int64_t n, double d = 1.0);
/// Rolls each of `axes` (default all) by n // 2 so the zero frequency is centered.
/// @param x  any dtype, shape, layout. @return a C-contiguous copy, same dtype and shape.
/// Asynchronous. @throws cusci::index_error for an axis out of range.
/// SciPy: `scipy.fft.fftshift(x, axes)` (repeated axes roll twice, as NumPy).
ndarray fftshift(const ndarray& x, const std::optional<std::vector<int>>& axes = {});
/// Inverse of fftshift (rolls by -(n // 2)). SciPy: `scipy.fft.ifftshift`.
ndarray ifftshift(const ndarray& x, const std::optional<std::vector<int>>& axes = {});
/// Smallest length >= target that the FFT handles fastest: 2,3,5,7,11-smooth for complex
/// transforms, 2,3,5-smooth with `real` (SciPy's pocketfft definitions). Returns 0 for target 0,
/// as SciPy. Host only.
/// @throws cusci::value_error for a negative target. SciPy: `scipy.fft.next_fast_len(target, real)`.
std::int64_t next_fast_len(std::int64_t target, bool real = false);
/// Largest fast length <= target (same smoothness rules). Returns 0 for target 0.
/// @throws cusci::value_error for a negative target. SciPy: `scipy.fft.prev_fast_len(target, real)`.
std::int64_t prev_fast_len(std::int64_t target, bool real = false);

// --- plan cache ------------------------------------------------------------------------------

/// The cuFFT plan cache of the calling thread for one device: an LRU list of plans keyed by
/// everything a plan depends on (transform type, rank, lengths, embeddings, strides, distances,
/// batch, device). Each plan holds its work area from the pool (auto-allocation off); the
/// `memsize` bound counts those work-area bytes. A plan is bound to the current stream at each
/// use (cufftSetStream), so one plan serves every stream of its device one call after another;
/// when it is used on another stream than before it takes a new work area allocated on that stream
/// (the old one returns to the pool in that stream's order), so work queued on two streams never
/// shares a work area. Evicting a plan synchronizes the device before destroying it.
/// Defaults as CuPy: 16 plans, no memory bound (-1). Host only; never touches the device except
/// as noted (clear and evictions synchronize the device).
/// CuPy: `cupy.fft.config.get_plan_cache()` (`PlanCache`).
class plan_cache {
 public:
  explicit plan_cache(int device) noexcept : device_(device) {}
  /// Maximum number of cached plans; 0 disables caching (plans are made for each call and
  /// destroyed after it). Shrinking evicts the least recently used plans.
  /// @throws cusci::value_error for a negative size.
  void set_size(int size);
  int get_size() const;
  /// Maximum total work-area bytes of the cached plans; -1 means no bound. A plan whose work area
  /// alone exceeds the bound is used but not cached.
  /// @throws cusci::value_error for a value below -1.
  void set_memsize(std::int64_t bytes);
  std::int64_t get_memsize() const;
  /// Number of plans cached now.
  int get_curr_size() const;
  /// Work-area bytes held by the cached plans now.
  std::int64_t get_curr_memsize() const;
  /// Destroys every cached plan (synchronizes the device first).
  void clear();
  /// A human-readable summary: bounds, current counts and one line per cached plan (most recently
  /// used first).
  std::string show_info() const;
  int device() const noexcept { return device_; }

 private:
  int device_;
};

/// The calling thread's plan cache of the current device.
/// @throws cusci::cuda_error when no device is available.
/// CuPy: `cupy.fft.config.get_plan_cache()`.
plan_cache get_plan_cache();

}  // namespace cusci::fft

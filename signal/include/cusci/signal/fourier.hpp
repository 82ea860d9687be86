#pragma once
/// @file fourier.hpp
/// FFT-based functions of scipy.signal on the GPU: the analytic signal (`hilbert`, `hilbert2`), the
/// envelope (`envelope`), trend removal (`detrend`) and the chirp z-transform (`czt`, `zoom_fft`, the
/// reusable `CZT` / `ZoomFFT` objects and `czt_points`).
///
/// Dtypes follow SciPy: real float32 (and float16) data give complex64 analytic signals, float64,
/// integer and bool data complex128; the chirp z-transform always computes in complex128, as SciPy
/// (its chirps are complex128). Inputs may have any layout (C, F, strided); results are new arrays,
/// returned as views with the transformed axis moved back into place when it is not the last.
///
/// Stream behaviour: every function enqueues its work on the current stream of the current device and
/// returns without synchronizing; the constructors of `CZT` / `ZoomFFT` compute their chirps on the
/// current device, asynchronously (the objects then live on that device).

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ hilbert

/// Keyword arguments of `hilbert` (SciPy's `N`, `axis`).
struct hilbert_options {
  /// Number of output samples: the input is cropped or zero-padded to N along `axis`. Default: the
  /// input's length.
  std::optional<std::int64_t> N{};
  int axis = -1;
};

/// The analytic signal x + i H(x) of each 1-D line of `x` along `axis`: the spectrum's negative
/// frequencies are zeroed and its positive ones doubled (the zero and, for even N, the Nyquist bin
/// kept).
/// @param x  [..., n, ...] real data: float16/float32 -> complex64; float64, integer, bool ->
///           complex128; any layout.
/// @return complex [..., N, ...] (x's shape with the axis length N).
/// Asynchronous on the current stream.
/// @throws cusci::value_error for complex x ("x must be real."), N <= 0 or an empty axis without N;
///         cusci::index_error for a 0-d x or an axis out of range.
/// Algorithm: one real-to-complex FFT written into the front of the output's rows, ONE kernel that
/// applies the weights (1, 2, ..., 2, [1], 0, ..., 0) / N in place and fills the negative half with
/// zeros, then the inverse complex FFT in place (3 passes; SciPy makes a full complex FFT).
/// SciPy: `scipy.signal.hilbert(x, N=None, axis=-1)`.
ndarray hilbert(const ndarray& x, const hilbert_options& opts = {});

/// Keyword arguments of `hilbert2`.
struct hilbert2_options {
  /// Output lengths along `axes`: one value (both axes) or two. Default: the input's lengths.
  std::optional<std::vector<std::int64_t>> N{};
  /// The two axes (SciPy's default (-2, -1)).
  std::vector<int> axes{-2, -1};
};

/// The 2-D "single-orthant" analytic signal along `axes`: weights (1 + s(k0)) (1 + s(k1)) in the 2-D
/// spectrum, s(k) = 1 for 1 <= k < (N+1)//2, 0 at k = 0, -1 above (the even Nyquist bin is zeroed).
/// @param x  [...] real data (ndim < 2 is treated as 2-D: a 1-D x as [1, n], as SciPy's atleast_2d);
///           dtypes as `hilbert`.
/// @return complex, x's (at least 2-D) shape with the axes' lengths N.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for complex x, axes not of length 2 or naming one axis twice, a
///         non-positive N, N of a length other than 1 or 2, an empty transformed axis;
///         cusci::index_error for an axis out of range.
/// SciPy: `scipy.signal.hilbert2(x, N=None, axes=(-2, -1))`.
ndarray hilbert2(const ndarray& x, const hilbert2_options& opts = {});

// ------------------------------------------------------------------------------------ envelope

/// SciPy's `residual=` values of `envelope`.
enum class envelope_residual {
  lowpass,  ///< "lowpass" (default): the part of the spectrum below the band
  all,      ///< "all": everything outside the band
  none,     ///< None: no residual; only the envelope is returned
};
/// Parses "lowpass", "all" and "None" (or "none", "").
/// @throws cusci::value_error for anything else (SciPy's message).
envelope_residual parse_envelope_residual(std::string_view s);

/// Arguments of `envelope` after z (SciPy's `bp_in` and its keyword-only arguments).
struct envelope_options {
  /// Frequency band [bp_in.first, bp_in.second) in bins (None: -(n//2) / (n+1)//2).
  std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> bp_in{1, std::nullopt};
  /// Number of output samples (resampling in the frequency domain); default n.
  std::optional<std::int64_t> n_out{};
  /// Return the squared envelope |z_bb|^2 instead of |z_bb|.
  bool squared = false;
  envelope_residual residual = envelope_residual::lowpass;
  int axis = -1;
};

/// The envelope of a real or complex signal along `axis` (the magnitude of its band-limited,
/// baseband analytic signal), with the residual outside the band.
/// @param z  [..., n, ...] real (float16/float32 -> float32 results, float64/integer/bool ->
///           float64) or complex (complex64 / complex128); any layout; n >= 1.
/// @return with a residual: [2, ..., n_out, ...] (the envelope stacked over the residual, SciPy's
///         `np.stack((z_env, z_res))`; for complex z the array is complex and the envelope's imaginary
///         parts are 0); with residual none: the real envelope [..., n_out, ...].
/// Asynchronous on the current stream.
/// @throws cusci::value_error for an axis out of range (SciPy raises ValueError there), n == 0, a band
///         outside -n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2, n_out <= 0.
/// SciPy: `scipy.signal.envelope(z, bp_in=(1, None), *, n_out=None, squared=False,
/// residual='lowpass', axis=-1)` (its slicing, resampling and unpaired-bin rules followed exactly).
ndarray envelope(const ndarray& z, const envelope_options& opts = {});

// ------------------------------------------------------------------------------------ detrend

/// SciPy's `type=` values of `detrend`.
enum class detrend_type {
  linear,    ///< "linear" / "l": subtract a least-squares line per segment
  constant,  ///< "constant" / "c": subtract the mean
};
/// Parses "linear", "l", "constant", "c". @throws cusci::value_error otherwise (SciPy's message).
detrend_type parse_detrend_type(std::string_view s);

/// Keyword arguments of `detrend`.
struct detrend_options {
  int axis = -1;
  detrend_type type = detrend_type::linear;
  /// Break points (host int64 values, any order, repeats allowed): the linear fit is done separately
  /// on each segment between consecutive points of sorted(unique({0} + bp + {N})). SciPy's default 0.
  std::vector<std::int64_t> bp{0};
  /// Accepted for SciPy's signature; cusci never writes into `data` (the result is always new).
  bool overwrite_data = false;
};

/// Removes the linear (per segment) or constant trend of `data` along `axis`.
/// @param data  [..., N, ...] any dtype. Linear: float32/float64/complex64/complex128 keep their dtype,
///              others compute in float64 (SciPy). Constant: `data - mean(data, axis, keepdims=True)`
///              with NumPy's dtype rules (float16 stays float16, integers give float64).
/// @return data's shape.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a break point > N or < 0 (SciPy raises for both), a linear detrend of
///         an empty array (SciPy fails in reshape / LAPACK); cusci::index_error for a 0-d array or an
///         axis out of range.
/// Algorithm (linear): per segment of length L, the least-squares line has the closed form
/// mean + slope (t - (L-1)/2) with slope = sum((t - (L-1)/2) y) / (L (L^2 - 1) / 12); the sums are
/// accumulated in float64 per chunk of 4096 samples, combined per segment, and subtracted in a third
/// pass (SciPy solves lstsq per segment; a 1-point segment gives 0 as SciPy's minimum-norm solution).
/// SciPy: `scipy.signal.detrend(data, axis=-1, type='linear', bp=0, overwrite_data=False)`.
/// Deviation: overwrite_data never makes cusci modify `data`.
ndarray detrend(const ndarray& data, const detrend_options& opts = {});

// ------------------------------------------------------------------------------------ chirp z

/// The m points of the z-plane at which `czt` samples: a * w^-k (k = 0 .. m-1), or with no w the m
/// roots of unity a * exp(2 pi i k / m). Host only (complex128 [m]).
/// @throws cusci::value_error for m < 1.
/// SciPy: `scipy.signal.czt_points(m, w=None, a=1+0j)`.
host_array czt_points(std::int64_t m, std::optional<std::complex<double>> w = std::nullopt,
                      std::complex<double> a = {1.0, 0.0});

/// A reusable chirp z-transform of signals of length n: X[k] = sum_j x[j] a^-j w^(jk), k < m
/// (Bluestein's algorithm: premultiply by the chirp a^-j w^(j^2/2), convolve with w^(-j^2/2) by an FFT
/// of next_fast_len(n + m - 1), postmultiply by w^(k^2/2)). The three chirps (the convolution kernel's
/// spectrum included) are computed once, by the constructor, in complex128 on the current device, by
/// the same floating-point expressions as SciPy's numpy code (numpy's complex-power rules included).
/// SciPy: `scipy.signal.CZT(n, m=None, w=None, a=1+0j)`.
class CZT {
 public:
  /// @param n  signal length (>= 1). @param m  output length (default n, >= 1).
  /// @param w  ratio between points (default exp(-2 pi i / m): the DFT). @param a  starting point.
  /// Asynchronous on the current stream (one chirp kernel and one FFT).
  /// @throws cusci::value_error for n < 1 or m < 1.
  explicit CZT(std::int64_t n, std::optional<std::int64_t> m = std::nullopt,
               std::optional<std::complex<double>> w = std::nullopt, std::complex<double> a = {1.0, 0.0});

  /// The transform of `x` along `axis`.
  /// @param x  [..., n, ...] any real or complex dtype (computed in complex128), any layout.
  /// @return complex128 [..., m, ...].
  /// Asynchronous on the current stream (which first waits, on the device, for the constructor's work
  /// when the object was made on another stream).
  /// @throws cusci::value_error when x.shape[axis] != n; cusci::index_error for a 0-d x or an axis out
  ///         of range.
  ndarray operator()(const ndarray& x, int axis = -1) const;

  /// The points of the z-plane sampled (czt_points(m, w, a)): host complex128 [m].
  host_array points() const;

  std::int64_t n() const noexcept { return n_; }
  std::int64_t m() const noexcept { return m_; }
  std::complex<double> w() const noexcept { return w_; }
  std::complex<double> a() const noexcept { return a_; }

 protected:
  struct chirps;  // what the chirp kernel needs (fourier_host.cpp)
  CZT() = default;
  void init(std::int64_t n, std::int64_t m, const chirps& c);

  std::int64_t n_ = 0, m_ = 0, nfft_ = 0;
  std::complex<double> w_{}, a_{1.0, 0.0};
  ndarray awk2_;  ///< complex128 [n]: a^-k w^(k^2/2)
  ndarray fwk2_;  ///< complex128 [nfft]: FFT of 1 / w^(k^2/2) over k = -(n-1) .. m-1
  ndarray wk2_;   ///< complex128 [m]: w^(k^2/2)
  std::shared_ptr<void> ready_;  ///< a cusci::event recorded after the chirps: calls on other streams wait on it
};

/// Keyword-only arguments of `ZoomFFT` (SciPy's `fs`, `endpoint`).
struct zoom_fft_params {
  double fs = 2.0;
  bool endpoint = false;
};

/// A reusable zoom FFT: the DFT of length-n signals at m frequencies from f1 to f2 (f2 included with
/// endpoint), as a CZT on the unit circle with its chirps computed directly from the frequencies.
/// SciPy: `scipy.signal.ZoomFFT(n, fn, m=None, *, fs=2, endpoint=False)`.
class ZoomFFT : public CZT {
 public:
  /// @param fn  {f2} (the range [0, f2]) or {f1, f2}, in the units of fs.
  /// @throws cusci::value_error for n < 1, m < 1, fn of another length, fs == 0 or endpoint with
  ///         m == 1 (SciPy's ZeroDivisionError).
  ZoomFFT(std::int64_t n, const std::vector<double>& fn, std::optional<std::int64_t> m = std::nullopt,
          const zoom_fft_params& p = {});
  ZoomFFT(std::int64_t n, double fn, std::optional<std::int64_t> m = std::nullopt, const zoom_fft_params& p = {})
      : ZoomFFT(n, std::vector<double>{fn}, m, p) {}

  double f1() const noexcept { return f1_; }
  double f2() const noexcept { return f2_; }
  double fs() const noexcept { return fs_; }

 private:
  double f1_ = 0, f2_ = 0, fs_ = 2;
};

/// Arguments of `czt` after x.
struct czt_options {
  std::optional<std::int64_t> m{};
  std::optional<std::complex<double>> w{};
  std::complex<double> a{1.0, 0.0};
  int axis = -1;
};

/// The chirp z-transform of `x` along `axis` (CZT(x.shape[axis], m, w, a)(x, axis)).
/// @return complex128 [..., m, ...]. Asynchronous on the current stream.
/// @throws cusci::value_error for an empty axis or m < 1; cusci::index_error for a 0-d x or an axis out
///         of range.
/// SciPy: `scipy.signal.czt(x, m=None, w=None, a=1+0j, *, axis=-1)`.
ndarray czt(const ndarray& x, const czt_options& opts = {});

/// Arguments of `zoom_fft` after x and fn.
struct zoom_fft_options {
  std::optional<std::int64_t> m{};
  double fs = 2.0;
  bool endpoint = false;
  int axis = -1;
};

/// The DFT of `x` along `axis` at m frequencies of the range fn ({f2}: [0, f2]; {f1, f2}).
/// @return complex128 [..., m, ...]. Asynchronous on the current stream.
/// @throws as ZoomFFT, and cusci::index_error for a 0-d x or an axis out of range.
/// SciPy: `scipy.signal.zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1)`.
ndarray zoom_fft(const ndarray& x, const std::vector<double>& fn, const zoom_fft_options& opts = {});
inline ndarray zoom_fft(const ndarray& x, double fn, const zoom_fft_options& opts = {}) {
  return zoom_fft(x, std::vector<double>{fn}, opts);
}

}  // namespace cusci::signal

#pragma once
/// @file filtering.hpp
/// Linear recursive filtering on the GPU: `lfilter` (transfer function, direct form II transposed)
/// and `sosfilt` (cascaded second-order sections), batched over every axis but the filtered one.
///
/// Algorithm. A linear recurrence of state dimension D (D = max(len(a), len(b)) - 1 for lfilter,
/// D = 2 * n_sections for sosfilt) is parallelised over time by chunking (the block form of the
/// linear-recurrence scan: G. E. Blelloch, "Prefix sums and their applications", CMU-CS-90-190,
/// 1990, section 1.4): each signal is cut into C chunks of L samples; (1) every chunk is filtered
/// from a zero state and only its final state s_j is kept; (2) the true initial state of each chunk
/// follows from the recurrence S_{j+1} = A^L S_j + s_j, where A is the filter's state-transition
/// matrix; this carry is itself done in two levels (groups of ~sqrt(C) chunks, with A^(L*G)) so a
/// single long signal stays parallel; (3) every chunk is filtered again from its true initial state,
/// writing the output. Each thread owns one chunk; a warp loads and stores 32 chunks through a
/// shared-memory tile so global accesses stay coalesced. Long FIR filters (a == [a0]) use a direct
/// convolution kernel instead.
///
/// Stability of the carry. The chunk length is not chosen for parallelism alone: transfer-function
/// forms of filters with poles near the unit circle (a 0.5-40 Hz band-pass at 360 Hz, order 8) have
/// transients in A^k of 1e7 and more before they decay, so a short chunk's carry would amplify
/// rounding until it overflows. A^k is simulated on the host in float64 (cached per filter), and the
/// chunk length is the first of 256, 512, 1024, ... at which ||A^L||_inf <= 1/2 (the carry is then a
/// contraction and never amplifies rounding), or longer where that fills the device better. When no
/// length up to min(2^16, N/2) qualifies (poles on or outside the unit circle, or decay slower than
/// ~2^16 samples), each signal is filtered sequentially by one thread, in SciPy's order: correct,
/// and parallel over the batch only.
///
/// Precision. Every filter computes in float64 (complex128 for complex data) whatever the data's
/// dtype; float32 / complex64 results are rounded once on output, so they are closer to the float64
/// result than SciPy's float32 loop (which also rounds every state update to float32). float64
/// results agree with SciPy's sequential loop to the rounding sensitivity of the filter itself: for
/// well-conditioned filters and every second-order-sections form to ~1e-12 of max|y|; for
/// ill-conditioned transfer-function forms, where SciPy's own result differs from the exact one by
/// ~1e-7 of max|y|, to that level.
///
/// Coefficient arguments are `array_like`: a host_array (no synchronization), a device ndarray (copied
/// to the host first, which synchronizes: the coefficients are validated and become kernel
/// parameters, as SciPy also inspects them on the host), or, as SciPy's array_like, a scalar (a 0-d
/// array), a braced list `{1.0, -0.5}` or a std::vector (1-D arrays of the element type's dtype).

#include <complex>
#include <initializer_list>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

/// A host or device array argument (coefficients, initial conditions), as SciPy's array_like: an
/// ndarray or host_array (referred to: pass named objects or temporaries that live until the call
/// returns), or a scalar, braced list or std::vector (copied into a host array the object owns).
/// Scalars and vectors keep their C++ element type's dtype (`1.0` float64, `1` int32, `1.0f` float32,
/// std::complex<double> complex128); a braced list is float64 (`{1, -0.5}`) or complex128 (a list of
/// std::complex<double>).
class array_like {
 public:
  array_like(const ndarray& d) : dev_(&d) {}
  array_like(const host_array& h) : host_(&h) {}
  template <class T>
    requires(std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
             std::is_same_v<T, std::complex<double>>)
  array_like(T v) : owned_(std::make_shared<host_array>(host_array::from(std::vector<T>{v}, shape_t{}))) {
    host_ = owned_.get();
  }
  array_like(std::initializer_list<double> v)
      : owned_(std::make_shared<host_array>(host_array::from(std::vector<double>(v)))) {
    host_ = owned_.get();
  }
  array_like(std::initializer_list<std::complex<double>> v)
      : owned_(std::make_shared<host_array>(host_array::from(std::vector<std::complex<double>>(v)))) {
    host_ = owned_.get();
  }
  template <class T>
  array_like(const std::vector<T>& v) : owned_(std::make_shared<host_array>(host_array::from(v))) {
    host_ = owned_.get();
  }
  bool on_device() const noexcept { return dev_ != nullptr; }
  const ndarray* device() const noexcept { return dev_; }
  const host_array* host() const noexcept { return host_; }
  cusci::dtype dtype() const noexcept { return dev_ ? dev_->dtype() : host_->dtype(); }
  const shape_t& shape() const noexcept { return dev_ ? dev_->shape() : host_->shape(); }
  int ndim() const noexcept { return static_cast<int>(shape().size()); }
  /// A host copy (synchronizes for a device array).
  host_array to_host() const;
  /// A device array (uploads a host array, asynchronously).
  ndarray to_device() const;

 private:
  const ndarray* dev_ = nullptr;
  const host_array* host_ = nullptr;
  std::shared_ptr<const host_array> owned_;  // the copy of a scalar, list or vector
};

/// An array argument in a position where an options struct may also stand (the `zi` of `lfilter` and
/// `sosfilt`, the `t` of `resample`): array_like without braced lists, so that `lfilter(b, a, x,
/// {.axis = 0})` keeps meaning the options overload. A list of values is passed as a std::vector.
class array_ref : public array_like {
 public:
  array_ref(const ndarray& d) : array_like(d) {}
  array_ref(const host_array& h) : array_like(h) {}
  template <class T>
    requires(std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
             std::is_same_v<T, std::complex<double>>)
  array_ref(T v) : array_like(v) {}
  template <class T>
  array_ref(const std::vector<T>& v) : array_like(v) {}
};

/// Output and final filter state of `lfilter` / `sosfilt` when initial conditions are given.
struct filter_result {
  ndarray y;   ///< same shape as x, result dtype
  ndarray zf;  ///< same shape as zi, result dtype
};

/// Keyword arguments of `lfilter` (SciPy's `axis`; `zi` is the extra argument of the overload that
/// returns the final state).
struct lfilter_options {
  int axis = -1;
};

/// Filters along one axis with the IIR or FIR filter b(z)/a(z) (direct form II transposed,
/// normalised by a[0]).
/// @param b  [nb] numerator, nb >= 1, real or complex dtype.
/// @param a  [na] denominator, na >= 1, a[0] != 0, real or complex.
/// @param x  [..., n, ...] any layout; float32 / float64 / complex64 / complex128 (integer and bool
///           data promote as NumPy).
/// @return y with x's shape and dtype `result_type(b, a, x)` (float32, float64, complex64 or
///         complex128); for axis != -1 (or a non-contiguous x) a view with the filtered axis moved
///         back into place.
/// Asynchronous on the current stream (synchronizes only to copy device coefficients to the host).
/// @throws cusci::value_error for an empty or non-1-D b / a, a[0] == 0, a 0-d x, an FIR filter
///         (na == 1) on an x with a zero-length dimension (as SciPy's convolution path);
///         cusci::index_error for axis out of range; cusci::not_implemented_error when the result dtype
///         is not inexact (integer-only inputs, as SciPy).
/// SciPy: `scipy.signal.lfilter`. Deviation: a == [0] raises value_error (SciPy divides by zero).
ndarray lfilter(const array_like& b, const array_like& a, const ndarray& x, const lfilter_options& opts = {});

/// As above with initial conditions `zi` [..., K, ...] (x's shape with the filtered axis replaced by
/// K = max(na, nb) - 1; other axes may be 1 and are broadcast). Returns {y, zf}, zf of shape
/// x's shape with the axis replaced by K.
/// @throws cusci::value_error for zi.ndim != x.ndim or an unexpected zi shape (SciPy's messages).
filter_result lfilter(const array_like& b, const array_like& a, const ndarray& x, const array_ref& zi,
                      const lfilter_options& opts = {});

/// Keyword arguments of `sosfilt`.
struct sosfilt_options {
  int axis = -1;
};

/// Filters along one axis with cascaded second-order sections.
/// @param sos  [n_sections, 6] rows (b0, b1, b2, a0, a1, a2) with a0 == 1, real or complex dtype.
/// @param x    [..., n, ...] any layout; float32 / float64 / complex64 / complex128 (integer and bool
///             data promote).
/// @return y with x's shape and dtype `result_type(sos, x)`: a float64 `sos` (as `butter` returns)
///         gives float64 output even for float32 data, exactly as SciPy; pass a float32 `sos` to
///         filter in float32.
/// Asynchronous on the current stream (a device `sos` is copied to the host: synchronizes).
/// @throws cusci::value_error when sos is not 2-D with 6 columns, sos[:, 3] != 1, x is 0-d, or the
///         filtered axis has length 0 (as SciPy); cusci::index_error for axis out of range;
///         cusci::not_implemented_error for a result dtype that is not inexact (integer-only inputs).
/// SciPy: `scipy.signal.sosfilt`.
ndarray sosfilt(const array_like& sos, const ndarray& x, const sosfilt_options& opts = {});

/// As above with initial conditions zi [n_sections, ..., 2, ...] (x's shape with the axis replaced
/// by 2, preceded by n_sections). Returns {y, zf}, zf of zi's shape.
/// @throws cusci::value_error for a zi of another shape (SciPy's message).
filter_result sosfilt(const array_like& sos, const ndarray& x, const array_ref& zi,
                      const sosfilt_options& opts = {});

}  // namespace cusci::signal

#pragma once
/// @file iir_design.hpp
/// Chebyshev IIR filter design on the host (double precision), with SciPy's semantics: the analog
/// low-pass prototypes `cheb1ap` / `cheb2ap` and the designs `cheby1` / `cheby2` through SciPy's
/// `iirfilter` pipeline (prototype, frequency transformation lp2lp / lp2hp / lp2bp / lp2bs, pre-warping
/// and the bilinear transform for digital filters, then zpk2tf or zpk2sos). Synchronous host code; the
/// results are `iir_filter` / `zpk_coeffs` of filter_design.hpp.

#include <vector>

#include "cusci/signal/filter_design.hpp"

namespace cusci::signal {

/// Keyword arguments of `cheby1` / `cheby2` (SciPy's btype, analog, output, fs; the same fields and
/// defaults as `butter`).
using cheby1_options = butter_options;
using cheby2_options = butter_options;

/// Analog Chebyshev type I low-pass prototype of order N with `rp` dB of passband ripple, cutoff
/// 1 rad/s (where the gain first drops below -rp dB).
/// @return z (empty), p [N] complex128, k (N == 0: 10^(-rp / 20)).
/// @throws cusci::value_error for N < 0 ("Filter order must be a nonnegative integer").
/// SciPy: `scipy.signal.cheb1ap`.
zpk_coeffs cheb1ap(int N, double rp);

/// Analog Chebyshev type II low-pass prototype of order N with `rs` dB of stopband attenuation,
/// stopband edge 1 rad/s.
/// @return z [N or N - 1] and p [N] complex128, k.
/// @throws cusci::value_error for N < 0. SciPy: `scipy.signal.cheb2ap`.
zpk_coeffs cheb2ap(int N, double rs);

/// Chebyshev type I digital or analog filter design.
/// @param N   order, >= 0.   @param rp  passband ripple in dB, >= 0.
/// @param Wn  [1] (lowpass / highpass) or [2] (bandpass / bandstop) critical frequencies: digital in
///            (0, 1) half-cycles/sample, or (0, fs/2) with fs; analog in rad/s.
/// @return the `iir_filter` with the requested output form. Host only, synchronous.
/// @throws cusci::value_error for every condition SciPy's iirfilter rejects (fs with analog,
///         Wn <= 0, Wn[0] >= Wn[1], rp < 0, N < 0, digital Wn >= 1 (fs/2), a wrong number of
///         frequencies for the band type).
/// SciPy: `scipy.signal.cheby1`. Deviation: 'ba' coefficients are returned real (the roots come in
/// conjugate pairs, where SciPy returns real arrays too).
iir_filter cheby1(int N, double rp, const std::vector<double>& Wn, const cheby1_options& opts = {});
iir_filter cheby1(int N, double rp, double Wn, const cheby1_options& opts = {});

/// Chebyshev type II digital or analog filter design; `rs` is the stopband attenuation in dB, >= 0,
/// Wn the stopband edge(s). Otherwise as `cheby1`. SciPy: `scipy.signal.cheby2`.
iir_filter cheby2(int N, double rs, const std::vector<double>& Wn, const cheby2_options& opts = {});
iir_filter cheby2(int N, double rs, double Wn, const cheby2_options& opts = {});

}  // namespace cusci::signal

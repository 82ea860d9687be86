#pragma once
/// @file fftlog.hpp
/// The fast Hankel transform of `scipy.fft` (FFTLog: `fht`, `ifht`, `fhtoffset`).
///
/// Algorithm: Hamilton, A. J. S. (2000), "Uncorrelated modes of the non-linear power spectrum",
/// MNRAS 312, 257 (astro-ph/9905191), appendix B: the Hankel transform of a logarithmically spaced
/// sequence as a convolution, computed with a real FFT, a multiplication by the coefficients
/// u_m = (k_c r_c)^(-i 2 pi m / (n dln)) U_mu(q + i 2 pi m / (n dln)),
/// U_mu(x) = 2^x Gamma((mu + 1 + x) / 2) / Gamma((mu + 1 - x) / 2), an inverse real FFT and a reversal.
/// The n // 2 + 1 coefficients are computed on the GPU in float64, one thread each (complex
/// log-gamma by recurrence and Stirling's series; the m = 0 term and its singular cases on the host);
/// the transforms and products run on the GPU over every leading index (the transform is along the
/// last axis), as SciPy's.
///
/// Dtypes: as `scipy.fft.fht`: float32 input gives float32 (the coefficients are applied in double and
/// the product rounded, as NumPy's in-place `A *= u`), float64 and integer inputs float64; with a
/// non-zero `bias` the input is first multiplied by a float64 power law, so float32 gives float64.
/// Complex input: type_error (SciPy's real FFT rejects it).
/// Stream behaviour: asynchronous (the coefficients are computed on the current stream).
/// Warnings: "UserWarning" "singular transform; consider changing the bias" (fht) and "singular
/// inverse transform; consider changing the bias" (ifht) where SciPy issues them; the singular
/// coefficient is then replaced as SciPy does (0 for fht, inf for ifht).

#include <cstdint>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::fft {

/// Options of fht / ifht (SciPy's keyword arguments): `offset` ln(k_c r_c), the offset of the
/// output's logarithmic grid; `bias` q, the exponent of the power-law bias.
struct fht_options {
  double offset = 0.0;
  double bias = 0.0;
};

/// The fast Hankel transform of `a` along its last axis: `a` is sampled at r_j = r_c exp((j - j_c) dln),
/// j_c = (n - 1) / 2; the result at k_j = k_c exp((j - j_c) dln) with ln(k_c r_c) = offset.
/// @param a   [..., n], n >= 1; real dtypes (see the file's note on dtypes), any layout.
/// @param dln uniform logarithmic spacing of the samples.
/// @param mu  order of the Hankel transform, any real number.
/// @returns   [..., n] (the reversal is a view with a negative stride on the last axis, as SciPy's).
/// @throws cusci::type_error for complex input; cusci::value_error for a 0-d input or n == 0.
/// SciPy: `scipy.fft.fht(a, dln, mu, offset=0.0, bias=0.0)`.
ndarray fht(const ndarray& a, double dln, double mu, const fht_options& o = {});

/// The inverse fast Hankel transform (of `A` sampled on the k grid of fht), along the last axis.
/// Shapes, dtypes and throws as fht. SciPy: `scipy.fft.ifht(A, dln, mu, offset=0.0, bias=0.0)`.
ndarray ifht(const ndarray& A, double dln, double mu, const fht_options& o = {});

/// Options of fhtoffset: `initial`, the starting guess for the offset; `bias` as fht's.
struct fhtoffset_options {
  double initial = 0.0;
  double bias = 0.0;
};

/// The offset closest to `initial` that satisfies FFTLog's low-ringing condition for the spacing
/// `dln`, order `mu` and bias (Hamilton 2000, eq. (B7)). Host only.
/// SciPy: `scipy.fft.fhtoffset(dln, mu, initial=0.0, bias=0.0)`.
double fhtoffset(double dln, double mu, const fhtoffset_options& o = {});

namespace detail {
/// The n // 2 + 1 FFTLog coefficients (interleaved real/imaginary float64), SciPy's `fhtcoeff`,
/// including its special cases (poles of the gamma functions, singular transforms); `singular` is set
/// when SciPy would warn. Host only; exposed for tests.
std::vector<double> fht_coefficients(std::int64_t n, double dln, double mu, double offset, double bias, bool inverse,
                                     bool* singular = nullptr);
/// The principal-branch-agnostic complex log-gamma used by the coefficients: returns (re, im) with
/// exp(re + i im) = Gamma(x + i y); (NaN, NaN) at the poles. Host only; exposed for tests.
std::pair<double, double> log_gamma(double x, double y);
}  // namespace detail

}  // namespace cusci::fft

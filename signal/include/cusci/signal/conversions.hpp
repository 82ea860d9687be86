#pragma once
/// @file conversions.hpp
/// Conversions between the representations of linear filters and systems, on the host, with SciPy's
/// semantics: transfer function (b, a), zeros/poles/gain (z, p, k), second-order sections (sos) and
/// state space (A, B, C, D); coefficient normalisation; the analog frequency transformations
/// (lp2lp / lp2hp / lp2bp / lp2bs and their `_zpk` forms) and the bilinear transform; partial-fraction
/// expansions (`residue`, `residuez`) and their inverses.
///
/// Everything is synchronous host code (no GPU work, no stream) computed in double precision; results are
/// `cusci::host_array` with SciPy's output dtypes: float64 for real data, complex128 where SciPy returns
/// complex values (roots are float64 when every root is real, as `numpy.roots`), and float32 / complex64
/// where SciPy keeps single precision for single-precision inputs (normalize, tf2zpk, zpk2tf, sos2tf, C and
/// D of tf2ss, ss2tf, abcd_normalize, lp2hp / lp2bp / lp2bs, lp2lp_zpk, the poles of bilinear_zpk and
/// lp2hp_zpk, unique_roots): those are computed in double and rounded once, so they are closer to the exact
/// result than SciPy's float32 arithmetic. Inputs of any real or complex dtype are accepted.
/// Array parameters are `array_like` (filtering.hpp): a host_array, a scalar (0-d), a braced list
/// `{1.0, -0.5}` or a std::vector; a device ndarray is copied to the host first, which synchronizes.
///
/// Warnings: SciPy's `BadCoefficients` ("Badly conditioned filter coefficients (numerator): the results
/// may be meaningless", when leading numerator coefficients are below 1e-14 after normalisation) is
/// issued through `cusci::warn("BadCoefficients", "cusci::signal::<fn>", message)` by every function
/// that normalises (normalize, tf2zpk, tf2ss, tf2sos, sos2zpk, bilinear, lp2*; the class constructors of
/// lti.hpp); install a handler with `cusci::set_warning_handler` or collect with `cusci::warning_capture`.
///
/// Common deviations from SciPy (listed again where they matter):
/// - integer inputs give float64 where SciPy keeps an integer dtype (zpk2tf's denominator of integer
///   poles, unique_roots of integers); float16 inputs give float64;
/// - a gain that SciPy would return complex (complex transfer-function coefficients whose leading
///   numerator coefficient is not real) is rejected with not_implemented_error: `zpk_coeffs::k` is real.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/filter_design.hpp"

namespace cusci::signal {

/// State-space matrices x' = A x + B u, y = C x + D u. float64 (complex128 for complex inputs).
struct ss_coeffs {
  host_array A, B, C, D;
};

// ---- transfer function / zeros-poles-gain ----------------------------------------------------------

/// Normalises a transfer function: strips the leading zeros of the denominator, divides numerator and
/// denominator by the first denominator coefficient, and strips the leading numerator columns whose
/// entries are all <= 1e-14 in magnitude (issuing `BadCoefficients`; one column is always kept).
/// @param b  [nb] or [n_outputs, nb] numerator(s), any real or complex dtype.
/// @param a  [na] denominator (0-d taken as [1]).
/// @return b: [nb'] (1-D when b is 1-D or has one row) or [n_outputs, nb']: float64, complex128 when b or
///         a is complex (float32 / complex64 when NumPy's result type of b and a is); a: [na'], float64 or
///         complex128 after a's own kind (a real denominator stays real), float32 when a is float32.
/// @throws cusci::value_error when a is not 1-D ("Denominator polynomial must be rank-1 array."), b has
///         more than 2 dimensions, or every coefficient of a is zero.
/// SciPy: `scipy.signal.normalize`. Deviation: ragged lists of numerators (SciPy's `_align_nums`) are
/// not accepted: pass a 2-D array padded with leading zeros.
ba_coeffs normalize(const array_like& b, const array_like& a);

/// Transfer function to zeros, poles and gain: normalises (b, a), then k = b[0], z = roots(b / k),
/// p = roots(a).
/// @param b [nb], a [na]: any real or complex dtype.
/// @return z [nb'-1], p [na'-1]: float64 when every root is real, else complex128 (as numpy.roots;
///         complex128 always for complex coefficients); k.
/// @throws cusci::value_error as `normalize`, or for a 2-D numerator with several rows;
///         cusci::not_implemented_error for a complex gain.
/// SciPy: `scipy.signal.tf2zpk`. Roots are eigenvalues of the companion matrix (numpy.roots); their
/// order follows the eigenvalue solver and may differ from NumPy's for multiple roots.
zpk_coeffs tf2zpk(const array_like& b, const array_like& a);

/// Zeros, poles and gain to transfer function, with several numerators at once: each row i of a 2-D `z`
/// gives numerator row i = k[i] * poly(z[i]) (k broadcast when it has one element).
/// @param z [nz] or [n_rows, nz]; @param p [np]; any real or complex dtype.
/// @param k a 0-d or 1-element array, or [n_rows] gains (real or complex).
/// @return b [nz+1] or [n_rows, nz+1], a [np+1]: float64, or complex128 where the roots are not closed
///         under conjugation (or k is complex), as SciPy's poly.
/// @throws cusci::value_error for p of more than 1 dimension, z of more than 2, or k of a length other
///         than 1 or n_rows.
/// SciPy: `scipy.signal.zpk2tf` (the 1-D form with a scalar `k` is filter_design.hpp's overload).
ba_coeffs zpk2tf(const array_like& z, const array_like& p, const array_like& k);

// ---- second-order sections -------------------------------------------------------------------------

/// Transfer function to second-order sections: `zpk2sos(tf2zpk(b, a), pairing, analog)`.
/// @return [n_sections, 6] float64 in SciPy's section order.
/// @throws as `tf2zpk` and `zpk2sos`.
/// SciPy: `scipy.signal.tf2sos(b, a, pairing=None, *, analog=False)`.
host_array tf2sos(const array_like& b, const array_like& a, const zpk2sos_options& opts = {});

/// Second-order sections to transfer function: the products of the section numerators and
/// denominators (each section's leading zero coefficients dropped first, as numpy.poly1d does).
/// @param sos [n_sections, 6] any real or complex dtype.
/// @return b, a: float64 (complex128 for complex sos).
/// @throws cusci::value_error when sos is not [n_sections, 6].
/// SciPy: `scipy.signal.sos2tf`. Deviation: SciPy does not validate the shape (an [n, 5] array passes
/// silently; a 1-D one raises IndexError).
ba_coeffs sos2tf(const array_like& sos);

/// Second-order sections to zeros, poles and gain (each section through `tf2zpk`).
/// @return z, p [2 n_sections] complex128 (a first-order section leaves a zero entry), k the product of
///         the section gains.
/// @throws cusci::value_error when sos is not [n_sections, 6], or as `tf2zpk` per section.
/// SciPy: `scipy.signal.sos2zpk`.
zpk_coeffs sos2zpk(const array_like& sos);

// ---- state space -----------------------------------------------------------------------------------

/// Completes and checks state-space matrices: absent (or empty) ones become zero matrices of the
/// shapes the others imply; 0-d and 1-D ones become 2-D (a 1-D array is one row).
/// @param A [n, n], B [n, q], C [p, n], D [p, q], each optional.
/// @return the four matrices, float64, or complex128 when any is complex.
/// @throws cusci::value_error when n, q or p cannot be inferred (SciPy's messages "Dimension n is
///         undefined for parameters A = B = C = None!", ...) or a shape does not match.
/// SciPy: `scipy.signal.abcd_normalize(A=None, B=None, C=None, D=None)`.
ss_coeffs abcd_normalize(const std::optional<host_array>& A = std::nullopt,
                         const std::optional<host_array>& B = std::nullopt,
                         const std::optional<host_array>& C = std::nullopt,
                         const std::optional<host_array>& D = std::nullopt);

/// Transfer function to state space in controller canonical form.
/// @param num [nb] or [n_outputs, nb]; @param den [na]; nb <= na after normalisation.
/// @return A [na-1, na-1], B [na-1, 1], C [n_outputs, na-1], D [n_outputs, 1] (A, B, C [1, 1] zero and
///         D [n_outputs, 1] for a static gain; four empty float64 arrays for an empty system).
/// @throws cusci::value_error as `normalize`, and when num is longer than den ("Improper transfer
///         function. `num` is longer than `den`.").
/// SciPy: `scipy.signal.tf2ss`.
ss_coeffs tf2ss(const array_like& num, const array_like& den);

/// State space to transfer function, for input `input`.
/// @return num [n_outputs, n+1] (float64 or complex128), den [n+1] (1-D; [] for a system with no states
///         and no inputs/outputs).
/// @throws cusci::value_error as `abcd_normalize`, and for an input index >= the number of inputs
///         ("System does not have the input specified.").
/// SciPy: `scipy.signal.ss2tf(A, B, C, D, input=0)`. The characteristic polynomials are numpy.poly of
/// the matrices (their eigenvalues, real part kept when closed under conjugation).
ba_coeffs ss2tf(const array_like& A, const array_like& B, const array_like& C, const array_like& D,
                std::int64_t input = 0);

/// Zeros/poles/gain to state space: `tf2ss(zpk2tf(z, p, k))`.
/// @throws as `zpk2tf` and `tf2ss`. SciPy: `scipy.signal.zpk2ss`.
ss_coeffs zpk2ss(const array_like& z, const array_like& p, double k);

/// State space to zeros/poles/gain for input `input`: `tf2zpk(ss2tf(A, B, C, D, input))`.
/// @throws as `ss2tf` and `tf2zpk` (value_error for a system with several outputs).
/// SciPy: `scipy.signal.ss2zpk(A, B, C, D, input=0)`.
zpk_coeffs ss2zpk(const array_like& A, const array_like& B, const array_like& C, const array_like& D,
                  std::int64_t input = 0);

// ---- bilinear transform and frequency transformations ---------------------------------------------

/// Bilinear transform of an analog filter to a digital one: s = 2 fs (z - 1) / (z + 1), computed as
/// SciPy's polynomial sums and normalised.
/// @param b [nb], a [na] real (float64 result) or complex (complex128).
/// @param fs sampling frequency (the transform uses 2 fs).
/// @throws cusci::value_error when b or a is not 1-D, or as `normalize`.
/// SciPy: `scipy.signal.bilinear(b, a, fs=1.0)`.
ba_coeffs bilinear(const array_like& b, const array_like& a, double fs = 1.0);

/// Bilinear transform of zeros, poles and gain; the excess poles map to zeros at z = -1.
/// @return z [np] (float64 for real z and p, else complex128), p [np], k.
/// @throws cusci::value_error for more zeros than poles ("Improper transfer function. Must have at
///         least as many poles as zeros.") or z / p not 1-D.
/// SciPy: `scipy.signal.bilinear_zpk(z, p, k, fs)`.
zpk_coeffs bilinear_zpk(const array_like& z, const array_like& p, double k, double fs);

/// Low-pass prototype to low-pass with cutoff `wo` (rad/s): s -> s / wo.
/// @return normalised b, a (float64, complex128 for complex input).
/// @throws cusci::value_error as `normalize`. SciPy: `scipy.signal.lp2lp(b, a, wo=1.0)`.
ba_coeffs lp2lp(const array_like& b, const array_like& a, double wo = 1.0);
/// Low-pass prototype to high-pass with cutoff `wo`: s -> wo / s. SciPy: `scipy.signal.lp2hp`.
ba_coeffs lp2hp(const array_like& b, const array_like& a, double wo = 1.0);
/// Low-pass prototype to band-pass with centre `wo` and bandwidth `bw`: s -> (s^2 + wo^2) / (s bw).
/// SciPy: `scipy.signal.lp2bp(b, a, wo=1.0, bw=1.0)`.
ba_coeffs lp2bp(const array_like& b, const array_like& a, double wo = 1.0, double bw = 1.0);
/// Low-pass prototype to band-stop: s -> (s bw) / (s^2 + wo^2). SciPy: `scipy.signal.lp2bs`.
ba_coeffs lp2bs(const array_like& b, const array_like& a, double wo = 1.0, double bw = 1.0);

/// The same transformations on zeros, poles and gain.
/// @return lp2lp_zpk / lp2hp_zpk: z, p float64 for real input, else complex128; lp2bp_zpk / lp2bs_zpk:
///         complex128 (as SciPy).
/// @throws cusci::value_error for more zeros than poles, or z / p not 1-D.
/// SciPy: `scipy.signal.lp2lp_zpk(z, p, k, wo=1.0)`, `lp2hp_zpk`, `lp2bp_zpk(z, p, k, wo=1.0, bw=1.0)`,
/// `lp2bs_zpk`.
zpk_coeffs lp2lp_zpk(const array_like& z, const array_like& p, double k, double wo = 1.0);
zpk_coeffs lp2hp_zpk(const array_like& z, const array_like& p, double k, double wo = 1.0);
zpk_coeffs lp2bp_zpk(const array_like& z, const array_like& p, double k, double wo = 1.0, double bw = 1.0);
zpk_coeffs lp2bs_zpk(const array_like& z, const array_like& p, double k, double wo = 1.0, double bw = 1.0);

// ---- roots and partial fractions ---------------------------------------------------------------------

/// How a group of nearly equal roots is represented (SciPy's `rtype`).
enum class root_type { min, max, avg };
/// Parses 'max' / 'maximum', 'min' / 'minimum', 'avg' / 'mean'.
/// @throws cusci::value_error otherwise ("`rtype` must be one of {'max', 'maximum', 'min', 'minimum',
///         'avg', 'mean'}").
root_type parse_root_type(std::string_view s);

/// Keyword arguments of `unique_roots`.
struct unique_roots_options {
  /// Two roots closer than tol (Euclidean distance in the complex plane, <= tol) are one root.
  double tol = 1e-3;
  root_type rtype = root_type::min;
};

/// The unique roots and their multiplicities.
struct unique_roots_result {
  host_array unique;        ///< [n_unique], float64 for real input, else complex128
  host_array multiplicity;  ///< [n_unique], int64
};

/// Groups roots that lie within `tol` of each other (in the order of the input: each root not yet used
/// starts a group of every unused root within tol of it) and represents each group by its minimum,
/// maximum (complex values compare by real part, then imaginary part, as NumPy) or mean.
/// @param p [n] any real or complex dtype.
/// SciPy: `scipy.signal.unique_roots(p, tol=0.001, rtype='min')`. SciPy finds neighbours with a k-d tree;
/// here by a direct scan (O(n^2), n being a polynomial order).
unique_roots_result unique_roots(const array_like& p, const unique_roots_options& opts = {});

/// Keyword arguments of `residue`, `residuez`, `invres`, `invresz`.
struct residue_options {
  double tol = 1e-3;
  root_type rtype = root_type::avg;
};

/// A partial-fraction expansion.
struct residue_result {
  host_array r;  ///< [n] residues: float64 when every pole is real, else complex128
  host_array p;  ///< [n] poles, ordered by increasing magnitude, repeated by multiplicity
  host_array k;  ///< [nk] coefficients of the direct polynomial term (float64 or complex128)
};

/// Partial-fraction expansion of b(s) / a(s) = sum r[i] / (s - p[i])^m + k(s) (powers m for repeated
/// poles).
/// @param b [nb], a [na]: real or complex coefficients in descending powers.
/// @throws cusci::value_error when a is all zeros ("Denominator `a` is zero.") or rtype is invalid.
/// SciPy: `scipy.signal.residue(b, a, tol=0.001, rtype='avg')`. Poles of equal magnitude keep the order
/// of a stable sort (NumPy's argsort does not promise one).
residue_result residue(const array_like& b, const array_like& a, const residue_options& opts = {});

/// Partial-fraction expansion of b(z) / a(z) in powers of z^-1 (ascending order coefficients).
/// @throws cusci::value_error when a is all zeros or a[0] == 0 ("First coefficient of determinant `a`
///         must be non-zero.").
/// SciPy: `scipy.signal.residuez(b, a, tol=0.001, rtype='avg')`.
residue_result residuez(const array_like& b, const array_like& a, const residue_options& opts = {});

/// b(s) and a(s) from a partial-fraction expansion (poles within `tol` of the previous one in `p` are a
/// repeated pole).
/// @param r [n] residues, p [n] poles, k [nk] direct term (may be empty).
/// @return b, a: float64, or complex128 when any input is complex.
/// @throws cusci::index_error for empty p (SciPy's IndexError); cusci::value_error for an invalid rtype.
/// SciPy: `scipy.signal.invres(r, p, k, tol=0.001, rtype='avg')`.
ba_coeffs invres(const array_like& r, const array_like& p, const array_like& k, const residue_options& opts = {});

/// b(z) and a(z) from a partial-fraction expansion in z^-1. SciPy: `scipy.signal.invresz`.
ba_coeffs invresz(const array_like& r, const array_like& p, const array_like& k, const residue_options& opts = {});

}  // namespace cusci::signal

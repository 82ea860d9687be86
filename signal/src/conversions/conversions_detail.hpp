#pragma once
// (internal; host) Helpers of the conversions family (conversions.cpp, residue.cpp, lti.cpp): host arrays
// as vectors of complex values with a flag for their NumPy dtype (float64 or complex128), and the NumPy
// polynomial routines SciPy's conversions use (roots with NumPy's dtype rule, poly with NumPy's and
// SciPy's realness tests, convolution, polydiv, polyval), in NumPy's arithmetic so results round as
// SciPy's. The numerical cores (eigenvalues, roots, poly) are core's host linear algebra.

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/conversions.hpp"

namespace cusci::signal::detail::conv {

using cplx = std::complex<double>;

/// Values of a 1-D (or flattened) array with the dtype NumPy would compute in: cx false -> float64 (the
/// imaginary parts are zero), true -> complex128.
struct cvec {
  std::vector<cplx> v;
  bool cx = false;
  std::size_t size() const { return v.size(); }
  bool empty() const { return v.empty(); }
};

/// The elements of `a` (any dtype, any shape, C order) as a cvec; cx = is_complex(a.dtype()).
cvec read(const host_array& a);
/// The same for an array that must be at most 1-D (NumPy's atleast_1d).
/// @throws cusci::value_error "<fn>: <param> must be 1-D, got shape (...)".
cvec read_1d(const host_array& a, const std::string& fn, const char* param);
/// A float64 (cx false: the real parts) or complex128 array of `shape` (default: 1-D).
host_array make(const std::vector<cplx>& v, bool cx, shape_t shape);
host_array make(const cvec& c);

/// Whether NumPy's result type of these dtypes is single precision (float32 / complex64): SciPy keeps
/// float32 through normalize, roots, poly and the state-space algebra, and so do these functions' results
/// (computed in double, rounded at the end).
bool single(std::initializer_list<dtype> dts);
/// `a` rounded to float32 / complex64 when `f32` (float64 / complex128 otherwise unchanged).
host_array narrow(host_array a, bool f32);

/// NumPy's multiplication and division in the dtype `cx` names (real division for float64, NumPy's
/// complex division otherwise).
cplx mul(const cplx& a, const cplx& b);
cplx div(const cplx& a, const cplx& b, bool cx);

/// numpy.roots: leading zeros stripped, trailing zeros giving zero roots; float64 when the input is
/// real and every root is real; empty float64 for all-zero input.
cvec np_roots(const cvec& p, const std::string& fn);
/// SciPy's _polyutils.polyroots: empty (input dtype) for fewer than 2 coefficients, else numpy.roots.
cvec polyroots(const cvec& p, const std::string& fn);
/// SciPy's _polyutils.poly: coefficients of prod(x - r) (1 for no roots); real when the input is real or
/// the sorted imaginary parts equal those of the conjugates (SciPy's test).
cvec sp_poly(const cvec& r);
/// numpy.poly of roots: real when the input is real or the roots equal their conjugates as multisets.
cvec np_poly_roots(const cvec& r);
/// numpy.poly of a square matrix [n, n] (n > 0, row-major values): poly of its eigenvalues.
cvec np_poly_matrix(const cvec& a, std::int64_t n, const std::string& fn);

/// numpy.convolve (full).
cvec convolve(const cvec& a, const cvec& b);
/// numpy.polymul: leading zeros of both inputs stripped first (an all-zero input is [0]).
cvec polymul(cvec a, cvec b);
/// numpy.polyadd / polysub (shorter input padded at the front).
cvec polyadd(const cvec& a, const cvec& b);
cvec polysub(const cvec& a, const cvec& b);
/// numpy.polydiv: quotient and remainder (leading remainder entries with |r| <= 1e-8 dropped).
void polydiv(const cvec& u, const cvec& v, cvec& q, cvec& r);
/// numpy.polyval (Horner) at x in dtype cx.
cplx polyval(const cvec& p, const cplx& x, bool cx);

/// Leading ('f') or trailing ('b') exact zeros removed (numpy.trim_zeros).
cvec trim_front(const cvec& p);
cvec trim_back(const cvec& p);

/// normalize() with the warning attributed to `fn`. b2d: the numerator as [rows, cols] values; the
/// result numerator as rows x cols' (returned 1-D by the public function when rows == 1).
struct norm_t {
  std::vector<cplx> num;
  std::int64_t rows = 1, cols = 0;
  bool num_1d = true;  // the public result is 1-D
  cvec den;          // complex only for a complex denominator (SciPy divides it by its own den[0])
  bool cx = false;   // the numerator is complex (either input complex)
  bool f32 = false;  // SciPy's numerator is float32 / complex64
  bool den_f32 = false;
};
norm_t normalize_impl(const host_array& b, const host_array& a, const std::string& fn);
/// The numerator of a norm_t as an array (1-D when num_1d), in the norm_t's precision.
host_array num_array(const norm_t& n);

/// tf2zpk on normalised values; k complex only for complex coefficients.
struct zpk_v {
  cvec z, p;
  cplx k;
  bool f32 = false;  // z and p in single precision, as SciPy's
};
zpk_v tf2zpk_impl(const host_array& b, const host_array& a, const std::string& fn);
/// The public zpk_coeffs of a zpk_v. @throws cusci::not_implemented_error for a complex gain.
zpk_coeffs to_zpk_coeffs(const zpk_v& r, const std::string& fn);

}  // namespace cusci::signal::detail::conv

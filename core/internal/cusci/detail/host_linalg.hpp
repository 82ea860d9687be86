#pragma once
// (internal; host) Dense linear algebra on the host for the small matrices of design and analysis code:
// polynomial roots (companion matrices), characteristic polynomials, state-space algebra, pole placement,
// window eigenproblems, matrix exponentials, and a host FFT for design code. Plain C++ (no CUDA),
// double / complex<double>, row-major. Sizes are those of filter orders and window lengths (up to a few
// thousand); nothing here is meant for large data, which the GPU modules handle.
//
// The algorithms are LAPACK's and SciPy's (named per function) so that results agree with NumPy/SciPy to
// rounding; where LAPACK leaves a choice (signs of Householder vectors, order of eigenvalues), the
// convention is stated.

#include <complex>
#include <cstdint>
#include <vector>

namespace cusci::detail::hostla {

using cplx = std::complex<double>;

/// A dense row-major matrix of m rows and n columns.
template <class T>
struct mat {
  std::int64_t m = 0, n = 0;
  std::vector<T> v;
  mat() = default;
  mat(std::int64_t rows, std::int64_t cols, T fill = T{}) : m(rows), n(cols), v(static_cast<std::size_t>(rows * cols), fill) {}
  T& operator()(std::int64_t i, std::int64_t j) { return v[static_cast<std::size_t>(i * n + j)]; }
  const T& operator()(std::int64_t i, std::int64_t j) const { return v[static_cast<std::size_t>(i * n + j)]; }
  static mat identity(std::int64_t k) {
    mat r(k, k);
    for (std::int64_t i = 0; i < k; ++i) r(i, i) = T(1);
    return r;
  }
};
using rmat = mat<double>;
using cmat = mat<cplx>;

// ---- products and small helpers -------------------------------------------------------------------
rmat matmul(const rmat& a, const rmat& b);
cmat matmul(const cmat& a, const cmat& b);
rmat transpose(const rmat& a);
cmat conj_transpose(const cmat& a);
cmat to_complex(const rmat& a);

// ---- eigenvalues ----------------------------------------------------------------------------------
/// Eigenvalues of a general real square matrix, as LAPACK's dgeev (balancing, Hessenberg reduction,
/// Francis double-shift QR, after geev's scaling of matrices with extreme norms). Complex conjugate
/// pairs are adjacent, positive imaginary part first. Order: the Schur diagonal's, as LAPACK's dlahqr,
/// which is NumPy's own order for n < 75; for larger n LAPACK switches to the multishift dlaqr0 and its
/// order differs, so compare eigenvalues as sets.
/// @throws cusci::value_error (naming `fn`) for a non-square matrix or non-finite entries;
///         cusci::runtime_error when the QR iteration does not converge.
std::vector<cplx> eigvals(const rmat& a, const char* fn);
/// Eigenvalues of a general complex square matrix (LAPACK zgeev's algorithm: zgebal, zgehd2, single-shift
/// zlahqr). Same errors.
std::vector<cplx> eigvals(const cmat& a, const char* fn);
/// Eigenvalues (as eigvals) and right eigenvectors (columns of `vectors`) as LAPACK's dgeev/zgeev
/// (Schur vectors from the QR iteration, back substitution as trevc, balancing undone as gebak), with
/// geev's normalisation: unit 2-norm; for a complex vector the component of largest modulus is made real
/// (real input: the vector of a conjugate pair is rotated so, with that component's sign kept as dlartg
/// leaves it; complex input: that component real and positive). Columns of a real matrix's conjugate
/// pair are conjugates of each other. The phases agree with NumPy's in most cases but are not
/// guaranteed to (they depend on the rounding of the QR iteration). Same errors as eigvals.
struct eig_result {
  std::vector<cplx> values;
  cmat vectors;
};
eig_result eig(const rmat& a, const char* fn);
eig_result eig(const cmat& a, const char* fn);

/// Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a real symmetric matrix, using its
/// lower triangle (LAPACK's dsyevd results to rounding; algorithm: Householder tridiagonalisation and
/// implicit QL, EISPACK tred2/tql2). Eigenvector signs follow no convention: callers that need one fix
/// it. @throws cusci::value_error (naming `fn`) for a non-square matrix or non-finite entries;
/// cusci::runtime_error when the QL iteration does not converge.
struct eigh_result {
  std::vector<double> values;
  rmat vectors;
};
eigh_result eigh(const rmat& a, const char* fn);

/// Minimum-norm least-squares solution of a x = b for a real symmetric a (its lower triangle) and b
/// n x k, through the eigendecomposition a = V diag(w) V^T (Householder tridiagonalisation, implicit QL
/// as eigh), the eigenvalues with |w_i| <= rcond * max|w| treated as zero: x = sum over the others of
/// v_i (v_i^T b) / w_i. The eigenvectors are never formed: b is carried through the reflections and
/// rotations (O(n^3) for the reduction only, O(n^2 k) after it). Same errors as eigh; b with a number of
/// rows other than n: cusci::value_error.
rmat eigh_solve(const rmat& a, const rmat& b, double rcond, const char* fn);

/// Selected eigenpairs of the symmetric tridiagonal matrix with diagonal d [n] and off-diagonal e [n-1]:
/// the eigenvalues with indices lo..hi (inclusive, ascending order) and their eigenvectors (columns of
/// an n x (hi-lo+1) matrix), as scipy.linalg.eigh_tridiagonal(d, e, select='i', select_range=(lo, hi))
/// (LAPACK stebz bisection + stein inverse iteration, O(n) per eigenpair and iteration, reorthogonalised
/// within clusters closer than 1e-3 ||T||). Each eigenvector has unit norm and, as stein's, its first
/// largest-magnitude component positive (where two components tie in magnitude, as in the symmetric /
/// antisymmetric DPSS vectors, SciPy's choice is decided by rounding and may differ: fix signs by the
/// caller's own rule). @throws cusci::value_error (naming `fn`) for an empty d, e of length != n-1, a
/// range outside 0 <= lo <= hi < n, or non-finite entries.
eigh_result eigh_tridiagonal(const std::vector<double>& d, const std::vector<double>& e, std::int64_t lo,
                             std::int64_t hi, const char* fn);

// ---- polynomials ----------------------------------------------------------------------------------
/// numpy.roots: roots of p[0] x^(n-1) + ... + p[n-1] (leading zeros stripped, trailing zeros giving
/// zero roots), as the eigenvalues of the companion matrix in NumPy's layout (first row -p[1:]/p[0], ones
/// on the subdiagonal) by eigvals. All-zero or empty p gives no roots. @throws cusci::value_error (naming
/// `fn`) for non-finite coefficients; cusci::runtime_error as eigvals.
std::vector<cplx> roots(const std::vector<double>& p, const char* fn);
std::vector<cplx> roots(const std::vector<cplx>& p, const char* fn);
/// numpy.poly of a sequence of roots: coefficients of prod(x - r), highest power first, by repeated
/// convolution in NumPy's order; complex result (callers take the real part where NumPy would).
std::vector<cplx> poly(const std::vector<cplx>& r);
/// numpy.poly of a square matrix: the characteristic polynomial poly(eigvals(a)).
/// @throws cusci::value_error (naming `fn`) for a non-square or empty matrix (as NumPy) and as eigvals.
std::vector<cplx> poly(const rmat& a, const char* fn);

// ---- solving --------------------------------------------------------------------------------------
/// LU with partial pivoting (LAPACK getrf: the pivot is the first entry of largest magnitude; for complex
/// entries magnitude is |re| + |im|, as izamax). lu holds L (unit diagonal, below) and U, as
/// scipy.linalg.lu_factor. @throws cusci::value_error (naming `fn`) for a non-square matrix.
template <class T>
struct lu_result {
  mat<T> lu;
  std::vector<std::int64_t> piv;  // row i was exchanged with row piv[i]
  bool singular = false;          // an exactly zero pivot
};
lu_result<double> lu_factor(const rmat& a, const char* fn);
lu_result<cplx> lu_factor(const cmat& a, const char* fn);
/// Solves a x = b (b: n x k). @throws cusci::value_error (shapes, non-finite a), cusci::runtime_error
/// ("<fn>: singular matrix") for an exactly singular a, as numpy.linalg.solve's LinAlgError. inv: the
/// same, with b = I. det: numpy.linalg.det by LU (0 for an exactly singular matrix; 1 for 0 x 0).
rmat solve(const rmat& a, const rmat& b, const char* fn);
cmat solve(const cmat& a, const cmat& b, const char* fn);
rmat inv(const rmat& a, const char* fn);
double det(const rmat& a, const char* fn);
/// Cholesky a = L L^T of a symmetric positive definite matrix from its lower triangle (L lower, as
/// numpy.linalg.cholesky); `ok` false when not positive definite (or not square); never throws.
struct cholesky_result {
  rmat l;
  bool ok = true;
};
cholesky_result cholesky(const rmat& a);

// ---- orthogonal factorizations ---------------------------------------------------------------------
/// QR by Householder reflections with LAPACK's conventions (dgeqrf / dorgqr: H = I - tau v v^T, v[0] = 1,
/// beta = -sign(alpha) * norm), so signs agree with numpy.linalg.qr / scipy.linalg.qr.
/// complete: Q m x m, R m x n; otherwise Q m x k, R k x n with k = min(m, n).
struct qr_result {
  rmat q, r;
};
qr_result qr(const rmat& a, bool complete);
struct cqr_result {
  cmat q, r;
};
cqr_result qr(const cmat& a, bool complete);

/// Singular value decomposition a = U diag(s) V^T (one-sided Jacobi), s descending.
/// full: U m x m, V n x n; otherwise U m x k, V n x k (k = min(m, n)). compute_uv false: s only.
/// Columns of U and V are orthonormal (those of zero singular values completed by QR); their signs
/// need not match LAPACK's. @throws cusci::value_error for non-finite entries.
struct svd_result {
  rmat u;
  std::vector<double> s;
  rmat v;
};
svd_result svd(const rmat& a, bool full, bool compute_uv);
/// numpy.linalg.matrix_rank: singular values above S.max() * max(m, n) * eps.
std::int64_t matrix_rank(const rmat& a);
/// Least squares min ||a x - b|| (numpy.linalg.lstsq with rcond=None: SVD, singular values below
/// eps * max(m, n) * s_max treated as zero), minimum-norm solution, n x k for b m x k (zeros when a is
/// empty). @throws cusci::value_error when b.m != a.m.
rmat lstsq(const rmat& a, const rmat& b);

// ---- functions of matrices -------------------------------------------------------------------------
/// scipy.linalg.expm: scaling and squaring with Pade approximants of degree 3..13 (Al-Mohy & Higham,
/// SIAM J. Matrix Anal. Appl. 31(3), 2009), choosing the degree from exact 1-norms of A^4..A^10;
/// triangular matrices get the diagonal and first off-diagonal recomputed at each squaring; diagonal
/// matrices exp() entrywise; a NaN or infinite entry gives all NaN (as SciPy). @throws cusci::value_error (naming `fn`) for a
/// non-square matrix.
rmat expm(const rmat& a, const char* fn);

// ---- FFT on the host -------------------------------------------------------------------------------
/// Discrete Fourier transform of any length (radix-4 passes for powers of two, Bluestein otherwise), with
/// numpy.fft's sign and scaling: forward sum x[k] e^{-2 pi i jk/n}; inverse divided by n.
std::vector<cplx> fft(const std::vector<cplx>& x, bool inverse = false);
/// numpy.fft.rfft / irfft with n points (rfft: input zero-padded or truncated to n, n/2+1 outputs;
/// irfft: input padded or truncated to n/2+1, imaginary parts of the DC and, for even n, Nyquist terms
/// ignored; even n: one complex transform of n/2 points). @throws cusci::value_error for n < 1.
std::vector<cplx> rfft(const std::vector<double>& x, std::int64_t n);
std::vector<double> irfft(const std::vector<cplx>& x, std::int64_t n);
/// The same transforms of x[0..len) into `out` (resized; its storage is reused when large enough, so
/// that a chain of transforms touches no new memory). x must not overlap out. Same errors.
void rfft(const double* x, std::size_t len, std::int64_t n, std::vector<cplx>& out);
void irfft(const cplx* x, std::size_t len, std::int64_t n, std::vector<double>& out);

}  // namespace cusci::detail::hostla

#pragma once
// Host side of the schur family: one matrix (pair) at a time through reference LAPACK (Debian's
// liblapack), column-major n x n storage with leading dimension n. Self-contained (no cusci headers), so
// that the host tests compile it in and call it without a device. Every function returns LAPACK's info.

#include <complex>
#include <cstdint>
#include <functional>

namespace cusci::linalg::schur_detail {

/// LAPACK's precision prefix: s (float), d (double), c (complex<float>), z (complex<double>).
enum class kind { s, d, c, z };

inline bool is_complex(kind k) { return k == kind::c || k == kind::z; }
inline std::size_t elem_size(kind k) { return k == kind::s ? 4 : (k == kind::z ? 16 : 8); }

/// Eigenvalue selector of schur (the eigenvalue wr + i wi, or w).
using select1 = std::function<bool(std::complex<double>)>;

/// ?gees: a (n x n) is overwritten by the Schur form T; z (n x n) receives the Schur vectors; with `sel`
/// the selected eigenvalues are moved first and *sdim counts them (else *sdim = 0).
int gees(kind k, int n, void* a, void* z, const select1* sel, int* sdim);

/// Hessenberg form as SciPy's hessenberg: ?gehrd over the whole matrix (ilo 1, ihi n), then a is set to
/// triu(h, -1); with q non-null, q = ?orghr / ?unghr. Requires n >= 1.
int hessenberg(kind k, int n, void* a, void* q);

/// ?gebal with job 'N', 'P', 'S' or 'B'; a overwritten by the balanced matrix; ilo, ihi 1-based; scale
/// (n doubles) LAPACK's permutation / scaling vector.
int gebal(kind k, char job, int n, void* a, int* ilo, int* ihi, double* scale);

/// SciPy's matrix_balance post-processing of ?gebal's (ilo, ihi, scale): scaling (n) and perm (n, 0-based).
void balance_scaling_perm(int n, int ilo, int ihi, const double* ps, double* scaling, std::int64_t* perm);

/// ?gges (no sorting): a, b overwritten by (AA, BB); q = VSL, z = VSR; alpha (n) = alphar + i alphai (real)
/// or alpha; beta (n) = beta (imaginary part 0 for real kinds).
int gges(kind k, int n, void* a, void* b, void* q, void* z, std::complex<double>* alpha,
         std::complex<double>* beta);

/// ?tgsen with ijob 0 and Q, Z updated; select: n LAPACK logicals; alpha, beta as gges.
int tgsen(kind k, int n, void* a, void* b, void* q, void* z, const int* select, std::complex<double>* alpha,
          std::complex<double>* beta, int* m);

/// SciPy's rsf2csf on one matrix pair (complex, column-major): the Givens sweep from the bottom with
/// float64's eps. Used by the host tests as the reference of the GPU kernel's arithmetic.
void rsf2csf_host(kind k, int n, void* t, void* z);

/// Runs fn(i) for i in [0, count) on up to `threads` host threads (std::thread; 0 = hardware
/// concurrency); fn must not throw.
void parallel_for(std::int64_t count, const std::function<void(std::int64_t)>& fn, unsigned threads = 0);

}  // namespace cusci::linalg::schur_detail

// Host side of the schur family: reference LAPACK (?gees, ?gehrd/?orghr, ?gebal, ?gges, ?tgsen) on one
// column-major matrix (pair) at a time, and the host thread pool over a batch. See schur_lapack.hpp.

#include "schur/schur_lapack.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

using cf = std::complex<float>;
using cd = std::complex<double>;

// Fortran LAPACK (gfortran ABI: LOGICAL is a 4-byte int, character lengths are size_t at the end).
extern "C" {
using sel_s = int (*)(const float*, const float*);
using sel_d = int (*)(const double*, const double*);
using sel_c = int (*)(const cf*);
using sel_z = int (*)(const cd*);
using selg_s = int (*)(const float*, const float*, const float*);
using selg_d = int (*)(const double*, const double*, const double*);
using selg_c = int (*)(const cf*, const cf*);
using selg_z = int (*)(const cd*, const cd*);

void sgees_(const char*, const char*, sel_s, const int*, float*, const int*, int*, float*, float*, float*,
            const int*, float*, const int*, int*, int*, std::size_t, std::size_t);
void dgees_(const char*, const char*, sel_d, const int*, double*, const int*, int*, double*, double*, double*,
            const int*, double*, const int*, int*, int*, std::size_t, std::size_t);
void cgees_(const char*, const char*, sel_c, const int*, cf*, const int*, int*, cf*, cf*, const int*, cf*,
            const int*, float*, int*, int*, std::size_t, std::size_t);
void zgees_(const char*, const char*, sel_z, const int*, cd*, const int*, int*, cd*, cd*, const int*, cd*,
            const int*, double*, int*, int*, std::size_t, std::size_t);

void sgehrd_(const int*, const int*, const int*, float*, const int*, float*, float*, const int*, int*);
void dgehrd_(const int*, const int*, const int*, double*, const int*, double*, double*, const int*, int*);
void cgehrd_(const int*, const int*, const int*, cf*, const int*, cf*, cf*, const int*, int*);
void zgehrd_(const int*, const int*, const int*, cd*, const int*, cd*, cd*, const int*, int*);
void sorghr_(const int*, const int*, const int*, float*, const int*, const float*, float*, const int*, int*);
void dorghr_(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*, int*);
void cunghr_(const int*, const int*, const int*, cf*, const int*, const cf*, cf*, const int*, int*);
void zunghr_(const int*, const int*, const int*, cd*, const int*, const cd*, cd*, const int*, int*);

void sgebal_(const char*, const int*, float*, const int*, int*, int*, float*, int*, std::size_t);
void dgebal_(const char*, const int*, double*, const int*, int*, int*, double*, int*, std::size_t);
void cgebal_(const char*, const int*, cf*, const int*, int*, int*, float*, int*, std::size_t);
void zgebal_(const char*, const int*, cd*, const int*, int*, int*, double*, int*, std::size_t);

void sgges_(const char*, const char*, const char*, selg_s, const int*, float*, const int*, float*, const int*,
            int*, float*, float*, float*, float*, const int*, float*, const int*, float*, const int*, int*, int*,
            std::size_t, std::size_t, std::size_t);
void dgges_(const char*, const char*, const char*, selg_d, const int*, double*, const int*, double*,
            const int*, int*, double*, double*, double*, double*, const int*, double*, const int*, double*,
            const int*, int*, int*, std::size_t, std::size_t, std::size_t);
void cgges_(const char*, const char*, const char*, selg_c, const int*, cf*, const int*, cf*, const int*, int*,
            cf*, cf*, cf*, const int*, cf*, const int*, cf*, const int*, float*, int*, int*, std::size_t,
            std::size_t, std::size_t);
void zgges_(const char*, const char*, const char*, selg_z, const int*, cd*, const int*, cd*, const int*, int*,
            cd*, cd*, cd*, const int*, cd*, const int*, cd*, const int*, double*, int*, int*, std::size_t,
            std::size_t, std::size_t);

void stgsen_(const int*, const int*, const int*, const int*, const int*, float*, const int*, float*,
             const int*, float*, float*, float*, float*, const int*, float*, const int*, int*, float*, float*,
             float*, float*, const int*, int*, const int*, int*);
void dtgsen_(const int*, const int*, const int*, const int*, const int*, double*, const int*, double*,
             const int*, double*, double*, double*, double*, const int*, double*, const int*, int*, double*,
             double*, double*, double*, const int*, int*, const int*, int*);
void ctgsen_(const int*, const int*, const int*, const int*, const int*, cf*, const int*, cf*, const int*,
             cf*, cf*, cf*, const int*, cf*, const int*, int*, float*, float*, float*, cf*, const int*, int*,
             const int*, int*);
void ztgsen_(const int*, const int*, const int*, const int*, const int*, cd*, const int*, cd*, const int*,
             cd*, cd*, cd*, const int*, cd*, const int*, int*, double*, double*, double*, cd*, const int*, int*,
             const int*, int*);
}

namespace cusci::linalg::schur_detail {

namespace {

// The selector of the gees call running on this thread (LAPACK's SELECT has no context argument).
thread_local const select1* t_select = nullptr;

int sel_s_fn(const float* wr, const float* wi) { return (*t_select)(cd(*wr, *wi)) ? 1 : 0; }
int sel_d_fn(const double* wr, const double* wi) { return (*t_select)(cd(*wr, *wi)) ? 1 : 0; }
int sel_c_fn(const cf* w) { return (*t_select)(cd(w->real(), w->imag())) ? 1 : 0; }
int sel_z_fn(const cd* w) { return (*t_select)(*w) ? 1 : 0; }
int selg_s_fn(const float*, const float*, const float*) { return 0; }
int selg_d_fn(const double*, const double*, const double*) { return 0; }
int selg_c_fn(const cf*, const cf*) { return 0; }
int selg_z_fn(const cd*, const cd*) { return 0; }

int lwork_of(float w) { return std::max(1, static_cast<int>(w)); }
int lwork_of(double w) { return std::max(1, static_cast<int>(w)); }
int lwork_of(cf w) { return std::max(1, static_cast<int>(w.real())); }
int lwork_of(cd w) { return std::max(1, static_cast<int>(w.real())); }

}  // namespace

int gees(kind k, int n, void* a, void* z, const select1* sel, int* sdim) {
  const char jobvs = 'V', sort = sel ? 'S' : 'N';
  const int ld = std::max(1, n);
  int info = 0, q = -1;
  *sdim = 0;
  t_select = sel;
  std::vector<int> bwork(static_cast<std::size_t>(std::max(1, n)));
  switch (k) {
    case kind::s: {
      std::vector<float> wr(n), wi(n);
      float w0 = 0;
      sgees_(&jobvs, &sort, sel_s_fn, &n, static_cast<float*>(a), &ld, sdim, wr.data(), wi.data(),
             static_cast<float*>(z), &ld, &w0, &q, bwork.data(), &info, 1, 1);
      int lw = std::max(lwork_of(w0), 3 * n);
      std::vector<float> work(lw);
      sgees_(&jobvs, &sort, sel_s_fn, &n, static_cast<float*>(a), &ld, sdim, wr.data(), wi.data(),
             static_cast<float*>(z), &ld, work.data(), &lw, bwork.data(), &info, 1, 1);
      break;
    }
    case kind::d: {
      std::vector<double> wr(n), wi(n);
      double w0 = 0;
      dgees_(&jobvs, &sort, sel_d_fn, &n, static_cast<double*>(a), &ld, sdim, wr.data(), wi.data(),
             static_cast<double*>(z), &ld, &w0, &q, bwork.data(), &info, 1, 1);
      int lw = std::max(lwork_of(w0), 3 * n);
      std::vector<double> work(lw);
      dgees_(&jobvs, &sort, sel_d_fn, &n, static_cast<double*>(a), &ld, sdim, wr.data(), wi.data(),
             static_cast<double*>(z), &ld, work.data(), &lw, bwork.data(), &info, 1, 1);
      break;
    }
    case kind::c: {
      std::vector<cf> w(n);
      std::vector<float> rwork(std::max(1, n));
      cf w0 = 0;
      cgees_(&jobvs, &sort, sel_c_fn, &n, static_cast<cf*>(a), &ld, sdim, w.data(), static_cast<cf*>(z), &ld, &w0,
             &q, rwork.data(), bwork.data(), &info, 1, 1);
      int lw = std::max(lwork_of(w0), 2 * n);
      std::vector<cf> work(lw);
      cgees_(&jobvs, &sort, sel_c_fn, &n, static_cast<cf*>(a), &ld, sdim, w.data(), static_cast<cf*>(z), &ld,
             work.data(), &lw, rwork.data(), bwork.data(), &info, 1, 1);
      break;
    }
    case kind::z: {
      std::vector<cd> w(n);
      std::vector<double> rwork(std::max(1, n));
      cd w0 = 0;
      zgees_(&jobvs, &sort, sel_z_fn, &n, static_cast<cd*>(a), &ld, sdim, w.data(), static_cast<cd*>(z), &ld, &w0,
             &q, rwork.data(), bwork.data(), &info, 1, 1);
      int lw = std::max(lwork_of(w0), 2 * n);
      std::vector<cd> work(lw);
      zgees_(&jobvs, &sort, sel_z_fn, &n, static_cast<cd*>(a), &ld, sdim, w.data(), static_cast<cd*>(z), &ld,
             work.data(), &lw, rwork.data(), bwork.data(), &info, 1, 1);
      break;
    }
  }
  t_select = nullptr;
  if (!sel) *sdim = 0;
  return info;
}

namespace {

template <class T, class Gehrd, class Orghr>
int hessenberg_t(int n, T* a, T* q, Gehrd gehrd, Orghr orghr) {
  const int ilo = 1, ihi = n, ld = n;
  int info = 0, m1 = -1;
  std::vector<T> tau(static_cast<std::size_t>(std::max(1, n - 1)));
  T w0{};
  gehrd(&n, &ilo, &ihi, a, &ld, tau.data(), &w0, &m1, &info);
  int lw = std::max(lwork_of(w0), n);
  std::vector<T> work(static_cast<std::size_t>(lw));
  gehrd(&n, &ilo, &ihi, a, &ld, tau.data(), work.data(), &lw, &info);
  if (info != 0) return info;
  if (q) {
    std::copy(a, a + static_cast<std::size_t>(n) * n, q);
    T w1{};
    orghr(&n, &ilo, &ihi, q, &ld, tau.data(), &w1, &m1, &info);
    int lq = std::max(lwork_of(w1), n);
    if (lq > lw) work.resize(static_cast<std::size_t>(lq));
    orghr(&n, &ilo, &ihi, q, &ld, tau.data(), work.data(), &lq, &info);
    if (info != 0) return info;
  }
  for (int j = 0; j < n; ++j)
    for (int i = j + 2; i < n; ++i) a[static_cast<std::size_t>(j) * n + i] = T(0);
  return 0;
}

}  // namespace

int hessenberg(kind k, int n, void* a, void* q) {
  switch (k) {
    case kind::s: return hessenberg_t(n, static_cast<float*>(a), static_cast<float*>(q), sgehrd_, sorghr_);
    case kind::d: return hessenberg_t(n, static_cast<double*>(a), static_cast<double*>(q), dgehrd_, dorghr_);
    case kind::c: return hessenberg_t(n, static_cast<cf*>(a), static_cast<cf*>(q), cgehrd_, cunghr_);
    case kind::z: return hessenberg_t(n, static_cast<cd*>(a), static_cast<cd*>(q), zgehrd_, zunghr_);
  }
  return -1;
}

int gebal(kind k, char job, int n, void* a, int* ilo, int* ihi, double* scale) {
  const int ld = std::max(1, n);
  int info = 0;
  if (k == kind::s || k == kind::c) {
    std::vector<float> s(static_cast<std::size_t>(std::max(1, n)));
    if (k == kind::s)
      sgebal_(&job, &n, static_cast<float*>(a), &ld, ilo, ihi, s.data(), &info, 1);
    else
      cgebal_(&job, &n, static_cast<cf*>(a), &ld, ilo, ihi, s.data(), &info, 1);
    for (int i = 0; i < n; ++i) scale[i] = s[static_cast<std::size_t>(i)];
  } else if (k == kind::d) {
    dgebal_(&job, &n, static_cast<double*>(a), &ld, ilo, ihi, scale, &info, 1);
  } else {
    zgebal_(&job, &n, static_cast<cd*>(a), &ld, ilo, ihi, scale, &info, 1);
  }
  return info;
}

void balance_scaling_perm(int n, int ilo, int ihi, const double* ps, double* scaling, std::int64_t* perm) {
  // SciPy's matrix_balance: lo, hi are 0-based; scaling = 1 outside [lo, hi]; the permutation is replayed
  // as LAPACK applied it (n-1 down to hi+1, then 0 up to lo-1).
  const int lo = ilo - 1, hi = ihi - 1;
  for (int i = 0; i < n; ++i) {
    scaling[i] = (i >= lo && i <= hi) ? ps[i] : 1.0;
    perm[i] = i;
  }
  if (hi < n) {
    for (int ind = 1; hi + ind < n; ++ind) {
      // ps[hi+1:][::-1][ind-1] = ps[n - ind]
      const std::int64_t x = static_cast<std::int64_t>(ps[n - ind]) - 1;
      if (n - ind == x) continue;
      std::swap(perm[x], perm[n - ind]);
    }
  }
  if (lo > 0) {
    for (int ind = 0; ind < lo; ++ind) {
      const std::int64_t x = static_cast<std::int64_t>(ps[ind]) - 1;
      if (ind == x) continue;
      std::swap(perm[x], perm[ind]);
    }
  }
}

int gges(kind k, int n, void* a, void* b, void* q, void* z, cd* alpha, cd* beta) {
  const char jv = 'V', ns = 'N';
  const int ld = std::max(1, n);
  int info = 0, sdim = 0, m1 = -1;
  std::vector<int> bwork(static_cast<std::size_t>(std::max(1, n)));
  switch (k) {
    case kind::s: {
      std::vector<float> ar(n), ai(n), be(n);
      float w0 = 0;
      sgges_(&jv, &jv, &ns, selg_s_fn, &n, static_cast<float*>(a), &ld, static_cast<float*>(b), &ld, &sdim,
             ar.data(), ai.data(), be.data(), static_cast<float*>(q), &ld, static_cast<float*>(z), &ld, &w0, &m1,
             bwork.data(), &info, 1, 1, 1);
      int lw = std::max(lwork_of(w0), 8 * n + 16);
      std::vector<float> work(lw);
      sgges_(&jv, &jv, &ns, selg_s_fn, &n, static_cast<float*>(a), &ld, static_cast<float*>(b), &ld, &sdim,
             ar.data(), ai.data(), be.data(), static_cast<float*>(q), &ld, static_cast<float*>(z), &ld,
             work.data(), &lw, bwork.data(), &info, 1, 1, 1);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(ar[i], ai[i]);
        beta[i] = cd(be[i], 0);
      }
      break;
    }
    case kind::d: {
      std::vector<double> ar(n), ai(n), be(n);
      double w0 = 0;
      dgges_(&jv, &jv, &ns, selg_d_fn, &n, static_cast<double*>(a), &ld, static_cast<double*>(b), &ld, &sdim,
             ar.data(), ai.data(), be.data(), static_cast<double*>(q), &ld, static_cast<double*>(z), &ld, &w0,
             &m1, bwork.data(), &info, 1, 1, 1);
      int lw = std::max(lwork_of(w0), 8 * n + 16);
      std::vector<double> work(lw);
      dgges_(&jv, &jv, &ns, selg_d_fn, &n, static_cast<double*>(a), &ld, static_cast<double*>(b), &ld, &sdim,
             ar.data(), ai.data(), be.data(), static_cast<double*>(q), &ld, static_cast<double*>(z), &ld,
             work.data(), &lw, bwork.data(), &info, 1, 1, 1);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(ar[i], ai[i]);
        beta[i] = cd(be[i], 0);
      }
      break;
    }
    case kind::c: {
      std::vector<cf> al(n), be(n);
      std::vector<float> rwork(static_cast<std::size_t>(std::max(1, 8 * n)));
      cf w0 = 0;
      cgges_(&jv, &jv, &ns, selg_c_fn, &n, static_cast<cf*>(a), &ld, static_cast<cf*>(b), &ld, &sdim, al.data(),
             be.data(), static_cast<cf*>(q), &ld, static_cast<cf*>(z), &ld, &w0, &m1, rwork.data(), bwork.data(),
             &info, 1, 1, 1);
      int lw = std::max(lwork_of(w0), 2 * n);
      std::vector<cf> work(lw);
      cgges_(&jv, &jv, &ns, selg_c_fn, &n, static_cast<cf*>(a), &ld, static_cast<cf*>(b), &ld, &sdim, al.data(),
             be.data(), static_cast<cf*>(q), &ld, static_cast<cf*>(z), &ld, work.data(), &lw, rwork.data(),
             bwork.data(), &info, 1, 1, 1);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(al[i].real(), al[i].imag());
        beta[i] = cd(be[i].real(), be[i].imag());
      }
      break;
    }
    case kind::z: {
      std::vector<double> rwork(static_cast<std::size_t>(std::max(1, 8 * n)));
      cd w0 = 0;
      zgges_(&jv, &jv, &ns, selg_z_fn, &n, static_cast<cd*>(a), &ld, static_cast<cd*>(b), &ld, &sdim, alpha, beta,
             static_cast<cd*>(q), &ld, static_cast<cd*>(z), &ld, &w0, &m1, rwork.data(), bwork.data(), &info, 1, 1,
             1);
      int lw = std::max(lwork_of(w0), 2 * n);
      std::vector<cd> work(lw);
      zgges_(&jv, &jv, &ns, selg_z_fn, &n, static_cast<cd*>(a), &ld, static_cast<cd*>(b), &ld, &sdim, alpha, beta,
             static_cast<cd*>(q), &ld, static_cast<cd*>(z), &ld, work.data(), &lw, rwork.data(), bwork.data(),
             &info, 1, 1, 1);
      break;
    }
  }
  return info;
}

int tgsen(kind k, int n, void* a, void* b, void* q, void* z, const int* select, cd* alpha, cd* beta, int* m) {
  const int ijob = 0, wq = 1, wz = 1;
  const int ld = std::max(1, n);
  int info = 0, liwork = 1;
  int iwork[1] = {0};
  switch (k) {
    case kind::s: {
      std::vector<float> ar(n), ai(n), be(n), work(4 * n + 16);
      float pl = 0, pr = 0, dif[2] = {0, 0};
      const int lw = 4 * n + 16;
      stgsen_(&ijob, &wq, &wz, select, &n, static_cast<float*>(a), &ld, static_cast<float*>(b), &ld, ar.data(),
              ai.data(), be.data(), static_cast<float*>(q), &ld, static_cast<float*>(z), &ld, m, &pl, &pr, dif,
              work.data(), &lw, iwork, &liwork, &info);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(ar[i], ai[i]);
        beta[i] = cd(be[i], 0);
      }
      break;
    }
    case kind::d: {
      std::vector<double> ar(n), ai(n), be(n), work(4 * n + 16);
      double pl = 0, pr = 0, dif[2] = {0, 0};
      const int lw = 4 * n + 16;
      dtgsen_(&ijob, &wq, &wz, select, &n, static_cast<double*>(a), &ld, static_cast<double*>(b), &ld, ar.data(),
              ai.data(), be.data(), static_cast<double*>(q), &ld, static_cast<double*>(z), &ld, m, &pl, &pr, dif,
              work.data(), &lw, iwork, &liwork, &info);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(ar[i], ai[i]);
        beta[i] = cd(be[i], 0);
      }
      break;
    }
    case kind::c: {
      std::vector<cf> al(n), be(n), work(1);
      float pl = 0, pr = 0, dif[2] = {0, 0};
      const int lw = 1;
      ctgsen_(&ijob, &wq, &wz, select, &n, static_cast<cf*>(a), &ld, static_cast<cf*>(b), &ld, al.data(),
              be.data(), static_cast<cf*>(q), &ld, static_cast<cf*>(z), &ld, m, &pl, &pr, dif, work.data(), &lw,
              iwork, &liwork, &info);
      for (int i = 0; i < n; ++i) {
        alpha[i] = cd(al[i].real(), al[i].imag());
        beta[i] = cd(be[i].real(), be[i].imag());
      }
      break;
    }
    case kind::z: {
      std::vector<cd> work(1);
      double pl = 0, pr = 0, dif[2] = {0, 0};
      const int lw = 1;
      ztgsen_(&ijob, &wq, &wz, select, &n, static_cast<cd*>(a), &ld, static_cast<cd*>(b), &ld, alpha, beta,
              static_cast<cd*>(q), &ld, static_cast<cd*>(z), &ld, m, &pl, &pr, dif, work.data(), &lw, iwork,
              &liwork, &info);
      break;
    }
  }
  return info;
}

namespace {

template <class R>
void rsf2csf_t(int n, std::complex<R>* t, std::complex<R>* z) {
  using C = std::complex<R>;
  const double eps = std::numeric_limits<double>::epsilon();
  auto T = [&](int i, int j) -> C& { return t[static_cast<std::size_t>(j) * n + i]; };
  auto Z = [&](int i, int j) -> C& { return z[static_cast<std::size_t>(j) * n + i]; };
  for (int m = n - 1; m > 0; --m) {
    if (std::abs(T(m, m - 1)) > eps * (std::abs(T(m - 1, m - 1)) + std::abs(T(m, m)))) {
      // mu[0] = first eigenvalue (LAPACK ?geev order of a 2x2 block) - T[m, m]
      const C a = T(m - 1, m - 1), b = T(m - 1, m), c = T(m, m - 1), d = T(m, m);
      const C tr2 = (a + d) / R(2), disc = std::sqrt((a - d) * (a - d) / R(4) + b * c);
      C l1 = tr2 + disc, l2 = tr2 - disc;
      // ?geev (real 2x2 with complex pair) lists the eigenvalue with positive imaginary part first
      const C mu0 = (l1.imag() >= l2.imag() ? l1 : l2) - d;
      const R r = std::hypot(std::abs(mu0), std::abs(c));
      const C cc = mu0 / r, s = c / r;
      // G = [[conj(c), s], [-s, c]]
      for (int j = m - 1; j < n; ++j) {
        const C x = T(m - 1, j), y = T(m, j);
        T(m - 1, j) = std::conj(cc) * x + s * y;
        T(m, j) = -s * x + cc * y;
      }
      for (int i = 0; i <= m; ++i) {
        const C x = T(i, m - 1), y = T(i, m);
        // [x y] G^H, G^H = [[c, -conj(s)], [conj(s), conj(c)]]
        T(i, m - 1) = x * cc + y * std::conj(s);
        T(i, m) = -x * std::conj(s) + y * std::conj(cc);
      }
      for (int i = 0; i < n; ++i) {
        const C x = Z(i, m - 1), y = Z(i, m);
        Z(i, m - 1) = x * cc + y * std::conj(s);
        Z(i, m) = -x * std::conj(s) + y * std::conj(cc);
      }
    }
    T(m, m - 1) = C(0);
  }
}

}  // namespace

void rsf2csf_host(kind k, int n, void* t, void* z) {
  if (k == kind::c)
    rsf2csf_t(n, static_cast<cf*>(t), static_cast<cf*>(z));
  else
    rsf2csf_t(n, static_cast<cd*>(t), static_cast<cd*>(z));
}

void parallel_for(std::int64_t count, const std::function<void(std::int64_t)>& fn, unsigned threads) {
  if (count <= 0) return;
  unsigned hw = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  const unsigned nt = static_cast<unsigned>(std::min<std::int64_t>(hw, count));
  if (nt <= 1) {
    for (std::int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(nt);
  for (unsigned t = 0; t < nt; ++t)
    pool.emplace_back([&, t] {
      for (std::int64_t i = t; i < count; i += nt) fn(i);
    });
  for (auto& th : pool) th.join();
}

}  // namespace cusci::linalg::schur_detail

// Host dense linear algebra: products, general eigenvalue problems (real and complex), polynomial roots
// and characteristic polynomials. The eigenvalue path follows LAPACK's dgeev/zgeev: balancing (gebal),
// Householder reduction to Hessenberg form (gehd2), small-bulge QR iteration (lahqr: Francis double shift
// for real matrices, single shift for complex), eigenvectors by back substitution on the Schur form
// (trevc) and the same normalisation as geev. Indices inside the kernels are 1-based on column-major
// work arrays so that they read like the LAPACK reference they follow.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"
#include "hostla_kernels.hpp"

namespace cusci::detail::hostla {
namespace {

using namespace kern;


template <class M>
void check_square(const M& a, const char* fn) {
  if (a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": matrix must be square, got shape (" + std::to_string(a.m) + ", " +
                             std::to_string(a.n) + ")");
  if (static_cast<std::int64_t>(a.v.size()) != a.m * a.n)
    throw cusci::value_error(std::string(fn) + ": matrix storage does not match its shape");
  for (const auto& x : a.v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, cplx>) {
      if (!std::isfinite(x.real()) || !std::isfinite(x.imag()))
        throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
    } else {
      if (!std::isfinite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
    }
  }
}

// Row-major mat -> column-major work array.
template <class T>
std::vector<T> to_colmajor(const mat<T>& a) {
  std::vector<T> w(static_cast<std::size_t>(a.m * a.n));
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int64_t j = 0; j < a.n; ++j) w[static_cast<std::size_t>(j * a.m + i)] = a(i, j);
  return w;
}

// ---- gebal (job 'B'): permutation and scaling -------------------------------------------------------
template <class T>
void gebal(std::int64_t n, fm<T> A, std::int64_t& ilo, std::int64_t& ihi, std::vector<double>& scale) {
  scale.assign(static_cast<std::size_t>(n + 1), 1.0);
  auto S = [&](std::int64_t i) -> double& { return scale[static_cast<std::size_t>(i)]; };
  std::int64_t k = 1, l = n;
  if (n == 0) {
    ilo = 1;
    ihi = 0;
    return;
  }
  auto swapcols = [&](std::int64_t c1, std::int64_t c2, std::int64_t rows) {
    for (std::int64_t r = 1; r <= rows; ++r) std::swap(A(r, c1), A(r, c2));
  };
  auto swaprows = [&](std::int64_t r1, std::int64_t r2, std::int64_t c0) {
    for (std::int64_t c = c0; c <= n; ++c) std::swap(A(r1, c), A(r2, c));
  };
  // rows isolating an eigenvalue: push them down
  bool noconv = true;
  while (noconv) {
    noconv = false;
    for (std::int64_t i = l; i >= 1; --i) {
      bool canswap = true;
      for (std::int64_t j = 1; j <= l; ++j)
        if (i != j && nonzero(A(i, j))) {
          canswap = false;
          break;
        }
      if (canswap) {
        S(l) = static_cast<double>(i);
        if (i != l) {
          swapcols(i, l, l);
          swaprows(i, l, k);
        }
        noconv = true;
        if (l == 1) {
          ilo = 1;
          ihi = 1;
          return;
        }
        --l;
      }
    }
  }
  // columns isolating an eigenvalue: push them left
  noconv = true;
  while (noconv) {
    noconv = false;
    for (std::int64_t j = k; j <= l; ++j) {
      bool canswap = true;
      for (std::int64_t i = k; i <= l; ++i)
        if (i != j && nonzero(A(i, j))) {
          canswap = false;
          break;
        }
      if (canswap) {
        S(k) = static_cast<double>(j);
        if (j != k) {
          swapcols(j, k, l);
          swaprows(j, k, k);
        }
        noconv = true;
        ++k;
      }
    }
  }
  for (std::int64_t i = k; i <= l; ++i) S(i) = 1.0;
  const double radix = 2.0, factor = 0.95;
  const double sfmin1 = kSafmin / kUlp, sfmax1 = 1 / sfmin1, sfmin2 = sfmin1 * radix, sfmax2 = 1 / sfmin2;
  noconv = true;
  while (noconv) {
    noconv = false;
    for (std::int64_t i = k; i <= l; ++i) {
      double c = nrm2(l - k + 1, &A(k, i), 1);
      double r = nrm2(l - k + 1, &A(i, k), A.ld);
      double ca = 0, ra = 0;
      for (std::int64_t t = 1; t <= l; ++t) ca = std::max(ca, absv(A(t, i)));
      for (std::int64_t t = k; t <= n; ++t) ra = std::max(ra, absv(A(i, t)));
      if (c == 0 || r == 0) continue;
      double g = r / radix, f = 1, s = c + r;
      while (c < g && std::max({f, c, ca}) < sfmax2 && std::min({r, g, ra}) > sfmin2) {
        f *= radix;
        c *= radix;
        ca *= radix;
        r /= radix;
        g /= radix;
        ra /= radix;
      }
      g = c / radix;
      while (g >= r && std::max(r, ra) < sfmax2 && std::min({f, c, g, ca}) > sfmin2) {
        f /= radix;
        c /= radix;
        g /= radix;
        ca /= radix;
        r *= radix;
        ra *= radix;
      }
      if ((c + r) >= factor * s) continue;
      if (f < 1 && S(i) < 1 && f * S(i) <= sfmin1) continue;
      if (f > 1 && S(i) > 1 && S(i) >= sfmax1 / f) continue;
      g = 1 / f;
      S(i) *= f;
      noconv = true;
      for (std::int64_t t = k; t <= n; ++t) A(i, t) *= g;
      for (std::int64_t t = 1; t <= l; ++t) A(t, i) *= f;
    }
  }
  ilo = k;
  ihi = l;
}


// ---- gehd2: Householder reduction to upper Hessenberg form; reflectors kept below the subdiagonal -------
template <class T>
void gehd2(std::int64_t n, std::int64_t ilo, std::int64_t ihi, fm<T> A, std::vector<T>& tau, std::vector<T>& work) {
  tau.assign(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), T(0));
  work.assign(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), T(0));
  for (std::int64_t i = ilo; i <= ihi - 1; ++i) {
    T& ti = tau[static_cast<std::size_t>(i - 1)];
    larfg(ihi - i, A(i + 1, i), &A(std::min(i + 2, n), i), 1, ti);
    T aii = A(i + 1, i);
    A(i + 1, i) = T(1);
    const std::int64_t len = ihi - i;  // v = A(i+1:ihi, i)
    // Right: A(1:ihi, i+1:ihi) -= tau (A v) v^H
    if (ti != T(0)) {
      std::fill(work.begin(), work.begin() + ihi, T(0));
      for (std::int64_t q = 0; q < len; ++q) {  // column-major: rows innermost
        const T vq = A(i + 1 + q, i);
        const T* col = &A(1, i + 1 + q);
        for (std::int64_t r = 0; r < ihi; ++r) work[static_cast<std::size_t>(r)] += col[r] * vq;
      }
      for (std::int64_t q = 0; q < len; ++q) {
        T vq = conjv(A(i + 1 + q, i));
        for (std::int64_t r = 1; r <= ihi; ++r) A(r, i + 1 + q) -= ti * work[static_cast<std::size_t>(r - 1)] * vq;
      }
      // Left with H^H: A(i+1:ihi, i+1:n) -= conj(tau) v (v^H A)
      T tc = conjv(ti);
      for (std::int64_t c = i + 1; c <= n; ++c) {
        T s = T(0);
        for (std::int64_t q = 0; q < len; ++q) s += conjv(A(i + 1 + q, i)) * A(i + 1 + q, c);
        s *= tc;
        for (std::int64_t q = 0; q < len; ++q) A(i + 1 + q, c) -= A(i + 1 + q, i) * s;
      }
    }
    A(i + 1, i) = aii;
  }
}

// orghr: form the orthogonal/unitary Q of gehd2 in place of A (n x n), Q = H(ilo) ... H(ihi-1).
template <class T>
void orghr(std::int64_t n, std::int64_t ilo, std::int64_t ihi, fm<T> A, const std::vector<T>& tau, fm<T> Q) {
  for (std::int64_t j = 1; j <= n; ++j)
    for (std::int64_t i = 1; i <= n; ++i) Q(i, j) = (i == j) ? T(1) : T(0);
  // apply H(i) = I - tau v v^H from the left, in reverse order: Q = H(ilo) (H(ilo+1) (... H(ihi-1)))
  for (std::int64_t i = ihi - 1; i >= ilo; --i) {
    T ti = tau[static_cast<std::size_t>(i - 1)];
    if (ti == T(0)) continue;
    const std::int64_t r0 = i + 1;
    auto v = [&](std::int64_t r) -> T { return r == r0 ? T(1) : A(r, i); };
    for (std::int64_t c = r0; c <= ihi; ++c) {
      T s = T(0);
      for (std::int64_t r = r0; r <= ihi; ++r) s += conjv(v(r)) * Q(r, c);
      s *= ti;
      for (std::int64_t r = r0; r <= ihi; ++r) Q(r, c) -= v(r) * s;
    }
  }
}

// ---- lanv2: Schur factorisation of a real 2x2 nonsymmetric matrix in standardised form ---------------
void lanv2(double& a, double& b, double& c, double& d, double& rt1r, double& rt1i, double& rt2r, double& rt2i,
           double& cs, double& sn) {
  const double multpl = 4;
  const double eps = kUlp;
  const double safmn2 = std::pow(2.0, static_cast<int>(std::log(kSafmin / eps) / std::log(2.0) / 2));
  const double safmx2 = 1 / safmn2;
  if (c == 0) {
    cs = 1;
    sn = 0;
  } else if (b == 0) {
    cs = 0;
    sn = 1;
    double temp = d;
    d = a;
    a = temp;
    b = -c;
    c = 0;
  } else if ((a - d) == 0 && sign(1, b) != sign(1, c)) {
    cs = 1;
    sn = 0;
  } else {
    double temp = a - d;
    double p = 0.5 * temp;
    double bcmax = std::max(std::fabs(b), std::fabs(c));
    double bcmis = std::min(std::fabs(b), std::fabs(c)) * sign(1, b) * sign(1, c);
    double scale = std::max(std::fabs(p), bcmax);
    double z = (p / scale) * p + (bcmax / scale) * bcmis;
    if (z >= multpl * eps) {
      z = p + sign(std::sqrt(scale) * std::sqrt(z), p);
      a = d + z;
      d = d - (bcmax / z) * bcmis;
      double tau = lapy2(c, z);
      cs = z / tau;
      sn = c / tau;
      b = b - c;
      c = 0;
    } else {
      int count = 0;
      double sigma = b + c;
      for (;;) {
        ++count;
        scale = std::max(std::fabs(temp), std::fabs(sigma));
        if (scale >= safmx2) {
          sigma *= safmn2;
          temp *= safmn2;
          if (count <= 20) continue;
        }
        if (scale <= safmn2) {
          sigma *= safmx2;
          temp *= safmx2;
          if (count <= 20) continue;
        }
        break;
      }
      p = 0.5 * temp;
      double tau = lapy2(sigma, temp);
      cs = std::sqrt(0.5 * (1 + std::fabs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign(1, sigma);
      double aa = a * cs + b * sn, bb = -a * sn + b * cs, cc = c * cs + d * sn, dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      temp = 0.5 * (a + d);
      a = temp;
      d = temp;
      if (c != 0) {
        if (b != 0) {
          if (sign(1, b) == sign(1, c)) {
            double sab = std::sqrt(std::fabs(b)), sac = std::sqrt(std::fabs(c));
            p = sign(sab * sac, c);
            tau = 1 / std::sqrt(std::fabs(b + c));
            a = temp + p;
            d = temp - p;
            b = b - c;
            c = 0;
            double cs1 = sab * tau, sn1 = sac * tau;
            temp = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = temp;
          }
        } else {
          b = -c;
          c = 0;
          temp = cs;
          cs = -sn;
          sn = temp;
        }
      }
    }
  }
  rt1r = a;
  rt2r = d;
  if (c == 0) {
    rt1i = 0;
    rt2i = 0;
  } else {
    rt1i = std::sqrt(std::fabs(b)) * std::sqrt(std::fabs(c));
    rt2i = -rt1i;
  }
}

// ---- dlahqr: double-shift QR on the Hessenberg matrix H (rows/cols ilo..ihi active) ------------------
// Returns 0 on success, else the index of the eigenvalue that failed to converge.
std::int64_t lahqr(bool wantt, bool wantz, std::int64_t n, std::int64_t ilo, std::int64_t ihi, fm<double> h,
                   std::vector<double>& wr, std::vector<double>& wi, std::int64_t iloz, std::int64_t ihiz,
                   fm<double> z) {
  auto WR = [&](std::int64_t i) -> double& { return wr[static_cast<std::size_t>(i - 1)]; };
  auto WI = [&](std::int64_t i) -> double& { return wi[static_cast<std::size_t>(i - 1)]; };
  if (n == 0) return 0;
  if (ilo == ihi) {
    WR(ilo) = h(ilo, ilo);
    WI(ilo) = 0;
    return 0;
  }
  for (std::int64_t j = ilo; j <= ihi - 3; ++j) {
    h(j + 2, j) = 0;
    h(j + 3, j) = 0;
  }
  if (ilo <= ihi - 2) h(ihi, ihi - 2) = 0;
  const std::int64_t nh = ihi - ilo + 1;
  const std::int64_t nz = ihiz - iloz + 1;
  const double safmin = kSafmin;
  const double ulp = kUlp;
  const double smlnum = safmin * (static_cast<double>(nh) / ulp);
  std::int64_t i1 = 1, i2 = n;
  const std::int64_t itmax = 30 * std::max<std::int64_t>(10, nh);
  const int kexsh = 10;
  const double dat1 = 0.75, dat2 = -0.4375;
  std::int64_t kdefl = 0;
  std::int64_t i = ihi;
  double v[3];
  while (i >= ilo) {
    std::int64_t l = ilo;
    bool converged = false;
    for (std::int64_t its = 0; its <= itmax; ++its) {
      std::int64_t k;
      for (k = i; k > l; --k) {
        if (std::fabs(h(k, k - 1)) <= smlnum) break;
        double tst = std::fabs(h(k - 1, k - 1)) + std::fabs(h(k, k));
        if (tst == 0) {
          if (k - 2 >= ilo) tst += std::fabs(h(k - 1, k - 2));
          if (k + 1 <= ihi) tst += std::fabs(h(k + 1, k));
        }
        if (std::fabs(h(k, k - 1)) <= ulp * tst) {
          double ab = std::max(std::fabs(h(k, k - 1)), std::fabs(h(k - 1, k)));
          double ba = std::min(std::fabs(h(k, k - 1)), std::fabs(h(k - 1, k)));
          double aa = std::max(std::fabs(h(k, k)), std::fabs(h(k - 1, k - 1) - h(k, k)));
          double bb = std::min(std::fabs(h(k, k)), std::fabs(h(k - 1, k - 1) - h(k, k)));
          double s = aa + ab;
          if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
      l = k;
      if (l > ilo) h(l, l - 1) = 0;
      if (l >= i - 1) {
        converged = true;
        break;
      }
      ++kdefl;
      if (!wantt) {
        i1 = l;
        i2 = i;
      }
      double h11, h12, h21, h22;
      if (kdefl % (2 * kexsh) == 0) {
        double s = std::fabs(h(i, i - 1)) + std::fabs(h(i - 1, i - 2));
        h11 = dat1 * s + h(i, i);
        h12 = dat2 * s;
        h21 = s;
        h22 = h11;
      } else if (kdefl % kexsh == 0) {
        double s = std::fabs(h(l + 1, l)) + std::fabs(h(l + 2, l + 1));
        h11 = dat1 * s + h(l, l);
        h12 = dat2 * s;
        h21 = s;
        h22 = h11;
      } else {
        h11 = h(i - 1, i - 1);
        h21 = h(i, i - 1);
        h12 = h(i - 1, i);
        h22 = h(i, i);
      }
      double rt1r, rt1i, rt2r, rt2i;
      {
        double s = std::fabs(h11) + std::fabs(h12) + std::fabs(h21) + std::fabs(h22);
        if (s == 0) {
          rt1r = rt1i = rt2r = rt2i = 0;
        } else {
          h11 /= s;
          h21 /= s;
          h12 /= s;
          h22 /= s;
          double tr = (h11 + h22) / 2;
          double det = (h11 - tr) * (h22 - tr) - h12 * h21;
          double rtdisc = std::sqrt(std::fabs(det));
          if (det >= 0) {
            rt1r = tr * s;
            rt2r = rt1r;
            rt1i = rtdisc * s;
            rt2i = -rt1i;
          } else {
            rt1r = tr + rtdisc;
            rt2r = tr - rtdisc;
            if (std::fabs(rt1r - h22) <= std::fabs(rt2r - h22)) {
              rt1r *= s;
              rt2r = rt1r;
            } else {
              rt2r *= s;
              rt1r = rt2r;
            }
            rt1i = rt2i = 0;
          }
        }
      }
      std::int64_t m;
      for (m = i - 2; m >= l; --m) {
        double h21s = h(m + 1, m);
        double s = std::fabs(h(m, m) - rt2r) + std::fabs(rt2i) + std::fabs(h21s);
        h21s = h(m + 1, m) / s;
        v[0] = h21s * h(m, m + 1) + (h(m, m) - rt1r) * ((h(m, m) - rt2r) / s) - rt1i * (rt2i / s);
        v[1] = h21s * (h(m, m) + h(m + 1, m + 1) - rt1r - rt2r);
        v[2] = h21s * h(m + 2, m + 1);
        s = std::fabs(v[0]) + std::fabs(v[1]) + std::fabs(v[2]);
        v[0] /= s;
        v[1] /= s;
        v[2] /= s;
        if (m == l) break;
        double h00 = std::fabs(h(m, m - 1)) * (std::fabs(v[1]) + std::fabs(v[2]));
        double h01 = std::fabs(v[0]) * (std::fabs(h(m - 1, m - 1)) + std::fabs(h(m, m)) + std::fabs(h(m + 1, m + 1)));
        if (h00 <= ulp * h01) break;
      }
      for (k = m; k <= i - 1; ++k) {
        const std::int64_t nr = std::min<std::int64_t>(3, i - k + 1);
        if (k > m)
          for (std::int64_t q = 0; q < nr; ++q) v[q] = h(k + q, k - 1);
        double t1;
        larfg(nr, v[0], &v[1], 1, t1);
        if (k > m) {
          h(k, k - 1) = v[0];
          h(k + 1, k - 1) = 0;
          if (k < i - 1) h(k + 2, k - 1) = 0;
        } else if (m > l) {
          h(k, k - 1) = h(k, k - 1) * (1 - t1);
        }
        const double v2 = v[1], t2 = t1 * v2;
        if (nr == 3) {
          const double v3 = v[2], t3 = t1 * v3;
          for (std::int64_t j = k; j <= i2; ++j) {
            double sum = h(k, j) + v2 * h(k + 1, j) + v3 * h(k + 2, j);
            h(k, j) -= sum * t1;
            h(k + 1, j) -= sum * t2;
            h(k + 2, j) -= sum * t3;
          }
          const std::int64_t jmax = std::min(k + 3, i);
          for (std::int64_t j = i1; j <= jmax; ++j) {
            double sum = h(j, k) + v2 * h(j, k + 1) + v3 * h(j, k + 2);
            h(j, k) -= sum * t1;
            h(j, k + 1) -= sum * t2;
            h(j, k + 2) -= sum * t3;
          }
          if (wantz)
            for (std::int64_t j = iloz; j <= ihiz; ++j) {
              double sum = z(j, k) + v2 * z(j, k + 1) + v3 * z(j, k + 2);
              z(j, k) -= sum * t1;
              z(j, k + 1) -= sum * t2;
              z(j, k + 2) -= sum * t3;
            }
        } else if (nr == 2) {
          for (std::int64_t j = k; j <= i2; ++j) {
            double sum = h(k, j) + v2 * h(k + 1, j);
            h(k, j) -= sum * t1;
            h(k + 1, j) -= sum * t2;
          }
          for (std::int64_t j = i1; j <= i; ++j) {
            double sum = h(j, k) + v2 * h(j, k + 1);
            h(j, k) -= sum * t1;
            h(j, k + 1) -= sum * t2;
          }
          if (wantz)
            for (std::int64_t j = iloz; j <= ihiz; ++j) {
              double sum = z(j, k) + v2 * z(j, k + 1);
              z(j, k) -= sum * t1;
              z(j, k + 1) -= sum * t2;
            }
        }
      }
    }
    if (!converged) return i;
    if (l == i) {
      WR(i) = h(i, i);
      WI(i) = 0;
    } else if (l == i - 1) {
      double cs, sn;
      lanv2(h(i - 1, i - 1), h(i - 1, i), h(i, i - 1), h(i, i), WR(i - 1), WI(i - 1), WR(i), WI(i), cs, sn);
      if (wantt) {
        for (std::int64_t j = i + 1; j <= i2; ++j) {  // rows i-1, i; cols i+1..i2
          double x = h(i - 1, j), y = h(i, j);
          h(i - 1, j) = cs * x + sn * y;
          h(i, j) = cs * y - sn * x;
        }
        for (std::int64_t j = i1; j <= i - 2; ++j) {  // cols i-1, i; rows i1..i-2
          double x = h(j, i - 1), y = h(j, i);
          h(j, i - 1) = cs * x + sn * y;
          h(j, i) = cs * y - sn * x;
        }
      }
      if (wantz) {
        for (std::int64_t j = iloz; j <= iloz + nz - 1; ++j) {
          double x = z(j, i - 1), y = z(j, i);
          z(j, i - 1) = cs * x + sn * y;
          z(j, i) = cs * y - sn * x;
        }
      }
    }
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

// ---- zlahqr: single-shift complex QR ------------------------------------------------------------------
std::int64_t lahqr(bool wantt, bool wantz, std::int64_t n, std::int64_t ilo, std::int64_t ihi, fm<cplx> h,
                   std::vector<cplx>& w, std::int64_t iloz, std::int64_t ihiz, fm<cplx> z) {
  auto W = [&](std::int64_t i) -> cplx& { return w[static_cast<std::size_t>(i - 1)]; };
  if (n == 0) return 0;
  if (ilo == ihi) {
    W(ilo) = h(ilo, ilo);
    return 0;
  }
  for (std::int64_t j = ilo; j <= ihi - 3; ++j) {
    h(j + 2, j) = 0;
    h(j + 3, j) = 0;
  }
  if (ilo <= ihi - 2) h(ihi, ihi - 2) = 0;
  std::int64_t jlo = 1, jhi = n;
  if (!wantt) {
    jlo = ilo;
    jhi = ihi;
  }
  for (std::int64_t i = ilo + 1; i <= ihi; ++i) {
    if (h(i, i - 1).imag() != 0) {
      cplx sc = h(i, i - 1) / cabs1(h(i, i - 1));
      sc = std::conj(sc) / std::abs(sc);
      h(i, i - 1) = std::abs(h(i, i - 1));
      for (std::int64_t j = i; j <= jhi; ++j) h(i, j) *= sc;
      for (std::int64_t j = jlo; j <= std::min(jhi, i + 1); ++j) h(j, i) *= std::conj(sc);
      if (wantz)
        for (std::int64_t j = iloz; j <= ihiz; ++j) z(j, i) *= std::conj(sc);
    }
  }
  const std::int64_t nh = ihi - ilo + 1;
  const double safmin = kSafmin, ulp = kUlp;
  const double smlnum = safmin * (static_cast<double>(nh) / ulp);
  std::int64_t i1 = 1, i2 = n;
  const std::int64_t itmax = 30 * std::max<std::int64_t>(10, nh);
  const int kexsh = 10;
  const double dat1 = 0.75;
  std::int64_t kdefl = 0;
  std::int64_t i = ihi;
  cplx v[2];
  while (i >= ilo) {
    std::int64_t l = ilo;
    bool converged = false;
    for (std::int64_t its = 0; its <= itmax; ++its) {
      std::int64_t k;
      for (k = i; k > l; --k) {
        if (cabs1(h(k, k - 1)) <= smlnum) break;
        double tst = cabs1(h(k - 1, k - 1)) + cabs1(h(k, k));
        if (tst == 0) {
          if (k - 2 >= ilo) tst += std::fabs(h(k - 1, k - 2).real());
          if (k + 1 <= ihi) tst += std::fabs(h(k + 1, k).real());
        }
        if (std::fabs(h(k, k - 1).real()) <= ulp * tst) {
          double ab = std::max(cabs1(h(k, k - 1)), cabs1(h(k - 1, k)));
          double ba = std::min(cabs1(h(k, k - 1)), cabs1(h(k - 1, k)));
          double aa = std::max(cabs1(h(k, k)), cabs1(h(k - 1, k - 1) - h(k, k)));
          double bb = std::min(cabs1(h(k, k)), cabs1(h(k - 1, k - 1) - h(k, k)));
          double s = aa + ab;
          if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
      l = k;
      if (l > ilo) h(l, l - 1) = 0;
      if (l >= i) {
        converged = true;
        break;
      }
      ++kdefl;
      if (!wantt) {
        i1 = l;
        i2 = i;
      }
      cplx t;
      if (kdefl % (2 * kexsh) == 0) {
        double s = dat1 * std::fabs(h(i, i - 1).real());
        t = s + h(i, i);
      } else if (kdefl % kexsh == 0) {
        double s = dat1 * std::fabs(h(l + 1, l).real());
        t = s + h(l, l);
      } else {
        t = h(i, i);
        cplx u = std::sqrt(h(i - 1, i)) * std::sqrt(h(i, i - 1));
        double s = cabs1(u);
        if (s != 0) {
          cplx x = 0.5 * (h(i - 1, i - 1) - t);
          double sx = cabs1(x);
          s = std::max(s, cabs1(x));
          cplx y = s * std::sqrt((x / s) * (x / s) + (u / s) * (u / s));
          if (sx > 0) {
            cplx xs = x / sx;
            if (xs.real() * y.real() + xs.imag() * y.imag() < 0) y = -y;
          }
          t = t - u * (u / (x + y));
        }
      }
      std::int64_t m;
      for (m = i - 1; m >= l + 1; --m) {
        cplx h11 = h(m, m), h22 = h(m + 1, m + 1), h11s = h11 - t;
        double h21 = h(m + 1, m).real();
        double s = cabs1(h11s) + std::fabs(h21);
        h11s /= s;
        h21 /= s;
        v[0] = h11s;
        v[1] = h21;
        double h10 = h(m, m - 1).real();
        if (std::fabs(h10) * std::fabs(h21) <= ulp * (cabs1(h11s) * (cabs1(h11) + cabs1(h22)))) break;
      }
      if (m == l) {
        cplx h11 = h(l, l), h11s = h11 - t;
        double h21 = h(l + 1, l).real();
        double s = cabs1(h11s) + std::fabs(h21);
        h11s /= s;
        h21 /= s;
        v[0] = h11s;
        v[1] = h21;
      }
      for (k = m; k <= i - 1; ++k) {
        if (k > m) {
          v[0] = h(k, k - 1);
          v[1] = h(k + 1, k - 1);
        }
        cplx t1;
        larfg(2, v[0], &v[1], 1, t1);
        if (k > m) {
          h(k, k - 1) = v[0];
          h(k + 1, k - 1) = 0;
        }
        const cplx v2 = v[1];
        const double t2 = (t1 * v2).real();
        for (std::int64_t j = k; j <= i2; ++j) {
          cplx sum = std::conj(t1) * h(k, j) + t2 * h(k + 1, j);
          h(k, j) -= sum;
          h(k + 1, j) -= sum * v2;
        }
        const std::int64_t jmax = std::min(k + 2, i);
        for (std::int64_t j = i1; j <= jmax; ++j) {
          cplx sum = t1 * h(j, k) + t2 * h(j, k + 1);
          h(j, k) -= sum;
          h(j, k + 1) -= sum * std::conj(v2);
        }
        if (wantz)
          for (std::int64_t j = iloz; j <= ihiz; ++j) {
            cplx sum = t1 * z(j, k) + t2 * z(j, k + 1);
            z(j, k) -= sum;
            z(j, k + 1) -= sum * std::conj(v2);
          }
        if (k == m && m > l) {
          cplx temp = 1.0 - t1;
          temp = temp / std::abs(temp);
          h(m + 1, m) = h(m + 1, m) * std::conj(temp);
          if (m + 2 <= i) h(m + 2, m + 1) = h(m + 2, m + 1) * temp;
          for (std::int64_t j = m; j <= i; ++j) {
            if (j != m + 1) {
              for (std::int64_t q = j + 1; q <= i2; ++q) h(j, q) *= temp;
              for (std::int64_t q = i1; q <= j - 1; ++q) h(q, j) *= std::conj(temp);
              if (wantz)
                for (std::int64_t q = iloz; q <= ihiz; ++q) z(q, j) *= std::conj(temp);
            }
          }
        }
      }
      cplx temp = h(i, i - 1);
      if (temp.imag() != 0) {
        double rtemp = std::abs(temp);
        h(i, i - 1) = rtemp;
        temp = temp / rtemp;
        for (std::int64_t q = i + 1; q <= i2; ++q) h(i, q) *= std::conj(temp);
        for (std::int64_t q = i1; q <= i - 1; ++q) h(q, i) *= temp;
        if (wantz)
          for (std::int64_t q = iloz; q <= ihiz; ++q) z(q, i) *= temp;
      }
    }
    if (!converged) return i;
    W(i) = h(i, i);
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

void no_convergence(const char* fn) {
  throw cusci::runtime_error(std::string(fn) + ": eigenvalues did not converge");
}

// geev's scaling: a matrix whose largest entry lies outside [smlnum, bignum] is scaled into that range
// before balancing (so that the QR iteration neither overflows nor underflows); returns the factor
// that maps the computed eigenvalues back (1 when nothing was scaled).
template <class T>
double geev_scale(std::vector<T>& w) {
  const double smlnum = std::sqrt(kSafmin) / kUlp, bignum = 1 / smlnum;
  double anrm = 0;
  for (const T& x : w) anrm = std::max(anrm, absv(x));
  double cscale = 0;
  if (anrm > 0 && anrm < smlnum)
    cscale = smlnum;
  else if (anrm > bignum)
    cscale = bignum;
  if (cscale == 0) return 1.0;
  const double f = cscale / anrm;
  for (T& x : w) x *= f;
  return anrm / cscale;
}

// Eigenvalues of a real n x n column-major work matrix (destroyed).
std::vector<cplx> eigvals_work(std::int64_t n, std::vector<double>& w, const char* fn) {
  std::vector<cplx> out(static_cast<std::size_t>(n));
  if (n == 0) return out;
  const double back = geev_scale(w);
  fm<double> A{w.data(), n};
  std::int64_t ilo, ihi;
  std::vector<double> scale, tau, work;
  gebal(n, A, ilo, ihi, scale);
  gehd2(n, ilo, ihi, A, tau, work);
  std::vector<double> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
  // eigenvalues isolated by balancing
  for (std::int64_t i = 1; i <= ilo - 1; ++i) {
    wr[static_cast<std::size_t>(i - 1)] = A(i, i);
    wi[static_cast<std::size_t>(i - 1)] = 0;
  }
  for (std::int64_t i = ihi + 1; i <= n; ++i) {
    wr[static_cast<std::size_t>(i - 1)] = A(i, i);
    wi[static_cast<std::size_t>(i - 1)] = 0;
  }
  fm<double> Z{nullptr, 1};
  if (lahqr(false, false, n, ilo, ihi, A, wr, wi, 1, 1, Z) != 0) no_convergence(fn);
  for (std::int64_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = cplx(wr[static_cast<std::size_t>(i)] * back, wi[static_cast<std::size_t>(i)] * back);
  return out;
}

std::vector<cplx> eigvals_work(std::int64_t n, std::vector<cplx>& w, const char* fn) {
  std::vector<cplx> out(static_cast<std::size_t>(n));
  if (n == 0) return out;
  const double back = geev_scale(w);
  fm<cplx> A{w.data(), n};
  std::int64_t ilo, ihi;
  std::vector<double> scale;
  std::vector<cplx> tau, work;
  gebal(n, A, ilo, ihi, scale);
  gehd2(n, ilo, ihi, A, tau, work);
  for (std::int64_t i = 1; i <= ilo - 1; ++i) out[static_cast<std::size_t>(i - 1)] = A(i, i);
  for (std::int64_t i = ihi + 1; i <= n; ++i) out[static_cast<std::size_t>(i - 1)] = A(i, i);
  fm<cplx> Z{nullptr, 1};
  if (lahqr(false, false, n, ilo, ihi, A, out, 1, 1, Z) != 0) no_convergence(fn);
  if (back != 1.0)
    for (auto& x : out) x *= back;
  return out;
}


// gebak (job 'B', right vectors): undo the balancing of the n x ncol column-major V.
void gebak(std::int64_t n, std::int64_t ilo, std::int64_t ihi, const std::vector<double>& scale, std::int64_t ncol,
           fm<cplx> V) {
  for (std::int64_t i = ilo; i <= ihi; ++i) {
    const double s = scale[static_cast<std::size_t>(i)];
    for (std::int64_t j = 1; j <= ncol; ++j) V(i, j) *= s;
  }
  for (std::int64_t ii = 1; ii <= n; ++ii) {
    std::int64_t i = ii;
    if (i >= ilo && i <= ihi) continue;
    if (i < ilo) i = ilo - ii;
    const std::int64_t k = static_cast<std::int64_t>(scale[static_cast<std::size_t>(i)]);
    if (k == i) continue;
    for (std::int64_t j = 1; j <= ncol; ++j) std::swap(V(i, j), V(k, j));
  }
}

// Solves the 2x2 complex system [a b; c d] x = r by Gaussian elimination with complete pivoting.
void solve2(cplx a, cplx b, cplx c, cplx d, cplx& x1, cplx& x2, double smin) {
  cplx r1 = x1, r2 = x2;
  // choose the largest of the four as pivot
  const double m[4] = {std::abs(a), std::abs(b), std::abs(c), std::abs(d)};
  int p = static_cast<int>(std::max_element(m, m + 4) - m);
  bool swap_rows = (p == 2 || p == 3), swap_cols = (p == 1 || p == 3);
  if (swap_rows) {
    std::swap(a, c);
    std::swap(b, d);
    std::swap(r1, r2);
  }
  if (swap_cols) {
    std::swap(a, b);
    std::swap(c, d);
  }
  if (std::abs(a) < smin) a = smin;
  const cplx l = c / a;
  cplx u22 = d - l * b;
  if (std::abs(u22) < smin) u22 = smin;
  const cplx y2 = (r2 - l * r1) / u22;
  const cplx y1 = (r1 - b * y2) / a;
  if (swap_cols) {
    x1 = y2;
    x2 = y1;
  } else {
    x1 = y1;
    x2 = y2;
  }
}

// Right eigenvectors of the upper quasi-triangular T (real Schur form), back-transformed by Z, as
// complex columns (trevc 'R','B'): column j is the eigenvector of eigenvalue j.
void trevc_real(std::int64_t n, fm<double> T, fm<double> Z, const std::vector<double>& wr,
                const std::vector<double>& wi, fm<cplx> V) {
  const double smlnum = kSafmin * (static_cast<double>(n) / kUlp);
  std::vector<cplx> x(static_cast<std::size_t>(n + 1)), v(static_cast<std::size_t>(n + 1));
  auto X = [&](std::int64_t i) -> cplx& { return x[static_cast<std::size_t>(i)]; };
  for (std::int64_t ki = n; ki >= 1; --ki) {
    std::int64_t k0;  // first row of the eigenvalue's block
    cplx lam;
    bool pair = false;
    if (ki > 1 && T(ki, ki - 1) != 0) {
      // second of a pair: computed together with ki-1 below
      continue;
    }
    if (ki < n && T(ki + 1, ki) != 0) {
      pair = true;
      lam = cplx(wr[static_cast<std::size_t>(ki - 1)], wi[static_cast<std::size_t>(ki - 1)]);  // positive imag
      k0 = ki;
    } else {
      lam = wr[static_cast<std::size_t>(ki - 1)];
      k0 = ki;
    }
    std::int64_t top;  // last row of the block
    if (!pair) {
      X(ki) = 1;
      for (std::int64_t k = 1; k < ki; ++k) X(k) = -T(k, ki);
      top = ki;
    } else {
      const std::int64_t a = ki, b = ki + 1;  // block rows/cols
      const double wim = lam.imag();
      if (std::fabs(T(a, b)) >= std::fabs(T(b, a))) {
        X(a) = 1;
        X(b) = cplx(0, wim / T(a, b));
      } else {
        X(a) = cplx(-wim / T(b, a), 0);
        X(b) = cplx(0, 1);
      }
      for (std::int64_t k = 1; k < a; ++k) X(k) = -X(a) * T(k, a) - X(b) * T(k, b);
      top = b;
    }
    const double smin = std::max(kUlp * (std::fabs(lam.real()) + std::fabs(lam.imag())), smlnum);
    // back substitution through the blocks above k0
    for (std::int64_t j = k0 - 1; j >= 1;) {
      if (j > 1 && T(j, j - 1) != 0) {
        cplx x1 = X(j - 1), x2 = X(j);
        solve2(T(j - 1, j - 1) - lam, T(j - 1, j), T(j, j - 1), T(j, j) - lam, x1, x2, smin);
        X(j - 1) = x1;
        X(j) = x2;
        for (std::int64_t k = 1; k < j - 1; ++k) X(k) -= x1 * T(k, j - 1) + x2 * T(k, j);
        j -= 2;
      } else {
        cplx d = T(j, j) - lam;
        if (std::abs(d) < smin) d = smin;
        X(j) /= d;
        const cplx xj = X(j);
        for (std::int64_t k = 1; k < j; ++k) X(k) -= xj * T(k, j);
        j -= 1;
      }
    }
    // back-transform: v = Z(:, 1:top) x(1:top)
    std::fill(v.begin(), v.end(), cplx(0));
    for (std::int64_t k = 1; k <= top; ++k) {
      const cplx xk = X(k);
      if (xk == cplx(0)) continue;
      for (std::int64_t i = 1; i <= n; ++i) v[static_cast<std::size_t>(i)] += Z(i, k) * xk;
    }
    for (std::int64_t i = 1; i <= n; ++i) V(i, ki) = v[static_cast<std::size_t>(i)];
    if (pair)
      for (std::int64_t i = 1; i <= n; ++i) V(i, ki + 1) = std::conj(v[static_cast<std::size_t>(i)]);
  }
}

// Right eigenvectors of the upper triangular complex T back-transformed by Z (ztrevc 'R','B').
void trevc_cplx(std::int64_t n, fm<cplx> T, fm<cplx> Z, fm<cplx> V) {
  const double smlnum = kSafmin * (static_cast<double>(n) / kUlp);
  std::vector<cplx> x(static_cast<std::size_t>(n + 1)), v(static_cast<std::size_t>(n + 1));
  for (std::int64_t ki = n; ki >= 1; --ki) {
    const cplx lam = T(ki, ki);
    const double smin = std::max(kUlp * cabs1(lam), smlnum);
    x[static_cast<std::size_t>(ki)] = 1;
    for (std::int64_t k = 1; k < ki; ++k) x[static_cast<std::size_t>(k)] = -T(k, ki);
    for (std::int64_t j = ki - 1; j >= 1; --j) {
      cplx d = T(j, j) - lam;
      if (cabs1(d) < smin) d = smin;
      x[static_cast<std::size_t>(j)] /= d;
      const cplx xj = x[static_cast<std::size_t>(j)];
      for (std::int64_t k = 1; k < j; ++k) x[static_cast<std::size_t>(k)] -= xj * T(k, j);
    }
    std::fill(v.begin(), v.end(), cplx(0));
    for (std::int64_t k = 1; k <= ki; ++k) {
      const cplx xk = x[static_cast<std::size_t>(k)];
      for (std::int64_t i = 1; i <= n; ++i) v[static_cast<std::size_t>(i)] += Z(i, k) * xk;
    }
    for (std::int64_t i = 1; i <= n; ++i) V(i, ki) = v[static_cast<std::size_t>(i)];
  }
}

// dlartg (LAPACK 3.10+): c >= 0, r carries the sign of f.
void lartg(double f, double g, double& c, double& s, double& r) {
  if (g == 0) {
    c = 1;
    s = 0;
    r = f;
  } else if (f == 0) {
    c = 0;
    s = sign(1, g);
    r = std::fabs(g);
  } else {
    const double d = std::hypot(f, g);
    c = std::fabs(f) / d;
    r = sign(d, f);
    s = g / r;
  }
}

eig_result eig_real(const rmat& a, const char* fn) {
  const std::int64_t n = a.n;
  eig_result out;
  out.values.resize(static_cast<std::size_t>(n));
  out.vectors = cmat(n, n);
  if (n == 0) return out;
  std::vector<double> w = to_colmajor(a);
  const double back = geev_scale(w);
  fm<double> H{w.data(), n};
  std::int64_t ilo, ihi;
  std::vector<double> scale, tau, work;
  gebal(n, H, ilo, ihi, scale);
  gehd2(n, ilo, ihi, H, tau, work);
  std::vector<double> zw(static_cast<std::size_t>(n * n));
  fm<double> Z{zw.data(), n};
  orghr(n, ilo, ihi, H, tau, Z);
  for (std::int64_t j = 1; j <= n; ++j)  // clear the reflectors below the subdiagonal
    for (std::int64_t i = j + 2; i <= n; ++i) H(i, j) = 0;
  std::vector<double> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
  for (std::int64_t i = 1; i <= ilo - 1; ++i) wr[static_cast<std::size_t>(i - 1)] = H(i, i);
  for (std::int64_t i = ihi + 1; i <= n; ++i) wr[static_cast<std::size_t>(i - 1)] = H(i, i);
  if (lahqr(true, true, n, ilo, ihi, H, wr, wi, ilo, ihi, Z) != 0) no_convergence(fn);
  std::vector<cplx> vw(static_cast<std::size_t>(n * n));
  fm<cplx> V{vw.data(), n};
  trevc_real(n, H, Z, wr, wi, V);
  gebak(n, ilo, ihi, scale, n, V);
  // geev's normalisation
  std::vector<double> re(static_cast<std::size_t>(n)), im(static_cast<std::size_t>(n));
  for (std::int64_t j = 1; j <= n; ++j) {
    const double wij = wi[static_cast<std::size_t>(j - 1)];
    if (wij == 0) {
      for (std::int64_t i = 1; i <= n; ++i) re[static_cast<std::size_t>(i - 1)] = V(i, j).real();
      const double nr = nrm2(n, re.data(), 1);
      const double scl = nr > 0 ? 1 / nr : 1;
      for (std::int64_t i = 1; i <= n; ++i) V(i, j) = V(i, j).real() * scl;
    } else if (wij > 0 && j < n) {
      for (std::int64_t i = 1; i <= n; ++i) {
        re[static_cast<std::size_t>(i - 1)] = V(i, j).real();
        im[static_cast<std::size_t>(i - 1)] = V(i, j).imag();
      }
      const double scl = 1 / lapy2(nrm2(n, re.data(), 1), nrm2(n, im.data(), 1));
      std::int64_t k = 0;
      double best = -1;
      for (std::int64_t i = 0; i < n; ++i) {
        re[static_cast<std::size_t>(i)] *= scl;
        im[static_cast<std::size_t>(i)] *= scl;
        const double m = sq(re[static_cast<std::size_t>(i)]) + sq(im[static_cast<std::size_t>(i)]);
        if (m > best) {
          best = m;
          k = i;
        }
      }
      double cs, sn, r;
      lartg(re[static_cast<std::size_t>(k)], im[static_cast<std::size_t>(k)], cs, sn, r);
      for (std::int64_t i = 0; i < n; ++i) {
        const double x = re[static_cast<std::size_t>(i)], y = im[static_cast<std::size_t>(i)];
        re[static_cast<std::size_t>(i)] = cs * x + sn * y;
        im[static_cast<std::size_t>(i)] = cs * y - sn * x;
      }
      im[static_cast<std::size_t>(k)] = 0;
      for (std::int64_t i = 1; i <= n; ++i) {
        V(i, j) = cplx(re[static_cast<std::size_t>(i - 1)], im[static_cast<std::size_t>(i - 1)]);
        V(i, j + 1) = cplx(re[static_cast<std::size_t>(i - 1)], -im[static_cast<std::size_t>(i - 1)]);
      }
      ++j;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) {
    out.values[static_cast<std::size_t>(i)] =
        cplx(wr[static_cast<std::size_t>(i)] * back, wi[static_cast<std::size_t>(i)] * back);
    for (std::int64_t j = 0; j < n; ++j) out.vectors(i, j) = V(i + 1, j + 1);
  }
  return out;
}

eig_result eig_cplx(const cmat& a, const char* fn) {
  const std::int64_t n = a.n;
  eig_result out;
  out.values.resize(static_cast<std::size_t>(n));
  out.vectors = cmat(n, n);
  if (n == 0) return out;
  std::vector<cplx> w = to_colmajor(a);
  const double back = geev_scale(w);
  fm<cplx> H{w.data(), n};
  std::int64_t ilo, ihi;
  std::vector<double> scale;
  std::vector<cplx> tau, work;
  gebal(n, H, ilo, ihi, scale);
  gehd2(n, ilo, ihi, H, tau, work);
  std::vector<cplx> zw(static_cast<std::size_t>(n * n));
  fm<cplx> Z{zw.data(), n};
  orghr(n, ilo, ihi, H, tau, Z);
  for (std::int64_t j = 1; j <= n; ++j)
    for (std::int64_t i = j + 2; i <= n; ++i) H(i, j) = 0;
  for (std::int64_t i = 1; i <= ilo - 1; ++i) out.values[static_cast<std::size_t>(i - 1)] = H(i, i);
  for (std::int64_t i = ihi + 1; i <= n; ++i) out.values[static_cast<std::size_t>(i - 1)] = H(i, i);
  if (lahqr(true, true, n, ilo, ihi, H, out.values, ilo, ihi, Z) != 0) no_convergence(fn);
  std::vector<cplx> vw(static_cast<std::size_t>(n * n));
  fm<cplx> V{vw.data(), n};
  trevc_cplx(n, H, Z, V);
  gebak(n, ilo, ihi, scale, n, V);
  for (std::int64_t j = 1; j <= n; ++j) {
    const double scl = 1 / nrm2(n, &V(1, j), 1);
    std::int64_t k = 1;
    double best = -1;
    for (std::int64_t i = 1; i <= n; ++i) {
      V(i, j) *= scl;
      const double m = sq(V(i, j).real()) + sq(V(i, j).imag());
      if (m > best) {
        best = m;
        k = i;
      }
    }
    const cplx t = std::conj(V(k, j)) / std::sqrt(best);
    for (std::int64_t i = 1; i <= n; ++i) V(i, j) *= t;
    V(k, j) = cplx(V(k, j).real(), 0);
  }
  if (back != 1.0)
    for (auto& x : out.values) x *= back;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) out.vectors(i, j) = V(i + 1, j + 1);
  return out;
}

}  // namespace

// ---- products and helpers -----------------------------------------------------------------------------
template <class T>
static mat<T> matmul_impl(const mat<T>& a, const mat<T>& b) {
  if (a.n != b.m)
    throw cusci::value_error("cusci::detail::hostla::matmul: inner dimensions differ, got (" + std::to_string(a.m) +
                             ", " + std::to_string(a.n) + ") and (" + std::to_string(b.m) + ", " +
                             std::to_string(b.n) + ")");
  mat<T> c(a.m, b.n);
  for (std::int64_t i = 0; i < a.m; ++i) {
    T* ci = &c.v[static_cast<std::size_t>(i * c.n)];
    for (std::int64_t k = 0; k < a.n; ++k) {
      const T aik = a(i, k);
      const T* bk = &b.v[static_cast<std::size_t>(k * b.n)];
      for (std::int64_t j = 0; j < b.n; ++j) ci[j] += aik * bk[j];
    }
  }
  return c;
}
rmat matmul(const rmat& a, const rmat& b) { return matmul_impl(a, b); }
cmat matmul(const cmat& a, const cmat& b) { return matmul_impl(a, b); }

rmat transpose(const rmat& a) {
  rmat t(a.n, a.m);
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int64_t j = 0; j < a.n; ++j) t(j, i) = a(i, j);
  return t;
}
cmat conj_transpose(const cmat& a) {
  cmat t(a.n, a.m);
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int64_t j = 0; j < a.n; ++j) t(j, i) = std::conj(a(i, j));
  return t;
}
cmat to_complex(const rmat& a) {
  cmat c(a.m, a.n);
  for (std::size_t i = 0; i < a.v.size(); ++i) c.v[i] = a.v[i];
  return c;
}

// ---- eigenvalues ----------------------------------------------------------------------------------------
std::vector<cplx> eigvals(const rmat& a, const char* fn) {
  check_square(a, fn);
  auto w = to_colmajor(a);
  return eigvals_work(a.n, w, fn);
}

std::vector<cplx> eigvals(const cmat& a, const char* fn) {
  check_square(a, fn);
  auto w = to_colmajor(a);
  return eigvals_work(a.n, w, fn);
}

eig_result eig(const rmat& a, const char* fn) {
  check_square(a, fn);
  return eig_real(a, fn);
}

eig_result eig(const cmat& a, const char* fn) {
  check_square(a, fn);
  return eig_cplx(a, fn);
}

// ---- polynomials ----------------------------------------------------------------------------------------
namespace {
template <class T>
std::vector<cplx> roots_impl(const std::vector<T>& p, const char* fn) {
  for (const auto& x : p) {
    if (!std::isfinite(absv(x)) || absv(x) != absv(x))
      throw cusci::value_error(std::string(fn) + ": polynomial coefficients must be finite");
  }
  std::int64_t first = -1, last = -1;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(p.size()); ++i)
    if (nonzero(p[static_cast<std::size_t>(i)])) {
      if (first < 0) first = i;
      last = i;
    }
  if (first < 0) return {};
  const std::int64_t trailing = static_cast<std::int64_t>(p.size()) - last - 1;
  const std::int64_t N = last - first + 1;
  std::vector<cplx> out;
  if (N > 1) {
    const std::int64_t n = N - 1;
    // companion matrix, column-major: first row -p[1:]/p[0], ones on the subdiagonal
    std::vector<T> w(static_cast<std::size_t>(n * n), T(0));
    const T p0 = p[static_cast<std::size_t>(first)];
    for (std::int64_t j = 0; j < n; ++j) w[static_cast<std::size_t>(j * n)] = -p[static_cast<std::size_t>(first + 1 + j)] / p0;
    for (std::int64_t i = 1; i < n; ++i) w[static_cast<std::size_t>((i - 1) * n + i)] = T(1);
    out = eigvals_work(n, w, fn);
  }
  out.resize(out.size() + static_cast<std::size_t>(trailing), cplx(0));
  return out;
}
}  // namespace

std::vector<cplx> roots(const std::vector<double>& p, const char* fn) { return roots_impl(p, fn); }
std::vector<cplx> roots(const std::vector<cplx>& p, const char* fn) { return roots_impl(p, fn); }

// numpy.poly convolves with [1, -z] through numpy.convolve -> correlate, whose complex dot product is
// BLAS zdotu: partial sums re = sum(xr*yr) - sum(xi*yi), im = sum(xr*yi) + sum(xi*yr), the window's
// older entry first. Reproducing that order makes the coefficients bit-identical to NumPy's.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
std::vector<cplx> poly(const std::vector<cplx>& r) {
  std::vector<cplx> a(r.size() + 1, cplx(0));
  a[0] = 1;
  std::size_t len = 1;
  for (const cplx& z : r) {
    const double mzr = -z.real(), mzi = -z.imag();
    {
      const double ar = a[len - 1].real(), ai = a[len - 1].imag();
      const double p_rr = ar * mzr, p_ii = ai * mzi, p_ri = ar * mzi, p_ir = ai * mzr;
      a[len] = cplx(p_rr - p_ii, p_ri + p_ir);
    }
    // walk backwards so a[j-1] is still the old value: a[j] <- a[j-1] * (-z) + a[j] * 1
    for (std::size_t j = len - 1; j >= 1; --j) {
      const double ar = a[j - 1].real(), ai = a[j - 1].imag(), br = a[j].real(), bi = a[j].imag();
      const double p_rr = ar * mzr, p_ii = ai * mzi, p_ri = ar * mzi, p_ir = ai * mzr;
      const double re = (p_rr + br) - p_ii;
      const double im = p_ri + (p_ir + bi);
      a[j] = cplx(re, im);
    }
    ++len;
  }
  return a;
}

std::vector<cplx> poly(const rmat& a, const char* fn) {
  if (a.m == 0 || a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": input must be 1d or non-empty square 2d array, got shape (" +
                             std::to_string(a.m) + ", " + std::to_string(a.n) + ")");
  return poly(eigvals(a, fn));
}

}  // namespace cusci::detail::hostla

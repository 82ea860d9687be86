// Host dense linear algebra: LU with partial pivoting (LAPACK getrf's pivot choice), linear solves,
// inverse, determinant and Cholesky factorisation (right-looking, by rows).
#include <cmath>
#include <string>
#include <type_traits>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::detail::hostla {
namespace {

// The magnitude LAPACK's i?amax compares: |x| for real, |re| + |im| for complex (izamax).
inline double pivmag(double x) { return std::fabs(x); }
inline double pivmag(cplx x) { return std::fabs(x.real()) + std::fabs(x.imag()); }
inline bool finite(double x) { return std::isfinite(x); }
inline bool finite(cplx x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); }

template <class T>
void check_square(const mat<T>& a, const char* fn) {
  if (a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": matrix must be square, got shape (" + std::to_string(a.m) + ", " +
                             std::to_string(a.n) + ")");
  if (static_cast<std::int64_t>(a.v.size()) != a.m * a.n)
    throw cusci::value_error(std::string(fn) + ": matrix storage does not match its shape");
}

template <class T>
lu_result<T> lu_impl(const mat<T>& a, const char* fn) {
  check_square(a, fn);
  lu_result<T> r;
  r.lu = a;
  const std::int64_t n = a.n;
  r.piv.resize(static_cast<std::size_t>(n));
  mat<T>& A = r.lu;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t p = k;
    double best = pivmag(A(k, k));
    for (std::int64_t i = k + 1; i < n; ++i) {
      const double m = pivmag(A(i, k));
      if (m > best) {
        best = m;
        p = i;
      }
    }
    r.piv[static_cast<std::size_t>(k)] = p;
    if (A(p, k) == T(0)) {
      r.singular = true;
      continue;  // as getrf: record and go on, the column below is already zero
    }
    if (p != k)
      for (std::int64_t j = 0; j < n; ++j) std::swap(A(k, j), A(p, j));
    const T inv_piv = T(1) / A(k, k);
    T* rowk = &A.v[static_cast<std::size_t>(k * n)];
    for (std::int64_t i = k + 1; i < n; ++i) {
      T* rowi = &A.v[static_cast<std::size_t>(i * n)];
      const T l = rowi[k] * inv_piv;
      rowi[k] = l;
      if (l == T(0)) continue;
      for (std::int64_t j = k + 1; j < n; ++j) rowi[j] -= l * rowk[j];
    }
  }
  return r;
}

template <class T>
mat<T> solve_impl(const mat<T>& a, const mat<T>& b, const char* fn) {
  check_square(a, fn);
  if (b.m != a.n || static_cast<std::int64_t>(b.v.size()) != b.m * b.n)
    throw cusci::value_error(std::string(fn) + ": right-hand side must have " + std::to_string(a.n) +
                             " rows, got shape (" + std::to_string(b.m) + ", " + std::to_string(b.n) + ")");
  for (const T& x : a.v)
    if (!finite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
  lu_result<T> f = lu_impl(a, fn);
  if (f.singular) throw cusci::runtime_error(std::string(fn) + ": singular matrix");
  const std::int64_t n = a.n, k = b.n;
  mat<T> x = b;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = f.piv[static_cast<std::size_t>(i)];
    if (p != i)
      for (std::int64_t j = 0; j < k; ++j) std::swap(x(i, j), x(p, j));
  }
  // forward substitution with unit lower L
  for (std::int64_t i = 0; i < n; ++i) {
    T* xi = &x.v[static_cast<std::size_t>(i * k)];
    for (std::int64_t q = 0; q < i; ++q) {
      const T l = f.lu(i, q);
      if (l == T(0)) continue;
      const T* xq = &x.v[static_cast<std::size_t>(q * k)];
      for (std::int64_t j = 0; j < k; ++j) xi[j] -= l * xq[j];
    }
  }
  // back substitution with U
  for (std::int64_t i = n - 1; i >= 0; --i) {
    T* xi = &x.v[static_cast<std::size_t>(i * k)];
    for (std::int64_t q = i + 1; q < n; ++q) {
      const T u = f.lu(i, q);
      if (u == T(0)) continue;
      const T* xq = &x.v[static_cast<std::size_t>(q * k)];
      for (std::int64_t j = 0; j < k; ++j) xi[j] -= u * xq[j];
    }
    const T d = f.lu(i, i);
    for (std::int64_t j = 0; j < k; ++j) xi[j] /= d;
  }
  return x;
}

}  // namespace

lu_result<double> lu_factor(const rmat& a, const char* fn) { return lu_impl(a, fn); }
lu_result<cplx> lu_factor(const cmat& a, const char* fn) { return lu_impl(a, fn); }

rmat solve(const rmat& a, const rmat& b, const char* fn) { return solve_impl(a, b, fn); }
cmat solve(const cmat& a, const cmat& b, const char* fn) { return solve_impl(a, b, fn); }

rmat inv(const rmat& a, const char* fn) {
  check_square(a, fn);
  return solve_impl(a, rmat::identity(a.n), fn);
}

double det(const rmat& a, const char* fn) {
  check_square(a, fn);
  if (a.n == 0) return 1.0;
  lu_result<double> f = lu_impl(a, fn);
  double d = 1.0;
  for (std::int64_t i = 0; i < a.n; ++i) {
    d *= f.lu(i, i);
    if (f.piv[static_cast<std::size_t>(i)] != i) d = -d;
  }
  return f.singular ? 0.0 : d;
}

cholesky_result cholesky(const rmat& a) {
  cholesky_result r;
  const std::int64_t n = a.n;
  if (a.m != a.n) {
    r.ok = false;
    return r;
  }
  // Right-looking (outer-product) elimination on U = L^T stored by rows: each step scales a pivot row
  // and subtracts its multiples from the trailing rows, contiguous updates the compiler vectorises.
  rmat U(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = i; j < n; ++j) U(i, j) = a(j, i);
  // Pivot row j: its square root, the row scaled; false when not positive (or NaN).
  auto pivot = [&](std::int64_t j) {
    double* uj = &U.v[static_cast<std::size_t>(j * n)];
    const double s = uj[j];
    if (!(s > 0.0)) return false;
    const double ujj = std::sqrt(s);
    uj[j] = ujj;
    for (std::int64_t k = j + 1; k < n; ++k) uj[k] /= ujj;
    return true;
  };
  // Two pivot rows per sweep of the trailing rows (each trailing row read and written once per pair).
  std::int64_t j = 0;
  for (; j + 1 < n; j += 2) {
    const double* __restrict u0 = &U.v[static_cast<std::size_t>(j * n)];
    double* __restrict u1 = &U.v[static_cast<std::size_t>((j + 1) * n)];
    if (!pivot(j)) {
      r.ok = false;
      return r;
    }
    const double g = u0[j + 1];
    for (std::int64_t k = j + 1; k < n; ++k) u1[k] -= g * u0[k];
    if (!pivot(j + 1)) {
      r.ok = false;
      return r;
    }
    for (std::int64_t i = j + 2; i < n; ++i) {
      double* __restrict ui = &U.v[static_cast<std::size_t>(i * n)];
      const double f0 = u0[i], f1 = u1[i];
      for (std::int64_t k = i; k < n; ++k) ui[k] -= f0 * u0[k] + f1 * u1[k];
    }
  }
  if (j < n && !pivot(j)) {
    r.ok = false;
    return r;
  }
  r.l = rmat(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) r.l(i, j) = U(j, i);
  return r;
}

}  // namespace cusci::detail::hostla

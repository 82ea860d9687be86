// Helpers of the equations and matfuncs_schur families (see eq_host.hpp): dtype rules, batches, host
// staging of matrix batches and the system LAPACK's ?trsyl.

#include "equations/eq_host.hpp"

#include <algorithm>
#include <cstddef>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"

extern "C" {
// LAPACK (Fortran calling convention; the character arguments' hidden lengths at the end).
void dtrsyl_(const char* trana, const char* tranb, const int* isgn, const int* m, const int* n, const double* a,
             const int* lda, const double* b, const int* ldb, double* c, const int* ldc, double* scale, int* info,
             std::size_t trana_len, std::size_t tranb_len);
void ztrsyl_(const char* trana, const char* tranb, const int* isgn, const int* m, const int* n,
             const std::complex<double>* a, const int* lda, const std::complex<double>* b, const int* ldb,
             std::complex<double>* c, const int* ldc, double* scale, int* info, std::size_t trana_len,
             std::size_t tranb_len);
}

namespace cusci::linalg::detail {

using i64 = std::int64_t;

dtype schur_dtype(dtype t) {
  switch (t) {
    case dtype::float32:
    case dtype::float64:
    case dtype::complex64:
    case dtype::complex128: return t;
    case dtype::float16: return dtype::float32;
    default: return dtype::float64;
  }
}

dtype schur_dtype(std::initializer_list<dtype> ts) {
  bool cplx_any = false, single = true;
  for (dtype t : ts) {
    const dtype s = schur_dtype(t);
    cplx_any = cplx_any || is_complex(s);
    single = single && (s == dtype::float32 || s == dtype::complex64);
  }
  if (cplx_any) return single ? dtype::complex64 : dtype::complex128;
  return single ? dtype::float32 : dtype::float64;
}

dtype complex_of(dtype t) {
  return (t == dtype::float32 || t == dtype::complex64) ? dtype::complex64 : dtype::complex128;
}

dtype real_of(dtype t) { return (t == dtype::float32 || t == dtype::complex64) ? dtype::float32 : dtype::float64; }

shape_t batch_shape(const ndarray& a) {
  const shape_t& s = a.shape();
  return a.ndim() > 2 ? shape_t(s.begin(), s.end() - 2) : shape_t{};
}

ndarray cast(const ndarray& x, dtype dt) { return x.dtype() == dt ? x : x.astype(dt); }

ndarray ctrans(const ndarray& x) {
  const int nd = x.ndim();
  ndarray t = cusci::swapaxes(x, nd - 2, nd - 1);
  return is_complex(x.dtype()) ? cusci::conj(t) : t;
}

template <class T>
std::vector<T> to_host_colmajor(const ndarray& x) {
  const int nd = x.ndim();
  const i64 rows = x.shape()[nd - 2], cols = x.shape()[nd - 1];
  const i64 mat = rows * cols;
  const i64 nb = mat == 0 ? 0 : x.size() / mat;
  // The transposed view read in C order is each matrix column-major.
  const host_array h = cusci::to_host(cusci::swapaxes(x, nd - 2, nd - 1));
  const T* p = h.data_as<T>();
  return std::vector<T>(p, p + nb * mat);
}

template <class T>
ndarray from_host_colmajor(const std::vector<T>& h, const shape_t& shape) {
  const int nd = static_cast<int>(shape.size());
  shape_t ts = shape;
  std::swap(ts[nd - 2], ts[nd - 1]);
  const ndarray t = cusci::asarray(h, ts);  // each matrix transposed, in C order
  return cusci::swapaxes(t, nd - 2, nd - 1).copy();
}

template std::vector<double> to_host_colmajor<double>(const ndarray&);
template std::vector<cplx> to_host_colmajor<cplx>(const ndarray&);
template ndarray from_host_colmajor<double>(const std::vector<double>&, const shape_t&);
template ndarray from_host_colmajor<cplx>(const std::vector<cplx>&, const shape_t&);

int trsyl(char trana, char tranb, int isgn, int m, int n, const double* A, const double* B, double* C,
          double& scale) {
  int info = 0;
  const int lda = std::max(1, m), ldb = std::max(1, n), ldc = std::max(1, m);
  dtrsyl_(&trana, &tranb, &isgn, &m, &n, A, &lda, B, &ldb, C, &ldc, &scale, &info, 1, 1);
  return info;
}

int trsyl(char trana, char tranb, int isgn, int m, int n, const cplx* A, const cplx* B, cplx* C, double& scale) {
  int info = 0;
  const int lda = std::max(1, m), ldb = std::max(1, n), ldc = std::max(1, m);
  ztrsyl_(&trana, &tranb, &isgn, &m, &n, A, &lda, B, &ldb, C, &ldc, &scale, &info, 1, 1);
  return info;
}

std::string msg(const std::string& name, const std::string& m) { return "cusci::linalg::" + name + ": " + m; }

shape_t common_batch(const std::vector<const ndarray*>& xs, const std::string& name, const std::string& scipy_name) {
  shape_t batch;
  bool batched = false;
  for (const ndarray* x : xs) {
    if (!x) continue;
    const shape_t b = batch_shape(*x);
    batched = batched || !b.empty();
    try {
      batch = cusci::broadcast_shapes(batch, b);
    } catch (const value_error&) {
      throw value_error(msg(name, "shape mismatch: objects cannot be broadcast to a single shape. Mismatch is "
                                  "between the batch shapes " + cusci::detail::shape_str(batch) + " and " +
                                  cusci::detail::shape_str(b)));
    }
  }
  i64 total = 1;
  for (i64 d : batch) total *= d;
  if (batched && total == 0) throw value_error(msg(name, "`" + scipy_name + "` does not support zero-size batches."));
  return batch;
}

void check_finite(const ndarray& x, const std::string& name) {
  if (x.size() == 0) return;
  if (!cusci::all(cusci::isfinite(x)).item<bool>())
    throw value_error(msg(name, "array must not contain infs or NaNs"));
}

}  // namespace cusci::linalg::detail

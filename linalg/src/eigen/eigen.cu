// The eigen family's device side: cuSOLVER eigensolvers (Xsyevd, Xsyevdx, XsyevBatched, Xgeev,
// potrfBatched), cuBLAS reductions of generalized problems (trsmBatched, gemmStridedBatchedEx), and the
// kernels around them (band / tridiagonal expansion, subset selection, vector unpacking, pinvh scaling).

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"
#include "eigen/eigen_detail.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;

template <class T> struct complex_of { using type = cuda::std::complex<real_t<T>>; };
template <class T> using complex_t = typename complex_of<T>::type;

/// Calls f(type_tag<R>) for float32 / float64 (real dtypes; complex ones give their real part's type).
template <class F>
void dispatch_real(dtype t, F&& f) {
  using cusci::detail::type_tag;
  const dtype r = real_dtype(t);
  if (r == dtype::float32) return f(type_tag<float>{});
  if (r == dtype::float64) return f(type_tag<double>{});
  throw type_error("cusci::linalg: internal real dtype expected, got " + std::string(dtype_name(t)));
}

int to_int(i64 v, const char* what) {
  if (v > 2147483647LL)
    throw value_error(std::string("cusci::linalg: ") + what + " exceeds the 32-bit range of the batched library call");
  return static_cast<int>(v);
}

// --- kernels --------------------------------------------------------------------------------------

template <class T>
__global__ void zero_upper_kernel(T* a, i64 nbatch, i64 n) {
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nbatch * per) {
    const i64 r = e % per, j = r / n, i = r - j * n;  // column-major (i, j)
    if (i < j) a[e] = T(0);
  }
}

template <class R>
__global__ void value_range_kernel(const R* w, i64 nbatch, i64 n, R lo, R hi, i64* first, i64* count) {
  CUSCI_LINALG_GRID_LOOP(b, nbatch) {
    const R* wb = w + b * n;
    i64 f = 0;
    while (f < n && !(wb[f] > lo)) ++f;
    i64 l = f;
    while (l < n && wb[l] <= hi) ++l;
    first[b] = f;
    count[b] = l - f;
  }
}

template <class T>
__global__ void select_kernel(const real_t<T>* w, const T* v, i64 nbatch, i64 n, const i64* first, i64 first_const,
                              i64 m, real_t<T>* w_out, T* v_out) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * m) {
    const i64 b = e / m, k = e - b * m;
    const i64 f = first ? first[b] : first_const;
    w_out[e] = w[b * n + f + k];
  }
  if (v) {
    CUSCI_LINALG_GRID_LOOP(e, nbatch * m * n) {
      const i64 b = e / (m * n), r = e - b * m * n, k = r / n, i = r - k * n;
      const i64 f = first ? first[b] : first_const;
      v_out[e] = v[b * n * n + (f + k) * n + i];
    }
  }
}

template <class T>
__global__ void tridiag_kernel(const char* d, strided_indexer di, i64 ds, const char* e, strided_indexer ei, i64 es,
                               i64 nbatch, i64 n, bool check, T* out, int* status) {
  bool bad = false;
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(x, nbatch * per) {
    const i64 b = x / per, r = x - b * per, j = r / n, i = r - j * n;
    T v = T(0);
    if (i == j) {
      v = *reinterpret_cast<const T*>(d + di.offset(b) + i * ds);
      if (!isfinite(v)) bad = true;
    } else if (i == j + 1 || j == i + 1) {
      const i64 k = i < j ? i : j;
      v = *reinterpret_cast<const T*>(e + ei.offset(b) + k * es);
      if (!isfinite(v)) bad = true;
    }
    out[x] = v;
  }
  if (check && bad) status[0] = 1;
}

template <class T>
__global__ void band_kernel(const char* ab, strided_indexer bi, i64 sr, i64 sc, i64 nbatch, i64 u, i64 n, bool lower,
                            bool check, T* out, int* status) {
  bool bad = false;
  // every stored entry is checked (SciPy checks the whole a_band array)
  const i64 rows = u + 1;
  if (check) {
    CUSCI_LINALG_GRID_LOOP(x, nbatch * rows * n) {
      const i64 b = x / (rows * n), r = x - b * rows * n, p = r / n, j = r - p * n;
      if (!is_finite_elem(load_at<T>(ab + bi.offset(b), sr, sc, p, j))) bad = true;
    }
  }
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(x, nbatch * per) {
    const i64 b = x / per, r = x - b * per, j = r / n, i = r - j * n;  // column-major (i, j)
    // stored triangle: lower form holds i >= j, upper form i <= j
    const bool stored = lower ? i >= j : i <= j;
    const i64 si = stored ? i : j, sj = stored ? j : i;
    const i64 dist = si > sj ? si - sj : sj - si;
    T v = T(0);
    if (dist <= u) {
      const i64 p = lower ? si - sj : u + si - sj;
      v = load_at<T>(ab + bi.offset(b), sr, sc, p, sj);
      if (!stored) v = conj_elem(v);
      if (i == j) v = T(real_part(v));
    }
    out[x] = v;
  }
  if (check && bad) status[0] = 1;
}

template <class C>
__global__ void any_complex_kernel(const C* w, i64 count, int* flag) {
  bool any = false;
  CUSCI_LINALG_GRID_LOOP(i, count) any |= w[i].imag() != 0;
  if (any) flag[0] = 1;
}

/// SciPy's _make_complex_eigvecs: column i with (imag(w_i) > 0 or imag(w_{i+1}) < 0) becomes
/// v_i + i v_{i+1} and column i + 1 its conjugate.
template <class R>
__global__ void unpack_kernel(const cuda::std::complex<R>* w, const R* vr, i64 nbatch, i64 n,
                              cuda::std::complex<R>* out) {
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(x, nbatch * per) {
    const i64 b = x / per, r = x - b * per, j = r / n, i = r - j * n;
    const cuda::std::complex<R>* wb = w + b * n;
    const R* vb = vr + b * per;
    auto first = [&](i64 k) { return k < n && (wb[k].imag() > 0 || (k + 1 < n && wb[k + 1].imag() < 0)); };
    cuda::std::complex<R> v(vb[j * n + i], R(0));
    if (first(j) && j + 1 < n) v = cuda::std::complex<R>(vb[j * n + i], vb[(j + 1) * n + i]);
    else if (j > 0 && first(j - 1)) v = cuda::std::complex<R>(vb[(j - 1) * n + i], -vb[j * n + i]);
    out[x] = v;
  }
}

template <class C>
__global__ void left_kernel(const C* m, i64 nbatch, i64 n, C* vl) {
  using R = real_t<C>;
  CUSCI_LINALG_GRID_LOOP(x, nbatch * n) {
    const i64 b = x / n, j = x - b * n;
    const C* row = m + b * n * n + j * n;  // row j of M (C order)
    R nrm = 0, big = -1;
    C at(0);
    for (i64 i = 0; i < n; ++i) {
      const R a = absval(row[i]);
      nrm = hypot(nrm, a);
      if (a > big) {
        big = a;
        at = conj_elem(row[i]);
      }
    }
    // scale: 1 / nrm times the phase that makes the largest component real and positive
    C s = nrm > 0 && big > 0 ? conj_elem(at) / (big * nrm) : C(1);
    C* col = vl + b * n * n + j * n;
    for (i64 i = 0; i < n; ++i) col[i] = conj_elem(row[i]) * s;
  }
}

template <class C>
__global__ void homogeneous_kernel(const C* w, i64 nbatch, i64 n, C* out) {
  CUSCI_LINALG_GRID_LOOP(x, nbatch * n) {
    const i64 b = x / n, k = x - b * n;
    out[b * 2 * n + k] = w[x];
    out[b * 2 * n + n + k] = C(1);
  }
}

/// One block per matrix: the cut-off from max|w| (cut[b]) and the rank.
template <class R>
__global__ void pinvh_cut_kernel(const R* w, i64 nbatch, i64 n, double atol, double rtol, R* cut, i64* rank) {
  __shared__ R red[256];
  __shared__ i64 cnt[256];
  for (i64 b = blockIdx.x; b < nbatch; b += gridDim.x) {
    const R* wb = w + b * n;
    R mx = 0;
    for (i64 k = threadIdx.x; k < n; k += blockDim.x) mx = fmax(mx, fabs(wb[k]));
    red[threadIdx.x] = mx;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) red[threadIdx.x] = fmax(red[threadIdx.x], red[threadIdx.x + s]);
      __syncthreads();
    }
    // SciPy: val = atol + maxS * rtol with maxS a NumPy scalar of the eigenvalues' dtype and Python-float
    // atol / rtol (NEP 50: the arithmetic stays in that dtype)
    const R val = static_cast<R>(atol) + red[0] * static_cast<R>(rtol);
    i64 c = 0;
    for (i64 k = threadIdx.x; k < n; k += blockDim.x) c += fabs(wb[k]) > val;
    cnt[threadIdx.x] = c;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) cnt[threadIdx.x] += cnt[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      rank[b] = cnt[0];
      cut[b] = val;
    }
    __syncthreads();
  }
}

/// scaled column j of matrix b = u column j times 1 / w_j where |w_j| > cut[b], else 0.
template <class T>
__global__ void pinvh_scale_kernel(const real_t<T>* w, const T* u, const real_t<T>* cut, i64 nbatch, i64 n,
                                   T* scaled) {
  using R = real_t<T>;
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(x, nbatch * per) {
    const i64 b = x / per, j = (x - b * per) / n;
    const R wj = w[b * n + j];
    scaled[x] = u[x] * (fabs(wj) > cut[b] ? R(1) / wj : R(0));
  }
}

// --- typed library calls ------------------------------------------------------------------------------

template <class T>
cusolverStatus_t potrf_batched(cusolverDnHandle_t h, int n, T** a, int* info, int nb) {
  const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
  if constexpr (std::is_same_v<T, float>) return CUSCI_LAZY(cusolverDnSpotrfBatched)(h, lo, n, a, n, info, nb);
  else if constexpr (std::is_same_v<T, double>) return CUSCI_LAZY(cusolverDnDpotrfBatched)(h, lo, n, a, n, info, nb);
  else if constexpr (std::is_same_v<T, cuda::std::complex<float>>)
    return CUSCI_LAZY(cusolverDnCpotrfBatched)(h, lo, n, reinterpret_cast<cuComplex**>(a), n, info, nb);
  else return CUSCI_LAZY(cusolverDnZpotrfBatched)(h, lo, n, reinterpret_cast<cuDoubleComplex**>(a), n, info, nb);
}

template <class T>
cublasStatus_t trsm_batched(cublasHandle_t h, cublasSideMode_t side, cublasOperation_t op, int m, int n, T** a,
                            int lda, T** b, int ldb, int count) {
  const T one(1);
  const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
  const cublasDiagType_t dg = CUBLAS_DIAG_NON_UNIT;
  if constexpr (std::is_same_v<T, float>)
    return CUSCI_LAZY(cublasStrsmBatched)(h, side, lo, op, dg, m, n, &one, a, lda, b, ldb, count);
  else if constexpr (std::is_same_v<T, double>)
    return CUSCI_LAZY(cublasDtrsmBatched)(h, side, lo, op, dg, m, n, &one, a, lda, b, ldb, count);
  else if constexpr (std::is_same_v<T, cuda::std::complex<float>>)
    return CUSCI_LAZY(cublasCtrsmBatched)(h, side, lo, op, dg, m, n, reinterpret_cast<const cuComplex*>(&one),
                                          reinterpret_cast<cuComplex**>(a), lda, reinterpret_cast<cuComplex**>(b), ldb,
                                          count);
  else
    return CUSCI_LAZY(cublasZtrsmBatched)(h, side, lo, op, dg, m, n, reinterpret_cast<const cuDoubleComplex*>(&one),
                                          reinterpret_cast<cuDoubleComplex**>(a), lda,
                                          reinterpret_cast<cuDoubleComplex**>(b), ldb, count);
}

using gemm_strided_batched_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                      int, const void*, const void*, cudaDataType, int, long long,
                                                      const void*, cudaDataType, int, long long, const void*, void*,
                                                      cudaDataType, int, long long, int, cublasComputeType_t,
                                                      cublasGemmAlgo_t);

/// C (m x n, column-major, ld m) = op(A) op(B), nbatch blocks with the given element strides.
template <class T>
void gemm(cublasOperation_t opa, cublasOperation_t opb, i64 m, i64 n, i64 k, const T* a, i64 lda, i64 sa, const T* b,
          i64 ldb, i64 sb, T* c, i64 sc, i64 nbatch) {
  cublasHandle_t h = cusci::detail::cublas_handle();
  host_pointer_mode pm(h);
  const T one(1), zero(0);
  const cublasComputeType_t ct =
      std::is_same_v<real_t<T>, float> ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
  constexpr cudaDataType dt = cuda_type<T>();
  CUSCI_CUBLAS_TRY(CUSCI_LAZY_AS(cublasGemmStridedBatchedEx, gemm_strided_batched_ex_fn)(
      h, opa, opb, to_int(m, "order"), to_int(n, "order"), to_int(k, "order"), &one, a, dt, to_int(lda, "order"), sa,
      b, dt, to_int(ldb, "order"), sb, &zero, c, dt, to_int(m, "order"), sc, to_int(nbatch, "batch size"), ct,
      CUBLAS_GEMM_DEFAULT));
}

template <class T>
constexpr cublasOperation_t op_h() {
  return is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T;
}

// --- typed drivers ----------------------------------------------------------------------------------

template <class T>
void eig_sym_t(i64 nbatch, i64 n, bool vectors, T* a, real_t<T>* w, int* info) {
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>(), rt = cuda_type<real_t<T>>();
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
  std::size_t dev = 0, hst = 0;
  // XsyevBatched takes at most n * lda * batchSize <= INT32_MAX elements per call: the batch goes in
  // chunks of that size (one call for any batch of matrices up to 46340 x 46340 / batch).
  const i64 per_call = std::max<i64>(1, 2147483647LL / (n * n));
  if (nbatch == 1 || per_call == 1) {
    CUSCI_CUSOLVER_TRY(
        CUSCI_LAZY(cusolverDnXsyevd_bufferSize)(h, prm.get(), jobz, lo, n, dt, a, n, rt, w, dt, &dev, &hst));
    workspace ws(dev, hst);
    for (i64 b = 0; b < nbatch; ++b)
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXsyevd)(h, prm.get(), jobz, lo, n, dt, a + b * n * n, n, rt, w + b * n,
                                                      dt, ws.dptr(), ws.device_bytes, ws.hptr(), ws.host.size(),
                                                      info + b));
    return;
  }
  const i64 chunk = std::min(nbatch, per_call);
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXsyevBatched_bufferSize)(h, prm.get(), jobz, lo, n, dt, a, n, rt, w, dt, &dev,
                                                                   &hst, chunk));
  workspace ws(dev, hst);
  for (i64 b0 = 0; b0 < nbatch; b0 += chunk) {
    const i64 cnt = std::min(chunk, nbatch - b0);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXsyevBatched)(h, prm.get(), jobz, lo, n, dt, a + b0 * n * n, n, rt,
                                                          w + b0 * n, dt, ws.dptr(), ws.device_bytes, ws.hptr(),
                                                          ws.host.size(), info + b0, cnt));
  }
}

template <class T>
i64 eig_sym_subset_t(i64 n, bool vectors, int range, double vl, double vu, i64 il, i64 iu, T* a, real_t<T>* w,
                     int* info) {
  using R = real_t<T>;
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>(), rt = cuda_type<R>();
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cusolverEigRange_t rg = range == 1 ? CUSOLVER_EIG_RANGE_V : CUSOLVER_EIG_RANGE_I;
  R lo = static_cast<R>(vl), hi = static_cast<R>(vu);
  i64 meig = 0;
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXsyevdx_bufferSize)(h, prm.get(), jobz, rg, CUBLAS_FILL_MODE_LOWER, n, dt, a,
                                                              n, &lo, &hi, il, iu, &meig, rt, w, dt, &dev, &hst));
  workspace ws(dev, hst);
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXsyevdx)(h, prm.get(), jobz, rg, CUBLAS_FILL_MODE_LOWER, n, dt, a, n, &lo, &hi,
                                                   il, iu, &meig, rt, w, dt, ws.dptr(), ws.device_bytes, ws.hptr(),
                                                   ws.host.size(), info));
  // meig is written on the host once the call's work is known; the stream is synchronized so that it
  // (and the device results) are final.
  CUSCI_CUDA_TRY(cudaStreamSynchronize(get_current_stream()));
  return meig;
}

template <class T>
void geev_t(i64 nbatch, i64 n, bool vectors, T* a, complex_t<T>* w, T* vr, int* info) {
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>(), wt = cuda_type<complex_t<T>>();
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const i64 ldvr = vectors ? n : 1;
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgeev_bufferSize)(h, prm.get(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, dt, a,
                                                            n, wt, w, dt, nullptr, 1, dt, vr, ldvr, dt, &dev, &hst));
  workspace ws(dev, hst);
  for (i64 b = 0; b < nbatch; ++b) {
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgeev)(h, prm.get(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, dt, a + b * n * n,
                                                   n, wt, w + b * n, dt, nullptr, 1, dt,
                                                   vectors ? vr + b * n * n : nullptr, ldvr, dt, ws.dptr(),
                                                   ws.device_bytes, ws.hptr(), ws.host.size(), info + b));
  }
}

}  // namespace

void eig_sym(dtype t, i64 nbatch, i64 n, bool vectors, void* a, void* w, int* info) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    eig_sym_t<T>(nbatch, n, vectors, static_cast<T*>(a), static_cast<real_t<T>*>(w), info);
  });
}

i64 eig_sym_subset(dtype t, i64 n, bool vectors, int range, double vl, double vu, i64 il, i64 iu, void* a, void* w,
                   int* info) {
  return dispatch_lapack(t, [&](auto tag) -> i64 {
    using T = typename decltype(tag)::type;
    return eig_sym_subset_t<T>(n, vectors, range, vl, vu, il, iu, static_cast<T*>(a), static_cast<real_t<T>*>(w), info);
  });
}

void eig_chol_lower(dtype t, i64 nbatch, i64 n, void* b, int* info) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (nbatch == 1) {
      // one matrix: cuSOLVER's blocked Xpotrf (potrfBatched is tuned for many small matrices)
      cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
      solver_params prm;
      constexpr cudaDataType dt = cuda_type<T>();
      std::size_t dev = 0, hst = 0;
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXpotrf_bufferSize)(h, prm.get(), CUBLAS_FILL_MODE_LOWER, n, dt, b, n, dt,
                                                                 &dev, &hst));
      workspace ws(dev, hst);
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXpotrf)(h, prm.get(), CUBLAS_FILL_MODE_LOWER, n, dt, b, n, dt, ws.dptr(),
                                                      ws.device_bytes, ws.hptr(), ws.host.size(), info));
    } else {
      device_buffer<void*> ptrs = pointer_array(b, n * n * static_cast<i64>(sizeof(T)), nbatch);
      CUSCI_CUSOLVER_TRY(potrf_batched<T>(cusci::detail::cusolver_dn_handle(), to_int(n, "order"),
                                          reinterpret_cast<T**>(ptrs.data()), info, to_int(nbatch, "batch size")));
    }
    zero_upper_kernel<T><<<grid_for(nbatch * n * n), 256, 0, get_current_stream()>>>(static_cast<T*>(b), nbatch, n);
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_gen_reduce(dtype t, i64 nbatch, i64 n, int type, void* l, void* a, void* work) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* L = static_cast<T*>(l);
    T* A = static_cast<T*>(a);
    T* W = static_cast<T*>(work);
    const i64 nn = n * n;
    if (type == 1) {
      cublasHandle_t h = cusci::detail::cublas_handle();
      host_pointer_mode pm(h);
      device_buffer<void*> pl = pointer_array(L, nn * static_cast<i64>(sizeof(T)), nbatch);
      device_buffer<void*> pa = pointer_array(A, nn * static_cast<i64>(sizeof(T)), nbatch);
      const int ni = to_int(n, "order"), nb = to_int(nbatch, "batch size");
      // A <- L^-1 A, then A <- A L^-H
      CUSCI_CUBLAS_TRY(trsm_batched<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, ni, ni, reinterpret_cast<T**>(pl.data()), ni,
                                       reinterpret_cast<T**>(pa.data()), ni, nb));
      CUSCI_CUBLAS_TRY(trsm_batched<T>(h, CUBLAS_SIDE_RIGHT, op_h<T>(), ni, ni, reinterpret_cast<T**>(pl.data()), ni,
                                       reinterpret_cast<T**>(pa.data()), ni, nb));
    } else {
      // W = A L, A = L^H W
      gemm<T>(CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, A, n, nn, L, n, nn, W, nn, nbatch);
      gemm<T>(op_h<T>(), CUBLAS_OP_N, n, n, n, L, n, nn, W, n, nn, A, nn, nbatch);
    }
  });
}

void* eig_gen_back(dtype t, i64 nbatch, i64 n, i64 m, int type, void* l, void* x, void* work) {
  if (nbatch == 0 || n == 0 || m == 0) return type == 3 ? work : x;
  return dispatch_lapack(t, [&](auto tag) -> void* {
    using T = typename decltype(tag)::type;
    T* L = static_cast<T*>(l);
    T* X = static_cast<T*>(x);
    const i64 nn = n * n;
    if (type == 3) {
      gemm<T>(CUBLAS_OP_N, CUBLAS_OP_N, n, m, n, L, n, nn, X, n, nn, static_cast<T*>(work), nn, nbatch);
      return work;
    }
    cublasHandle_t h = cusci::detail::cublas_handle();
    host_pointer_mode pm(h);
    device_buffer<void*> pl = pointer_array(L, nn * static_cast<i64>(sizeof(T)), nbatch);
    device_buffer<void*> px = pointer_array(X, nn * static_cast<i64>(sizeof(T)), nbatch);
    const int ni = to_int(n, "order");
    CUSCI_CUBLAS_TRY(trsm_batched<T>(h, CUBLAS_SIDE_LEFT, op_h<T>(), ni, to_int(m, "order"),
                                     reinterpret_cast<T**>(pl.data()), ni, reinterpret_cast<T**>(px.data()), ni,
                                     to_int(nbatch, "batch size")));
    return x;
  });
}

void eig_value_range(dtype rt, const void* w, i64 nbatch, i64 n, double lo, double hi, i64* first, i64* count) {
  if (nbatch == 0) return;
  dispatch_real(rt, [&](auto tag) {
    using R = typename decltype(tag)::type;
    // the bounds as the solver's dtype sees them (LAPACK takes vl, vu in the working precision)
    value_range_kernel<R><<<grid_for(nbatch), 256, 0, get_current_stream()>>>(
        static_cast<const R*>(w), nbatch, n, static_cast<R>(lo), static_cast<R>(hi), first, count);
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_select_pairs(dtype t, const void* w, const void* v, i64 nbatch, i64 n, const i64* first, i64 first_const, i64 m,
                  void* w_out, void* v_out) {
  if (nbatch == 0 || m == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    select_kernel<T><<<grid_for(nbatch * m * (v ? n : 1)), 256, 0, get_current_stream()>>>(
        static_cast<const real_t<T>*>(w), static_cast<const T*>(v), nbatch, n, first, first_const, m,
        static_cast<real_t<T>*>(w_out), static_cast<T*>(v_out));
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_tridiag_dense(dtype t, const batch_view& d, const batch_view& e, i64 nbatch, i64 n, bool check, void* out,
                   int* status) {
  if (nbatch == 0 || n == 0) return;
  const strided_indexer di = batch_indexer(d), ei = batch_indexer(e);
  dispatch_real(t, [&](auto tag) {
    using R = typename decltype(tag)::type;
    tridiag_kernel<R><<<grid_for(nbatch * n * n), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(d.data), di, d.s_col, static_cast<const char*>(e.data), ei, e.s_col, nbatch, n, check,
        static_cast<R*>(out), status);
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_band_dense(dtype t, const batch_view& ab, i64 nbatch, i64 u, i64 n, bool lower, bool check, void* out,
                int* status) {
  if (nbatch == 0 || n == 0) return;
  const strided_indexer bi = batch_indexer(ab);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    band_kernel<T><<<grid_for(nbatch * n * std::max<i64>(n, u + 1)), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(ab.data), bi, ab.s_row, ab.s_col, nbatch, u, n, lower, check, static_cast<T*>(out),
        status);
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_geev(dtype t, i64 nbatch, i64 n, bool vectors, void* a, void* w, void* vr, int* info) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    geev_t<T>(nbatch, n, vectors, static_cast<T*>(a), static_cast<complex_t<T>*>(w), static_cast<T*>(vr), info);
  });
}

void eig_any_complex(dtype ct, const void* w, i64 count, int* flag) {
  if (count == 0) return;
  dispatch_real(ct, [&](auto tag) {
    using R = typename decltype(tag)::type;
    any_complex_kernel<cuda::std::complex<R>><<<grid_for(count), 256, 0, get_current_stream()>>>(
        static_cast<const cuda::std::complex<R>*>(w), count, flag);
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_unpack_real_vectors(dtype rt, const void* w, const void* vr, i64 nbatch, i64 n, void* out) {
  if (nbatch == 0 || n == 0) return;
  dispatch_real(rt, [&](auto tag) {
    using R = typename decltype(tag)::type;
    unpack_kernel<R><<<grid_for(nbatch * n * n), 256, 0, get_current_stream()>>>(
        static_cast<const cuda::std::complex<R>*>(w), static_cast<const R*>(vr), nbatch, n,
        static_cast<cuda::std::complex<R>*>(out));
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_left_from_inverse(dtype t, const void* m, i64 nbatch, i64 n, void* vl) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using C = typename decltype(tag)::type;
    left_kernel<C><<<grid_for(nbatch * n, 128), 128, 0, get_current_stream()>>>(static_cast<const C*>(m), nbatch, n,
                                                                               static_cast<C*>(vl));
    CUSCI_CHECK_LAUNCH();
  });
}

void eig_matmul_colmajor(dtype t, i64 nbatch, i64 n, const void* a, const void* b, void* c) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gemm<T>(CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, static_cast<const T*>(a), n, n * n, static_cast<const T*>(b), n, n * n,
            static_cast<T*>(c), n * n, nbatch);
  });
}

void eig_homogeneous(dtype ct, const void* w, i64 nbatch, i64 n, void* out) {
  if (nbatch == 0 || n == 0) return;
  dispatch_real(ct, [&](auto tag) {
    using C = cuda::std::complex<typename decltype(tag)::type>;
    homogeneous_kernel<C><<<grid_for(nbatch * n), 256, 0, get_current_stream()>>>(static_cast<const C*>(w), nbatch, n,
                                                                                  static_cast<C*>(out));
    CUSCI_CHECK_LAUNCH();
  });
}

void pinvh_apply(dtype t, const void* w, const void* u, i64 nbatch, i64 n, double atol, double rtol, void* scaled,
                 i64* rank, void* b) {
  if (nbatch == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    device_buffer<R> cut(static_cast<std::size_t>(nbatch));
    const unsigned blocks = static_cast<unsigned>(std::min<i64>(nbatch, 65535));
    pinvh_cut_kernel<R><<<blocks, 256, 0, get_current_stream()>>>(static_cast<const R*>(w), nbatch, n, atol, rtol,
                                                                  cut.data(), rank);
    CUSCI_CHECK_LAUNCH();
    if (n == 0) return;
    pinvh_scale_kernel<T><<<grid_for(nbatch * n * n), 256, 0, get_current_stream()>>>(
        static_cast<const R*>(w), static_cast<const T*>(u), cut.data(), nbatch, n, static_cast<T*>(scaled));
    CUSCI_CHECK_LAUNCH();
    const i64 nn = n * n;
    gemm<T>(CUBLAS_OP_N, op_h<T>(), n, n, n, static_cast<const T*>(scaled), n, nn, static_cast<const T*>(u), n, nn,
            static_cast<T*>(b), nn, nbatch);
  });
}

}  // namespace cusci::linalg::detail

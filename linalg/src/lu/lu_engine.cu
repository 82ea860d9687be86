// The lu family's batched engine for any size: cuBLAS getrfBatched / getriBatched / getrsBatched with
// pointer arrays built on the device (batches of square matrices larger than 32), cuSOLVER Xgetrf /
// Xgetrs (one matrix, or rectangular ones), and the kernels that convert pivots, unpack the factors and
// form determinants.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <climits>
#include <string>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "lu/lu_engine.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;

#define CUSCI_LU_GRID_LOOP(e, total) \
  for (i64 e = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; e < (total); \
       e += static_cast<i64>(gridDim.x) * blockDim.x)

// --- kernels --------------------------------------------------------------------------------------

/// ptrs[b] = base + b * stride (bytes).
__global__ void fill_ptrs_kernel(char* base, i64 stride, i64 nbatch, void** ptrs) {
  CUSCI_LU_GRID_LOOP(b, nbatch) ptrs[b] = base + b * stride;
}

/// out[e] = in[e] - 1 (LAPACK's 1-based pivots to SciPy's 0-based ones).
template <class I>
__global__ void piv_to0_kernel(const I* in, int* out, i64 count) {
  CUSCI_LU_GRID_LOOP(e, count) out[e] = static_cast<int>(in[e]) - 1;
}

/// 1-based pivots (int32 or int64) for getrs from the 0-based int32 view (indices outside [0, n): none).
template <class I>
__global__ void piv_gather_kernel(const char* src, strided_indexer bix, i64 s, i64 nbatch, i64 n, I* out) {
  CUSCI_LU_GRID_LOOP(e, nbatch * n) {
    const i64 b = e / n, i = e - b * n;
    const int v = *reinterpret_cast<const int*>(src + bix.offset(b) + i * s);
    out[e] = static_cast<I>((v < 0 || v >= n) ? i + 1 : v + 1);
  }
}

/// Column-major identity matrices.
template <class T>
__global__ void eye_kernel(T* a, i64 nbatch, i64 n) {
  CUSCI_LU_GRID_LOOP(e, nbatch * n * n) {
    const i64 r = e % (n * n);
    a[e] = (r % n == r / n) ? T(1) : T(0);
  }
}

template <class T>
struct wide {
  using type = double;
};
template <class R>
struct wide<cuda::std::complex<R>> {
  using type = cuda::std::complex<double>;
};

/// One thread a matrix: product of the diagonal in T (as LAPACK-based det), sign from the pivots.
template <class T>
__global__ void det_kernel(const T* lu, const int* piv, i64 nbatch, i64 n, typename wide<T>::type* out) {
  using W = typename wide<T>::type;
  CUSCI_LU_GRID_LOOP(b, nbatch) {
    const T* a = lu + b * n * n;
    const int* p = piv + b * n;
    T d = T(1);
    bool neg = false;
    for (i64 i = 0; i < n; ++i) {
      d = d * a[i * n + i];
      if (p[i] != i) neg = !neg;
    }
    if (neg) d = -d;
    if constexpr (is_complex_v<T>) out[b] = W(d.real(), d.imag());
    else out[b] = W(d);
  }
}

/// perm[b][i]: the row of a that row i of L @ U reproduces (LAPACK's interchanges applied in order);
/// inv[b][perm[b][i]] = i. One thread a matrix.
__global__ void perm_kernel(const int* piv, i64 nbatch, i64 m, i64 k, int* perm, int* inv) {
  CUSCI_LU_GRID_LOOP(b, nbatch) {
    int* pr = perm + b * m;
    int* iv = inv + b * m;
    const int* pv = piv + b * k;
    for (i64 i = 0; i < m; ++i) pr[i] = static_cast<int>(i);
    for (i64 i = 0; i < k; ++i) {
      const int j = pv[i];
      if (j >= 0 && j < m && j != i) {
        const int t = pr[i];
        pr[i] = pr[j];
        pr[j] = t;
      }
    }
    for (i64 i = 0; i < m; ++i) iv[pr[i]] = static_cast<int>(i);
  }
}

/// l[b] (m x k): unit lower part of the packed factors; with permute_l, row r is L's row inv[r].
template <class T>
__global__ void unpack_l_kernel(const T* lu, const int* inv, i64 nbatch, i64 m, i64 n, i64 k, bool permute_l, T* l) {
  CUSCI_LU_GRID_LOOP(e, nbatch * m * k) {
    const i64 b = e / (m * k), r = e - b * m * k, i = r / k, c = r - i * k;
    const i64 src = permute_l ? inv[b * m + i] : i;
    l[e] = src > c ? lu[b * m * n + src * n + c] : (src == c ? T(1) : T(0));
  }
}

/// u[b] (k x n): upper part of the packed factors.
template <class T>
__global__ void unpack_u_kernel(const T* lu, i64 nbatch, i64 m, i64 n, i64 k, T* u) {
  CUSCI_LU_GRID_LOOP(e, nbatch * k * n) {
    const i64 b = e / (k * n), r = e - b * k * n, i = r / n, j = r - i * n;
    u[e] = j >= i ? lu[b * m * n + i * n + j] : T(0);
  }
}

/// The permutation matrix P (a = P @ L @ U): P[r, c] = 1 where perm[c] == r.
template <class R>
__global__ void p_matrix_kernel(const int* perm, i64 nbatch, i64 m, R* p) {
  CUSCI_LU_GRID_LOOP(e, nbatch * m * m) {
    const i64 b = e / (m * m), r = e - b * m * m, i = r / m, c = r - i * m;
    p[e] = perm[b * m + c] == i ? R(1) : R(0);
  }
}

// --- cuBLAS batched, by type ----------------------------------------------------------------------

inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, float** a, int lda, int* p, int* info, int nb) {
  return CUSCI_LAZY(cublasSgetrfBatched)(h, n, a, lda, p, info, nb);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, double** a, int lda, int* p, int* info, int nb) {
  return CUSCI_LAZY(cublasDgetrfBatched)(h, n, a, lda, p, info, nb);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuda::std::complex<float>** a, int lda, int* p, int* info,
                                    int nb) {
  return CUSCI_LAZY(cublasCgetrfBatched)(h, n, reinterpret_cast<cuComplex**>(a), lda, p, info, nb);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuda::std::complex<double>** a, int lda, int* p, int* info,
                                    int nb) {
  return CUSCI_LAZY(cublasZgetrfBatched)(h, n, reinterpret_cast<cuDoubleComplex**>(a), lda, p, info, nb);
}

inline cublasStatus_t getri_batched(cublasHandle_t h, int n, float** a, int lda, const int* p, float** c, int ldc,
                                    int* info, int nb) {
  return CUSCI_LAZY(cublasSgetriBatched)(h, n, a, lda, p, c, ldc, info, nb);
}
inline cublasStatus_t getri_batched(cublasHandle_t h, int n, double** a, int lda, const int* p, double** c, int ldc,
                                    int* info, int nb) {
  return CUSCI_LAZY(cublasDgetriBatched)(h, n, a, lda, p, c, ldc, info, nb);
}
inline cublasStatus_t getri_batched(cublasHandle_t h, int n, cuda::std::complex<float>** a, int lda, const int* p,
                                    cuda::std::complex<float>** c, int ldc, int* info, int nb) {
  return CUSCI_LAZY(cublasCgetriBatched)(h, n, reinterpret_cast<cuComplex**>(a), lda, p,
                                         reinterpret_cast<cuComplex**>(c), ldc, info, nb);
}
inline cublasStatus_t getri_batched(cublasHandle_t h, int n, cuda::std::complex<double>** a, int lda, const int* p,
                                    cuda::std::complex<double>** c, int ldc, int* info, int nb) {
  return CUSCI_LAZY(cublasZgetriBatched)(h, n, reinterpret_cast<cuDoubleComplex**>(a), lda, p,
                                         reinterpret_cast<cuDoubleComplex**>(c), ldc, info, nb);
}

inline cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs, float** a, int lda,
                                    const int* p, float** b, int ldb, int* info, int nb) {
  return CUSCI_LAZY(cublasSgetrsBatched)(h, op, n, nrhs, a, lda, p, b, ldb, info, nb);
}
inline cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs, double** a, int lda,
                                    const int* p, double** b, int ldb, int* info, int nb) {
  return CUSCI_LAZY(cublasDgetrsBatched)(h, op, n, nrhs, a, lda, p, b, ldb, info, nb);
}
inline cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs,
                                    cuda::std::complex<float>** a, int lda, const int* p,
                                    cuda::std::complex<float>** b, int ldb, int* info, int nb) {
  return CUSCI_LAZY(cublasCgetrsBatched)(h, op, n, nrhs, reinterpret_cast<cuComplex**>(a), lda, p,
                                         reinterpret_cast<cuComplex**>(b), ldb, info, nb);
}
inline cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs,
                                    cuda::std::complex<double>** a, int lda, const int* p,
                                    cuda::std::complex<double>** b, int ldb, int* info, int nb) {
  return CUSCI_LAZY(cublasZgetrsBatched)(h, op, n, nrhs, reinterpret_cast<cuDoubleComplex**>(a), lda, p,
                                         reinterpret_cast<cuDoubleComplex**>(b), ldb, info, nb);
}

template <class T> constexpr cudaDataType cuda_type();
template <> constexpr cudaDataType cuda_type<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType cuda_type<double>() { return CUDA_R_64F; }
template <> constexpr cudaDataType cuda_type<cuda::std::complex<float>>() { return CUDA_C_32F; }
template <> constexpr cudaDataType cuda_type<cuda::std::complex<double>>() { return CUDA_C_64F; }

/// cusolverDnParams_t owned for the duration of one call.
class solver_params {
 public:
  solver_params() { CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&p_)); }
  ~solver_params() { CUSCI_LAZY(cusolverDnDestroyParams)(p_); }
  solver_params(const solver_params&) = delete;
  solver_params& operator=(const solver_params&) = delete;
  cusolverDnParams_t get() const { return p_; }

 private:
  cusolverDnParams_t p_ = nullptr;
};

void check_int(i64 v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string("cusci::linalg: ") + what + " " + std::to_string(v) +
                      " exceeds the 32-bit limit of cuBLAS (2147483647)");
}

/// Device pointer array ptrs[b] = base + b * stride_bytes (pool memory).
device_buffer<void*> pointer_array(void* base, i64 stride_bytes, i64 nbatch) {
  device_buffer<void*> ptrs(static_cast<std::size_t>(nbatch));
  fill_ptrs_kernel<<<grid_for(nbatch), 256, 0, get_current_stream()>>>(static_cast<char*>(base), stride_bytes, nbatch,
                                                                       ptrs.data());
  CUSCI_CHECK_LAUNCH();
  return ptrs;
}

/// LU of nbatch column-major m x n matrices A (in place); piv0: 0-based int32 (nbatch x min(m, n)).
template <class T>
void lib_getrf(i64 nbatch, i64 m, i64 n, T* A, int* piv0, int* info) {
  const i64 k = m < n ? m : n;
  cudaStream_t s = get_current_stream();
  if (m == n && nbatch > 1) {
    check_int(n, "matrix order");
    check_int(nbatch, "batch size");
    device_buffer<void*> ptrs = pointer_array(A, n * n * static_cast<i64>(sizeof(T)), nbatch);
    device_buffer<int> p1(static_cast<std::size_t>(nbatch * n));
    CUSCI_CUBLAS_TRY(getrf_batched(cusci::detail::cublas_handle(), static_cast<int>(n),
                                   reinterpret_cast<T**>(ptrs.data()), static_cast<int>(n), p1.data(), info,
                                   static_cast<int>(nbatch)));
    piv_to0_kernel<int><<<grid_for(nbatch * n), 256, 0, s>>>(p1.data(), piv0, nbatch * n);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  // One matrix (cuSOLVER's blocked getrf), or rectangular matrices, which getrfBatched does not take:
  // one Xgetrf a matrix.
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>();
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm.get(), m, n, dt, A, m, dt, &dev, &hst));
  memory_ptr dws = cusci::malloc(dev);
  std::vector<unsigned char> hws(hst);
  device_buffer<std::int64_t> ipiv(static_cast<std::size_t>(nbatch * k));
  for (i64 b = 0; b < nbatch; ++b) {
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm.get(), m, n, dt, A + b * m * n, m, ipiv.data() + b * k, dt,
                                                    dws ? dws->ptr() : nullptr, dev,
                                                    hws.empty() ? nullptr : hws.data(), hst, info + b));
  }
  piv_to0_kernel<std::int64_t><<<grid_for(nbatch * k), 256, 0, s>>>(ipiv.data(), piv0, nbatch * k);
  CUSCI_CHECK_LAUNCH();
}

batch_view contiguous_view(const void* data, i64 nbatch, i64 rows, i64 cols, bool col_major, std::size_t isz) {
  batch_view v;
  v.data = data;
  v.batch_shape = {nbatch};
  v.batch_strides = {rows * cols * static_cast<i64>(isz)};
  v.s_row = col_major ? static_cast<i64>(isz) : cols * static_cast<i64>(isz);
  v.s_col = col_major ? rows * static_cast<i64>(isz) : static_cast<i64>(isz);
  return v;
}

template <class T>
void factor_big(dtype t, const batch_view& a, i64 nbatch, i64 m, i64 n, bool check, void* lu, int* piv, int* info,
                int* status) {
  memory_ptr A = cusci::malloc(static_cast<std::size_t>(nbatch * m * n) * sizeof(T));
  gather(t, a, nbatch, m, n, fill_mode::full, false, check, true, A->ptr(), status);
  lib_getrf<T>(nbatch, m, n, static_cast<T*>(A->ptr()), piv, info);
  gather(t, contiguous_view(A->ptr(), nbatch, m, n, true, sizeof(T)), nbatch, m, n, fill_mode::full, false, false,
         false, lu, status);
}

template <class T>
void inv_big(dtype t, const batch_view& a, fill_mode mode, bool lower, i64 nbatch, i64 n, bool check, void* out,
             int* info, int* status) {
  const std::size_t bytes = static_cast<std::size_t>(nbatch * n * n) * sizeof(T);
  memory_ptr A = cusci::malloc(bytes);
  memory_ptr C = cusci::malloc(bytes);
  gather(t, a, nbatch, n, n, mode, lower, check, true, A->ptr(), status);
  T* Ap = static_cast<T*>(A->ptr());
  T* Cp = static_cast<T*>(C->ptr());
  if (nbatch > 1) {
    check_int(n, "matrix order");
    check_int(nbatch, "batch size");
    device_buffer<int> p1(static_cast<std::size_t>(nbatch * n));
    device_buffer<void*> pa = pointer_array(Ap, n * n * static_cast<i64>(sizeof(T)), nbatch);
    device_buffer<void*> pc = pointer_array(Cp, n * n * static_cast<i64>(sizeof(T)), nbatch);
    cublasHandle_t h = cusci::detail::cublas_handle();
    CUSCI_CUBLAS_TRY(getrf_batched(h, static_cast<int>(n), reinterpret_cast<T**>(pa.data()), static_cast<int>(n),
                                   p1.data(), info, static_cast<int>(nbatch)));
    device_buffer<int> info2(static_cast<std::size_t>(nbatch));
    CUSCI_CUBLAS_TRY(getri_batched(h, static_cast<int>(n), reinterpret_cast<T**>(pa.data()), static_cast<int>(n),
                                   p1.data(), reinterpret_cast<T**>(pc.data()), static_cast<int>(n), info2.data(),
                                   static_cast<int>(nbatch)));
  } else {
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType dt = cuda_type<T>();
    std::size_t dev = 0, hst = 0;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm.get(), n, n, dt, Ap, n, dt, &dev, &hst));
    memory_ptr dws = cusci::malloc(dev);
    std::vector<unsigned char> hws(hst);
    device_buffer<std::int64_t> ipiv(static_cast<std::size_t>(n));
    device_buffer<int> rs_info(1);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm.get(), n, n, dt, Ap, n, ipiv.data(), dt,
                                                    dws ? dws->ptr() : nullptr, dev,
                                                    hws.empty() ? nullptr : hws.data(), hst, info));
    eye_kernel<T><<<grid_for(n * n), 256, 0, get_current_stream()>>>(Cp, 1, n);
    CUSCI_CHECK_LAUNCH();
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrs)(h, prm.get(), CUBLAS_OP_N, n, n, dt, Ap, n, ipiv.data(), dt, Cp, n,
                                                    rs_info.data()));
  }
  gather(t, contiguous_view(Cp, nbatch, n, n, true, sizeof(T)), nbatch, n, n, fill_mode::full, false, false, false,
         out, status);
}

template <class T>
void solve_big(dtype t, const batch_view& lu, const batch_view& piv, const batch_view& b, i64 nbatch, i64 n, i64 nrhs,
               int trans, bool check, void* x, int* status) {
  memory_ptr A = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * sizeof(T));
  memory_ptr B = cusci::malloc(static_cast<std::size_t>(nbatch * n * nrhs) * sizeof(T));
  gather(t, lu, nbatch, n, n, fill_mode::full, false, false, true, A->ptr(), status);
  gather(t, b, nbatch, n, nrhs, fill_mode::full, false, check, true, B->ptr(), status);
  const strided_indexer pix = batch_indexer(piv);
  const cublasOperation_t op = trans == 0 ? CUBLAS_OP_N : (trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C);
  T* Ap = static_cast<T*>(A->ptr());
  T* Bp = static_cast<T*>(B->ptr());
  if (nbatch > 1) {
    check_int(n, "matrix order");
    check_int(nrhs, "number of right-hand sides");
    check_int(nbatch, "batch size");
    device_buffer<int> p1(static_cast<std::size_t>(nbatch * n));
    piv_gather_kernel<int><<<grid_for(nbatch * n), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(piv.data), pix, piv.s_row, nbatch, n, p1.data());
    CUSCI_CHECK_LAUNCH();
    device_buffer<void*> pa = pointer_array(Ap, n * n * static_cast<i64>(sizeof(T)), nbatch);
    device_buffer<void*> pb = pointer_array(Bp, n * nrhs * static_cast<i64>(sizeof(T)), nbatch);
    int host_info = 0;  // getrsBatched checks its arguments only; info lives on the host
    CUSCI_CUBLAS_TRY(getrs_batched(cusci::detail::cublas_handle(), op, static_cast<int>(n), static_cast<int>(nrhs),
                                   reinterpret_cast<T**>(pa.data()), static_cast<int>(n), p1.data(),
                                   reinterpret_cast<T**>(pb.data()), static_cast<int>(n), &host_info,
                                   static_cast<int>(nbatch)));
  } else {
    device_buffer<std::int64_t> p1(static_cast<std::size_t>(n));
    piv_gather_kernel<std::int64_t><<<grid_for(n), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(piv.data), pix, piv.s_row, 1, n, p1.data());
    CUSCI_CHECK_LAUNCH();
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType dt = cuda_type<T>();
    device_buffer<int> rs_info(1);
    CUSCI_CUSOLVER_TRY(
        CUSCI_LAZY(cusolverDnXgetrs)(h, prm.get(), op, n, nrhs, dt, Ap, n, p1.data(), dt, Bp, n, rs_info.data()));
  }
  gather(t, contiguous_view(Bp, nbatch, n, nrhs, true, sizeof(T)), nbatch, n, nrhs, fill_mode::full, false, false,
         false, x, status);
}

/// getrf + getrs on column-major A (nbatch x n x n) and B (nbatch x n x nrhs), in place.
template <class T>
void solve_colmajor(i64 nbatch, i64 n, i64 nrhs, T* A, T* B, int* info) {
  device_buffer<int> piv0(static_cast<std::size_t>(nbatch * n));
  lib_getrf<T>(nbatch, n, n, A, piv0.data(), info);
  batch_view lv = contiguous_view(A, nbatch, n, n, true, sizeof(T));
  batch_view pv;
  pv.data = piv0.data();
  pv.batch_shape = {nbatch};
  pv.batch_strides = {n * static_cast<i64>(sizeof(int))};
  pv.s_row = sizeof(int);
  // Solve in place: the factors and right-hand sides are already where getrs wants them.
  const cudaStream_t s = get_current_stream();
  if (nbatch > 1) {
    check_int(nrhs, "number of right-hand sides");
    device_buffer<int> p1(static_cast<std::size_t>(nbatch * n));
    piv_gather_kernel<int><<<grid_for(nbatch * n), 256, 0, s>>>(static_cast<const char*>(pv.data),
                                                                batch_indexer(pv), pv.s_row, nbatch, n, p1.data());
    CUSCI_CHECK_LAUNCH();
    device_buffer<void*> pa = pointer_array(A, n * n * static_cast<i64>(sizeof(T)), nbatch);
    device_buffer<void*> pb = pointer_array(B, n * nrhs * static_cast<i64>(sizeof(T)), nbatch);
    int host_info = 0;
    CUSCI_CUBLAS_TRY(getrs_batched(cusci::detail::cublas_handle(), CUBLAS_OP_N, static_cast<int>(n),
                                   static_cast<int>(nrhs), reinterpret_cast<T**>(pa.data()), static_cast<int>(n),
                                   p1.data(), reinterpret_cast<T**>(pb.data()), static_cast<int>(n), &host_info,
                                   static_cast<int>(nbatch)));
  } else {
    device_buffer<std::int64_t> p1(static_cast<std::size_t>(n));
    piv_gather_kernel<std::int64_t><<<grid_for(n), 256, 0, s>>>(static_cast<const char*>(pv.data),
                                                                 batch_indexer(pv), pv.s_row, 1, n, p1.data());
    CUSCI_CHECK_LAUNCH();
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType dt = cuda_type<T>();
    device_buffer<int> rs_info(1);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrs)(h, prm.get(), CUBLAS_OP_N, n, nrhs, dt, A, n, p1.data(), dt, B, n,
                                                    rs_info.data()));
  }
}

}  // namespace

void lu_solve_colmajor(dtype t, i64 nbatch, i64 n, i64 nrhs, void* A, void* B, int* info) {
  if (nbatch * n * nrhs == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    solve_colmajor<T>(nbatch, n, nrhs, static_cast<T*>(A), static_cast<T*>(B), info);
  });
}

void lu_factor_any(dtype t, const batch_view& a, i64 nbatch, i64 m, i64 n, bool check, void* lu, int* piv, int* info,
                   int* status) {
  if (nbatch * m * n == 0) return;
  if (m <= lu_small_max && n <= lu_small_max) {
    small_lu_factor(t, a, nbatch, static_cast<int>(m), static_cast<int>(n), check, lu, piv, info, status);
    return;
  }
  if (m == n && medium_fits(t, n)) {
    medium_factor(t, a, nbatch, n, check, lu, piv, info, status);
    return;
  }
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    factor_big<T>(t, a, nbatch, m, n, check, lu, piv, info, status);
  });
}

void det_from_lu(dtype t, const void* lu, const int* piv, i64 nbatch, i64 n, void* det) {
  if (nbatch == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    det_kernel<T><<<grid_for(nbatch, 128), 128, 0, get_current_stream()>>>(
        static_cast<const T*>(lu), piv, nbatch, n, static_cast<typename wide<T>::type*>(det));
    CUSCI_CHECK_LAUNCH();
  });
}

void lu_unpack(dtype t, const void* lu, const int* piv, i64 nbatch, i64 m, i64 n, p_kind pk, bool permute_l, void* p,
               void* l, void* u, int* perm) {
  const i64 k = m < n ? m : n;
  if (nbatch * m * n == 0) return;
  cudaStream_t s = get_current_stream();
  int* inv = perm + nbatch * m;
  perm_kernel<<<grid_for(nbatch, 128), 128, 0, s>>>(piv, nbatch, m, k, perm, inv);
  CUSCI_CHECK_LAUNCH();
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    unpack_l_kernel<T><<<grid_for(nbatch * m * k), 256, 0, s>>>(static_cast<const T*>(lu), inv, nbatch, m, n, k,
                                                                permute_l, static_cast<T*>(l));
    CUSCI_CHECK_LAUNCH();
    unpack_u_kernel<T><<<grid_for(nbatch * k * n), 256, 0, s>>>(static_cast<const T*>(lu), nbatch, m, n, k,
                                                                static_cast<T*>(u));
    CUSCI_CHECK_LAUNCH();
    if (pk == p_kind::matrix) {
      using R = real_t<T>;
      p_matrix_kernel<R><<<grid_for(nbatch * m * m), 256, 0, s>>>(perm, nbatch, m, static_cast<R*>(p));
      CUSCI_CHECK_LAUNCH();
    }
  });
  if (pk == p_kind::indices)
    CUSCI_CUDA_TRY(cudaMemcpyAsync(p, inv, static_cast<std::size_t>(nbatch * m) * sizeof(int), cudaMemcpyDeviceToDevice,
                                   s));
}

void inv_any(dtype t, const batch_view& a, fill_mode mode, bool lower, i64 nbatch, i64 n, bool check, void* out,
             int* info, int* status) {
  if (nbatch * n == 0) return;
  if (n <= small_max_n) {
    // The solve family's fused register LU solve, with the identity (shared by every matrix) as b.
    memory_ptr I = cusci::malloc(static_cast<std::size_t>(n * n) * itemsize(t));
    dispatch_lapack(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      eye_kernel<T><<<grid_for(n * n), 256, 0, get_current_stream()>>>(static_cast<T*>(I->ptr()), 1, n);
      CUSCI_CHECK_LAUNCH();
    });
    batch_view bv = contiguous_view(I->ptr(), 1, n, n, false, itemsize(t));
    bv.batch_shape = a.batch_shape;
    bv.batch_strides.assign(a.batch_shape.size(), 0);
    small_lu_solve(t, a, mode, lower, bv, nbatch, static_cast<int>(n), n, check, out, info, status);
    return;
  }
  if (medium_fits(t, n)) {
    medium_inv(t, a, mode, lower, nbatch, n, check, out, info, status);
    return;
  }
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    inv_big<T>(t, a, mode, lower, nbatch, n, check, out, info, status);
  });
}

void lu_solve_any(dtype t, const batch_view& lu, const batch_view& piv, const batch_view& b, i64 nbatch, i64 n,
                  i64 nrhs, int trans, bool check, void* x, int* status) {
  if (nbatch * n * nrhs == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    solve_big<T>(t, lu, piv, b, nbatch, n, nrhs, trans, check, x, status);
  });
}

}  // namespace cusci::linalg::detail

// Kernels of solve_triangular and cho_solve: the finiteness scan, ?trtrs's zero-diagonal test and the
// warp-per-column triangular substitution.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "triangular/tri_detail.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;

template <class T>
__global__ void scan_nonfinite_kernel(const char* src, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                                      std::int64_t nbatch, std::int64_t rows, std::int64_t cols, int* status) {
  const std::int64_t per = rows * cols, total = nbatch * per;
  bool bad = false;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t bi = e / per, r = e - bi * per, i = r / cols, j = r - i * cols;
    if (!is_finite_elem(load_at<T>(src + bix.offset(bi), sr, sc, i, j))) bad = true;
  }
  if (bad) status[0] = 1;
}

template <class T>
__global__ void diag_check_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                                  std::int64_t nbatch, std::int64_t n, int* info, int* status) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nbatch) return;
  const char* base = a + bix.offset(b);
  int v = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (load_at<T>(base, sr, sc, i, i) == T(0)) {
      v = static_cast<int>(i + 1);
      break;
    }
  info[b] = v;
  if (v) status[1] = 1;
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) {
    if constexpr (is_complex_v<T>)
      v += T(__shfl_xor_sync(0xffffffffu, v.real(), o), __shfl_xor_sync(0xffffffffu, v.imag(), o));
    else
      v += __shfl_xor_sync(0xffffffffu, v, o);
  }
  return v;
}

/// One warp per (matrix, column of x): row-oriented substitution on op(A), whose element (i, j) lives at
/// i * ri + j * rj (conjugated when `cj`); `forward` when op(A) is lower triangular.
template <class T>
__global__ void tri_solve_kernel(const char* a, strided_indexer bix, std::int64_t ri, std::int64_t rj, bool cj,
                                 bool forward, bool unit, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs,
                                 T* x) {
  const std::int64_t w = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (w >= nbatch * nrhs) return;  // uniform over the warp
  const std::int64_t b = w / nrhs, k = w - b * nrhs;
  const char* base = a + bix.offset(b);
  T* xb = x + b * n * nrhs + k;
  auto op = [&](std::int64_t i, std::int64_t j) {
    const T v = *reinterpret_cast<const T*>(base + i * ri + j * rj);
    return cj ? conj_elem(v) : v;
  };
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t i = forward ? step : n - 1 - step;
    const std::int64_t j0 = forward ? 0 : i + 1, j1 = forward ? i : n;
    T acc = T(0);
    for (std::int64_t j = j0 + lane; j < j1; j += 32) acc += op(i, j) * xb[j * nrhs];
    acc = warp_sum(acc);
    if (lane == 0) {
      T v = xb[i * nrhs] - acc;
      if (!unit) v = v / op(i, i);
      xb[i * nrhs] = v;
    }
    __syncwarp();
  }
}

template <class T>
__global__ void fill_pointers(T* a, std::int64_t sa, T* x, std::int64_t sx, std::int64_t count, T** pa, T** px) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  pa[i] = a + i * sa;
  px[i] = x + i * sx;
}

/// Host pointer mode for the scope (the cached handle is shared; the previous mode is restored).
struct host_pointer_mode {
  cublasHandle_t h;
  cublasPointerMode_t old = CUBLAS_POINTER_MODE_HOST;
  explicit host_pointer_mode(cublasHandle_t hh) : h(hh) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h, &old));
    if (old != CUBLAS_POINTER_MODE_HOST) CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h, CUBLAS_POINTER_MODE_HOST));
  }
  ~host_pointer_mode() { CUSCI_LAZY(cublasSetPointerMode)(h, old); }
  host_pointer_mode(const host_pointer_mode&) = delete;
  host_pointer_mode& operator=(const host_pointer_mode&) = delete;
};

template <class T>
cublasStatus_t trsm_batched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t op,
                            cublasDiagType_t diag, int m, int n, const T* alpha, T** a, int lda, T** b, int ldb,
                            int count) {
  if constexpr (std::is_same_v<T, float>)
    return CUSCI_LAZY(cublasStrsmBatched)(h, side, uplo, op, diag, m, n, alpha, a, lda, b, ldb, count);
  else if constexpr (std::is_same_v<T, double>)
    return CUSCI_LAZY(cublasDtrsmBatched)(h, side, uplo, op, diag, m, n, alpha, a, lda, b, ldb, count);
  else if constexpr (std::is_same_v<T, cuda::std::complex<float>>)
    return CUSCI_LAZY(cublasCtrsmBatched)(h, side, uplo, op, diag, m, n, reinterpret_cast<const cuComplex*>(alpha),
                                          reinterpret_cast<cuComplex**>(a), lda, reinterpret_cast<cuComplex**>(b),
                                          ldb, count);
  else
    return CUSCI_LAZY(cublasZtrsmBatched)(h, side, uplo, op, diag, m, n,
                                          reinterpret_cast<const cuDoubleComplex*>(alpha),
                                          reinterpret_cast<cuDoubleComplex**>(a), lda,
                                          reinterpret_cast<cuDoubleComplex**>(b), ldb, count);
}

}  // namespace

void scan_nonfinite(dtype t, const batch_view& v, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
                    int* status) {
  const std::int64_t total = nbatch * rows * cols;
  if (total == 0) return;
  const strided_indexer bix = batch_indexer(v);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    scan_nonfinite_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(v.data), bix, v.s_row, v.s_col, nbatch, rows, cols, status);
    CUSCI_CHECK_LAUNCH();
  });
}

void tri_diag_check(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, int* info, int* status) {
  if (nbatch == 0) return;
  const strided_indexer bix = batch_indexer(a);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    diag_check_kernel<T><<<static_cast<unsigned>((nbatch + 255) / 256), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, a.s_row, a.s_col, nbatch, n, info, status);
    CUSCI_CHECK_LAUNCH();
  });
}

void tri_solve(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, int trans,
               bool lower, bool unit, void* x) {
  const std::int64_t warps = nbatch * nrhs;
  if (warps == 0 || n == 0) return;
  const strided_indexer bix = batch_indexer(a);
  const bool tr = trans != 0;
  const bool forward = lower != tr;  // op(A) is lower triangular
  const std::int64_t ri = tr ? a.s_col : a.s_row, rj = tr ? a.s_row : a.s_col;
  const std::int64_t blocks = (warps + 7) / 8;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    tri_solve_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, ri, rj, trans == 2 && is_complex_v<T>, forward, unit, nbatch, n,
        nrhs, static_cast<T*>(x));
    CUSCI_CHECK_LAUNCH();
  });
}

void tri_solve_blas(dtype t, void* a, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, int trans, bool lower,
                    bool unit, void* x) {
  if (nbatch == 0 || n == 0 || nrhs == 0) return;
  // x's C-order n x nrhs block read column-major (ld nrhs) is Y = X^T, and a's C-order block read
  // column-major is A^T: op(A) X = B  <=>  Y op(A^T) = B^T, a right-side trsm with the same op on A^T,
  // whose triangle is the other one.
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cublasHandle_t h = cusci::detail::cublas_handle();
    host_pointer_mode mode(h);
    device_buffer<T*> pa(static_cast<std::size_t>(nbatch)), px(static_cast<std::size_t>(nbatch));
    fill_pointers<T><<<static_cast<unsigned>((nbatch + 255) / 256), 256, 0, get_current_stream()>>>(
        static_cast<T*>(a), n * n, static_cast<T*>(x), n * nrhs, nbatch, pa.data(), px.data());
    CUSCI_CHECK_LAUNCH();
    const T one = T(1);
    const cublasOperation_t op = trans == 0 ? CUBLAS_OP_N : (trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C);
    CUSCI_CUBLAS_TRY(trsm_batched<T>(h, CUBLAS_SIDE_RIGHT, lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                                     op, unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, static_cast<int>(nrhs),
                                     static_cast<int>(n), &one, pa.data(), static_cast<int>(n), px.data(),
                                     static_cast<int>(nrhs), static_cast<int>(nbatch)));
  });
}

}  // namespace cusci::linalg::detail

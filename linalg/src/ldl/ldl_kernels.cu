// The ldl family's device work: cuSOLVER's Bunch-Kaufman factorization and SciPy's post-processing of
// its pivots (ldl_detail.hpp).

#include <cuda_runtime_api.h>
#include <cuComplex.h>
#include <cusolverDn.h>

#include <limits>
#include <string>

#include "common/kernels.cuh"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "ldl/ldl_detail.hpp"

namespace cusci::linalg::detail {
namespace {

using i64 = std::int64_t;

template <class T> struct sytrf_api;
template <> struct sytrf_api<float> {
  static cusolverStatus_t size(cusolverDnHandle_t h, int n, float* A, int lda, int* lw) {
    return CUSCI_LAZY(cusolverDnSsytrf_bufferSize)(h, n, A, lda, lw);
  }
  static cusolverStatus_t run(cusolverDnHandle_t h, cublasFillMode_t u, int n, float* A, int lda, int* ipiv, float* w,
                              int lw, int* info) {
    return CUSCI_LAZY(cusolverDnSsytrf)(h, u, n, A, lda, ipiv, w, lw, info);
  }
};
template <> struct sytrf_api<double> {
  static cusolverStatus_t size(cusolverDnHandle_t h, int n, double* A, int lda, int* lw) {
    return CUSCI_LAZY(cusolverDnDsytrf_bufferSize)(h, n, A, lda, lw);
  }
  static cusolverStatus_t run(cusolverDnHandle_t h, cublasFillMode_t u, int n, double* A, int lda, int* ipiv,
                              double* w, int lw, int* info) {
    return CUSCI_LAZY(cusolverDnDsytrf)(h, u, n, A, lda, ipiv, w, lw, info);
  }
};
template <> struct sytrf_api<cuda::std::complex<float>> {
  using T = cuda::std::complex<float>;
  static cusolverStatus_t size(cusolverDnHandle_t h, int n, T* A, int lda, int* lw) {
    return CUSCI_LAZY(cusolverDnCsytrf_bufferSize)(h, n, reinterpret_cast<cuComplex*>(A), lda, lw);
  }
  static cusolverStatus_t run(cusolverDnHandle_t h, cublasFillMode_t u, int n, T* A, int lda, int* ipiv, T* w, int lw,
                              int* info) {
    return CUSCI_LAZY(cusolverDnCsytrf)(h, u, n, reinterpret_cast<cuComplex*>(A), lda, ipiv,
                                        reinterpret_cast<cuComplex*>(w), lw, info);
  }
};
template <> struct sytrf_api<cuda::std::complex<double>> {
  using T = cuda::std::complex<double>;
  static cusolverStatus_t size(cusolverDnHandle_t h, int n, T* A, int lda, int* lw) {
    return CUSCI_LAZY(cusolverDnZsytrf_bufferSize)(h, n, reinterpret_cast<cuDoubleComplex*>(A), lda, lw);
  }
  static cusolverStatus_t run(cusolverDnHandle_t h, cublasFillMode_t u, int n, T* A, int lda, int* ipiv, T* w, int lw,
                              int* info) {
    return CUSCI_LAZY(cusolverDnZsytrf)(h, u, n, reinterpret_cast<cuDoubleComplex*>(A), lda, ipiv,
                                        reinterpret_cast<cuDoubleComplex*>(w), lw, info);
  }
};

template <class T>
void sytrf_t(i64 nbatch, i64 n, T* A, int* ipiv, bool lower) {
  CUSCI_EXPECTS(n <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg::ldl: matrix order " + std::to_string(n) + " exceeds cuSOLVER's sytrf limit");
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  const int ni = static_cast<int>(n);
  int lwork = 0;
  CUSCI_CUSOLVER_TRY(sytrf_api<T>::size(h, ni, A, ni, &lwork));
  device_buffer<T> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
  device_buffer<int> info(1);  // > 0: D is exactly singular, which ldl does not report (as SciPy)
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  for (i64 b = 0; b < nbatch; ++b)
    CUSCI_CUSOLVER_TRY(
        sytrf_api<T>::run(h, uplo, ni, A + b * n * n, ni, ipiv + b * n, work.data(), lwork, info.data()));
}

/// One block per matrix; see ldl_detail.hpp. Scratch per matrix: swap_ (sw), pivots (pv), the forward
/// permutation (pm).
template <class T>
__global__ void ldl_post_kernel(const T* ldu, const int* ipiv, i64 n, bool lower, bool conj2, T* lu, T* d,
                                i64* perm, int* sws, int* pvs, i64* pms, int* status) {
  __shared__ int bad;
  const i64 b = blockIdx.x;
  const T* L = ldu + b * n * n;  // column-major: (i, j) at j * n + i
  const int* ip = ipiv + b * n;
  int* sw = sws + b * n;
  int* pv = pvs + b * n;
  i64* pm = pms + b * n;
  T* LU = lu + b * n * n;  // C order
  T* D = d + b * n * n;
  if (threadIdx.x == 0) {
    // _ldl_sanitize_ipiv: a sequential recurrence over the pivots (swap_ entries read earlier entries).
    bad = 0;
    for (i64 k = 0; k < n; ++k) {
      sw[k] = static_cast<int>(k);
      pv[k] = 0;
    }
    const i64 x = lower ? 1 : -1, y = lower ? 0 : -1, rs = lower ? 0 : n - 1, re = lower ? n : -1,
              ri = lower ? 1 : -1;
    bool skip = false;
    for (i64 ind = rs; ind != re; ind += ri) {
      if (skip) {
        skip = false;
        continue;
      }
      const int cur = ip[ind];
      if (cur > 0 && cur <= n) {
        if (cur != ind + 1) sw[ind] = sw[cur - 1];
        pv[ind] = 1;
      } else if (cur < 0 && -cur <= n && ind + x >= 0 && ind + x < n && ind + y >= 0 && cur == ip[ind + x]) {
        if (-cur != ind + 2) sw[ind + x] = sw[-cur - 1];
        pv[ind + y] = 2;
        skip = true;
      } else {
        bad = 1;
        break;
      }
    }
    if (bad) status[1] = 1;
  }
  __syncthreads();
  if (bad) return;
  // _ldl_get_d_and_l: d = diag(diag(ldu)), lu = the strict triangle with a unit diagonal ...
  for (i64 e = threadIdx.x; e < n * n; e += blockDim.x) {
    const i64 i = e / n, j = e - i * n;
    const T v = L[j * n + i];
    D[e] = i == j ? v : T(0);
    LU[e] = i == j ? T(1) : ((lower ? i > j : i < j) ? v : T(0));
  }
  __syncthreads();
  // ... then each 2x2 block (the 2 at its first index) moves its off-diagonal entry from lu into d.
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
    if (pv[i] != 2 || i + 1 >= n) continue;
    const i64 r = lower ? i + 1 : i, c = lower ? i : i + 1;
    const T v = L[c * n + r];
    D[r * n + c] = v;
    D[c * n + r] = conj2 ? conj_elem(v) : v;
    LU[r * n + c] = T(0);
  }
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) pm[i] = i;
  __syncthreads();
  // _ldl_construct_tri_factor: the interchanges in SciPy's order, each a row swap over a column range.
  for (i64 step = 0; step < n; ++step) {
    const i64 ind = lower ? n - 1 - step : step;
    const i64 s = sw[ind];
    if (s == ind) continue;  // uniform over the block
    i64 cs = lower ? ind : 0, ce = lower ? n : ind + 1;
    if (pv[ind] == (lower ? 0 : 2)) {
      if (lower) cs -= 1;
      else ce += 1;
    }
    for (i64 c = cs + threadIdx.x; c < ce; c += blockDim.x) {
      const T t = LU[s * n + c];
      LU[s * n + c] = LU[ind * n + c];
      LU[ind * n + c] = t;
    }
    if (threadIdx.x == 0) {
      const i64 t = pm[s];
      pm[s] = pm[ind];
      pm[ind] = t;
    }
    __syncthreads();
  }
  __syncthreads();
  // argsort of a permutation: its inverse.
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) perm[b * n + pm[i]] = i;
}

}  // namespace

void ldl_sytrf(dtype t, i64 nbatch, i64 n, void* A, int* ipiv, bool lower) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    sytrf_t<T>(nbatch, n, static_cast<T*>(A), ipiv, lower);
  });
}

void ldl_post(dtype t, const void* ldu, const int* ipiv, i64 nbatch, i64 n, bool lower, bool conj2, void* lu, void* d,
              i64* perm, int* status) {
  if (nbatch == 0 || n == 0) return;
  CUSCI_EXPECTS(nbatch <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg::ldl: batch of " + std::to_string(nbatch) + " matrices is too large");
  device_buffer<int> sw(static_cast<std::size_t>(nbatch * n)), pv(static_cast<std::size_t>(nbatch * n));
  device_buffer<i64> pm(static_cast<std::size_t>(nbatch * n));
  const int tpb = n <= 32 ? 32 : (n <= 64 ? 64 : 128);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ldl_post_kernel<T><<<static_cast<unsigned>(nbatch), tpb, 0, get_current_stream()>>>(
        static_cast<const T*>(ldu), ipiv, n, lower, conj2, static_cast<T*>(lu), static_cast<T*>(d), perm, sw.data(),
        pv.data(), pm.data(), status);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail

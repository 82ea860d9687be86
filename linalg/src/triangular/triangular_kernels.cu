// The kernels of the triangular family, in one translation unit (a .cu file costs about 7 s of fixed
// compile time in CI, most of it the headers):
//
// tri_solve:
//   Kernels of solve_triangular and cho_solve: the finiteness scan, ?trtrs's zero-diagonal test and the
//   warp-per-column triangular substitution.
// banded:
//   Kernels of solve_banded, solveh_banded, cholesky_banded and cho_solve_banded: LAPACK's unblocked
//   band LU (?gbtf2 + ?gbtrs) and band Cholesky (?pbtf2 + ?pbtrs), one thread per system.
// structure:
//   Kernels of bandwidth, issymmetric and ishermitian: one thread block per matrix, reductions in shared
//   memory. Integers and bool are compared bitwise (dispatched on item size); floating types as values.

#include <cstdint>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"
#include "triangular/tri_detail.hpp"

// ================================================================ tri_solve
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

// ================================================================ banded
namespace cusci::linalg::detail {
namespace {

/// One thread per item, 128 per block (the kernels below are not grid-stride loops).
inline unsigned blocks_for(std::int64_t items) { return static_cast<unsigned>((items + 127) / 128); }

/// ?gbsv for system b. The LAPACK band workspace (ldab = 2 kl + ku + 1 rows, column-major, A(i, j) in
/// row kv + i - j of column j) is interleaved over the batch: element (r, c) of system b at
/// work[(c * ldab + r) * nbatch + b], so neighbouring threads touch neighbouring addresses.
template <class T>
__global__ void gb_kernel(const char* ab, strided_indexer bix, std::int64_t sr, std::int64_t sc, std::int64_t nbatch,
                          std::int64_t n, std::int64_t kl, std::int64_t ku, std::int64_t nrhs, T* work, int* piv,
                          T* x, int* info, int* status) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nbatch) return;
  const std::int64_t ldab = 2 * kl + ku + 1, kv = kl + ku;
  const char* base = ab + bix.offset(b);
  T* xb = x + b * n * nrhs;
  if (n == 1) {  // SciPy: b / ab[u, 0], no singularity test
    const T d = load_at<T>(base, sr, sc, ku, 0);
    for (std::int64_t k = 0; k < nrhs; ++k) xb[k] = xb[k] / d;
    return;
  }
  auto A = [&](std::int64_t i, std::int64_t j) -> T& { return work[(j * ldab + kv + i - j) * nbatch + b]; };
  auto P = [&](std::int64_t j) -> int& { return piv[j * nbatch + b]; };
  for (std::int64_t c = 0; c < n; ++c)
    for (std::int64_t r = 0; r < ldab; ++r)
      work[(c * ldab + r) * nbatch + b] = r < kl ? T(0) : load_at<T>(base, sr, sc, r - kl, c);
  // ?gbtf2
  std::int64_t ju = 0;
  int inf = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t km = kl < n - 1 - j ? kl : n - 1 - j;
    std::int64_t jp = 0;
    real_t<T> best = abs1(A(j, j));
    for (std::int64_t p = 1; p <= km; ++p) {
      const real_t<T> v = abs1(A(j + p, j));
      if (v > best) {
        best = v;
        jp = p;
      }
    }
    P(j) = static_cast<int>(j + jp);
    if (A(j + jp, j) != T(0)) {
      const std::int64_t lim = j + ku + jp < n - 1 ? j + ku + jp : n - 1;
      if (lim > ju) ju = lim;
      if (jp != 0)
        for (std::int64_t c = j; c <= ju; ++c) {
          const T t = A(j + jp, c);
          A(j + jp, c) = A(j, c);
          A(j, c) = t;
        }
      if (km > 0) {
        const T r = T(1) / A(j, j);
        for (std::int64_t p = 1; p <= km; ++p) A(j + p, j) = A(j + p, j) * r;
        for (std::int64_t c = j + 1; c <= ju; ++c) {
          const T t = A(j, c);
          if (t != T(0))
            for (std::int64_t p = 1; p <= km; ++p) A(j + p, c) -= A(j + p, j) * t;
        }
      }
    } else if (inf == 0) {
      inf = static_cast<int>(j + 1);
    }
  }
  info[b] = inf;
  if (inf) {
    status[1] = 1;
    return;
  }
  // ?gbtrs, no transpose
  for (std::int64_t k = 0; k < nrhs; ++k) {
    T* y = xb + k;
    if (kl > 0)
      for (std::int64_t j = 0; j < n - 1; ++j) {
        const std::int64_t lm = kl < n - 1 - j ? kl : n - 1 - j;
        const std::int64_t l = P(j);
        if (l != j) {
          const T t = y[l * nrhs];
          y[l * nrhs] = y[j * nrhs];
          y[j * nrhs] = t;
        }
        const T yj = y[j * nrhs];
        for (std::int64_t p = 1; p <= lm; ++p) y[(j + p) * nrhs] -= A(j + p, j) * yj;
      }
    for (std::int64_t j = n - 1; j >= 0; --j) {
      const T v = y[j * nrhs] / A(j, j);
      y[j * nrhs] = v;
      const std::int64_t i0 = j - kv > 0 ? j - kv : 0;
      for (std::int64_t i = i0; i < j; ++i) y[i * nrhs] -= A(i, j) * v;
    }
  }
}

/// ?pbtf2 in place on the C-order (kd + 1) x n band matrix of system b.
template <class T>
__global__ void pb_factor_kernel(T* c, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower, int* info,
                                 int* status) {
  using R = real_t<T>;
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nbatch) return;
  T* cb = c + b * (kd + 1) * n;
  // upper form: U(i, j) (i <= j) at row kd + i - j; lower form: L(i, j) (i >= j) at row i - j.
  auto E = [&](std::int64_t i, std::int64_t j) -> T& {
    return lower ? cb[(i - j) * n + j] : cb[(kd + i - j) * n + j];
  };
  int inf = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    R ajj = real_part(E(j, j));
    if (ajj <= R(0)) {
      inf = static_cast<int>(j + 1);
      break;
    }
    ajj = sqrt(ajj);
    E(j, j) = T(ajj);
    const std::int64_t kn = kd < n - 1 - j ? kd : n - 1 - j;
    if (kn == 0) continue;
    const R r = R(1) / ajj;
    if (!lower) {
      for (std::int64_t p = 1; p <= kn; ++p) E(j, j + p) = E(j, j + p) * r;
      // A(j+p, j+q) -= conj(u_p) u_q for 1 <= p <= q <= kn (zher, diagonal kept real)
      for (std::int64_t q = 1; q <= kn; ++q) {
        const T uq = E(j, j + q);
        for (std::int64_t p = 1; p < q; ++p) E(j + p, j + q) -= conj_elem(E(j, j + p)) * uq;
        E(j + q, j + q) = T(real_part(E(j + q, j + q)) - real_part(conj_elem(uq) * uq));
      }
    } else {
      for (std::int64_t p = 1; p <= kn; ++p) E(j + p, j) = E(j + p, j) * r;
      // A(j+p, j+q) -= l_p conj(l_q) for 1 <= q <= p <= kn
      for (std::int64_t q = 1; q <= kn; ++q) {
        const T lq = conj_elem(E(j + q, j));
        for (std::int64_t p = q + 1; p <= kn; ++p) E(j + p, j + q) -= E(j + p, j) * lq;
        E(j + q, j + q) = T(real_part(E(j + q, j + q)) - real_part(E(j + q, j) * lq));
      }
    }
  }
  info[b] = inf;
  if (inf) status[1] = 1;
}

/// Bands at least this wide (kl + ku, or kd) are factored by a warp per system, the update of each
/// elimination step spread over the lanes; narrower ones by a thread per system.
constexpr std::int64_t warp_band = 4;

/// First largest |.| (abs1) over the lanes: (value, index) pairs, ties to the smaller index.
template <class R>
__device__ __forceinline__ void warp_argmax(R& v, std::int64_t& idx) {
  for (int o = 16; o > 0; o >>= 1) {
    const R ov = __shfl_xor_sync(0xffffffffu, v, o);
    const std::int64_t oi = __shfl_xor_sync(0xffffffffu, idx, o);
    if (ov > v || (ov == v && oi < idx)) {
      v = ov;
      idx = oi;
    }
  }
}

/// ?gbsv for system w = one warp: the band workspace of each system is contiguous (column-major,
/// ldab rows); pivot search, row swap, scaling and the rank-1 update are spread over the lanes; the
/// solve runs one lane per right-hand-side column.
template <class T>
__global__ void gb_warp_kernel(const char* ab, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                               std::int64_t nbatch, std::int64_t n, std::int64_t kl, std::int64_t ku, std::int64_t nrhs,
                               T* work, int* piv, T* x, int* info, int* status) {
  using R = real_t<T>;
  const std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (b >= nbatch) return;  // uniform over the warp
  const std::int64_t ldab = 2 * kl + ku + 1, kv = kl + ku;
  const char* base = ab + bix.offset(b);
  T* xb = x + b * n * nrhs;
  T* wb = work + b * ldab * n;
  int* pb = piv + b * n;
  auto A = [&](std::int64_t i, std::int64_t j) -> T& { return wb[j * ldab + kv + i - j]; };
  for (std::int64_t e = lane; e < ldab * n; e += 32) {
    const std::int64_t c = e / ldab, r = e - c * ldab;
    wb[e] = r < kl ? T(0) : load_at<T>(base, sr, sc, r - kl, c);
  }
  __syncwarp();
  std::int64_t ju = 0;
  int inf = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t km = kl < n - 1 - j ? kl : n - 1 - j;
    R best = R(-1);
    std::int64_t jp = km + 1;
    for (std::int64_t p = lane; p <= km; p += 32) {
      const R v = abs1(A(j + p, j));
      if (v > best) {
        best = v;
        jp = p;
      }
    }
    warp_argmax(best, jp);
    if (jp > km) jp = 0;  // only NaNs: LAPACK keeps the first
    if (lane == 0) pb[j] = static_cast<int>(j + jp);
    const T pivot = A(j + jp, j);
    if (pivot != T(0)) {
      const std::int64_t lim = j + ku + jp < n - 1 ? j + ku + jp : n - 1;
      if (lim > ju) ju = lim;
      if (jp != 0)
        for (std::int64_t c = j + lane; c <= ju; c += 32) {
          const T t = A(j + jp, c);
          A(j + jp, c) = A(j, c);
          A(j, c) = t;
        }
      __syncwarp();
      if (km > 0) {
        const T r = T(1) / A(j, j);
        for (std::int64_t p = 1 + lane; p <= km; p += 32) A(j + p, j) = A(j + p, j) * r;
        __syncwarp();
        const std::int64_t cols = ju - j, total = cols * km;
        for (std::int64_t e = lane; e < total; e += 32) {
          const std::int64_t c = j + 1 + e / km, p = 1 + e % km;
          A(j + p, c) -= A(j + p, j) * A(j, c);
        }
        __syncwarp();
      }
    } else if (inf == 0) {
      inf = static_cast<int>(j + 1);
    }
  }
  if (lane == 0) {
    info[b] = inf;
    if (inf) status[1] = 1;
  }
  if (inf) return;
  for (std::int64_t k = lane; k < nrhs; k += 32) {
    T* y = xb + k;
    if (kl > 0)
      for (std::int64_t j = 0; j < n - 1; ++j) {
        const std::int64_t lm = kl < n - 1 - j ? kl : n - 1 - j;
        const std::int64_t l = pb[j];
        if (l != j) {
          const T t = y[l * nrhs];
          y[l * nrhs] = y[j * nrhs];
          y[j * nrhs] = t;
        }
        const T yj = y[j * nrhs];
        for (std::int64_t p = 1; p <= lm; ++p) y[(j + p) * nrhs] -= A(j + p, j) * yj;
      }
    for (std::int64_t j = n - 1; j >= 0; --j) {
      const T v = y[j * nrhs] / A(j, j);
      y[j * nrhs] = v;
      const std::int64_t i0 = j - kv > 0 ? j - kv : 0;
      for (std::int64_t i = i0; i < j; ++i) y[i * nrhs] -= A(i, j) * v;
    }
  }
}

/// ?pbtf2 for system w = one warp, in place on its C-order (kd + 1) x n band matrix: the scaling and
/// the Hermitian rank-1 update of each step spread over the lanes.
template <class T>
__global__ void pb_factor_warp_kernel(T* c, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower,
                                      int* info, int* status) {
  using R = real_t<T>;
  const std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (b >= nbatch) return;
  T* cb = c + b * (kd + 1) * n;
  auto E = [&](std::int64_t i, std::int64_t j) -> T& {
    return lower ? cb[(i - j) * n + j] : cb[(kd + i - j) * n + j];
  };
  int inf = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    R ajj = real_part(E(j, j));
    if (ajj <= R(0)) {
      inf = static_cast<int>(j + 1);
      break;
    }
    ajj = sqrt(ajj);
    __syncwarp();  // every lane has read E(j, j)
    if (lane == 0) E(j, j) = T(ajj);
    const std::int64_t kn = kd < n - 1 - j ? kd : n - 1 - j;
    if (kn == 0) {
      __syncwarp();
      continue;
    }
    const R r = R(1) / ajj;
    for (std::int64_t p = 1 + lane; p <= kn; p += 32) {
      if (lower) E(j + p, j) = E(j + p, j) * r;
      else E(j, j + p) = E(j, j + p) * r;
    }
    __syncwarp();
    // pairs 1 <= p <= q <= kn (upper: A(j+p, j+q) -= conj(u_p) u_q; lower: A(j+q, j+p) -= l_q conj(l_p))
    for (std::int64_t e = lane; e < kn * kn; e += 32) {
      const std::int64_t q = 1 + e / kn, p = 1 + e % kn;
      if (p > q) continue;
      if (!lower) {
        const T uq = E(j, j + q);
        if (p < q) E(j + p, j + q) -= conj_elem(E(j, j + p)) * uq;
        else E(j + q, j + q) = T(real_part(E(j + q, j + q)) - real_part(conj_elem(uq) * uq));
      } else {
        const T lp = conj_elem(E(j + p, j));
        if (p < q) E(j + q, j + p) -= E(j + q, j) * lp;
        else E(j + p, j + p) = T(real_part(E(j + p, j + p)) - real_part(E(j + p, j) * lp));
      }
    }
    __syncwarp();
  }
  if (lane == 0) {
    info[b] = inf;
    if (inf) status[1] = 1;
  }
}

/// ?pbtrs for one (system, column): U^H y = x, U x = y (upper form) or L y = x, L^H x = y (lower form).
template <class T>
__global__ void pb_solve_kernel(const char* cbp, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                                std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower, std::int64_t nrhs,
                                T* x) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= nbatch * nrhs) return;
  const std::int64_t b = t / nrhs, k = t - b * nrhs;
  const char* base = cbp + bix.offset(b);
  T* y = x + b * n * nrhs + k;
  // F(i, j): the factor's element (U: i <= j; L: i >= j)
  auto F = [&](std::int64_t i, std::int64_t j) { return load_at<T>(base, sr, sc, lower ? i - j : kd + i - j, j); };
  // forward: op1 lower triangular, op1(i, k) = conj(U(k, i)) or L(i, k)
  for (std::int64_t i = 0; i < n; ++i) {
    T s = y[i * nrhs];
    const std::int64_t k0 = i - kd > 0 ? i - kd : 0;
    for (std::int64_t q = k0; q < i; ++q) s -= (lower ? F(i, q) : conj_elem(F(q, i))) * y[q * nrhs];
    y[i * nrhs] = s / (lower ? F(i, i) : conj_elem(F(i, i)));
  }
  // backward: op2 upper triangular, op2(i, k) = U(i, k) or conj(L(k, i))
  for (std::int64_t i = n - 1; i >= 0; --i) {
    T s = y[i * nrhs];
    const std::int64_t k1 = i + kd < n - 1 ? i + kd : n - 1;
    for (std::int64_t q = i + 1; q <= k1; ++q) s -= (lower ? conj_elem(F(q, i)) : F(i, q)) * y[q * nrhs];
    y[i * nrhs] = s / (lower ? conj_elem(F(i, i)) : F(i, i));
  }
}

}  // namespace

void gb_solve(dtype t, const batch_view& ab, std::int64_t nbatch, std::int64_t n, std::int64_t kl, std::int64_t ku,
              std::int64_t nrhs, void* work, int* piv, void* x, int* info, int* status) {
  if (nbatch == 0 || n == 0) return;
  const strided_indexer bix = batch_indexer(ab);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (kl + ku >= warp_band && n > 1)
      gb_warp_kernel<T><<<static_cast<unsigned>((nbatch + 3) / 4), 128, 0, get_current_stream()>>>(
          static_cast<const char*>(ab.data), bix, ab.s_row, ab.s_col, nbatch, n, kl, ku, nrhs, static_cast<T*>(work),
          piv, static_cast<T*>(x), info, status);
    else
      gb_kernel<T><<<blocks_for(nbatch), 128, 0, get_current_stream()>>>(
          static_cast<const char*>(ab.data), bix, ab.s_row, ab.s_col, nbatch, n, kl, ku, nrhs, static_cast<T*>(work),
          piv, static_cast<T*>(x), info, status);
    CUSCI_CHECK_LAUNCH();
  });
}

void pb_factor(dtype t, void* c, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower, int* info,
               int* status) {
  if (nbatch == 0 || n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (kd >= warp_band)
      pb_factor_warp_kernel<T><<<static_cast<unsigned>((nbatch + 3) / 4), 128, 0, get_current_stream()>>>(
          static_cast<T*>(c), nbatch, kd, n, lower, info, status);
    else
      pb_factor_kernel<T><<<blocks_for(nbatch), 128, 0, get_current_stream()>>>(static_cast<T*>(c), nbatch, kd, n,
                                                                                 lower, info, status);
    CUSCI_CHECK_LAUNCH();
  });
}

void pb_solve(dtype t, const batch_view& cb, std::int64_t nbatch, std::int64_t kd, std::int64_t n, bool lower,
              std::int64_t nrhs, void* x) {
  const std::int64_t total = nbatch * nrhs;
  if (total == 0 || n == 0) return;
  const strided_indexer bix = batch_indexer(cb);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    pb_solve_kernel<T><<<blocks_for(total), 128, 0, get_current_stream()>>>(
        static_cast<const char*>(cb.data), bix, cb.s_row, cb.s_col, nbatch, kd, n, lower, nrhs, static_cast<T*>(x));
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail

// ================================================================ structure
namespace cusci::linalg::detail {
namespace {

constexpr int block = 256;

template <class T>
__device__ __forceinline__ bool nonzero(const T& v) {
  return v != T(0);
}

template <class T>
__global__ void bandwidth_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                                 std::int64_t rows, std::int64_t cols, std::int64_t* lo, std::int64_t* up) {
  __shared__ unsigned long long s_lo, s_up;
  if (threadIdx.x == 0) s_lo = s_up = 0;
  __syncthreads();
  const std::int64_t b = blockIdx.x;
  const char* base = a + bix.offset(b);
  std::int64_t l = 0, u = 0;
  const std::int64_t per = rows * cols;
  for (std::int64_t e = threadIdx.x; e < per; e += blockDim.x) {
    const std::int64_t i = e / cols, j = e - i * cols;
    if (i == j || !nonzero(load_at<T>(base, sr, sc, i, j))) continue;
    if (i > j) l = i - j > l ? i - j : l;
    else u = j - i > u ? j - i : u;
  }
  if (l) atomicMax(&s_lo, static_cast<unsigned long long>(l));
  if (u) atomicMax(&s_up, static_cast<unsigned long long>(u));
  __syncthreads();
  if (threadIdx.x == 0) {
    lo[b] = static_cast<std::int64_t>(s_lo);
    up[b] = static_cast<std::int64_t>(s_up);
  }
}

template <class T>
__device__ __forceinline__ bool same(const T& x, const T& y) {
  return x == y;  // integers: bitwise; floats: IEEE (NaN never equal, -0 == 0)
}

/// numpy.isclose(x, y) with y the reference: finite: |x - y| <= atol + rtol |y|; otherwise x == y.
template <class T>
__device__ __forceinline__ bool close(const T& x, const T& y, double atol, double rtol) {
  if constexpr (is_complex_v<T>) {
    const cuda::std::complex<double> xd(x.real(), x.imag()), yd(y.real(), y.imag());
    const bool fin = isfinite(xd.real()) && isfinite(xd.imag()) && isfinite(yd.real()) && isfinite(yd.imag());
    if (!fin) return xd == yd;
    return hypot(xd.real() - yd.real(), xd.imag() - yd.imag()) <= atol + rtol * hypot(yd.real(), yd.imag());
  } else {
    const double xd = static_cast<double>(x), yd = static_cast<double>(y);
    if (!(isfinite(xd) && isfinite(yd))) return xd == yd;
    return fabs(xd - yd) <= atol + rtol * fabs(yd);
  }
}

template <class T>
__device__ __forceinline__ T maybe_conj(const T& v, bool herm) {
  if constexpr (is_complex_v<T>) return herm ? conj_elem(v) : v;
  else return v;
}

template <class T>
__global__ void symmetry_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc, std::int64_t n,
                                bool herm, bool tol, double atol, double rtol, bool* out) {
  __shared__ int s_bad;
  if (threadIdx.x == 0) s_bad = 0;
  __syncthreads();
  const std::int64_t b = blockIdx.x;
  const char* base = a + bix.offset(b);
  bool bad = false;
  const std::int64_t per = n * n;
  for (std::int64_t e = threadIdx.x; e < per && !bad; e += blockDim.x) {
    const std::int64_t i = e / n, j = e - i * n;
    const T x = load_at<T>(base, sr, sc, i, j);
    if (tol) {
      // numpy.allclose(a, a'.T) over every entry, a' = a or conj(a)
      bad = !close(x, maybe_conj(load_at<T>(base, sr, sc, j, i), herm), atol, rtol);
    } else if (i < j) {
      bad = !same(x, maybe_conj(load_at<T>(base, sr, sc, j, i), herm));
    } else if (i == j) {
      if constexpr (is_complex_v<T>) bad = herm && x.imag() != 0;
    }
  }
  if (bad) s_bad = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[b] = !s_bad;
}

template <class F>
void dispatch_structure(dtype t, F&& f) {
  using cusci::detail::type_tag;
  switch (t) {
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    case dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    case dtype::float16: break;
    default:
      switch (itemsize(t)) {
        case 1: return f(type_tag<std::uint8_t>{});
        case 2: return f(type_tag<std::uint16_t>{});
        case 4: return f(type_tag<std::uint32_t>{});
        case 8: return f(type_tag<std::uint64_t>{});
        default: break;
      }
  }
  throw type_error("cusci::linalg: structure queries do not support dtype " + std::string(dtype_name(t)));
}

}  // namespace

void band_width(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
                std::int64_t* lo, std::int64_t* up) {
  if (nbatch == 0) return;
  const strided_indexer bix = batch_indexer(a);
  dispatch_structure(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    bandwidth_kernel<T><<<static_cast<unsigned>(nbatch), block, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, a.s_row, a.s_col, rows, cols, lo, up);
    CUSCI_CHECK_LAUNCH();
  });
}

void symmetry(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool herm, bool tol, double atol,
              double rtol, bool* out) {
  if (nbatch == 0) return;
  const strided_indexer bix = batch_indexer(a);
  dispatch_structure(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    symmetry_kernel<T><<<static_cast<unsigned>(nbatch), block, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, a.s_row, a.s_col, n, herm, tol, atol, rtol, out);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail

// The kernels of the lu family, in one translation unit (a .cu file costs about 7 s of fixed compile
// time in CI, most of it the headers):
//
// lu_small:
//   Register-resident LU factorization (LAPACK ?getf2's partial pivoting) of batches of m x n matrices with
//   max(m, n) <= 32, writing LAPACK's packed factors and 0-based pivots. Same data layout as the solve
//   family's small_lu kernel (common/small.cuh): a group of W = small_width(max(m, n)) lanes owns a matrix,
//   lane i holds row i; rows past m are padding that never pivots, columns past n are zero.
// lu_engine:
//   The lu family's batched engine for any size: cuBLAS getrfBatched / getriBatched / getrsBatched with
//   pointer arrays built on the device (batches of square matrices larger than 32), cuSOLVER Xgetrf /
//   Xgetrs (one matrix, or rectangular ones), and the kernels that convert pivots, unpack the factors and
//   form determinants.
// lu_medium:
//   The medium engine (common/medium.cuh) for orders 33..64 (float32, float64, complex64): one block of
//   256 threads a matrix, the matrix in shared memory. Packed LU factors and determinants by LU (?getf2's
//   right-looking steps), inverses by Gauss-Jordan elimination, all with LAPACK ?getrf's partial pivoting
//   (the first largest |a_ik|, |re| + |im| for complex), so the pivots and the exact singularity test
//   match getrf. Replaces getrfBatched (+ getriBatched) for batches of such matrices, whose per-step
//   launch and global-memory traffic dominate at these sizes.
//
//   Gauss-Jordan in place (Golub & Van Loan, "Matrix Computations", 4th ed., sec. 3.2.11 / the classical
//   in-place inversion): at step k, after the row interchange, row k is scaled by 1/p (entry k becomes
//   1/p) and every other row i gets a_ij -= a_ik a_kj (entry k becomes -a_ik / p); at the end the row
//   interchanges are undone as column interchanges in reverse order. The rows >= k of column k at step k
//   are those of LU's Schur complement, hence the same pivots.

#include <climits>
#include <limits>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/medium.cuh"
#include "common/small.cuh"
#include "lu/lu_engine.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"

// ================================================================ lu_small
namespace cusci::linalg::detail {
namespace {

/// p.n = m (rows), p.nrhs = n (columns); p.x = lu (C order), `piv` 0-based.
template <class T, int W, int TPB>
__global__ void __launch_bounds__(TPB) small_lu_factor_kernel(const small_params<T> p, int* __restrict__ piv) {
  using R = real_t<T>;
  __shared__ alignas(16) unsigned char smraw[TPB * (W + 1) * sizeof(T)];
  const small_lane<T, W> L = small_lane_of<T, W, TPB>(reinterpret_cast<T*>(smraw), p);
  const int gl = L.gl, m = p.n, n = static_cast<int>(p.nrhs);
  const int kmax = m < n ? m : n;
  const std::int64_t g = L.g;
  const bool valid = L.valid, real_row = L.real_row;
  bool bad = false;

  // Coalesced staging of the m x n matrix (the square loader of small.cuh reads n x n).
  if (valid) {
    const char* base = p.a + p.aix.offset(g);
    const int mn = m * n;
    for (int e = gl; e < mn; e += W) {
      int i, j;
      if (p.a_rowfast) {
        j = e / m;
        i = e - j * m;
      } else {
        i = e / n;
        j = e - i * n;
      }
      const T v = load_at<T>(base, p.a_sr, p.a_sc, i, j);
      if (!is_finite_elem(v)) bad = true;
      L.sg[i * (W + 1) + j] = v;
    }
  }
  __syncwarp();
  T row[W];
#pragma unroll
  for (int j = 0; j < W; ++j) row[j] = (valid && real_row && j < n) ? L.sg[gl * (W + 1) + j] : T(0);

  constexpr R sfmin = std::numeric_limits<R>::min();
  int pos = gl;
  int info = 0;
#pragma unroll
  for (int k = 0; k < W; ++k) {
    if (k < kmax) {
      R v = (real_row && pos >= k) ? abs1(row[k]) : R(-1);
      if (v != v) v = R(-0.5);  // NaN never wins over a number (as i?amax), but beats non-candidates
      int bp = pos, bl = gl;
#pragma unroll
      for (int off = W / 2; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(full_mask, v, off, W);
        const int op = __shfl_xor_sync(full_mask, bp, off, W);
        const int ol = __shfl_xor_sync(full_mask, bl, off, W);
        if (ov > v || (ov == v && op < bp)) {
          v = ov;
          bp = op;
          bl = ol;
        }
      }
      if (valid && gl == 0) piv[g * kmax + k] = bp;  // row k was interchanged with row bp
      if (gl == bl) pos = k;
      else if (pos == k) pos = bp;
      const T pv = shfl(row[k], bl, W);
      const bool zero = pv == T(0);
      if (zero && info == 0) info = k + 1;
      const bool upd = real_row && pos > k;
      if (upd && !zero) row[k] = absval(pv) >= sfmin ? row[k] * (T(1) / pv) : row[k] / pv;
      const T l = row[k];
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T pj = shfl(row[j], bl, W);
        if (upd) row[j] -= l * pj;
      }
    }
  }

  // Lane at final position pos holds row pos of the packed factors. Written through shared memory so
  // that the global stores are coalesced.
  __syncwarp();
  if (valid && real_row) {
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (j < n) L.sg[pos * (W + 1) + j] = row[j];
  }
  __syncwarp();
  if (valid) {
    T* out = p.x + g * static_cast<std::int64_t>(m) * n;
    const int mn = m * n;
    for (int e = gl; e < mn; e += W) {
      const int i = e / n, j = e - i * n;
      out[e] = L.sg[i * (W + 1) + j];
    }
  }
  store_status<T, W>(p, L, bad, info);
}

template <class T>
void run_factor(const small_params<T>& p, int* piv) {
  constexpr int tpb = small_tpb<T>;
  const int w = small_width(p.n > p.nrhs ? p.n : static_cast<int>(p.nrhs));
  auto go = [&](auto wc) {
    constexpr int W = decltype(wc)::value;
    constexpr std::int64_t per_block = tpb / W;
    const std::int64_t grid = (p.nbatch + per_block - 1) / per_block;
    CUSCI_EXPECTS(grid <= std::numeric_limits<int>::max(), value_error,
                  "cusci::linalg: batch of " + std::to_string(p.nbatch) + " matrices is too large");
    if (grid == 0) return;
    small_lu_factor_kernel<T, W, tpb><<<static_cast<unsigned>(grid), tpb, 0, get_current_stream()>>>(p, piv);
    CUSCI_CHECK_LAUNCH();
  };
  switch (w) {
    case 4: go(std::integral_constant<int, 4>{}); break;
    case 8: go(std::integral_constant<int, 8>{}); break;
    case 16: go(std::integral_constant<int, 16>{}); break;
    default: go(std::integral_constant<int, 32>{}); break;
  }
}

}  // namespace

void small_lu_factor(dtype t, const batch_view& a, std::int64_t nbatch, int m, int n, bool check, void* lu, int* piv,
                     int* info, int* status) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // small_params' `n` is the row count (lanes), `nrhs` the column count.
    run_factor<T>(make_small_params<T>(a, fill_mode::full, false, nullptr, nbatch, m, n, check, lu, info, status),
                  piv);
  });
}

}  // namespace cusci::linalg::detail

// ================================================================ lu_engine
namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;

// --- kernels --------------------------------------------------------------------------------------

/// out[e] = in[e] - 1 (LAPACK's 1-based pivots to SciPy's 0-based ones).
template <class I>
__global__ void piv_to0_kernel(const I* in, int* out, i64 count) {
  CUSCI_LINALG_GRID_LOOP(e, count) out[e] = static_cast<int>(in[e]) - 1;
}

/// 1-based pivots (int32 or int64) for getrs from the 0-based int32 view (indices outside [0, n): none).
template <class I>
__global__ void piv_gather_kernel(const char* src, strided_indexer bix, i64 s, i64 nbatch, i64 n, I* out) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * n) {
    const i64 b = e / n, i = e - b * n;
    const int v = *reinterpret_cast<const int*>(src + bix.offset(b) + i * s);
    out[e] = static_cast<I>((v < 0 || v >= n) ? i + 1 : v + 1);
  }
}

/// Column-major identity matrices.
template <class T>
__global__ void eye_kernel(T* a, i64 nbatch, i64 n) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * n * n) {
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
  CUSCI_LINALG_GRID_LOOP(b, nbatch) {
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

/// out[b] (C order) = matrix b of the view with its diagonal entries replaced by their reciprocals (the
/// other entries copied); status[0] = a non-finite entry (when `check`).
template <class T>
__global__ void diag_inv_kernel(const char* src, strided_indexer bix, i64 sr, i64 sc, i64 nbatch, i64 n, bool check,
                                T* out, int* status) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * n * n) {
    const i64 b = e / (n * n), r = e - b * n * n, i = r / n, j = r - i * n;
    const T v = load_at<T>(src + bix.offset(b), sr, sc, i, j);
    if (check && !is_finite_elem(v)) status[0] = 1;
    out[e] = i == j ? T(1) / v : v;
  }
}

/// info[b] = 1 + the first i with a_ii == 0 (0: none); status[1] = 1 when some info != 0. One thread a
/// matrix.
template <class T>
__global__ void diag_info_kernel(const char* src, strided_indexer bix, i64 sr, i64 sc, i64 nbatch, i64 n, int* info,
                                 int* status) {
  CUSCI_LINALG_GRID_LOOP(b, nbatch) {
    const char* base = src + bix.offset(b);
    int v = 0;
    for (i64 i = 0; i < n; ++i) {
      if (load_at<T>(base, sr, sc, i, i) == T(0)) {
        v = static_cast<int>(i + 1);
        break;
      }
    }
    info[b] = v;
    if (v != 0) status[1] = 1;
  }
}

/// perm[b][i]: the row of a that row i of L @ U reproduces (LAPACK's interchanges applied in order);
/// inv[b][perm[b][i]] = i. One thread a matrix.
__global__ void perm_kernel(const int* piv, i64 nbatch, i64 m, i64 k, int* perm, int* inv) {
  CUSCI_LINALG_GRID_LOOP(b, nbatch) {
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

/// perm[i] = the row of B that row i of P B takes, for one matrix's 0-based interchanges piv0 (n <=
/// kPermSmemRows): one block, the interchanges applied in order by one thread in shared memory.
constexpr i64 kPermSmemRows = 6144;  // two int arrays: the 48 KB of static shared memory
__global__ void perm_one_kernel(const int* piv0, int n, int* perm) {
  __shared__ int pr[kPermSmemRows];
  __shared__ int pv[kPermSmemRows];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    pr[i] = i;
    pv[i] = piv0[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i) {
      const int j = pv[i];
      if (j != i && j >= 0 && j < n) {
        const int t = pr[i];
        pr[i] = pr[j];
        pr[j] = t;
      }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) perm[i] = pr[i];
}

/// out (n x nrhs, column-major) = rows perm of b.
template <class T>
__global__ void gather_rows_kernel(const T* b, const int* perm, i64 n, i64 nrhs, T* out) {
  CUSCI_LINALG_GRID_LOOP(e, n * nrhs) {
    const i64 c = e / n, i = e - c * n;
    out[e] = b[c * n + perm[i]];
  }
}

/// l[b] (m x k): unit lower part of the packed factors; with permute_l, row r is L's row inv[r].
template <class T>
__global__ void unpack_l_kernel(const T* lu, const int* inv, i64 nbatch, i64 m, i64 n, i64 k, bool permute_l, T* l) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * m * k) {
    const i64 b = e / (m * k), r = e - b * m * k, i = r / k, c = r - i * k;
    const i64 src = permute_l ? inv[b * m + i] : i;
    l[e] = src > c ? lu[b * m * n + src * n + c] : (src == c ? T(1) : T(0));
  }
}

/// u[b] (k x n): upper part of the packed factors.
template <class T>
__global__ void unpack_u_kernel(const T* lu, i64 nbatch, i64 m, i64 n, i64 k, T* u) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * k * n) {
    const i64 b = e / (k * n), r = e - b * k * n, i = r / n, j = r - i * n;
    u[e] = j >= i ? lu[b * m * n + i * n + j] : T(0);
  }
}

/// The permutation matrix P (a = P @ L @ U): P[r, c] = 1 where perm[c] == r.
template <class R>
__global__ void p_matrix_kernel(const int* perm, i64 nbatch, i64 m, R* p) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * m * m) {
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

/// One left-side triangular solve, column-major, alpha = 1.
inline cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int n, int nrhs,
                                const float* a, float* b) {
  const float one = 1.0f;
  return CUSCI_LAZY(cublasStrsm)(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, n, nrhs, &one, a, n, b, n);
}
inline cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int n, int nrhs,
                                const double* a, double* b) {
  const double one = 1.0;
  return CUSCI_LAZY(cublasDtrsm)(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, n, nrhs, &one, a, n, b, n);
}
inline cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int n, int nrhs,
                                const cuda::std::complex<float>* a, cuda::std::complex<float>* b) {
  const cuComplex one{1.0f, 0.0f};
  return CUSCI_LAZY(cublasCtrsm)(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, n, nrhs, &one,
                                 reinterpret_cast<const cuComplex*>(a), n, reinterpret_cast<cuComplex*>(b), n);
}
inline cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int n, int nrhs,
                                const cuda::std::complex<double>* a, cuda::std::complex<double>* b) {
  const cuDoubleComplex one{1.0, 0.0};
  return CUSCI_LAZY(cublasZtrsm)(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, n, nrhs, &one,
                                 reinterpret_cast<const cuDoubleComplex*>(a), n, reinterpret_cast<cuDoubleComplex*>(b), n);
}

void check_int(i64 v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string("cusci::linalg: ") + what + " " + std::to_string(v) +
                      " exceeds the 32-bit limit of cuBLAS (2147483647)");
}

/// LU of nbatch column-major m x n matrices A (in place); piv0: 0-based int32 (nbatch x min(m, n)).
/// Real batches of square matrices go to cuBLAS getrfBatched. Complex ones do not: getrfBatched picks the
/// entry of largest modulus |a_ik| as the pivot, where LAPACK's ?getrf (izamax / icamax) takes the largest
/// |re| + |im|, so its pivots, and hence the factors, differ from SciPy's. cuSOLVER's Xgetrf pivots as
/// LAPACK does. `lapack_pivots` false (a solve, where only the solution matters) keeps getrfBatched for
/// complex batches too.
template <class T>
void lib_getrf(i64 nbatch, i64 m, i64 n, T* A, int* piv0, int* info, bool lapack_pivots = true) {
  const i64 k = m < n ? m : n;
  cudaStream_t s = get_current_stream();
  if (m == n && nbatch > 1 && (!is_complex_v<T> || !lapack_pivots)) {
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
  // One matrix (cuSOLVER's blocked getrf), rectangular matrices, which getrfBatched does not take, or
  // complex ones (see above): one Xgetrf a matrix.
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
  lib_getrf<T>(nbatch, n, n, A, piv0.data(), info, /*lapack_pivots=*/false);
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
  } else if (n <= kPermSmemRows) {
    // X = U^-1 L^-1 P B with the rows of B permuted by a gather and two cuBLAS solves: Xgetrs's row
    // interchanges (laswp) took 157 us on 1024 right-hand sides of order 1024 (expm, Nsight Compute)
    check_int(nrhs, "number of right-hand sides");
    device_buffer<int> perm(static_cast<std::size_t>(n));
    device_buffer<T> pb(static_cast<std::size_t>(n * nrhs));
    perm_one_kernel<<<1, 256, 0, s>>>(piv0.data(), static_cast<int>(n), perm.data());
    CUSCI_CHECK_LAUNCH();
    gather_rows_kernel<T><<<grid_for(n * nrhs), 256, 0, s>>>(B, perm.data(), n, nrhs, pb.data());
    CUSCI_CHECK_LAUNCH();
    cublasHandle_t h = cusci::detail::cublas_handle();
    CUSCI_CUBLAS_TRY(trsm_left(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, static_cast<int>(n), static_cast<int>(nrhs),
                               A, pb.data()));
    CUSCI_CUBLAS_TRY(trsm_left(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, static_cast<int>(n),
                               static_cast<int>(nrhs), A, pb.data()));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(B, pb.data(), static_cast<std::size_t>(n * nrhs) * sizeof(T),
                                   cudaMemcpyDeviceToDevice, s));
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

void diag_inv(dtype t, const batch_view& a, i64 nbatch, i64 n, bool check, void* out, int* info, int* status) {
  if (nbatch * n == 0) return;
  const strided_indexer bix = batch_indexer(a);
  const cudaStream_t s = get_current_stream();
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    diag_inv_kernel<T><<<grid_for(nbatch * n * n), 256, 0, s>>>(static_cast<const char*>(a.data), bix, a.s_row,
                                                                a.s_col, nbatch, n, check, static_cast<T*>(out),
                                                                status);
    CUSCI_CHECK_LAUNCH();
    diag_info_kernel<T><<<grid_for(nbatch, 128), 128, 0, s>>>(static_cast<const char*>(a.data), bix, a.s_row,
                                                              a.s_col, nbatch, n, info, status);
    CUSCI_CHECK_LAUNCH();
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

// ================================================================ lu_medium
namespace cusci::linalg::detail {
namespace {

using i64 = std::int64_t;

template <class T>
struct wide_t {
  using type = double;
};
template <class R>
struct wide_t<cuda::std::complex<R>> {
  using type = cuda::std::complex<double>;
};

enum : int { med_det = medium::det, med_inv = medium::inv, med_factor = medium::factor };

/// MODE med_inv: out = C-order inverse; med_det: out = determinant (float64 / complex128); med_factor:
/// out = C-order packed factors (getrf's), piv = 0-based pivots. One block of medium::TPB threads a
/// matrix (common/medium.cuh).
template <class T, int MODE>
__global__ void __launch_bounds__(medium::TPB) medium_kernel(const small_params<T> p, void* out, int* piv) {
  namespace md = medium;
  md::smem<T>& s = md::shared_area<T>();
  const int tid = threadIdx.x, n = p.n, nn = n * n;
  const i64 b = blockIdx.x;
  bool bad = false;
  md::load(p, b, s, bad);
  const int info = md::eliminate<T, MODE>(s, n);
  T* a = s.a;
  if constexpr (MODE == med_inv) {
    // Undo the interchanges as column interchanges, last first; thread i owns row i.
    for (int i = tid; i < n; i += md::TPB) {
      for (int k = n - 1; k >= 0; --k) {
        const int pk = s.pivrow[k];
        if (pk != k) {
          const T t = a[i * md::LD + k];
          a[i * md::LD + k] = a[i * md::LD + pk];
          a[i * md::LD + pk] = t;
        }
      }
    }
    __syncthreads();
    T* o = static_cast<T*>(out) + b * nn;
    for (int e = tid; e < nn; e += md::TPB) {
      const int i = e / n, j = e - i * n;
      o[e] = a[i * md::LD + j];
    }
  } else if constexpr (MODE == med_factor) {
    T* o = static_cast<T*>(out) + b * nn;
    for (int e = tid; e < nn; e += md::TPB) {
      const int i = e / n, j = e - i * n;
      o[e] = a[i * md::LD + j];
    }
    for (int i = tid; i < n; i += md::TPB) piv[b * n + i] = s.pivrow[i];
  } else if (tid == 0) {
    using Wd = typename wide_t<T>::type;
    T d = T(1);
    bool neg = false;
    for (int i = 0; i < n; ++i) {
      d = d * s.pivval[i];
      if (s.pivrow[i] != i) neg = !neg;
    }
    if (neg) d = -d;
    if constexpr (is_complex_v<T>) static_cast<Wd*>(out)[b] = Wd(d.real(), d.imag());
    else static_cast<Wd*>(out)[b] = Wd(d);
  }
  if (p.check && bad) p.status[0] = 1;
  if (tid == 0) {
    if (p.info) p.info[b] = info;
    if (info != 0 && p.status) p.status[1] = 1;
  }
}

template <class T, int MODE>
void launch_medium(const batch_view& a, fill_mode mode, bool lower, i64 nbatch, int n, bool check, void* out,
                   int* piv, int* info, int* status) {
  CUSCI_EXPECTS(nbatch <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg: batch of " + std::to_string(nbatch) + " matrices is too large");
  const small_params<T> p = make_small_params<T>(a, mode, lower, nullptr, nbatch, n, 0, check, nullptr, info, status);
  medium_kernel<T, MODE><<<static_cast<unsigned>(nbatch), medium::TPB, 0, get_current_stream()>>>(p, out, piv);
  CUSCI_CHECK_LAUNCH();
}

template <int MODE>
void run_medium(dtype t, const batch_view& a, fill_mode mode, bool lower, i64 nbatch, int n, bool check, void* out,
            int* piv, int* info, int* status) {
  switch (t) {
    case dtype::float32: launch_medium<float, MODE>(a, mode, lower, nbatch, n, check, out, piv, info, status); break;
    case dtype::float64: launch_medium<double, MODE>(a, mode, lower, nbatch, n, check, out, piv, info, status); break;
    case dtype::complex64:
      launch_medium<cuda::std::complex<float>, MODE>(a, mode, lower, nbatch, n, check, out, piv, info, status);
      break;
    default:
      throw type_error("cusci::linalg: internal: the block kernel takes float32, float64 and complex64 only");
  }
}

}  // namespace

bool medium_fits(dtype t, std::int64_t n) { return medium::fits(t, n); }

void medium_inv(dtype t, const batch_view& a, fill_mode mode, bool lower, std::int64_t nbatch, std::int64_t n,
                bool check, void* out, int* info, int* status) {
  if (nbatch == 0) return;
  run_medium<med_inv>(t, a, mode, lower, nbatch, static_cast<int>(n), check, out, nullptr, info, status);
}

void medium_det(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* det,
                int* status) {
  if (nbatch == 0) return;
  run_medium<med_det>(t, a, fill_mode::full, false, nbatch, static_cast<int>(n), check, det, nullptr, nullptr, status);
}

void medium_factor(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* lu, int* piv,
                   int* info, int* status) {
  if (nbatch == 0) return;
  run_medium<med_factor>(t, a, fill_mode::full, false, nbatch, static_cast<int>(n), check, lu, piv, info, status);
}

}  // namespace cusci::linalg::detail

// The matfuncs family's device work (see matfuncs_engine.hpp): expm's Pade evaluation on cuBLAS strided
// batched products, SciPy's order/scaling tests computed on the device and read back once per call, the
// LU solve through the lu family's engine, squaring with Fragment 2.1 of Al-Mohy and Higham (2009) for
// triangular matrices; expm_frechet's SPS algorithm and expm_cond's Kronecker form.
//
// All matrices are C-order n x n blocks of contiguous batches. cuBLAS is column-major: the C-order
// product Z = X Y is computed as the column-major Z^T = Y^T X^T (operands swapped), exact for any X, Y.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"
#include "lu/lu_engine.hpp"
#include "matfuncs/matfuncs_engine.hpp"

namespace cusci::linalg::detail {

namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;
using c32 = cuda::std::complex<float>;
using c64 = cuda::std::complex<double>;

template <class T>
constexpr dtype dtype_of_t() {
  if constexpr (std::is_same_v<T, float>) return dtype::float32;
  else if constexpr (std::is_same_v<T, double>) return dtype::float64;
  else if constexpr (std::is_same_v<T, c32>) return dtype::complex64;
  else return dtype::complex128;
}

void check_int(i64 v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string("cusci::linalg: ") + what + " " + std::to_string(v) +
                      " exceeds the 32-bit limit of cuBLAS (2147483647)");
}

// --- cuBLAS wrappers -------------------------------------------------------------------------------

cublasStatus_t gemm_sb(cublasHandle_t h, int n, float al, const float* a, long long sa, const float* b, long long sb,
                       float be, float* c, long long sc, int nb) {
  return CUSCI_LAZY(cublasSgemmStridedBatched)(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, a, n, sa, b, n, sb, &be, c,
                                               n, sc, nb);
}
cublasStatus_t gemm_sb(cublasHandle_t h, int n, double al, const double* a, long long sa, const double* b,
                       long long sb, double be, double* c, long long sc, int nb) {
  return CUSCI_LAZY(cublasDgemmStridedBatched)(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, a, n, sa, b, n, sb, &be, c,
                                               n, sc, nb);
}
cublasStatus_t gemm_sb(cublasHandle_t h, int n, c32 al, const c32* a, long long sa, const c32* b, long long sb, c32 be,
                       c32* c, long long sc, int nb) {
  return CUSCI_LAZY(cublasCgemmStridedBatched)(
      h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, reinterpret_cast<const cuComplex*>(&al),
      reinterpret_cast<const cuComplex*>(a), n, sa, reinterpret_cast<const cuComplex*>(b), n, sb,
      reinterpret_cast<const cuComplex*>(&be), reinterpret_cast<cuComplex*>(c), n, sc, nb);
}
cublasStatus_t gemm_sb(cublasHandle_t h, int n, c64 al, const c64* a, long long sa, const c64* b, long long sb, c64 be,
                       c64* c, long long sc, int nb) {
  return CUSCI_LAZY(cublasZgemmStridedBatched)(
      h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, reinterpret_cast<const cuDoubleComplex*>(&al),
      reinterpret_cast<const cuDoubleComplex*>(a), n, sa, reinterpret_cast<const cuDoubleComplex*>(b), n, sb,
      reinterpret_cast<const cuDoubleComplex*>(&be), reinterpret_cast<cuDoubleComplex*>(c), n, sc, nb);
}

/// Z = X Y (+ Z when accumulate) for nb C-order n x n matrices (batch stride n * n).
template <class T>
void mm(const T* X, const T* Y, T* Z, i64 n, i64 nb, bool accumulate = false) {
  const long long st = static_cast<long long>(n * n);
  CUSCI_CUBLAS_TRY(gemm_sb(cusci::detail::cublas_handle(), static_cast<int>(n), T(1), Y, st, X, st,
                           accumulate ? T(1) : T(0), Z, st, static_cast<int>(nb)));
}

// --- element kernels -------------------------------------------------------------------------------

/// One pass over A: absA = |A| in float64 (the chain's matrix), flags[b] bit 0 = a non-zero strictly
/// below the diagonal, bit 1 = above (SciPy's bandwidth test), band[b] = (diagonal, sub-diagonal
/// A[i+1, i], super-diagonal A[i, i+1]), n entries each (the last two unused).
template <class T>
__global__ void prep_kernel(const T* A, i64 nb, i64 n, double* absA, int* flags, T* band) {
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per, r = e - b * per, i = r / n, j = r - i * n;
    const T v = A[e];
    absA[e] = static_cast<double>(absval(v));
    T* o = band + b * 3 * n;
    if (i == j) {
      o[i] = v;
    } else {
      if (i == j + 1) o[n + j] = v;
      else if (j == i + 1) o[2 * n + i] = v;
      if (v != T(0)) {
        const int bit = i > j ? 1 : 2;
        if (!(flags[b] & bit)) atomicOr(flags + b, bit);
      }
    }
  }
}

__global__ void fill_double_kernel(double* x, i64 nb, i64 len, i64 stride, double v) {
  CUSCI_LINALG_GRID_LOOP(e, nb * len) {
    const i64 b = e / len;
    x[b * stride + (e - b * len)] = v;
  }
}

/// out[b * out_stride + i] = sum_j |P[b, i, j]| (one warp a row; SciPy's norm1 on its column-major copy, i.e. the
/// largest row sum of the matrix).
template <class T>
__global__ void row_abs_sum_kernel(const T* P, i64 nb, i64 n, double* out, i64 out_stride) {
  const i64 warps = static_cast<i64>(gridDim.x) * (blockDim.x / 32);
  const int lane = threadIdx.x & 31;
  for (i64 r = static_cast<i64>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32; r < nb * n; r += warps) {
    const T* row = P + r * n;
    double s = 0;
    for (i64 j = lane; j < n; j += 32) s += static_cast<double>(absval(row[j]));
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) out[(r / n) * out_stride + r % n] = s;
  }
}

/// One step of the chain |A|^k 1: y[b] = |A[b]| x[b], |A| C-ordered (nb x n x n, float64), x and y at
/// b * stride. A warp a row (contiguous), four partial sums a lane. cuBLAS's strided-batched gemv took
/// 12 us a step on one 1024^2 matrix held in L2 (Nsight Compute), 27 dependent steps for order 13.
__global__ void abs_chain_step_kernel(const double* __restrict__ absA, i64 nb, i64 n, const double* __restrict__ x,
                                      double* __restrict__ y, i64 stride) {
  const i64 warps = static_cast<i64>(gridDim.x) * (blockDim.x / 32);
  const int lane = threadIdx.x & 31;
  for (i64 r = static_cast<i64>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32; r < nb * n; r += warps) {
    const i64 b = r / n, i = r - b * n;
    const double* row = absA + r * n;
    const double* xv = x + b * stride;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    i64 j = lane;
    for (; j + 96 < n; j += 128) {
      s0 += row[j] * __ldg(xv + j);
      s1 += row[j + 32] * __ldg(xv + j + 32);
      s2 += row[j + 64] * __ldg(xv + j + 64);
      s3 += row[j + 96] * __ldg(xv + j + 96);
    }
    for (; j < n; j += 32) s0 += row[j] * __ldg(xv + j);
    double sum = (s0 + s1) + (s2 + s3);
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0) y[b * stride + i] = sum;
  }
}

/// out[b * n + j] = sum_i |P[b, i, j]| (the column sums: scipy.linalg.norm(A, 1)).
template <class T>
__global__ void col_abs_sum_kernel(const T* P, i64 nb, i64 n, double* out) {
  CUSCI_LINALG_GRID_LOOP(e, nb * n) {
    const i64 b = e / n, j = e - b * n;
    const T* m = P + b * n * n;
    double s = 0;
    for (i64 i = 0; i < n; ++i) s += static_cast<double>(absval(m[i * n + j]));
    out[e] = s;
  }
}

__device__ double block_max(const double* v, i64 len, double* shm) {
  double m = 0;
  for (i64 i = threadIdx.x; i < len; i += blockDim.x) m = fmax(m, v[i]);
  shm[threadIdx.x] = m;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) shm[threadIdx.x] = fmax(shm[threadIdx.x], shm[threadIdx.x + o]);
    __syncthreads();
  }
  const double r = shm[0];
  __syncthreads();
  return r;
}

/// C's (int) conversion as x86 performs it: out of range or NaN gives INT_MIN.
__device__ int to_int_x86(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0)) return INT_MIN;
  return static_cast<int>(x);
}

template <class R>
__device__ R rpow(R x, R y) {
  if constexpr (sizeof(R) == 4) return powf(x, y);
  else return pow(x, y);
}
template <class R>
__device__ R rlog2(R x) {
  if constexpr (sizeof(R) == 4) return log2f(x);
  else return log2(x);
}
template <class R>
__device__ R rceil(R x) {
  if constexpr (sizeof(R) == 4) return ceilf(x);
  else return ceil(x);
}

inline constexpr int chain_len = 28;  // v_0 .. v_27 = |A|^k 1
inline constexpr int kPadeSlots = 4;  // row sums of A4, A6, A8, A10

/// SciPy's pick_pade_structure for one matrix a block: choice[b] = {m, s, structure} with structure 0 =
/// full, 1 = diagonal (m = s = 0), 2 = upper triangular, 3 = lower triangular. R: SciPy's working
/// precision (float for float32/complex64).
template <class T>
__global__ void degree_kernel(const T* A, const double* chain, const double* rows, const int* flags, i64 n,
                              int* choice) {
  using R = real_t<T>;
  __shared__ double shm[256];
  __shared__ double mx[chain_len + kPadeSlots];
  const i64 b = blockIdx.x;
  const double* ch = chain + b * chain_len * n;
  const int stages[6] = {1, 7, 11, 15, 19, 27};
  for (int k = 0; k < 6; ++k) {
    const double v = block_max(ch + stages[k] * n, n, shm);
    if (threadIdx.x == 0) mx[k] = v;
  }
  const int slots = n < 400 ? 4 : 2;
  for (int k = 0; k < slots; ++k) {
    const double v = block_max(rows + (b * kPadeSlots + k) * n, n, shm);
    if (threadIdx.x == 0) mx[6 + k] = v;
  }
  if (threadIdx.x != 0) return;
  const int f = flags[b];
  int* out = choice + 3 * b;
  if (f == 0) {
    out[0] = 0;
    out[1] = 0;
    out[2] = 1;
    return;
  }
  out[2] = (f & 1) == 0 ? 2 : ((f & 2) == 0 ? 3 : 0);
  const R theta[5] = {R(1.495585217958292e-002), R(2.539398330063230e-001), R(9.504178996162932e-001),
                      R(2.097847961257068e+000), R(4.250000000000000e+000)};
  R coeff[5];
  if constexpr (sizeof(R) == 4) {
    coeff[0] = R(6.0081481933593750e-03);
    coeff[1] = R(5.9956512451171875e+02);
    coeff[2] = R(2.6750196800000000e+08);
    coeff[3] = R(3.5252480874905600e+14);
    coeff[4] = R(6.7502722515508048e+27);
  } else {
    coeff[0] = R(1.1191048088221578e-11);
    coeff[1] = R(1.1167770708198077e-06);
    coeff[2] = R(4.9826124310493469e-01);
    coeff[3] = R(6.5662862500000000e+05);
    coeff[4] = R(1.2573361865339437e+19);
  }
  R normA = R(mx[0]);
  const R d4 = rpow(R(mx[6]), R(0.25));
  const R d6 = rpow(R(mx[7]), R(1.0 / 6.0));
  const R eta0 = fmax(d4, d6);
  auto lm_of = [&](double tmax, int k, R div) {
    const R temp = R(tmax);
    const int lm = to_int_x86(static_cast<double>(rceil(rlog2(temp / normA / coeff[k]) / div)));
    return lm < 0 ? 0 : lm;
  };
  int m = 0, s = 0;
  // SciPy for n >= 400 estimates "d8" and "d10" from the first 64 / 100 stored entries of its
  // column-major copy (A[0:64, 0] as an 8 x 8 and A[0:100, 0] as a 10 x 10 column-major matrix, through
  // ?lacn2 with the transposed product): their infinity norms, computed here exactly.
  auto block_norm = [&](int k) {
    double best = 0;
    for (int i = 0; i < k; ++i) {
      double s2 = 0;
      for (int j = 0; j < k; ++j) s2 += static_cast<double>(absval(A[b * n * n + (i + k * j) * n]));
      best = fmax(best, s2);
    }
    return R(best);
  };
  do {
    if (eta0 < theta[0] && lm_of(mx[1], 0, R(6)) == 0) { m = 3; break; }
    if (eta0 < theta[1] && lm_of(mx[2], 1, R(10)) == 0) { m = 5; break; }
    const R d8 = n < 400 ? rpow(R(mx[8]), R(0.125)) : rpow(block_norm(8), R(0.125));
    const R eta2 = fmax(d6, d8);
    if (eta2 < theta[2] && lm_of(mx[3], 2, R(14)) == 0) { m = 7; break; }
    if (eta2 < theta[3] && lm_of(mx[4], 3, R(18)) == 0) { m = 9; break; }
    const R d10 = n < 400 ? rpow(R(mx[9]), R(0.1)) : rpow(block_norm(10), R(0.1));
    const R eta3 = fmax(d8, d10);
    const R eta4 = fmin(eta2, eta3);
    s = to_int_x86(static_cast<double>(rceil(rlog2(eta4 / theta[4]))));
    s = s < 0 ? 0 : s;
    double t27 = mx[5];
    if (s != 0) {
      // SciPy scales its 19-times-spun vector by 2^(-19 s) (in R) and |A| by 2^-s for 8 more products.
      t27 = t27 * static_cast<double>(rpow(R(2), R(-19.0 * s))) * pow(static_cast<double>(rpow(R(2), R(-s))), 8.0);
      normA *= rpow(R(2), R(-s));
    }
    s += lm_of(t27, 4, R(26));
    m = 13;
  } while (false);
  out[0] = m;
  out[1] = s;
}

template <class R>
struct pade_b {
  // b_k of the [m/m] Pade approximants of exp (b_m = 1), SciPy's tables.
  __device__ static R at(int m, int k) {
    switch (m) {
      case 3: {
        const double b[] = {120.0, 60.0, 12.0, 1.0};
        return R(b[k]);
      }
      case 5: {
        const double b[] = {30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0};
        return R(b[k]);
      }
      case 7: {
        const double b[] = {17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0};
        return R(b[k]);
      }
      case 9: {
        const double b[] = {17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0,
                            2162160.0,     110880.0,     3960.0,       90.0,        1.0};
        return R(b[k]);
      }
      default: {
        const double b[] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
                            129060195264000.0,   10559470521600.0,    670442572800.0,     33522128640.0,
                            1323241920.0,        40840800.0,          960960.0,           16380.0,
                            182.0,               1.0};
        return R(b[k]);
      }
    }
  }
};

/// The polynomial parts of U and V for each matrix's order (SciPy's pade_UV_calc): with P_k the powers
/// (A, A2, A4, A6, A8; m = 13 scales them by 2^-s, 4^-s, 16^-s, 64^-s, A and A6 in place),
/// U = A (A6 W1 + W2), V = A6 Z1 + Z2; W1 = Z1 = 0 for m < 13.
template <class T>
__global__ void pade_combine_kernel(T* A, const T* A2, const T* A4, T* A6, const T* A8, const int* choice, i64 nb,
                                    i64 n, T* W1, T* W2, T* Z1, T* Z2) {
  using R = real_t<T>;
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per, r = e - b * per;
    const bool diag = r / n == r % n;
    const int m = choice[3 * b], s = choice[3 * b + 1];
    const T a2 = A2[e], a4 = A4[e];
    const T a6 = A6[e];
    const T one = diag ? T(1) : T(0);
    T w1 = T(0), w2, z1 = T(0), z2;
    if (m == 13) {
      R s0 = R(1), s1 = R(1), s2 = R(1), s3 = R(1);
      if (s != 0) {
        s0 = rpow(R(2), R(-s));
        s1 = rpow(R(4), R(-s));
        s2 = rpow(R(16), R(-s));
        s3 = rpow(R(64), R(-s));
        A[e] = A[e] * s0;
      }
      const T t1 = a2 * s1, t2 = a4 * s2, t3 = a6 * s3;
      A6[e] = t3;
      auto c = [](int k) { return pade_b<R>::at(13, k); };
      w2 = c(7) * t3 + c(5) * t2 + c(3) * t1 + c(1) * one;
      z1 = c(12) * t3 + c(10) * t2 + c(8) * t1;
      z2 = c(6) * t3 + c(4) * t2 + c(2) * t1 + c(0) * one;
      w1 = t3 + c(11) * t2 + c(9) * t1;
    } else if (m == 0) {
      w2 = T(0);
      z2 = one;
    } else {
      auto c = [m](int k) { return pade_b<R>::at(m, k); };
      switch (m) {
        case 3:
          w2 = a2 + c(1) * one;
          z2 = c(2) * a2 + c(0) * one;
          break;
        case 5:
          w2 = a4 + c(3) * a2 + c(1) * one;
          z2 = c(4) * a4 + c(2) * a2 + c(0) * one;
          break;
        case 7:
          w2 = a6 + c(5) * a4 + c(3) * a2 + c(1) * one;
          z2 = c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * one;
          break;
        default: {
          const T a8 = A8[e];
          w2 = a8 + c(7) * a6 + c(5) * a4 + c(3) * a2 + c(1) * one;
          z2 = c(8) * a8 + c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * one;
        }
      }
    }
    W1[e] = w1;
    W2[e] = w2;
    Z1[e] = z1;
    Z2[e] = z2;
  }
}

template <class T>
__global__ void sub_kernel(T* x, const T* y, i64 total) {  // x -= y
  CUSCI_LINALG_GRID_LOOP(e, total) x[e] = x[e] - y[e];
}

/// R = 2 Y + I, where the column-major solve left Y^T = (V - U)^-1 U in C order.
template <class T>
__global__ void finish_pade_kernel(T* y, i64 nb, i64 n) {
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 r = e % per;
    y[e] = y[e] * real_t<T>(2) + (r / n == r % n ? T(1) : T(0));
  }
}

template <class T>
__device__ T exp_elem(const T& x) {
  if constexpr (is_complex_v<T>) return cuda::std::exp(x);
  else return exp(x);
}

/// After squaring k (0-based): matrices with s <= k keep their previous value (dst = src); triangular
/// ones with s > k get Fragment 2.1's exact diagonal and first off-diagonal, scale 2^-(s - 1 - k).
template <class T>
__global__ void post_square_kernel(const T* src, T* dst, const T* band, const int* choice, i64 nb, i64 n, int k,
                                   bool any_done) {
  using R = real_t<T>;
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per, r = e - b * per, i = r / n, j = r - i * n;
    const int s = choice[3 * b + 1], st = choice[3 * b + 2];
    if (st == 1 || s <= k) {
      if (any_done) dst[e] = src[e];
      continue;
    }
    if (st == 0) continue;
    const bool lower = st == 3;
    if (!(i == j || (lower ? i == j + 1 : j == i + 1))) continue;
    const R scale = rpow(R(2), R(-(s - 1 - k)));
    const T* bd = band + b * 3 * n;
    if (i == j) {
      dst[e] = exp_elem(T(bd[i] * scale));
      continue;
    }
    const i64 p = lower ? j : i;  // the pair (p, p + 1)
    const T di = bd[p] * scale, dp = bd[p + 1] * scale;
    const T diff = dp - di;
    const T sinch = absval(diff) == R(0) ? exp_elem(di) : (exp_elem(dp) - exp_elem(di)) / diff;
    const T sd = lower ? bd[n + p] : bd[2 * n + p];
    dst[e] = sinch * sd * scale;
  }
}

/// out = exp of the diagonal for diagonal matrices, else the squared result.
template <class T>
__global__ void expm_out_kernel(const T* a, const T* res, const int* choice, i64 nb, i64 n, T* out) {
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per, r = e - b * per;
    if (choice[3 * b + 2] == 1) {
      const bool d = r / n == r % n;
      out[e] = d ? exp_elem(a[e]) : T(0);
    } else {
      out[e] = res[e];
    }
  }
}

template <class T>
void expm_typed(const T* a, i64 nb, i64 n, T* out) {
  check_int(n, "matrix order");
  check_int(nb, "batch size");
  const cudaStream_t st = get_current_stream();
  const i64 per = n * n, total = nb * per;
  const std::size_t bytes = static_cast<std::size_t>(total) * sizeof(T);
  // P[0] A (scaled in place for m = 13), P[1] A2, P[2] A4, P[3] A6, P[4] A8, P[5] A10 / W1 / U / R,
  // P[6] W2, P[7] Z1, P[8] Z2.
  std::vector<memory_ptr> P;
  for (int k = 0; k < 9; ++k) P.push_back(cusci::malloc(bytes));
  auto p = [&](int k) { return static_cast<T*>(P[k]->ptr()); };
  CUSCI_CUDA_TRY(cudaMemcpyAsync(p(0), a, bytes, cudaMemcpyDeviceToDevice, st));
  mm(p(0), p(0), p(1), n, nb);
  mm(p(1), p(1), p(2), n, nb);
  mm(p(2), p(1), p(3), n, nb);
  if (n < 400) {
    mm(p(2), p(2), p(4), n, nb);
    mm(p(3), p(2), p(5), n, nb);
  }
  // The chain |A|^k 1 (k <= 27) in float64, one matrix-vector product a step.
  device_buffer<double> absA(static_cast<std::size_t>(total));
  device_buffer<double> chain(static_cast<std::size_t>(nb * chain_len * n));
  device_buffer<int> flags(static_cast<std::size_t>(nb));
  device_buffer<T> band(static_cast<std::size_t>(nb * 3 * n));
  CUSCI_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, nb * sizeof(int), st));
  prep_kernel<T><<<grid_for(total), 256, 0, st>>>(p(0), nb, n, absA.data(), flags.data(), band.data());
  CUSCI_CHECK_LAUNCH();
  fill_double_kernel<<<grid_for(nb * n), 256, 0, st>>>(chain.data(), nb, n, chain_len * n, 1.0);
  CUSCI_CHECK_LAUNCH();
  for (int k = 0; k + 1 < chain_len; ++k) {
    abs_chain_step_kernel<<<grid_for(nb * n * 32), 256, 0, st>>>(absA.data(), nb, n, chain.data() + k * n,
                                                                 chain.data() + (k + 1) * n, chain_len * n);
    CUSCI_CHECK_LAUNCH();
  }
  device_buffer<double> rows(static_cast<std::size_t>(nb * kPadeSlots * n));
  // row sums of A4, A6 (and A8, A10 below order 400), slot k of matrix b at rows[(b * 4 + k) * n]
  for (int k = 0; k < (n < 400 ? 4 : 2); ++k) {
    row_abs_sum_kernel<T><<<grid_for(nb * n * 32), 256, 0, st>>>(p(2 + k), nb, n, rows.data() + k * n,
                                                                 kPadeSlots * n);
    CUSCI_CHECK_LAUNCH();
  }
  device_buffer<int> choice(static_cast<std::size_t>(3 * nb));
  degree_kernel<T><<<static_cast<unsigned>(nb), 256, 0, st>>>(p(0), chain.data(), rows.data(), flags.data(), n,
                                                              choice.data());
  CUSCI_CHECK_LAUNCH();
  // The one host read: every matrix's order, scaling and structure.
  const std::vector<int> ch = read_info(choice.data(), 3 * nb);
  int max_m = 0, max_s = 0;
  bool any9 = false;
  for (i64 b = 0; b < nb; ++b) {
    max_m = std::max(max_m, ch[3 * b]);
    if (ch[3 * b + 2] != 1) max_s = std::max(max_s, ch[3 * b + 1]);
    any9 = any9 || ch[3 * b] == 9;
  }
  if (max_m == 0) {  // all diagonal
    expm_out_kernel<T><<<grid_for(total), 256, 0, st>>>(a, p(0), choice.data(), nb, n, out);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  if (any9 && n >= 400) mm(p(2), p(2), p(4), n, nb);
  pade_combine_kernel<T><<<grid_for(total), 256, 0, st>>>(p(0), p(1), p(2), p(3), p(4), choice.data(), nb, n, p(5),
                                                          p(6), p(7), p(8));
  CUSCI_CHECK_LAUNCH();
  if (max_m == 13) {
    mm(p(3), p(5), p(6), n, nb, true);  // W = A6 W1 + W2
    mm(p(3), p(7), p(8), n, nb, true);  // V = A6 Z1 + Z2
  }
  mm(p(6), p(0), p(5), n, nb);  // U = W A
  sub_kernel<T><<<grid_for(total), 256, 0, st>>>(p(8), p(5), total);  // V - U
  CUSCI_CHECK_LAUNCH();
  {
    // (V - U) and U in C order are (V - U)^T and U^T column-major: the solve gives (U (V - U)^-1)^T, and
    // U (V - U)^-1 = (V - U)^-1 U (both are rational functions of A).
    device_buffer<int> info(static_cast<std::size_t>(nb));
    lu_solve_colmajor(dtype_of_t<T>(), nb, n, n, p(8), p(5), info.data());
  }
  finish_pade_kernel<T><<<grid_for(total), 256, 0, st>>>(p(5), nb, n);
  CUSCI_CHECK_LAUNCH();
  T* cur = p(5);
  T* nxt = p(6);
  for (int k = 0; k < max_s; ++k) {
    mm(cur, cur, nxt, n, nb);
    bool any_done = false, any_tri = false;
    for (i64 b = 0; b < nb; ++b) {
      const int s = ch[3 * b + 1], stc = ch[3 * b + 2];
      if (stc == 1 || s <= k) any_done = true;
      else if (stc != 0) any_tri = true;
    }
    if (any_done || any_tri) {
      post_square_kernel<T><<<grid_for(total), 256, 0, st>>>(cur, nxt, band.data(), choice.data(), nb, n, k,
                                                             any_done);
      CUSCI_CHECK_LAUNCH();
    }
    std::swap(cur, nxt);
  }
  expm_out_kernel<T><<<grid_for(total), 256, 0, st>>>(a, cur, choice.data(), nb, n, out);
  CUSCI_CHECK_LAUNCH();
}

// --- expm_frechet (SPS) -----------------------------------------------------------------------------

template <class T>
__global__ void scale_pairs_kernel(T* A, T* E, const int* ms, i64 nb, i64 per) {
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per;
    const int m = ms[2 * b], s = ms[2 * b + 1];
    if (m == 13 && s != 0) {
      const double f = ldexp(1.0, -s);
      A[e] = A[e] * f;
      E[e] = E[e] * f;
    }
  }
}

struct frechet_ptrs {
  const void* A2;
  const void* A4;
  const void* A6;
  const void* A8;
  const void* M2;
  const void* M4;
  const void* M6;
  const void* M8;
  void* W1;
  void* W2;
  void* Z1;
  void* Z2;
  void* Lw1;
  void* Lw2;
  void* Lz1;
  void* Lz2;
};

/// _diff_pade{3,5,7,9} and the order-13 branch as polynomials: W = A6 W1 + W2, V = A6 Z1 + Z2,
/// Lw = A6 Lw1 + M6 W1 + Lw2, Lv = A6 Lz1 + M6 Z1 + Lz2 (the "1" parts zero below order 13); then
/// U = A W, Lu = A Lw + E W.
template <class T>
__global__ void frechet_combine_kernel(frechet_ptrs q, const int* ms, i64 nb, i64 n, int max_m) {
  using R = real_t<T>;
  const i64 per = n * n;
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per, r = e - b * per;
    const int m = ms[2 * b];
    const T one = r / n == r % n ? T(1) : T(0);
    auto ld = [&](const void* p) { return static_cast<const T*>(p)[e]; };
    const T a2 = ld(q.A2), m2 = ld(q.M2);
    const T a4 = max_m >= 5 ? ld(q.A4) : T(0), m4 = max_m >= 5 ? ld(q.M4) : T(0);
    const T a6 = max_m >= 7 ? ld(q.A6) : T(0), m6 = max_m >= 7 ? ld(q.M6) : T(0);
    auto c = [m](int k) { return pade_b<R>::at(m, k); };
    T w1 = T(0), z1 = T(0), lw1 = T(0), lz1 = T(0), w2, z2, lw2, lz2;
    switch (m) {
      case 3:
        w2 = c(3) * a2 + c(1) * one;
        z2 = c(2) * a2 + c(0) * one;
        lw2 = c(3) * m2;
        lz2 = c(2) * m2;
        break;
      case 5:
        w2 = c(5) * a4 + c(3) * a2 + c(1) * one;
        z2 = c(4) * a4 + c(2) * a2 + c(0) * one;
        lw2 = c(5) * m4 + c(3) * m2;
        lz2 = c(4) * m4 + c(2) * m2;
        break;
      case 7:
        w2 = c(7) * a6 + c(5) * a4 + c(3) * a2 + c(1) * one;
        z2 = c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * one;
        lw2 = c(7) * m6 + c(5) * m4 + c(3) * m2;
        lz2 = c(6) * m6 + c(4) * m4 + c(2) * m2;
        break;
      case 9: {
        const T a8 = ld(q.A8), m8 = ld(q.M8);
        w2 = c(9) * a8 + c(7) * a6 + c(5) * a4 + c(3) * a2 + c(1) * one;
        z2 = c(8) * a8 + c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * one;
        lw2 = c(9) * m8 + c(7) * m6 + c(5) * m4 + c(3) * m2;
        lz2 = c(8) * m8 + c(6) * m6 + c(4) * m4 + c(2) * m2;
        break;
      }
      default:
        w1 = c(13) * a6 + c(11) * a4 + c(9) * a2;
        w2 = c(7) * a6 + c(5) * a4 + c(3) * a2 + c(1) * one;
        z1 = c(12) * a6 + c(10) * a4 + c(8) * a2;
        z2 = c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * one;
        lw1 = c(13) * m6 + c(11) * m4 + c(9) * m2;
        lw2 = c(7) * m6 + c(5) * m4 + c(3) * m2;
        lz1 = c(12) * m6 + c(10) * m4 + c(8) * m2;
        lz2 = c(6) * m6 + c(4) * m4 + c(2) * m2;
    }
    static_cast<T*>(q.W1)[e] = w1;
    static_cast<T*>(q.W2)[e] = w2;
    static_cast<T*>(q.Z1)[e] = z1;
    static_cast<T*>(q.Z2)[e] = z2;
    static_cast<T*>(q.Lw1)[e] = lw1;
    static_cast<T*>(q.Lw2)[e] = lw2;
    static_cast<T*>(q.Lz1)[e] = lz1;
    static_cast<T*>(q.Lz2)[e] = lz2;
  }
}

/// d = v - u (the matrix factored), rhs = u + v, t = lu - lv, l2 = lu + lv.
template <class T>
__global__ void frechet_rhs_kernel(const T* u, const T* v, const T* lu, const T* lv, T* d, T* rhs, T* t, T* l2,
                                   i64 total) {
  CUSCI_LINALG_GRID_LOOP(e, total) {
    const T ue = u[e], ve = v[e], lue = lu[e], lve = lv[e];
    d[e] = -ue + ve;
    rhs[e] = ue + ve;
    t[e] = lue - lve;
    l2[e] = lue + lve;
  }
}

template <class T>
__global__ void keep_done_kernel(const T* r0, const T* l0, T* r1, T* l1, const int* ms, i64 nb, i64 per, int k) {
  CUSCI_LINALG_GRID_LOOP(e, nb * per) {
    const i64 b = e / per;
    if (ms[2 * b + 1] <= k) {
      r1[e] = r0[e];
      l1[e] = l0[e];
    }
  }
}

batch_view contiguous(const void* p, i64 nb, i64 rows, i64 cols, std::size_t item) {
  batch_view v;
  v.data = p;
  v.batch_shape = {nb};
  v.batch_strides = {rows * cols * static_cast<i64>(item)};
  v.s_row = cols * static_cast<i64>(item);
  v.s_col = static_cast<i64>(item);
  return v;
}

template <class T>
void frechet_typed(const T* a, const T* e, i64 nb, i64 n, T* r_out, T* l_out) {
  check_int(n, "matrix order");
  check_int(nb, "batch size");
  const cudaStream_t st = get_current_stream();
  const i64 per = n * n, total = nb * per;
  const std::size_t bytes = static_cast<std::size_t>(total) * sizeof(T);
  // 1-norms (largest column sums), read once.
  std::vector<double> norms(static_cast<std::size_t>(nb));
  {
    device_buffer<double> cs(static_cast<std::size_t>(nb * n));
    col_abs_sum_kernel<T><<<grid_for(nb * n), 256, 0, st>>>(a, nb, n, cs.data());
    CUSCI_CHECK_LAUNCH();
    std::vector<double> h(static_cast<std::size_t>(nb * n));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(h.data(), cs.data(), h.size() * sizeof(double), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    for (i64 b = 0; b < nb; ++b) {
      double m = 0;
      bool nan = false;
      for (i64 j = 0; j < n; ++j) {
        const double v = h[b * n + j];
        if (std::isnan(v)) nan = true;
        m = std::max(m, v);
      }
      norms[b] = nan ? NAN : m;
    }
  }
  const double ell[14] = {0, 2.11e-8, 3.56e-4, 1.08e-2, 6.49e-2, 2.00e-1, 4.37e-1,
                          7.83e-1, 1.23e0, 1.78e0, 2.42e0, 3.13e0, 3.90e0, 4.74e0};
  std::vector<int> ms(static_cast<std::size_t>(2 * nb));
  int max_m = 0, max_s = 0;
  bool any9 = false;
  for (i64 b = 0; b < nb; ++b) {
    int m = 0, s = 0;
    for (int mm_ : {3, 5, 7, 9})
      if (norms[b] <= ell[mm_]) {
        m = mm_;
        break;
      }
    if (m == 0) {
      const double x = std::ceil(std::log2(norms[b] / ell[13]));
      if (std::isnan(x)) throw value_error("cusci::linalg::expm_frechet: cannot convert float NaN to integer");
      if (std::isinf(x)) throw value_error("cusci::linalg::expm_frechet: cannot convert float infinity to integer");
      m = 13;
      s = std::max(0, static_cast<int>(x));
    }
    ms[2 * b] = m;
    ms[2 * b + 1] = s;
    max_m = std::max(max_m, m);
    max_s = std::max(max_s, s);
    any9 = any9 || m == 9;
  }
  device_buffer<int> dms(ms.size());
  CUSCI_CUDA_TRY(cudaMemcpyAsync(dms.data(), ms.data(), ms.size() * sizeof(int), cudaMemcpyHostToDevice, st));
  std::vector<memory_ptr> P;
  auto buf = [&]() {
    P.push_back(cusci::malloc(bytes));
    return static_cast<T*>(P.back()->ptr());
  };
  T* A = buf();
  T* E = buf();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(A, a, bytes, cudaMemcpyDeviceToDevice, st));
  CUSCI_CUDA_TRY(cudaMemcpyAsync(E, e, bytes, cudaMemcpyDeviceToDevice, st));
  if (max_s > 0) {
    scale_pairs_kernel<T><<<grid_for(total), 256, 0, st>>>(A, E, dms.data(), nb, per);
    CUSCI_CHECK_LAUNCH();
  }
  T* A2 = buf();
  T* M2 = buf();
  mm(A, A, A2, n, nb);
  mm(A, E, M2, n, nb);
  mm(E, A, M2, n, nb, true);
  T *A4 = nullptr, *M4 = nullptr, *A6 = nullptr, *M6 = nullptr, *A8 = nullptr, *M8 = nullptr;
  if (max_m >= 5) {
    A4 = buf();
    M4 = buf();
    mm(A2, A2, A4, n, nb);
    mm(A2, M2, M4, n, nb);
    mm(M2, A2, M4, n, nb, true);
  }
  if (max_m >= 7) {
    A6 = buf();
    M6 = buf();
    mm(A2, A4, A6, n, nb);
    mm(A4, M2, M6, n, nb);
    mm(M4, A2, M6, n, nb, true);
  }
  if (any9) {
    A8 = buf();
    M8 = buf();
    mm(A4, A4, A8, n, nb);
    mm(A4, M4, M8, n, nb);
    mm(M4, A4, M8, n, nb, true);
  }
  frechet_ptrs q{A2, A4, A6, A8, M2, M4, M6, M8, buf(), buf(), buf(), buf(), buf(), buf(), buf(), buf()};
  frechet_combine_kernel<T><<<grid_for(total), 256, 0, st>>>(q, dms.data(), nb, n, max_m);
  CUSCI_CHECK_LAUNCH();
  T* W1 = static_cast<T*>(q.W1);
  T* W = static_cast<T*>(q.W2);
  T* Z1 = static_cast<T*>(q.Z1);
  T* V = static_cast<T*>(q.Z2);
  T* Lw1 = static_cast<T*>(q.Lw1);
  T* Lw = static_cast<T*>(q.Lw2);
  T* Lz1 = static_cast<T*>(q.Lz1);
  T* Lv = static_cast<T*>(q.Lz2);
  if (max_m == 13) {
    mm(A6, W1, W, n, nb, true);
    mm(A6, Z1, V, n, nb, true);
    mm(A6, Lw1, Lw, n, nb, true);
    mm(M6, W1, Lw, n, nb, true);
    mm(A6, Lz1, Lv, n, nb, true);
    mm(M6, Z1, Lv, n, nb, true);
  }
  // U in W1's buffer, Lu in Lw1's.
  T* U = W1;
  T* Lu = Lw1;
  mm(A, W, U, n, nb);
  mm(A, Lw, Lu, n, nb);
  mm(E, W, Lu, n, nb, true);
  T* D = Z1;
  T* rhs = A2;  // free now
  T* tmp = M2;
  T* l2 = Lz1;
  frechet_rhs_kernel<T><<<grid_for(total), 256, 0, st>>>(U, V, Lu, Lv, D, rhs, tmp, l2, total);
  CUSCI_CHECK_LAUNCH();
  // factor once and solve twice (lu family's engine, C order)
  const std::size_t item = sizeof(T);
  T* F = buf();
  device_buffer<int> piv(static_cast<std::size_t>(nb * n));
  device_buffer<int> info(static_cast<std::size_t>(nb));
  device_buffer<int> status(2);
  CUSCI_CUDA_TRY(cudaMemsetAsync(status.data(), 0, 2 * sizeof(int), st));
  const dtype t = dtype_of_t<T>();
  lu_factor_any(t, contiguous(D, nb, n, n, item), nb, n, n, false, F, piv.data(), info.data(), status.data());
  batch_view pv;
  pv.data = piv.data();
  pv.batch_shape = {nb};
  pv.batch_strides = {n * static_cast<i64>(sizeof(int))};
  pv.s_row = sizeof(int);
  T* R0 = buf();
  lu_solve_any(t, contiguous(F, nb, n, n, item), pv, contiguous(rhs, nb, n, n, item), nb, n, n, 0, false, R0,
               status.data());
  // rhs2 = Lu + Lv + (Lu - Lv) R
  mm(tmp, R0, l2, n, nb, true);
  T* L0 = buf();
  lu_solve_any(t, contiguous(F, nb, n, n, item), pv, contiguous(l2, nb, n, n, item), nb, n, n, 0, false, L0,
               status.data());
  T* R1 = D;
  T* L1 = rhs;
  for (int k = 0; k < max_s; ++k) {
    mm(R0, L0, L1, n, nb);
    mm(L0, R0, L1, n, nb, true);
    mm(R0, R0, R1, n, nb);
    bool any_done = false;
    for (i64 b = 0; b < nb; ++b) any_done = any_done || ms[2 * b + 1] <= k;
    if (any_done) {
      keep_done_kernel<T><<<grid_for(total), 256, 0, st>>>(R0, L0, R1, L1, dms.data(), nb, per, k);
      CUSCI_CHECK_LAUNCH();
    }
    std::swap(R0, R1);
    std::swap(L0, L1);
  }
  if (r_out) CUSCI_CUDA_TRY(cudaMemcpyAsync(r_out, R0, bytes, cudaMemcpyDeviceToDevice, st));
  CUSCI_CUDA_TRY(cudaMemcpyAsync(l_out, L0, bytes, cudaMemcpyDeviceToDevice, st));
}

// --- blockEnlarge and expm_cond helpers ------------------------------------------------------------

template <class T>
__global__ void block_enlarge_kernel(const T* a, const T* e, i64 nb, i64 n, T* m2) {
  const i64 w = 2 * n, per = w * w;
  CUSCI_LINALG_GRID_LOOP(x, nb * per) {
    const i64 b = x / per, r = x - b * per, i = r / w, j = r - i * w;
    const i64 src = b * n * n + (i % n) * n + (j % n);
    m2[x] = i < n ? (j < n ? a[src] : e[src]) : (j < n ? T(0) : a[src]);
  }
}

template <class T>
__global__ void block_split_kernel(const T* m2, i64 nb, i64 n, T* r, T* l) {
  const i64 per = n * n, w = 2 * n;
  CUSCI_LINALG_GRID_LOOP(x, nb * per) {
    const i64 b = x / per, q = x - b * per, i = q / n, j = q - i * n;
    const T* src = m2 + b * w * w + i * w;
    if (r) r[x] = src[j];
    if (l) l[x] = src[n + j];
  }
}

/// The n^2 directions of matrix b: A_big[b * n^2 + c] = a[b], E_big[b * n^2 + c] = e_i e_j^T, c = i n + j.
template <class T>
__global__ void kron_inputs_kernel(const T* a, i64 nb, i64 n, T* A_big, T* E_big) {
  const i64 per = n * n, total = nb * per * per;
  CUSCI_LINALG_GRID_LOOP(x, total) {
    const i64 q = x / per, r = x - q * per, b = q / per, c = q - b * per;
    A_big[x] = a[b * per + r];
    E_big[x] = r == c ? T(1) : T(0);
  }
}

/// out[b] = Frobenius norm of matrix b (len entries), one block a matrix.
template <class T>
__global__ void fro_kernel(const T* x, i64 len, double* out) {
  __shared__ double shm[256];
  const T* m = x + static_cast<i64>(blockIdx.x) * len;
  double s = 0;
  for (i64 i = threadIdx.x; i < len; i += blockDim.x) {
    const double v = static_cast<double>(absval(m[i]));
    s += v * v;
  }
  shm[threadIdx.x] = s;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) shm[threadIdx.x] += shm[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sqrt(shm[0]);
}

__global__ void kappa_kernel(const double* knorm, const double* afro, const double* xfro, i64 nb, double* kappa) {
  CUSCI_LINALG_GRID_LOOP(b, nb) kappa[b] = knorm[b] * afro[b] / xfro[b];
}

template <class T>
void cond_typed(const T* a, const T* x, i64 nb, i64 n, double* kappa) {
  const cudaStream_t st = get_current_stream();
  const i64 per = n * n, N = per, big = nb * N;
  const std::size_t bytes = static_cast<std::size_t>(big * per) * sizeof(T);
  memory_ptr Ab = cusci::malloc(bytes), Eb = cusci::malloc(bytes), Lb = cusci::malloc(bytes);
  kron_inputs_kernel<T><<<grid_for(big * per), 256, 0, st>>>(a, nb, n, static_cast<T*>(Ab->ptr()),
                                                             static_cast<T*>(Eb->ptr()));
  CUSCI_CHECK_LAUNCH();
  frechet_typed<T>(static_cast<const T*>(Ab->ptr()), static_cast<const T*>(Eb->ptr()), big, n, nullptr,
                   static_cast<T*>(Lb->ptr()));
  Ab.reset();
  Eb.reset();
  // Matrix b's derivatives, read column-major with leading dimension N, are K_b with its rows permuted
  // (row p n + q instead of p + q n): the same singular values.
  device_buffer<double> sv(static_cast<std::size_t>(N));
  device_buffer<double> knorm(static_cast<std::size_t>(nb));
  device_buffer<int> info(1);
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  cusolverDnParams_t prm = nullptr;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&prm));
  struct params_guard {
    cusolverDnParams_t p;
    ~params_guard() { CUSCI_LAZY(cusolverDnDestroyParams)(p); }
  } guard{prm};
  const cudaDataType dt = cuda_type<T>();
  std::size_t dev = 0, hst = 0;
  T* K0 = static_cast<T*>(Lb->ptr());
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvd_bufferSize)(h, prm, 'N', 'N', N, N, dt, K0, N, CUDA_R_64F, sv.data(),
                                                            dt, nullptr, N, dt, nullptr, N, dt, &dev, &hst));
  memory_ptr dws = cusci::malloc(std::max<std::size_t>(dev, 1));
  std::vector<unsigned char> hws(std::max<std::size_t>(hst, 1));
  for (i64 b = 0; b < nb; ++b) {  // one cuSOLVER call per matrix (gesvd has no batched form at this size)
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvd)(h, prm, 'N', 'N', N, N, dt, K0 + b * N * N, N, CUDA_R_64F,
                                                   sv.data(), dt, nullptr, N, dt, nullptr, N, dt, dws->ptr(), dev,
                                                   hws.data(), hst, info.data()));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(knorm.data() + b, sv.data(), sizeof(double), cudaMemcpyDeviceToDevice, st));
  }
  device_buffer<double> afro(static_cast<std::size_t>(nb)), xfro(static_cast<std::size_t>(nb));
  fro_kernel<T><<<static_cast<unsigned>(nb), 256, 0, st>>>(a, per, afro.data());
  CUSCI_CHECK_LAUNCH();
  fro_kernel<T><<<static_cast<unsigned>(nb), 256, 0, st>>>(x, per, xfro.data());
  CUSCI_CHECK_LAUNCH();
  kappa_kernel<<<grid_for(nb), 256, 0, st>>>(knorm.data(), afro.data(), xfro.data(), nb, kappa);
  CUSCI_CHECK_LAUNCH();
}

template <class F>
void dispatch_f64(dtype t, F&& f) {
  using cusci::detail::type_tag;
  if (t == dtype::float64) return f(type_tag<double>{});
  if (t == dtype::complex128) return f(type_tag<c64>{});
  throw type_error("cusci::linalg: internal dtype must be float64 or complex128, got " + std::string(dtype_name(t)));
}

}  // namespace

void expm_engine(dtype t, const void* a, i64 nbatch, i64 n, void* out) {
  if (nbatch * n == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    expm_typed<T>(static_cast<const T*>(a), nbatch, n, static_cast<T*>(out));
  });
}

void expm_frechet_engine(dtype t, const void* a, const void* e, i64 nbatch, i64 n, void* r, void* l) {
  if (nbatch * n == 0) return;
  dispatch_f64(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    frechet_typed<T>(static_cast<const T*>(a), static_cast<const T*>(e), nbatch, n, static_cast<T*>(r),
                     static_cast<T*>(l));
  });
}

void block_enlarge(dtype t, const void* a, const void* e, i64 nbatch, i64 n, void* m2) {
  const i64 total = nbatch * 4 * n * n;
  if (total == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    block_enlarge_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(
        static_cast<const T*>(a), static_cast<const T*>(e), nbatch, n, static_cast<T*>(m2));
    CUSCI_CHECK_LAUNCH();
  });
}

void block_split(dtype t, const void* m2, i64 nbatch, i64 n, void* r, void* l) {
  const i64 total = nbatch * n * n;
  if (total == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    block_split_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(
        static_cast<const T*>(m2), nbatch, n, static_cast<T*>(r), static_cast<T*>(l));
    CUSCI_CHECK_LAUNCH();
  });
}

void expm_cond_engine(dtype t, const void* a, const void* x, i64 nbatch, i64 n, double* kappa) {
  if (nbatch * n == 0) return;
  dispatch_f64(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cond_typed<T>(static_cast<const T*>(a), static_cast<const T*>(x), nbatch, n, kappa);
  });
}

}  // namespace cusci::linalg::detail

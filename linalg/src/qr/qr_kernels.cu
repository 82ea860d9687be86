// The kernels and library calls of the qr family, in one translation unit (qr_engine.hpp):
//
// - gathers into column-major work buffers and copies out of them (transposed, flipped, conjugated and
//   triangle-masked as qr, rq and qr_multiply need);
// - the single-matrix path: cuSOLVER Xgeqrf, ?orgqr/?ungqr and ?ormqr/?unmqr;
// - the Householder kernels for batches and for column pivoting. Each step k runs over the whole batch:
//   reflector_kernel (one block a matrix: ?geqp3's pivot, the column interchange, ?larfg) and
//   apply_kernel (one block per trailing column and matrix: w = v^H c, c -= t v w, then ?laqp2's norm
//   downdating). Q is formed by backward accumulation (?org2r) with the same apply kernel, which also
//   finishes the reflector column of the previous step (the column it owns), so that a step is one launch.
//
// References: LAPACK 3.12 dgeqr2/zgeqr2, dlarfg/zlarfg, dlaqp2/zlaqp2 (norm downdating, with the
// recomputation threshold sqrt(eps) of LAPACK Working Note 176, Drmac & Bujanovic 2008), dorg2r/zung2r.

#include <climits>
#include <cstdint>
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
#include "common/kernels.cuh"
#include "common/libcalls.cuh"
#include "qr/qr_engine.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;

constexpr unsigned full_warp = 0xffffffffu;

// --- block reductions (blockDim a multiple of 32, at most 1024; sh holds 32 values) ----------------

template <class R>
__device__ R block_sum(R v, R* sh) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full_warp, v, o);
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  __syncthreads();
  if (lane == 0) sh[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < nw ? sh[lane] : R(0);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full_warp, v, o);
    if (lane == 0) sh[0] = v;
  }
  __syncthreads();
  return sh[0];
}

template <class R>
__device__ R block_max(R v, R* sh) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(full_warp, v, o));
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  __syncthreads();
  if (lane == 0) sh[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < nw ? sh[lane] : R(0);
    for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(full_warp, v, o));
    if (lane == 0) sh[0] = v;
  }
  __syncthreads();
  return sh[0];
}

template <class T>
__device__ T block_sum_t(T v, real_t<T>* sh) {
  if constexpr (is_complex_v<T>) {
    const real_t<T> re = block_sum(v.real(), sh);
    const real_t<T> im = block_sum(v.imag(), sh);
    return T(re, im);
  } else {
    return block_sum(v, sh);
  }
}

template <class T>
__device__ __forceinline__ real_t<T> max_part(const T& v) {
  if constexpr (is_complex_v<T>) return fmax(fabs(v.real()), fabs(v.imag()));
  else return fabs(v);
}
template <class T>
__device__ __forceinline__ real_t<T> sq_scaled(const T& v, real_t<T> inv) {
  if constexpr (is_complex_v<T>) {
    const real_t<T> a = v.real() * inv, b = v.imag() * inv;
    return a * a + b * b;
  } else {
    const real_t<T> a = v * inv;
    return a * a;
  }
}

/// Euclidean norm of x[0 .. count) (unit stride), scaled by the largest component against overflow and
/// underflow (as ?nrm2). Every thread of the block must call it; all get the result.
template <class T>
__device__ real_t<T> block_nrm2(const T* x, i64 count, real_t<T>* sh) {
  using R = real_t<T>;
  R mx = 0;
  for (i64 r = threadIdx.x; r < count; r += blockDim.x) mx = fmax(mx, max_part(x[r]));
  mx = block_max(mx, sh);
  if (mx == R(0)) return R(0);
  if (!isfinite(mx)) {  // inf or NaN: no scaling, let it propagate
    R s = 0;
    for (i64 r = threadIdx.x; r < count; r += blockDim.x) s += sq_scaled(x[r], R(1));
    return sqrt(block_sum(s, sh));
  }
  const R inv = R(1) / mx;
  R s = 0;
  for (i64 r = threadIdx.x; r < count; r += blockDim.x) s += sq_scaled(x[r], inv);
  return mx * sqrt(block_sum(s, sh));
}

int block_for(i64 rows) {
  int b = 32;
  while (b < 256 && b < rows) b <<= 1;
  return b;
}

// --- gathers and copies ---------------------------------------------------------------------------

template <class T>
__global__ void gather_kernel(const char* src, strided_indexer bix, i64 sr, i64 sc, i64 nbatch, i64 rows, i64 cols,
                              i64 ld, i64 bs, bool conj, bool check, T* dst, int* status) {
  const i64 per = ld * cols;
  bool bad = false;
  CUSCI_LINALG_GRID_LOOP(e, nbatch * per) {
    const i64 b = e / per, r = e - b * per, j = r / ld, i = r - j * ld;
    T v = T(0);
    if (i < rows) {
      v = *reinterpret_cast<const T*>(src + bix.offset(b) + i * sr + j * sc);
      if (!is_finite_elem(v)) bad = true;
      if (conj) v = conj_elem(v);
    }
    dst[b * bs + j * ld + i] = v;
  }
  if (check && bad) status[0] = 1;
}

template <class T>
__global__ void copy_out_kernel(const T* src, i64 bs, i64 si, i64 sj, i64 nbatch, i64 rows, i64 cols, bool conj,
                                i64 diag_min, T* dst) {
  const i64 per = rows * cols;
  CUSCI_LINALG_GRID_LOOP(e, nbatch * per) {
    const i64 b = e / per, r = e - b * per, i = r / cols, j = r - i * cols;
    T v = T(0);
    if (j - i >= diag_min) {
      v = src[b * bs + i * si + j * sj];
      if (conj) v = conj_elem(v);
    }
    dst[e] = v;
  }
}

template <class T>
__global__ void eye_kernel(T* dst, i64 nbatch, i64 n) {
  CUSCI_LINALG_GRID_LOOP(e, nbatch * n * n) {
    const i64 r = e % (n * n);
    dst[e] = (r / n == r % n) ? T(1) : T(0);
  }
}

/// Columns [k, ncols) of each column-major matrix set to the unit vectors e_j (?org2r's initialisation).
template <class T>
__global__ void unit_columns_kernel(T* A, i64 lda, i64 bs, i64 nbatch, i64 m, i64 k, i64 ncols) {
  const i64 nc = ncols - k, per = m * nc;
  CUSCI_LINALG_GRID_LOOP(e, nbatch * per) {
    const i64 b = e / per, r = e - b * per, c = r / m, i = r - c * m, j = k + c;
    A[b * bs + j * lda + i] = i == j ? T(1) : T(0);
  }
}

// --- Householder kernels --------------------------------------------------------------------------

/// Initial column norms (?geqp3: vn1 = vn2 = ||a_j||) and jpvt = identity. One block a (matrix, column).
template <class T>
__global__ void col_norms_kernel(const T* A, i64 lda, i64 bs, i64 m, i64 n, real_t<T>* vn1, real_t<T>* vn2,
                                 int* jpvt) {
  __shared__ real_t<T> sh[32];
  const i64 blk = blockIdx.x, b = blk / n, j = blk - b * n;
  const real_t<T> v = block_nrm2(A + b * bs + j * lda, m, sh);
  if (threadIdx.x == 0) {
    vn1[b * n + j] = v;
    vn2[b * n + j] = v;
    jpvt[b * n + j] = static_cast<int>(j);
  }
}

/// Step k of the factorization for one matrix (block b): with pivoting, the column of largest vn1 among
/// [k, n) (the first one on ties, i?amax) is swapped into place; then ?larfg on A[k:m, k]: beta, tau, and
/// x scaled by 1 / (alpha - beta).
template <class T>
__global__ void reflector_kernel(T* A, i64 lda, i64 bs, i64 m, i64 n, i64 k, T* tau, i64 ktau, real_t<T>* vn1,
                                 real_t<T>* vn2, int* jpvt) {
  using R = real_t<T>;
  __shared__ R sh[32];
  __shared__ R best_v[32];
  __shared__ i64 best_i[32];
  const i64 b = blockIdx.x;
  T* Ab = A + b * bs;
  if (vn1) {
    R* v1 = vn1 + b * n;
    R* v2 = vn2 + b * n;
    R bv = R(-1);
    i64 bi = n;
    for (i64 j = k + threadIdx.x; j < n; j += blockDim.x) {
      R v = v1[j];
      if (v != v) v = R(-0.5);
      if (v > bv) {  // j increases per thread: strict > keeps the first
        bv = v;
        bi = j;
      }
    }
    for (int o = 16; o > 0; o >>= 1) {
      const R ov = __shfl_xor_sync(full_warp, bv, o);
      const i64 oi = __shfl_xor_sync(full_warp, bi, o);
      if (ov > bv || (ov == bv && oi < bi)) {
        bv = ov;
        bi = oi;
      }
    }
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (lane == 0) {
      best_v[w] = bv;
      best_i[w] = bi;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int q = 1; q < nw; ++q)
        if (best_v[q] > bv || (best_v[q] == bv && best_i[q] < bi)) {
          bv = best_v[q];
          bi = best_i[q];
        }
      best_i[0] = bi;
    }
    __syncthreads();
    const i64 p = best_i[0];
    if (p != k && p < n) {
      T* ck = Ab + k * lda;
      T* cp = Ab + p * lda;
      for (i64 r = threadIdx.x; r < m; r += blockDim.x) {
        const T t = ck[r];
        ck[r] = cp[r];
        cp[r] = t;
      }
      if (threadIdx.x == 0) {
        int* jp = jpvt + b * n;
        const int t = jp[p];
        jp[p] = jp[k];
        jp[k] = t;
        v1[p] = v1[k];
        v2[p] = v2[k];
      }
    }
    __syncthreads();
  }
  // ?larfg on alpha = A[k, k], x = A[k+1:m, k]
  T* col = Ab + k * lda;
  const T alpha = col[k];
  const i64 count = m - k - 1;
  const R xnorm = count > 0 ? block_nrm2(col + k + 1, count, sh) : R(0);
  __syncthreads();
  R alphr, alphi;
  if constexpr (is_complex_v<T>) {
    alphr = alpha.real();
    alphi = alpha.imag();
  } else {
    alphr = alpha;
    alphi = 0;
  }
  bool zero_tau;
  if constexpr (is_complex_v<T>) zero_tau = xnorm == R(0) && alphi == R(0);
  else zero_tau = count <= 0 || xnorm == R(0);
  if (zero_tau) {
    if (threadIdx.x == 0) tau[b * ktau + k] = T(0);
    return;
  }
  const R nrm = hypot(hypot(alphr, alphi), xnorm);
  const R beta = alphr >= R(0) ? -nrm : nrm;
  T t;
  if constexpr (is_complex_v<T>) t = T((beta - alphr) / beta, -alphi / beta);
  else t = (beta - alphr) / beta;
  const T scal = T(1) / (alpha - T(beta));
  for (i64 r = threadIdx.x; r < count; r += blockDim.x) col[k + 1 + r] *= scal;
  if (threadIdx.x == 0) {
    tau[b * ktau + k] = t;
    col[k] = T(beta);
  }
}

template <class T>
struct apply_params {
  const T* V;       // reflector storage: column i of matrix b at V + b * bsv + i * ldv
  i64 ldv, bsv;
  const T* tau;     // tau[b * ktau + i]
  i64 ktau;
  i64 i;            // reflector index (< 0: no reflector applied, only the column fix)
  bool conj_tau;    // apply I - conj(tau) v v^H (H^H) instead of I - tau v v^H
  T* C;             // target: column j of matrix b at C + b * bsc + j * ldc
  i64 ldc, bsc;
  i64 m;            // rows
  i64 c0, ncol;     // columns [c0, c0 + ncol)
  i64 fix_col;      // ?org2r: column finished (from its own reflector) before the step, -1: none
  real_t<T>* vn1;   // pivoting: norms to downdate ([b * nvn + j]), null: none
  real_t<T>* vn2;
  i64 nvn;
  real_t<T> tol3z;
};

/// One reflector applied from the left to columns [c0, c0 + ncol) of every matrix; one block a (matrix,
/// column). Rows [i, m) take part (v_i = 1, v_r = V[r, i] below).
template <class T>
__global__ void apply_kernel(const apply_params<T> p) {
  using R = real_t<T>;
  __shared__ R sh[32];
  __shared__ int recompute;
  const i64 blk = blockIdx.x, b = blk / p.ncol, j = p.c0 + (blk - b * p.ncol);
  T* col = p.C + b * p.bsc + j * p.ldc;
  if (j == p.fix_col) {  // ?org2r's finish of column j: -tau v below the diagonal, 1 - tau on it, 0 above
    const T tj = p.tau[b * p.ktau + j];
    for (i64 r = threadIdx.x; r < p.m; r += blockDim.x) {
      if (r > j) col[r] = -tj * col[r];
      else if (r == j) col[r] = T(1) - tj;
      else col[r] = T(0);
    }
    __syncthreads();
  }
  const i64 i = p.i;
  if (i < 0) return;
  T t = p.tau[b * p.ktau + i];
  if (p.conj_tau) t = conj_elem(t);
  const T* v = p.V + b * p.bsv + i * p.ldv;
  if (t != T(0)) {
    T w = T(0);
    for (i64 r = i + threadIdx.x; r < p.m; r += blockDim.x) w += conj_elem(r == i ? T(1) : v[r]) * col[r];
    w = block_sum_t(w, sh);
    const T tw = t * w;
    for (i64 r = i + threadIdx.x; r < p.m; r += blockDim.x) col[r] -= (r == i ? T(1) : v[r]) * tw;
  }
  if (p.vn1) {  // ?laqp2's downdate of ||A[i+1:m, j]||
    __syncthreads();
    R* v1 = p.vn1 + b * p.nvn + j;
    R* v2 = p.vn2 + b * p.nvn + j;
    if (threadIdx.x == 0) {
      recompute = 0;
      const R n1 = *v1;
      if (n1 != R(0)) {
        const R q = absval(col[i]) / n1;
        R temp = R(1) - q * q;
        temp = temp > R(0) ? temp : R(0);
        const R r2 = n1 / *v2;
        const R temp2 = temp * r2 * r2;
        if (temp2 <= p.tol3z) {
          if (i < p.m - 1) {
            recompute = 1;
          } else {
            *v1 = R(0);
            *v2 = R(0);
          }
        } else {
          *v1 = n1 * sqrt(temp);
        }
      }
    }
    __syncthreads();
    if (recompute) {
      const R nv = block_nrm2(col + i + 1, p.m - i - 1, sh);
      if (threadIdx.x == 0) {
        *v1 = nv;
        *v2 = nv;
      }
    }
  }
}

template <class T>
void launch_apply(const apply_params<T>& p, i64 nbatch) {
  const i64 blocks = nbatch * p.ncol;
  if (blocks == 0) return;
  CUSCI_EXPECTS(blocks <= INT_MAX, value_error, "cusci::linalg: too many matrix columns for one launch");
  const i64 rows = p.i >= 0 ? p.m - p.i : p.m;
  apply_kernel<T><<<static_cast<unsigned>(blocks), block_for(rows), 0, get_current_stream()>>>(p);
  CUSCI_CHECK_LAUNCH();
}


// --- qr_update: Givens rotations, one block a matrix --------------------------------------------------

/// (c, s, r) with [c s; -conj(s) c] [f; g] = [r; 0], c real (LAPACK ?lartg's convention up to scaling).
template <class T>
__device__ void givens(const T& f, const T& g, real_t<T>& c, T& s, T& r) {
  using R = real_t<T>;
  if (g == T(0)) {
    c = R(1);
    s = T(0);
    r = f;
    return;
  }
  const R ng = absval(g);
  if (f == T(0)) {
    c = R(0);
    s = conj_elem(g) / T(ng);
    r = T(ng);
    return;
  }
  const R nf = absval(f);
  const R nrm = hypot(nf, ng);
  const T ph = f / T(nf);
  c = nf / nrm;
  s = ph * conj_elem(g) / T(nrm);
  r = ph * T(nrm);
}

template <class T>
struct update_params {
  T* Q;        // m x qcols, ld m
  i64 qcols, bsq;
  T* R;        // rrows x n, ld rrows
  i64 rrows, bsr;
  const T* U;  // m x k
  const T* V;  // n x k
  i64 m, n, k;
  bool econ;
  T* w;        // scratch, (m + 2 n + 2) a matrix
};

/// Rows (p, p + 1) of R (columns >= j0) and columns (p, p + 1) of Q rotated by G = [c s; -conj(s) c]:
/// R := G R, Q := Q G^H.
/// (Q: leading dimension ldq, rows [0, qrows).)
template <class T>
__device__ void rotate(T* Q, i64 ldq, i64 qrows, T* R, i64 ldr, i64 n, i64 p, i64 j0, real_t<T> c, const T& s) {
  for (i64 j = j0 + threadIdx.x; j < n; j += blockDim.x) {
    const T x = R[j * ldr + p], y = R[j * ldr + p + 1];
    R[j * ldr + p] = T(c) * x + s * y;
    R[j * ldr + p + 1] = T(c) * y - conj_elem(s) * x;
  }
  const T sc = conj_elem(s);
  for (i64 i = threadIdx.x; i < qrows; i += blockDim.x) {
    const T a = Q[p * ldq + i], b = Q[(p + 1) * ldq + i];
    Q[p * ldq + i] = T(c) * a + b * sc;
    Q[(p + 1) * ldq + i] = T(c) * b - a * s;
  }
}

/// Rotates R's entry (p + 1, col) into (p, col) with the Givens rotation of rows (p, p + 1) (applied to R's
/// columns >= j0 and to Q as in rotate), then stores the exact zero.
template <class T>
__device__ void rotate_out(T* Q, i64 ldq, i64 qrows, T* R, i64 ldr, i64 n, i64 p, i64 j0, i64 col) {
  real_t<T> c;
  T s, r;
  givens(R[col * ldr + p], R[col * ldr + p + 1], c, s, r);
  __syncthreads();
  rotate(Q, ldq, qrows, R, ldr, n, p, j0, c, s);
  __syncthreads();
  if (threadIdx.x == 0) R[col * ldr + p + 1] = T(0);
}

/// Reduces w[0, len) to w[0] e_0 with Givens rotations from the bottom, each applied to rows (i - 1, i) of R
/// (columns >= i - 1) and columns (i - 1, i) of Q (rows [0, qrows)); an upper triangular R becomes upper
/// Hessenberg.
template <class T>
__device__ void reduce_to_e0(T* w, i64 len, T* Q, i64 ldq, i64 qrows, T* R, i64 ldr, i64 n) {
  for (i64 i = len - 1; i >= 1; --i) {
    real_t<T> c;
    T s, r;
    givens(w[i - 1], w[i], c, s, r);
    __syncthreads();
    rotate(Q, ldq, qrows, R, ldr, n, i - 1, i - 1, c, s);
    if (threadIdx.x == 0) {
      w[i - 1] = r;
      w[i] = T(0);
    }
    __syncthreads();
  }
}

/// w[j] = (Q^H y)[j] for j < cols (Q: rows x cols, leading dimension ld); one thread a column.
template <class T>
__device__ void apply_qh(const T* Q, i64 ld, i64 rows, i64 cols, const T* y, T* w) {
  for (i64 j = threadIdx.x; j < cols; j += blockDim.x) {
    T acc = T(0);
    for (i64 i = 0; i < rows; ++i) acc += conj_elem(Q[j * ld + i]) * y[i];
    w[j] = acc;
  }
}

/// r[i] = y[i] - (Q w)[i] for i < rows (r may be y); one thread a row.
template <class T>
__device__ void sub_q(const T* Q, i64 ld, i64 rows, i64 cols, const T* y, const T* w, T* r) {
  for (i64 i = threadIdx.x; i < rows; i += blockDim.x) {
    T acc = y[i];
    for (i64 j = 0; j < cols; ++j) acc -= Q[j * ld + i] * w[j];
    r[i] = acc;
  }
}

/// r = y - Q w with w = Q^H y on entry, reorthogonalised once: w2 = Q^H r, r -= Q w2, w += w2 (w2: scratch
/// of cols).
template <class T>
__device__ void residual_reorth(const T* Q, i64 ld, i64 rows, i64 cols, const T* y, T* w, T* w2, T* r) {
  sub_q(Q, ld, rows, cols, y, w, r);
  __syncthreads();
  apply_qh(Q, ld, rows, cols, r, w2);
  __syncthreads();
  sub_q(Q, ld, rows, cols, r, w2, r);
  __syncthreads();
  for (i64 j = threadIdx.x; j < cols; j += blockDim.x) w[j] += w2[j];
}

/// x[i] = x[i] / nrm for i < count, zeros when nrm is 0.
template <class T>
__device__ void scale_unit(T* x, i64 count, real_t<T> nrm) {
  for (i64 i = threadIdx.x; i < count; i += blockDim.x) x[i] = nrm > real_t<T>(0) ? x[i] / T(nrm) : T(0);
}

template <class T>
__global__ void qr_update_kernel(const update_params<T> p) {
  using R = real_t<T>;
  __shared__ R sh[32];
  const i64 b = blockIdx.x, m = p.m, n = p.n;
  T* Q = p.Q + b * p.bsq;
  T* Rm = p.R + b * p.bsr;
  const i64 ldr = p.rrows;
  T* w = p.w + b * (m + 2 * n + 2);
  const i64 qn = p.econ ? n : m;  // columns of Q holding the factor
  const i64 rows = p.econ ? n + 1 : m;
  for (i64 l = 0; l < p.k; ++l) {
    const T* u = p.U + (b * p.k + l) * m;
    const T* v = p.V + (b * p.k + l) * n;
    __syncthreads();
    // w = Q^H u
    apply_qh(Q, m, m, qn, u, w);
    __syncthreads();
    if (p.econ) {
      T* rc = Q + n * m;  // the extra column: r = u - Q w, reorthogonalised once, then r / ||r||
      residual_reorth(Q, m, m, n, u, w, w + n + 1, rc);
      const R rho = block_nrm2(rc, m, sh);
      scale_unit(rc, m, rho);
      for (i64 j = threadIdx.x; j < n; j += blockDim.x) Rm[j * ldr + n] = T(0);
      if (threadIdx.x == 0) w[n] = T(rho);
      __syncthreads();
    }
    // w reduced to w[0] e_0 from the bottom; R becomes upper Hessenberg
    reduce_to_e0(w, rows, Q, m, m, Rm, ldr, n);
    for (i64 j = threadIdx.x; j < n; j += blockDim.x) Rm[j * ldr] += w[0] * conj_elem(v[j]);
    __syncthreads();
    // back to upper triangular
    const i64 nr = rows - 1 < n ? rows - 1 : n;
    for (i64 i = 0; i < nr; ++i) rotate_out(Q, m, m, Rm, ldr, n, i, i, i);
  }
}

// --- qr_delete: Givens rotations, one block a matrix --------------------------------------------------

template <class T>
struct delete_params {
  T* Q;   // m x (c + 1), ld m
  T* Qs;  // scratch of Q's size
  T* R;   // (c + 1) x n, ld c + 1
  T* z;   // scratch, m + c + 2 a matrix
  i64 m, c, n, k, p;
  bool col;
};

template <class T>
__global__ void qr_delete_kernel(const delete_params<T> p) {
  using R = real_t<T>;
  __shared__ R sh[32];
  const i64 b = blockIdx.x, m = p.m, n = p.n, k = p.k, ldr = p.c + 1;
  T* Q = p.Q + b * m * (p.c + 1);
  T* Qs = p.Qs + b * m * (p.c + 1);
  T* Rm = p.R + b * ldr * n;
  T* z = p.z + b * (m + p.c + 2);
  if (p.col) {
    // columns [k, k + p) removed, the others shifted left; then the p subdiagonals of columns >= k rotated away
    const i64 rr = p.c, n1 = n - p.p;
    for (i64 i = threadIdx.x; i < rr; i += blockDim.x)
      for (i64 j = k; j < n1; ++j) Rm[j * ldr + i] = Rm[(j + p.p) * ldr + i];
    __syncthreads();
    for (i64 j = k; j < n1; ++j) {
      const i64 top = j + p.p < rr - 1 ? j + p.p : rr - 1;
      for (i64 i = top; i > j; --i) rotate_out(Q, m, m, Rm, ldr, n1, i - 1, j, j);
    }
    return;
  }
  // rows [k, k + p): row k deleted p times (G&VL 12.5.3; economic factors extended by a unit vector x with
  // e_k = Q Q^H e_k + nu x, reorthogonalised once)
  i64 mm = m, cq = p.c;
  for (i64 step = 0; step < p.p; ++step) {
    i64 cc = cq;
    if (cq < mm) {
      T* x = Q + cq * m;
      for (i64 i = threadIdx.x; i < mm; i += blockDim.x) {
        T acc = i == k ? T(1) : T(0);
        for (i64 j = 0; j < cq; ++j) acc -= Q[j * m + i] * conj_elem(Q[j * m + k]);
        x[i] = acc;
      }
      __syncthreads();
      apply_qh(Q, m, mm, cq, x, z);
      __syncthreads();
      sub_q(Q, m, mm, cq, x, z, x);
      __syncthreads();
      const R nu = block_nrm2(x, mm, sh);
      scale_unit(x, mm, nu);
      for (i64 j = threadIdx.x; j < n; j += blockDim.x) Rm[j * ldr + cq] = T(0);
      cc = cq + 1;
      __syncthreads();
    }
    // z = conj(Q[k, :cc]) reduced to a multiple of e_0 from the bottom; R becomes upper Hessenberg
    for (i64 j = threadIdx.x; j < cc; j += blockDim.x) z[j] = conj_elem(Q[j * m + k]);
    __syncthreads();
    reduce_to_e0(z, cc, Q, m, mm, Rm, ldr, n);
    // R loses its first row, Q its row k and first column
    for (i64 j = threadIdx.x; j < n; j += blockDim.x)
      for (i64 i = 0; i + 1 < cc; ++i) Rm[j * ldr + i] = Rm[j * ldr + i + 1];
    const i64 nr = mm - 1, nc = cc - 1;
    for (i64 e = threadIdx.x; e < nr * nc; e += blockDim.x) {
      const i64 jj = e / nr, ii = e - jj * nr;
      Qs[jj * m + ii] = Q[(jj + 1) * m + ii + (ii >= k ? 1 : 0)];
    }
    __syncthreads();
    for (i64 e = threadIdx.x; e < nr * nc; e += blockDim.x) {
      const i64 jj = e / nr, ii = e - jj * nr;
      Q[jj * m + ii] = Qs[jj * m + ii];
    }
    __syncthreads();
    mm = nr;
    cq = nc;
  }
}

// --- qr_insert: Givens rotations, one block a matrix --------------------------------------------------

template <class T>
struct insert_params {
  T* Q;     // ldq x qcols_alloc
  T* Qs;    // scratch of Q's size (rows)
  T* R;     // ldr x ncols_alloc
  const T* U;  // rows: p x n a matrix (row l at U + l * n); columns: m x p (column l at U + l * m)
  T* z;     // scratch, 2 (m + p + n) + 2 a matrix
  double* est;  // economic columns: the smallest rho / ||u|| seen, a matrix
  i64 ldq, qcols, ldr, ncols;
  i64 m, c, n, k, p;
  bool col;
};

template <class T>
__global__ void qr_insert_kernel(const insert_params<T> p) {
  using R = real_t<T>;
  __shared__ R sh[32];
  const i64 b = blockIdx.x, ldq = p.ldq, ldr = p.ldr;
  T* Q = p.Q + b * ldq * p.qcols;
  T* Qs = p.Qs + b * ldq * p.qcols;
  T* Rm = p.R + b * ldr * p.ncols;
  T* z = p.z + b * (2 * (p.m + p.p + p.n) + 2);
  i64 mm = p.m, cq = p.c, nn = p.n;
  double best = 1e300;
  for (i64 l = 0; l < p.p; ++l) {
    const i64 kk = p.k + l;
    if (!p.col) {
      const T* x = p.U + (b * p.p + l) * p.n;
      // Q~ = [e_kk, Q with a zero row kk] (mm + 1) x (cq + 1); R~ = [x; R]
      const i64 nr = mm + 1, nc = cq + 1;
      for (i64 e = threadIdx.x; e < nr * nc; e += blockDim.x) {
        const i64 j = e / nr, i = e - j * nr;
        Qs[j * ldq + i] = i == kk ? (j == 0 ? T(1) : T(0)) : (j == 0 ? T(0) : Q[(j - 1) * ldq + i - (i > kk ? 1 : 0)]);
      }
      for (i64 j = threadIdx.x; j < nn; j += blockDim.x) {
        for (i64 i = cq; i >= 1; --i) Rm[j * ldr + i] = Rm[j * ldr + i - 1];
        Rm[j * ldr] = x[j];
      }
      __syncthreads();
      for (i64 e = threadIdx.x; e < nr * nc; e += blockDim.x) {
        const i64 j = e / nr, i = e - j * nr;
        Q[j * ldq + i] = Qs[j * ldq + i];
      }
      __syncthreads();
      const i64 nrot = cq < nn ? cq : nn;
      for (i64 i = 0; i < nrot; ++i) {
        rotate_out(Q, ldq, nr, Rm, ldr, nn, i, i, i);
        __syncthreads();
      }
      const bool econ = cq < mm;
      if (econ) {  // the last column of Q~ and row of R~ (zero) are dropped
        for (i64 j = threadIdx.x; j < nn; j += blockDim.x) Rm[j * ldr + cq] = T(0);
      } else {
        cq = nc;
      }
      mm = nr;
      __syncthreads();
    } else {
      const T* y = p.U + (b * p.p + l) * p.m;
      const bool econ = cq < mm;
      T* w = z;
      apply_qh(Q, ldq, mm, cq, y, w);
      __syncthreads();
      R rho = 0;
      if (econ) {  // Q's new column r / ||r||, r = y - Q Q^H y reorthogonalised once
        T* rc = Q + cq * ldq;
        residual_reorth(Q, ldq, mm, cq, y, w, z + mm + p.p + p.n + 1, rc);
        rho = block_nrm2(rc, mm, sh);
        const R ynorm = block_nrm2(y, mm, sh);
        const double e = ynorm > R(0) ? static_cast<double>(rho / ynorm) : 0.0;
        best = e < best ? e : best;
        scale_unit(rc, mm, rho);
      }
      __syncthreads();
      // R' = [R[:, :kk], w (rho below it when economic), R[:, kk:]]
      const i64 rows = econ ? cq + 1 : cq;
      for (i64 i = threadIdx.x; i < rows; i += blockDim.x) {
        for (i64 j = nn; j > kk; --j) Rm[j * ldr + i] = Rm[(j - 1) * ldr + i];
        Rm[kk * ldr + i] = i < cq ? w[i] : T(rho);
      }
      __syncthreads();
      for (i64 i = rows - 1; i > kk; --i) {
        rotate_out(Q, ldq, mm, Rm, ldr, nn + 1, i - 1, kk, kk);
        __syncthreads();
      }
      if (econ) cq += 1;
      nn += 1;
    }
  }
  if (threadIdx.x == 0 && p.est) p.est[b] = best;
}

// --- cuSOLVER, by type ----------------------------------------------------------------------------

using cf = cuda::std::complex<float>;
using cd = cuda::std::complex<double>;

inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int n, int k, const float* A, int lda, const float* t,
                                   int* lw) {
  return CUSCI_LAZY(cusolverDnSorgqr_bufferSize)(h, m, n, k, A, lda, t, lw);
}
inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int n, int k, const double* A, int lda,
                                   const double* t, int* lw) {
  return CUSCI_LAZY(cusolverDnDorgqr_bufferSize)(h, m, n, k, A, lda, t, lw);
}
inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int n, int k, const cf* A, int lda, const cf* t,
                                   int* lw) {
  return CUSCI_LAZY(cusolverDnCungqr_bufferSize)(h, m, n, k, reinterpret_cast<const cuComplex*>(A), lda,
                                                  reinterpret_cast<const cuComplex*>(t), lw);
}
inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int n, int k, const cd* A, int lda, const cd* t,
                                   int* lw) {
  return CUSCI_LAZY(cusolverDnZungqr_bufferSize)(h, m, n, k, reinterpret_cast<const cuDoubleComplex*>(A), lda,
                                                  reinterpret_cast<const cuDoubleComplex*>(t), lw);
}
inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, float* A, int lda, const float* t, float* w,
                              int lw, int* info) {
  return CUSCI_LAZY(cusolverDnSorgqr)(h, m, n, k, A, lda, t, w, lw, info);
}
inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, double* A, int lda, const double* t,
                              double* w, int lw, int* info) {
  return CUSCI_LAZY(cusolverDnDorgqr)(h, m, n, k, A, lda, t, w, lw, info);
}
inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, cf* A, int lda, const cf* t, cf* w, int lw,
                              int* info) {
  return CUSCI_LAZY(cusolverDnCungqr)(h, m, n, k, reinterpret_cast<cuComplex*>(A), lda,
                                      reinterpret_cast<const cuComplex*>(t), reinterpret_cast<cuComplex*>(w), lw, info);
}
inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, cd* A, int lda, const cd* t, cd* w, int lw,
                              int* info) {
  return CUSCI_LAZY(cusolverDnZungqr)(h, m, n, k, reinterpret_cast<cuDoubleComplex*>(A), lda,
                                      reinterpret_cast<const cuDoubleComplex*>(t), reinterpret_cast<cuDoubleComplex*>(w),
                                      lw, info);
}

inline cusolverStatus_t ormqr_size(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const float* A,
                                   int lda, const float* t, const float* C, int ldc, int* lw) {
  return CUSCI_LAZY(cusolverDnSormqr_bufferSize)(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, lda, t, C, ldc, lw);
}
inline cusolverStatus_t ormqr_size(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const double* A,
                                   int lda, const double* t, const double* C, int ldc, int* lw) {
  return CUSCI_LAZY(cusolverDnDormqr_bufferSize)(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, lda, t, C, ldc, lw);
}
inline cusolverStatus_t ormqr_size(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const cf* A,
                                   int lda, const cf* t, const cf* C, int ldc, int* lw) {
  return CUSCI_LAZY(cusolverDnCunmqr_bufferSize)(h, CUBLAS_SIDE_LEFT, op, m, n, k,
                                                  reinterpret_cast<const cuComplex*>(A), lda,
                                                  reinterpret_cast<const cuComplex*>(t),
                                                  reinterpret_cast<const cuComplex*>(C), ldc, lw);
}
inline cusolverStatus_t ormqr_size(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const cd* A,
                                   int lda, const cd* t, const cd* C, int ldc, int* lw) {
  return CUSCI_LAZY(cusolverDnZunmqr_bufferSize)(h, CUBLAS_SIDE_LEFT, op, m, n, k,
                                                  reinterpret_cast<const cuDoubleComplex*>(A), lda,
                                                  reinterpret_cast<const cuDoubleComplex*>(t),
                                                  reinterpret_cast<const cuDoubleComplex*>(C), ldc, lw);
}
inline cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const float* A, int lda,
                              const float* t, float* C, int ldc, float* w, int lw, int* info) {
  return CUSCI_LAZY(cusolverDnSormqr)(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, lda, t, C, ldc, w, lw, info);
}
inline cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const double* A,
                              int lda, const double* t, double* C, int ldc, double* w, int lw, int* info) {
  return CUSCI_LAZY(cusolverDnDormqr)(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, lda, t, C, ldc, w, lw, info);
}
inline cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const cf* A, int lda,
                              const cf* t, cf* C, int ldc, cf* w, int lw, int* info) {
  return CUSCI_LAZY(cusolverDnCunmqr)(h, CUBLAS_SIDE_LEFT, op, m, n, k, reinterpret_cast<const cuComplex*>(A), lda,
                                      reinterpret_cast<const cuComplex*>(t), reinterpret_cast<cuComplex*>(C), ldc,
                                      reinterpret_cast<cuComplex*>(w), lw, info);
}
inline cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasOperation_t op, int m, int n, int k, const cd* A, int lda,
                              const cd* t, cd* C, int ldc, cd* w, int lw, int* info) {
  return CUSCI_LAZY(cusolverDnZunmqr)(h, CUBLAS_SIDE_LEFT, op, m, n, k, reinterpret_cast<const cuDoubleComplex*>(A),
                                      lda, reinterpret_cast<const cuDoubleComplex*>(t),
                                      reinterpret_cast<cuDoubleComplex*>(C), ldc, reinterpret_cast<cuDoubleComplex*>(w),
                                      lw, info);
}

int to_int(i64 v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string("cusci::linalg: ") + what + " " + std::to_string(v) +
                      " exceeds the 32-bit limit of cuSOLVER (2147483647)");
  return static_cast<int>(v);
}

// --- typed drivers --------------------------------------------------------------------------------

template <class T>
void factor_t(i64 nbatch, i64 m, i64 n, T* A, i64 lda, i64 bs, T* tau, int* jpvt) {
  using R = real_t<T>;
  const i64 k = m < n ? m : n;
  if (nbatch == 0 || k == 0) return;
  cudaStream_t s = get_current_stream();
  if (nbatch == 1 && !jpvt) {
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType dt = cuda_type<T>();
    std::size_t dev = 0, hst = 0;
    CUSCI_CUSOLVER_TRY(
        CUSCI_LAZY(cusolverDnXgeqrf_bufferSize)(h, prm.get(), m, n, dt, A, lda, dt, tau, dt, &dev, &hst));
    memory_ptr dws = cusci::malloc(dev);
    std::vector<unsigned char> hws(hst);
    device_buffer<int> info(1);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgeqrf)(h, prm.get(), m, n, dt, A, lda, dt, tau, dt,
                                                    dws ? dws->ptr() : nullptr, dev, hws.empty() ? nullptr : hws.data(),
                                                    hst, info.data()));
    return;
  }
  CUSCI_EXPECTS(nbatch <= INT_MAX, value_error, "cusci::linalg: batch too large for one launch");
  device_buffer<R> vn(jpvt ? static_cast<std::size_t>(2 * nbatch * n) : 0);
  R* vn1 = jpvt ? vn.data() : nullptr;
  R* vn2 = jpvt ? vn.data() + nbatch * n : nullptr;
  if (jpvt) {
    CUSCI_EXPECTS(nbatch * n <= INT_MAX, value_error, "cusci::linalg: too many matrix columns for one launch");
    col_norms_kernel<T><<<static_cast<unsigned>(nbatch * n), block_for(m), 0, s>>>(A, lda, bs, m, n, vn1, vn2, jpvt);
    CUSCI_CHECK_LAUNCH();
  }
  apply_params<T> p{};
  p.V = A;
  p.ldv = lda;
  p.bsv = bs;
  p.tau = tau;
  p.ktau = k;
  p.conj_tau = true;  // ?geqr2 applies H(i)^H
  p.C = A;
  p.ldc = lda;
  p.bsc = bs;
  p.m = m;
  p.fix_col = -1;
  p.vn1 = vn1;
  p.vn2 = vn2;
  p.nvn = n;
  p.tol3z = sqrt(std::numeric_limits<R>::epsilon());
  for (i64 i = 0; i < k; ++i) {
    const int threads = jpvt ? 256 : block_for(m - i);
    reflector_kernel<T><<<static_cast<unsigned>(nbatch), threads, 0, s>>>(A, lda, bs, m, n, i, tau, k, vn1, vn2, jpvt);
    CUSCI_CHECK_LAUNCH();
    if (i + 1 < n) {
      p.i = i;
      p.c0 = i + 1;
      p.ncol = n - i - 1;
      launch_apply(p, nbatch);
    }
  }
}

template <class T>
void form_q_t(i64 nbatch, i64 m, i64 ncols, i64 k, T* A, i64 lda, i64 bs, const T* tau) {
  if (nbatch == 0 || m == 0 || ncols == 0) return;
  cudaStream_t s = get_current_stream();
  if (ncols > k) {  // ?org2r's initialisation of the columns past the reflectors (also given to cuSOLVER)
    unit_columns_kernel<T><<<grid_for(nbatch * m * (ncols - k)), 256, 0, s>>>(A, lda, bs, nbatch, m, k, ncols);
    CUSCI_CHECK_LAUNCH();
  }
  if (nbatch == 1) {
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    const int mi = to_int(m, "matrix rows"), ni = to_int(ncols, "matrix columns"), ki = to_int(k, "reflectors"),
              li = to_int(lda, "leading dimension");
    int lw = 0;
    CUSCI_CUSOLVER_TRY(orgqr_size(h, mi, ni, ki, A, li, tau, &lw));
    device_buffer<T> work(static_cast<std::size_t>(lw > 0 ? lw : 1));
    device_buffer<int> info(1);
    CUSCI_CUSOLVER_TRY(orgqr(h, mi, ni, ki, A, li, tau, work.data(), lw, info.data()));
    return;
  }
  apply_params<T> p{};
  p.V = A;
  p.ldv = lda;
  p.bsv = bs;
  p.tau = tau;
  p.ktau = k;
  p.conj_tau = false;  // Q = H(0) ... H(k-1): H(i) applied for i = k-1 .. 0
  p.C = A;
  p.ldc = lda;
  p.bsc = bs;
  p.m = m;
  for (i64 i = k - 1; i >= 0; --i) {
    // columns (i, ncols) get H(i); column i + 1 (a reflector column when < k) is finished first by its block
    p.i = i;
    p.c0 = i + 1;
    p.ncol = ncols - i - 1;
    p.fix_col = i + 1 < k ? i + 1 : -1;
    launch_apply(p, nbatch);
  }
  // column 0 (a reflector column as k >= 1)
  p.i = -1;
  p.c0 = 0;
  p.ncol = 1;
  p.fix_col = 0;
  launch_apply(p, nbatch);
}

template <class T>
void apply_q_t(i64 nbatch, i64 m, i64 k, const T* A, i64 lda, i64 bsa, const T* tau, bool adjoint, T* C, i64 ldc,
               i64 ncols, i64 bsc) {
  if (nbatch == 0 || m == 0 || ncols == 0 || k == 0) return;
  if (nbatch == 1) {
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    const cublasOperation_t op = !adjoint ? CUBLAS_OP_N : (is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T);
    const int mi = to_int(m, "matrix rows"), ni = to_int(ncols, "matrix columns"), ki = to_int(k, "reflectors"),
              la = to_int(lda, "leading dimension"), lc = to_int(ldc, "leading dimension");
    int lw = 0;
    CUSCI_CUSOLVER_TRY(ormqr_size(h, op, mi, ni, ki, A, la, tau, C, lc, &lw));
    device_buffer<T> work(static_cast<std::size_t>(lw > 0 ? lw : 1));
    device_buffer<int> info(1);
    CUSCI_CUSOLVER_TRY(ormqr(h, op, mi, ni, ki, A, la, tau, C, lc, work.data(), lw, info.data()));
    return;
  }
  apply_params<T> p{};
  p.V = A;
  p.ldv = lda;
  p.bsv = bsa;
  p.tau = tau;
  p.ktau = k;
  p.conj_tau = adjoint;
  p.C = C;
  p.ldc = ldc;
  p.bsc = bsc;
  p.m = m;
  p.c0 = 0;
  p.ncol = ncols;
  p.fix_col = -1;
  for (i64 s = 0; s < k; ++s) {
    p.i = adjoint ? s : k - 1 - s;  // Q^H = H(k-1)^H ... H(0)^H: H(0)^H first
    launch_apply(p, nbatch);
  }
}

}  // namespace

void qr_gather(dtype t, const batch_view& src, i64 nbatch, i64 rows, i64 cols, bool conj, bool check, void* dst, i64 ld,
               i64 bs, int* status) {
  const i64 total = nbatch * ld * cols;
  if (total == 0) return;
  const strided_indexer bix = batch_indexer(src);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gather_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(static_cast<const char*>(src.data), bix,
                                                                        src.s_row, src.s_col, nbatch, rows, cols, ld,
                                                                        bs, conj, check, static_cast<T*>(dst), status);
    CUSCI_CHECK_LAUNCH();
  });
}

void qr_factor(dtype t, i64 nbatch, i64 m, i64 n, void* A, i64 lda, i64 bs, void* tau, int* jpvt) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    factor_t<T>(nbatch, m, n, static_cast<T*>(A), lda, bs, static_cast<T*>(tau), jpvt);
  });
}

void qr_form_q(dtype t, i64 nbatch, i64 m, i64 ncols, i64 k, void* A, i64 lda, i64 bs, const void* tau) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    form_q_t<T>(nbatch, m, ncols, k, static_cast<T*>(A), lda, bs, static_cast<const T*>(tau));
  });
}

void qr_apply_q(dtype t, i64 nbatch, i64 m, i64 k, const void* A, i64 lda, i64 bsa, const void* tau, bool adjoint,
                void* C, i64 ldc, i64 ncols, i64 bsc) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    apply_q_t<T>(nbatch, m, k, static_cast<const T*>(A), lda, bsa, static_cast<const T*>(tau), adjoint,
                 static_cast<T*>(C), ldc, ncols, bsc);
  });
}

void qr_copy_out(dtype t, const void* src, i64 bs, i64 si, i64 sj, i64 nbatch, i64 rows, i64 cols, bool conj,
                 i64 diag_min, void* dst) {
  const i64 total = nbatch * rows * cols;
  if (total == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    copy_out_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(static_cast<const T*>(src), bs, si, sj,
                                                                          nbatch, rows, cols, conj, diag_min,
                                                                          static_cast<T*>(dst));
    CUSCI_CHECK_LAUNCH();
  });
}

void qr_update_run(dtype t, i64 nbatch, i64 m, i64 n, bool econ, void* Qw, i64 qcols, void* Rw, i64 rrows,
                   const void* U, const void* V, i64 k, void* scratch) {
  if (nbatch == 0 || k == 0) return;
  CUSCI_EXPECTS(nbatch <= INT_MAX, value_error, "cusci::linalg: batch too large for one launch");
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    update_params<T> p{};
    p.Q = static_cast<T*>(Qw);
    p.qcols = qcols;
    p.bsq = m * qcols;
    p.R = static_cast<T*>(Rw);
    p.rrows = rrows;
    p.bsr = rrows * n;
    p.U = static_cast<const T*>(U);
    p.V = static_cast<const T*>(V);
    p.m = m;
    p.n = n;
    p.k = k;
    p.econ = econ;
    p.w = static_cast<T*>(scratch);
    qr_update_kernel<T><<<static_cast<unsigned>(nbatch), 256, 0, get_current_stream()>>>(p);
    CUSCI_CHECK_LAUNCH();
  });
}

void qr_delete_run(dtype t, i64 nbatch, i64 m, i64 c, i64 n, i64 k, i64 p, bool col, void* Qw, void* Qs, void* Rw,
                   void* scratch) {
  if (nbatch == 0) return;
  CUSCI_EXPECTS(nbatch <= INT_MAX, value_error, "cusci::linalg: batch too large for one launch");
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    delete_params<T> prm{};
    prm.Q = static_cast<T*>(Qw);
    prm.Qs = static_cast<T*>(Qs);
    prm.R = static_cast<T*>(Rw);
    prm.z = static_cast<T*>(scratch);
    prm.m = m;
    prm.c = c;
    prm.n = n;
    prm.k = k;
    prm.p = p;
    prm.col = col;
    qr_delete_kernel<T><<<static_cast<unsigned>(nbatch), 256, 0, get_current_stream()>>>(prm);
    CUSCI_CHECK_LAUNCH();
  });
}

void qr_insert_run(dtype t, i64 nbatch, i64 m, i64 c, i64 n, i64 k, i64 p, bool col, void* Qw, void* Qs, i64 ldq,
                   i64 qcols, void* Rw, i64 ldr, i64 ncols, const void* U, void* scratch, double* est) {
  if (nbatch == 0 || p == 0) return;
  CUSCI_EXPECTS(nbatch <= INT_MAX, value_error, "cusci::linalg: batch too large for one launch");
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    insert_params<T> prm{};
    prm.Q = static_cast<T*>(Qw);
    prm.Qs = static_cast<T*>(Qs);
    prm.R = static_cast<T*>(Rw);
    prm.U = static_cast<const T*>(U);
    prm.z = static_cast<T*>(scratch);
    prm.est = est;
    prm.ldq = ldq;
    prm.qcols = qcols;
    prm.ldr = ldr;
    prm.ncols = ncols;
    prm.m = m;
    prm.c = c;
    prm.n = n;
    prm.k = k;
    prm.p = p;
    prm.col = col;
    qr_insert_kernel<T><<<static_cast<unsigned>(nbatch), 256, 0, get_current_stream()>>>(prm);
    CUSCI_CHECK_LAUNCH();
  });
}

void qr_eye(dtype t, i64 nbatch, i64 n, void* dst) {
  const i64 total = nbatch * n * n;
  if (total == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    eye_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(static_cast<T*>(dst), nbatch, n);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail

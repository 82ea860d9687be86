// The condition estimate of every slice of cusci::linalg::solve (solve_detail.hpp): SciPy's structure
// detection, the 1-norm and Hager/Higham's ?lacn2 estimator, one thread block a matrix. (Orders up to 32
// without a transpose take the fused estimate of small_lu.cu / small_cond.cuh instead.)

#include <climits>

#include "common/small.cuh"
#include "cusci/memory.hpp"
#include "solve/solve_detail.hpp"
namespace cusci::linalg::detail {
namespace {

using i64 = std::int64_t;

/// Element access to one matrix: structured_elem over byte strides with a fill mode.
template <class T>
struct mat_acc {
  const char* base;
  i64 sr, sc;
  int mode;
  bool lower;
  __device__ __forceinline__ T operator()(i64 i, i64 j) const {
    bool bad = false;
    return structured_elem<T>(base, sr, sc, i, j, mode, lower, bad);
  }
};

/// Sum over the block (fixed order for a fixed block size); every thread gets the result.
template <class R>
__device__ R block_sum(R v, R* sh) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(full_mask, v, off);
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
  __syncthreads();
  R r = 0;
  for (unsigned w = 0; w < blockDim.x / 32; ++w) r += sh[w];
  return r;
}

/// Largest value over the block (NaN propagates, as LAPACK's ?lange); every thread gets the result.
template <class R>
__device__ R block_max(R v, R* sh) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const R o = __shfl_down_sync(full_mask, v, off);
    if (o > v || o != o) v = o;
  }
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
  __syncthreads();
  R r = sh[0];
  for (unsigned w = 1; w < blockDim.x / 32; ++w)
    if (sh[w] > r || sh[w] != sh[w]) r = sh[w];
  return r;
}

/// First index of the largest |x_i| (BLAS i?amax / LAPACK izmax1: modulus for complex, the first on ties).
template <class T>
__device__ i64 block_argmax(const T* x, i64 n, real_t<T>* shv, i64* shi) {
  using R = real_t<T>;
  R best = R(-1);
  i64 bi = n;
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
    const R a = absval(x[i]);
    if (a > best) {
      best = a;
      bi = i;
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const R ov = __shfl_down_sync(full_mask, best, off);
    const i64 oi = __shfl_down_sync(full_mask, bi, off);
    if (ov > best || (ov == best && oi < bi)) {
      best = ov;
      bi = oi;
    }
  }
  __syncthreads();
  if ((threadIdx.x & 31) == 0) {
    shv[threadIdx.x >> 5] = best;
    shi[threadIdx.x >> 5] = bi;
  }
  __syncthreads();
  R rv = shv[0];
  i64 ri = shi[0];
  for (unsigned w = 1; w < blockDim.x / 32; ++w)
    if (shv[w] > rv || (shv[w] == rv && shi[w] < ri)) {
      rv = shv[w];
      ri = shi[w];
    }
  return ri < n ? ri : 0;
}

/// In place x := op(M)^-1 x for a triangular M (the triangle `lower`, unit diagonal when `unit`), op = M
/// or M^H; column-oriented substitution, one column per step.
template <class T>
__device__ void block_trsv(const mat_acc<T>& M, i64 n, bool lower, bool unit, bool ctrans, T* x) {
  const bool low = lower != ctrans;
  for (i64 s = 0; s < n; ++s) {
    const i64 j = low ? s : n - 1 - s;
    if (!unit && threadIdx.x == 0) {
      const T d = ctrans ? conj_elem(M(j, j)) : M(j, j);
      x[j] = x[j] / d;
    }
    __syncthreads();
    const T xj = x[j];
    for (i64 i = threadIdx.x; i < n; i += blockDim.x)
      if (low ? i > j : i < j) {
        const T e = ctrans ? conj_elem(M(j, i)) : M(i, j);
        x[i] -= e * xj;
      }
    __syncthreads();
  }
}

/// In place x := A^-1 x (`h` false, ?lacn2's kase 1) or x := A^-H x (`h` true, kase 2) through the factors
/// of `kind` (the row interchanges of lu are left out: they do not change a 1-norm, as in ?gecon).
template <class T>
__device__ void apply_inverse(int kind, const mat_acc<T>& F, i64 n, bool h, T* x) {
  switch (static_cast<cond_kind>(kind)) {
    case cond_kind::lu:
      if (!h) {
        block_trsv(F, n, true, true, false, x);
        block_trsv(F, n, false, false, false, x);
      } else {
        block_trsv(F, n, false, false, true, x);
        block_trsv(F, n, true, true, true, x);
      }
      break;
    case cond_kind::chol_l:
      block_trsv(F, n, true, false, false, x);
      block_trsv(F, n, true, false, true, x);
      break;
    case cond_kind::chol_u:
      block_trsv(F, n, false, false, true, x);
      block_trsv(F, n, false, false, false, x);
      break;
    case cond_kind::tri_u: block_trsv(F, n, false, false, h, x); break;
    case cond_kind::tri_l: block_trsv(F, n, true, false, h, x); break;
    default: break;
  }
}

/// One block a matrix: detection (kind detect), singularity of the structures read from `a`, the 1-norm
/// and the ?lacn2 estimate of ||A^-1||_1.
template <class T>
__global__ void cond_kernel(const char* a, strided_indexer aix, i64 a_sr, i64 a_sc, int mode, bool lower, int kind0,
                            const T* f, i64 f_sr, i64 f_sc, const int* finfo, i64 n, T* xs, int* isgns,
                            slice_record* rec, int* flag) {
  using R = real_t<T>;
  __shared__ R shv[32];
  __shared__ i64 shi[32];
  __shared__ int s_int[2];
  const i64 b = blockIdx.x;
  const char* abase = a + aix.offset(b);
  T* x = xs + b * n;
  int* isgn = isgns + b * n;
  int kind = kind0;

  // --- SciPy's structure detection: bandwidths of the slice (diag, triangular, else LU) ----------------
  if (kind == static_cast<int>(cond_kind::detect)) {
    if (threadIdx.x == 0) s_int[0] = s_int[1] = 0;
    __syncthreads();
    int lb = 0, ub = 0;
    for (i64 e = threadIdx.x; e < n * n; e += blockDim.x) {
      const i64 i = e / n, j = e - i * n;
      if (i != j && load_at<T>(abase, a_sr, a_sc, i, j) != T(0)) {
        if (i > j) lb = max(lb, static_cast<int>(i - j));
        else ub = max(ub, static_cast<int>(j - i));
      }
    }
    atomicMax(&s_int[0], lb);
    atomicMax(&s_int[1], ub);
    __syncthreads();
    lb = s_int[0];
    ub = s_int[1];
    if (lb == 0 && ub == 0) kind = static_cast<int>(cond_kind::diag);
    else if (lb == 1 && ub == 1 && n > 3) kind = static_cast<int>(cond_kind::lu);  // tridiagonal (?gttrf)
    else if (lb == 0) kind = static_cast<int>(cond_kind::tri_u);
    else if (ub == 0) kind = static_cast<int>(cond_kind::tri_l);
    else kind = static_cast<int>(cond_kind::lu);
    __syncthreads();
  }
  const bool reads_a = kind >= static_cast<int>(cond_kind::tri_u);
  int amode = mode;
  if (kind == static_cast<int>(cond_kind::tri_u)) amode = static_cast<int>(fill_mode::triu);
  if (kind == static_cast<int>(cond_kind::tri_l)) amode = static_cast<int>(fill_mode::tril);
  const mat_acc<T> A{abase, a_sr, a_sc, amode, lower};

  // --- singularity ----------------------------------------------------------------------------------
  int info = 0;
  if (reads_a) {
    if (threadIdx.x == 0) s_int[0] = INT_MAX;
    __syncthreads();
    for (i64 j = threadIdx.x; j < n; j += blockDim.x)
      if (A(j, j) == T(0)) atomicMin(&s_int[0], static_cast<int>(j));
    __syncthreads();
    info = s_int[0] == INT_MAX ? 0 : s_int[0] + 1;
    __syncthreads();
  } else {
    info = finfo[b];
  }
  double rcond = 0.0;
  if (info == 0 && kind == static_cast<int>(cond_kind::diag)) {
    R ma = 0, mi = 0;
    for (i64 j = threadIdx.x; j < n; j += blockDim.x) {
      const T d = A(j, j);
      ma = max(ma, absval(d));
      mi = max(mi, absval(T(1) / d));
    }
    ma = block_max(ma, shv);
    mi = block_max(mi, shv);
    rcond = static_cast<double>(ma * mi);
  } else if (info == 0) {
    // --- ||A||_1 of the matrix formed with the mode (triangle for tri_*) --------------------------
    R cmax = 0;
    for (i64 j = threadIdx.x; j < n; j += blockDim.x) {
      R s = 0;
      for (i64 i = 0; i < n; ++i) s += absval(A(i, j));
      if (s > cmax || s != s) cmax = s;
    }
    const R anorm = block_max(cmax, shv);
    const mat_acc<T> F = reads_a ? A
                                 : mat_acc<T>{reinterpret_cast<const char*>(f + b * n * n),
                                              f_sr * static_cast<i64>(sizeof(T)), f_sc * static_cast<i64>(sizeof(T)),
                                              static_cast<int>(fill_mode::full), false};
    if (anorm != anorm) {
      rcond = static_cast<double>(anorm);
    } else if (anorm > R(0)) {
      // --- Hager / Higham (?lacn2), kase 1 = A^-1, kase 2 = A^-H -----------------------------------
      constexpr R safmin = std::numeric_limits<R>::min();
      constexpr int itmax = 5;
      for (i64 i = threadIdx.x; i < n; i += blockDim.x) x[i] = T(R(1) / R(n));
      __syncthreads();
      apply_inverse(kind, F, n, false, x);
      R est;
      if (n == 1) {
        est = absval(x[0]);
      } else {
        est = 0;
        for (i64 i = threadIdx.x; i < n; i += blockDim.x) est += absval(x[i]);
        est = block_sum(est, shv);
        // x := sign(x)
        for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
          if constexpr (is_complex_v<T>) {
            const R ax = absval(x[i]);
            x[i] = ax > safmin ? T(x[i].real() / ax, x[i].imag() / ax) : T(1);
          } else {
            x[i] = x[i] >= R(0) ? R(1) : R(-1);
            isgn[i] = static_cast<int>(x[i]);
          }
        }
        __syncthreads();
        apply_inverse(kind, F, n, true, x);
        i64 j = block_argmax(x, n, shv, shi);
        int iter = 2;
        bool to120 = false;
        while (true) {
          // label 50: x = e_j, x := A^-1 x
          __syncthreads();
          for (i64 i = threadIdx.x; i < n; i += blockDim.x) x[i] = T(0);
          __syncthreads();
          if (threadIdx.x == 0) x[j] = T(1);
          __syncthreads();
          apply_inverse(kind, F, n, false, x);
          const R estold = est;
          R s = 0;
          for (i64 i = threadIdx.x; i < n; i += blockDim.x) s += absval(x[i]);
          est = block_sum(s, shv);
          if constexpr (!is_complex_v<T>) {
            bool diff = false;
            for (i64 i = threadIdx.x; i < n; i += blockDim.x)
              diff |= static_cast<int>(x[i] >= R(0) ? 1 : -1) != isgn[i];
            if (!__syncthreads_or(diff)) {
              to120 = true;  // repeated sign vector: converged
              break;
            }
          }
          if (est <= estold) {
            to120 = true;
            break;
          }
          for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
            if constexpr (is_complex_v<T>) {
              const R ax = absval(x[i]);
              x[i] = ax > safmin ? T(x[i].real() / ax, x[i].imag() / ax) : T(1);
            } else {
              x[i] = x[i] >= R(0) ? R(1) : R(-1);
              isgn[i] = static_cast<int>(x[i]);
            }
          }
          __syncthreads();
          apply_inverse(kind, F, n, true, x);
          const i64 jlast = j;
          j = block_argmax(x, n, shv, shi);
          bool again;
          if constexpr (is_complex_v<T>) again = absval(x[jlast]) != absval(x[j]);
          else again = x[jlast] != fabs(x[j]);
          __syncthreads();
          if (again && iter < itmax) {
            ++iter;
            continue;
          }
          to120 = true;
          break;
        }
        if (to120) {
          // label 120: the alternating test vector
          for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
            const R v = R(1) + R(i) / R(n - 1);
            x[i] = T((i & 1) ? -v : v);
          }
          __syncthreads();
          apply_inverse(kind, F, n, false, x);
          R s = 0;
          for (i64 i = threadIdx.x; i < n; i += blockDim.x) s += absval(x[i]);
          const R temp = R(2) * (block_sum(s, shv) / R(3 * n));
          if (temp > est) est = temp;
        }
      }
      if (est != R(0)) {
        const R rc = reads_a ? (R(1) / anorm) / est : (R(1) / est) / anorm;
        rcond = static_cast<double>(rc);
      }
    }
  }
  if (threadIdx.x == 0) {
    rec[b].info = info;
    rec[b].kind = kind;
    rec[b].rcond = rcond;
    const double eps = static_cast<double>(std::numeric_limits<R>::epsilon());
    const bool bad = info != 0 || (kind == static_cast<int>(cond_kind::diag) ? rcond > 1.0 / eps
                                                                            : (rcond != rcond || rcond < eps));
    if (bad) *flag = 1;
  }
}

}  // namespace

void solve_condition(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind, const factor_view& f,
                     i64 nbatch, i64 n, slice_record* rec, int* flag) {
  if (nbatch == 0 || n == 0) return;
  CUSCI_EXPECTS(nbatch <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg::solve: batch of " + std::to_string(nbatch) + " matrices is too large");
  const int tpb = n <= 32 ? 32 : (n <= 64 ? 64 : (n <= 128 ? 128 : 256));
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    device_buffer<T> xs(static_cast<std::size_t>(nbatch * n));
    device_buffer<int> isgn(static_cast<std::size_t>(nbatch * n));
    cond_kernel<T><<<static_cast<unsigned>(nbatch), tpb, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), batch_indexer(a), a.s_row, a.s_col, static_cast<int>(mode), lower,
        static_cast<int>(kind), static_cast<const T*>(f.data), f.s_row, f.s_col, f.info, n, xs.data(), isgn.data(),
        rec, flag);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail

#pragma once
// The medium engine for matrices of order 33..64 (nvcc only): one block of 256 threads a matrix, the
// matrix in shared memory (64 rows of 65 entries, so that rows and columns both hit distinct banks; at
// most 33 KB). Used by the lu family (factors, inverses, determinants: lu_kernels.cu) and the solve family
// (factor, solve and condition estimate in one kernel: solve/medium_lu.cu).
//
// A step of the elimination: warp 0 finds the pivot (two rows a lane, then a shuffle argmax: the first
// largest |a_ik|, |re| + |im| for complex, as LAPACK's i?amax), the rows are interchanged and column k is
// saved (a thread a column), then 4 x 64 threads update the trailing matrix, consecutive lanes on
// consecutive entries of a row. The pivots and the exact singularity test are ?getrf's; for Gauss-Jordan
// too, since the rows >= k of column k at step k are those of LU's Schur complement. (Register-resident
// variants, a row a thread in two warps, lost to this layout: docs/benchmarks.md, twenty-second table.)
// float32, float64 and complex64; complex128 (66 KB a matrix) takes the library path.

#include <climits>
#include <limits>

#include "common/small.cuh"

namespace cusci::linalg::detail::medium {

inline constexpr int W = 64;             ///< largest order
inline constexpr int LD = W + 1;         ///< row stride of the matrix in shared memory
inline constexpr int TPB = 256;          ///< threads a block (one matrix)
inline constexpr int ROWS = TPB / W;     ///< row groups of the trailing update

/// Whether the medium kernels take dtype t and order n.
inline bool fits(dtype t, std::int64_t n) {
  return n > small_max_n && n <= W && (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64);
}

/// The block's shared memory (held in raw storage: complex types have constructors).
template <class T>
struct smem {
  T a[W * LD];      ///< the matrix; after the elimination its result in position order
  T col[W];         ///< column k of the current step, saved before the update
  T pivval[W];      ///< the pivot of each step as found
  int pivrow[W];    ///< pivrow[k]: the row interchanged with row k at step k (getrf's ipiv - 1)
  int prm[W];       ///< solve: prm[k] = the original row at position k after the interchanges
  int p, info;      ///< the current pivot row; the first zero pivot's k + 1
  real_t<T> rv[2];  ///< per-warp partial results of block reductions
  int ri[4];
};

template <class T>
__device__ __forceinline__ smem<T>& shared_area() {
  __shared__ alignas(16) unsigned char raw[sizeof(smem<T>)];
  return *reinterpret_cast<smem<T>*>(raw);
}

/// Cooperative, coalesced load of matrix g (formed with p.mode / p.lower) into s.a; `bad` is set when an
/// entry is not finite. Ends with a barrier.
template <class T>
__device__ __forceinline__ void load(const small_params<T>& p, std::int64_t g, smem<T>& s, bool& bad) {
  const int n = p.n, nn = n * n;
  const char* base = p.a + p.aix.offset(g);
  for (int e = threadIdx.x; e < nn; e += TPB) {
    int i, j;
    if (p.a_rowfast) {
      j = e / n;
      i = e - j * n;
    } else {
      i = e / n;
      j = e - i * n;
    }
    s.a[i * LD + j] = structured_elem<T>(base, p.a_sr, p.a_sc, i, j, p.mode, p.lower, bad);
  }
  if (threadIdx.x == 0) s.info = 0;
  __syncthreads();
}

enum : int { det = 0, inv = 1, factor = 2 };

/// The elimination of s.a, every thread of the block: MODE factor leaves ?getf2's packed L\U (whole-row
/// interchanges; multipliers by the reciprocal of the pivot when |pivot| >= sfmin, else by division),
/// det only the trailing updates (the pivots are in s.pivval), inv in-place Gauss-Jordan (Golub & Van
/// Loan, "Matrix Computations", 4th ed., sec. 3.2.11: row k scaled by 1/p, its entry k becoming 1/p;
/// every other row i gets a_ij -= a_ik a_kj, its entry k becoming -a_ik / p; the row interchanges are
/// to be undone as column interchanges, last first). Returns ?getrf's info. Ends with a barrier.
template <class T, int MODE>
__device__ __forceinline__ int eliminate(smem<T>& s, int n) {
  using R = real_t<T>;
  constexpr bool INV = MODE == inv, FAC = MODE == factor;
  constexpr R sfmin = std::numeric_limits<R>::min();
  const int tid = threadIdx.x;
  const int tx = tid % W, ty = tid / W;
  T* a = s.a;
  for (int k = 0; k < n; ++k) {
    // A: pivot search by warp 0 over rows k..n-1 (two rows a lane), first maximum on ties.
    if (tid < 32) {
      R v = R(-1);
      int r = INT_MAX;
      for (int i = k + tid; i < n; i += 32) {
        R w = abs1(a[i * LD + k]);
        if (w != w) w = R(-0.5);  // NaN never wins over a number
        if (w > v) {
          v = w;
          r = i;
        }
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(full_mask, v, off);
        const int orow = __shfl_xor_sync(full_mask, r, off);
        if (ov > v || (ov == v && orow < r)) {
          v = ov;
          r = orow;
        }
      }
      if (tid == 0) {
        s.p = r;
        s.pivrow[k] = r;
        const T pv = a[r * LD + k];
        s.pivval[k] = pv;
        if (pv == T(0) && s.info == 0) s.info = k + 1;
      }
    }
    __syncthreads();
    const int p = s.p;
    const T pv = s.pivval[k];
    const bool zero = pv == T(0);
    const T ip = zero ? T(0) : T(1) / pv;
    // B: interchange rows k and p (thread j: column j), save column k, scale row k (Gauss-Jordan).
    if (tid < n) {
      const int j = tid;
      if (j == k) s.col[p] = a[k * LD + k];  // column k's entry that moves to row p
      else if (j != p) s.col[j] = a[j * LD + k];
      if (INV || FAC || j >= k) {
        if (p != k) {
          const T t = a[k * LD + j];
          a[k * LD + j] = a[p * LD + j];
          a[p * LD + j] = t;
        }
        if (INV && !zero) a[k * LD + j] = j == k ? ip : a[k * LD + j] * ip;
      }
    }
    __syncthreads();
    // D: the update. Thread (ty, tx) updates column tx of rows ty, ty + 4, ...: a_kj is loaded once a
    // step, col[i] is a broadcast, consecutive lanes touch consecutive entries of a row (no bank conflict).
    if (!zero && tx < n) {
      const int j = tx;
      const T akj = a[k * LD + j];
      if constexpr (INV) {
        for (int i = ty; i < n; i += ROWS) {
          if (i == k) continue;
          const T f = s.col[i];
          a[i * LD + j] = j == k ? -(f * akj) : a[i * LD + j] - f * akj;
        }
      } else if constexpr (FAC) {
        // Thread column k stores the multipliers, the others update with them (read from col, so no race
        // on column k).
        if (j >= k) {
          const bool recip = absval(pv) >= sfmin;
          for (int i = k + 1 + ty; i < n; i += ROWS) {
            const T l = recip ? s.col[i] * ip : s.col[i] / pv;
            if (j == k) a[i * LD + k] = l;
            else a[i * LD + j] -= l * akj;
          }
        }
      } else if (j > k) {
        for (int i = k + 1 + ty; i < n; i += ROWS) a[i * LD + j] -= (s.col[i] * ip) * akj;
      }
    }
    __syncthreads();
  }
  return s.info;
}

}  // namespace cusci::linalg::detail::medium

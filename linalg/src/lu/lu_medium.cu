// One thread block per matrix, for orders 33..64 (float32, float64, complex64: the matrix fits 33 KB of
// shared memory): packed LU factors and determinants by LU (?getf2's right-looking steps), inverses by
// Gauss-Jordan elimination, all with LAPACK ?getrf's
// partial pivoting (the first largest |a_ik|, |re| + |im| for complex), so the pivots and the exact
// singularity test match getrf. Replaces getrfBatched (+ getriBatched) for batches of such matrices,
// whose per-step launch and global-memory traffic dominate at these sizes.
//
// Gauss-Jordan in place (Golub & Van Loan, "Matrix Computations", 4th ed., sec. 3.2.11 / the classical
// in-place inversion): at step k, after the row interchange, row k is scaled by 1/p (entry k becomes
// 1/p) and every other row i gets a_ij -= a_ik a_kj (entry k becomes -a_ik / p); at the end the row
// interchanges are undone as column interchanges in reverse order. The rows >= k of column k at step k
// are those of LU's Schur complement, hence the same pivots.

#include <climits>
#include <limits>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "lu/lu_engine.hpp"

namespace cusci::linalg::detail {
namespace {

using i64 = std::int64_t;
constexpr int med_max = 64;
constexpr int med_ld = med_max + 1;  // padded row length: column accesses hit distinct banks
constexpr int med_tpb = 256;
constexpr int med_rows = med_tpb / med_max;  // row groups of the elimination (4 x 64 threads)

template <class T>
struct wide_t {
  using type = double;
};
template <class R>
struct wide_t<cuda::std::complex<R>> {
  using type = cuda::std::complex<double>;
};

enum : int { med_det = 0, med_inv = 1, med_factor = 2 };

/// MODE med_inv: out = C-order inverse; med_det: out = determinant (float64 / complex128); med_factor:
/// out = C-order packed factors (getrf's), piv = 0-based pivots.
template <class T, int MODE>
__global__ void __launch_bounds__(med_tpb)
    medium_kernel(const char* src, strided_indexer bix, i64 sr, i64 sc, bool rowfast, int n, int mode, bool lower,
                  bool check, void* out, int* piv, int* info, int* status) {
  using R = real_t<T>;
  constexpr bool INV = MODE == med_inv, FAC = MODE == med_factor;
  constexpr R sfmin = std::numeric_limits<R>::min();
  __shared__ alignas(16) unsigned char raw[med_max * med_ld * sizeof(T)];
  __shared__ T col[med_max];
  __shared__ T pivval[med_max];
  __shared__ int pivrow[med_max];
  __shared__ int s_p, s_info;
  T* a = reinterpret_cast<T*>(raw);
  const i64 b = blockIdx.x;
  const int tid = threadIdx.x;
  const int tx = tid % med_max, ty = tid / med_max;
  const int nn = n * n;

  bool bad = false;
  const char* base = src + bix.offset(b);
  for (int e = tid; e < nn; e += med_tpb) {
    int i, j;
    if (rowfast) {
      j = e / n;
      i = e - j * n;
    } else {
      i = e / n;
      j = e - i * n;
    }
    a[i * med_ld + j] = structured_elem<T>(base, sr, sc, i, j, mode, lower, bad);
  }
  if (tid == 0) s_info = 0;
  __syncthreads();

  for (int k = 0; k < n; ++k) {
    // A: pivot search by warp 0 over rows k..n-1 (two rows a lane), first maximum on ties.
    if (tid < 32) {
      R v = R(-1);
      int r = INT_MAX;
      for (int i = k + tid; i < n; i += 32) {
        R w = abs1(a[i * med_ld + k]);
        if (w != w) w = R(-0.5);  // NaN never wins over a number
        if (w > v) {
          v = w;
          r = i;
        }
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(0xffffffffu, v, off);
        const int orow = __shfl_xor_sync(0xffffffffu, r, off);
        if (ov > v || (ov == v && orow < r)) {
          v = ov;
          r = orow;
        }
      }
      if (tid == 0) {
        s_p = r;
        pivrow[k] = r;
        const T pv = a[r * med_ld + k];
        pivval[k] = pv;
        if (pv == T(0) && s_info == 0) s_info = k + 1;
      }
    }
    __syncthreads();
    const int p = s_p;
    const T pv = pivval[k];
    const bool zero = pv == T(0);
    const T ip = zero ? T(0) : T(1) / pv;
    // B: interchange rows k and p (thread j: column j), save column k, scale row k (Gauss-Jordan).
    if (tid < n) {
      const int j = tid;
      if (j == k) col[p] = a[k * med_ld + k];  // column k's entry that moves to row p
      else if (j != p) col[j] = a[j * med_ld + k];
      if (INV || FAC || j >= k) {
        if (p != k) {
          const T t = a[k * med_ld + j];
          a[k * med_ld + j] = a[p * med_ld + j];
          a[p * med_ld + j] = t;
        }
        if (INV && !zero) a[k * med_ld + j] = j == k ? ip : a[k * med_ld + j] * ip;
      }
    }
    __syncthreads();
    // D: elimination. Thread (ty, tx) updates column tx of rows ty, ty + 4, ...: a_kj is loaded once a
    // step, col[i] is a broadcast, consecutive lanes touch consecutive entries of a row (no bank conflict).
    if (!zero && tx < n) {
      const int j = tx;
      const T akj = a[k * med_ld + j];
      if constexpr (INV) {
        for (int i = ty; i < n; i += med_rows) {
          if (i == k) continue;
          const T f = col[i];
          a[i * med_ld + j] = j == k ? -(f * akj) : a[i * med_ld + j] - f * akj;
        }
      } else if constexpr (FAC) {
        // ?getf2: multipliers by the reciprocal when |pivot| >= sfmin, else by division; thread column k
        // stores them, the others update with them (read from col, so no race on column k).
        if (j >= k) {
          const bool recip = absval(pv) >= sfmin;
          for (int i = k + 1 + ty; i < n; i += med_rows) {
            const T l = recip ? col[i] * ip : col[i] / pv;
            if (j == k) a[i * med_ld + k] = l;
            else a[i * med_ld + j] -= l * akj;
          }
        }
      } else if (j > k) {
        for (int i = k + 1 + ty; i < n; i += med_rows) a[i * med_ld + j] -= (col[i] * ip) * akj;
      }
    }
    __syncthreads();
  }

  if constexpr (INV) {
    // Undo the interchanges as column interchanges, last first; thread i owns row i.
    for (int i = tid; i < n; i += med_tpb) {
      for (int k = n - 1; k >= 0; --k) {
        const int p = pivrow[k];
        if (p != k) {
          const T t = a[i * med_ld + k];
          a[i * med_ld + k] = a[i * med_ld + p];
          a[i * med_ld + p] = t;
        }
      }
    }
    __syncthreads();
    T* o = static_cast<T*>(out) + b * nn;
    for (int e = tid; e < nn; e += med_tpb) {
      const int i = e / n, j = e - i * n;
      o[e] = a[i * med_ld + j];
    }
  } else if constexpr (FAC) {
    T* o = static_cast<T*>(out) + b * nn;
    for (int e = tid; e < nn; e += med_tpb) {
      const int i = e / n, j = e - i * n;
      o[e] = a[i * med_ld + j];
    }
    for (int i = tid; i < n; i += med_tpb) piv[b * n + i] = pivrow[i];
  } else if (tid == 0) {
    using W = typename wide_t<T>::type;
    T d = T(1);
    bool neg = false;
    for (int i = 0; i < n; ++i) {
      d = d * pivval[i];
      if (pivrow[i] != i) neg = !neg;
    }
    if (neg) d = -d;
    if constexpr (is_complex_v<T>) static_cast<W*>(out)[b] = W(d.real(), d.imag());
    else static_cast<W*>(out)[b] = W(d);
  }
  if (check && bad) status[0] = 1;
  if (tid == 0) {
    if (info) info[b] = s_info;
    if (s_info != 0 && status) status[1] = 1;
  }
}

template <class T, int MODE>
void launch_medium(const batch_view& a, fill_mode mode, bool lower, i64 nbatch, int n, bool check, void* out,
                   int* piv, int* info, int* status) {
  CUSCI_EXPECTS(nbatch <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg: batch of " + std::to_string(nbatch) + " matrices is too large");
  const bool rowfast = (a.s_row < 0 ? -a.s_row : a.s_row) < (a.s_col < 0 ? -a.s_col : a.s_col);
  medium_kernel<T, MODE><<<static_cast<unsigned>(nbatch), med_tpb, 0, get_current_stream()>>>(
      static_cast<const char*>(a.data), batch_indexer(a), a.s_row, a.s_col, rowfast, n, static_cast<int>(mode), lower,
      check, out, piv, info, status);
  CUSCI_CHECK_LAUNCH();
}

template <int MODE>
void medium(dtype t, const batch_view& a, fill_mode mode, bool lower, i64 nbatch, int n, bool check, void* out,
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

bool medium_fits(dtype t, std::int64_t n) {
  return n > lu_small_max && n <= med_max && (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64);
}

void medium_inv(dtype t, const batch_view& a, fill_mode mode, bool lower, std::int64_t nbatch, std::int64_t n,
                bool check, void* out, int* info, int* status) {
  if (nbatch == 0) return;
  medium<med_inv>(t, a, mode, lower, nbatch, static_cast<int>(n), check, out, nullptr, info, status);
}

void medium_det(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* det,
                int* status) {
  if (nbatch == 0) return;
  medium<med_det>(t, a, fill_mode::full, false, nbatch, static_cast<int>(n), check, det, nullptr, nullptr, status);
}

void medium_factor(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool check, void* lu, int* piv,
                   int* info, int* status) {
  if (nbatch == 0) return;
  medium<med_factor>(t, a, fill_mode::full, false, nbatch, static_cast<int>(n), check, lu, piv, info, status);
}

}  // namespace cusci::linalg::detail

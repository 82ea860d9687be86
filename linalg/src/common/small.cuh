#pragma once
// Register-resident factorizations for matrices of order n <= 32 (nvcc only).
//
// Layout: a group of W = max(4, next_pow2(n)) consecutive lanes of a warp owns one matrix; lane i of the
// group holds row i in registers (`row[W]`, statically indexed, so it stays in registers), 32 / W
// matrices per warp. Matrices are staged through shared memory (W x (W + 1) per group) so that global
// reads are coalesced for any layout. Every lane of a warp executes every shuffle (groups past the
// batch end and lanes past n compute on zeros), so full-mask shuffles are always legal.

#include <type_traits>
#include <cuda/std/complex>

#include <cstdint>
#include <limits>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"

namespace cusci::linalg::detail {

inline constexpr unsigned full_mask = 0xffffffffu;

/// Threads per block: 4 warps, 2 for 16-byte types, so the static staging area stays at 34 KB.
template <class T> inline constexpr int small_tpb = sizeof(T) > 8 ? 64 : 128;

template <class T>
struct small_params {
  const char* a = nullptr;
  strided_indexer aix{};
  std::int64_t a_sr = 0, a_sc = 0;
  bool a_rowfast = false;  // reading along i is the cheap direction (F-like layout)
  const char* b = nullptr;
  strided_indexer bix{};
  std::int64_t b_sr = 0, b_sc = 0;
  std::int64_t nbatch = 0;
  int n = 0;
  std::int64_t nrhs = 0;
  int mode = 0;
  bool lower = false;
  bool check = true;
  T* x = nullptr;
  int* info = nullptr;
  int* status = nullptr;
};

template <class T>
small_params<T> make_small_params(const batch_view& a, fill_mode mode, bool lower, const batch_view* b,
                                  std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x, int* info,
                                  int* status) {
  small_params<T> p;
  p.a = static_cast<const char*>(a.data);
  p.aix = batch_indexer(a);
  p.a_sr = a.s_row;
  p.a_sc = a.s_col;
  p.a_rowfast = (a.s_row < 0 ? -a.s_row : a.s_row) < (a.s_col < 0 ? -a.s_col : a.s_col);
  if (b) {
    p.b = static_cast<const char*>(b->data);
    p.bix = batch_indexer(*b);
    p.b_sr = b->s_row;
    p.b_sc = b->s_col;
  }
  p.nbatch = nbatch;
  p.n = n;
  p.nrhs = nrhs;
  p.mode = static_cast<int>(mode);
  p.lower = lower;
  p.check = check;
  p.x = static_cast<T*>(x);
  p.info = info;
  p.status = status;
  return p;
}

/// Lane (within the group) of the single lane whose `pred` holds.
template <int W>
__device__ __forceinline__ int group_lane_of(bool pred, int gbase) {
  unsigned bal = __ballot_sync(full_mask, pred);
  if constexpr (W < 32) bal = (bal >> gbase) & ((1u << W) - 1u);
  const int l = __ffs(bal) - 1;
  return l < 0 ? 0 : l;
}

template <class T>
__device__ __forceinline__ T scale_by(const T& v, real_t<T> s) {
  if constexpr (is_complex_v<T>) return T(v.real() * s, v.imag() * s);
  else return v * s;
}

/// Cooperative, coalesced load of matrix g (formed with `mode`) into the group's staging area `sg`.
template <class T, int W>
__device__ __forceinline__ void load_group(const small_params<T>& p, std::int64_t g, int gl, T* sg, int mode,
                                           bool& bad) {
  const int n = p.n;
  const char* base = p.a + p.aix.offset(g);
  const int nn = n * n;
  for (int e = gl; e < nn; e += W) {
    int i, j;
    if (p.a_rowfast) {
      j = e / n;
      i = e - j * n;
    } else {
      i = e / n;
      j = e - i * n;
    }
    sg[i * (W + 1) + j] = structured_elem<T>(base, p.a_sr, p.a_sc, i, j, mode, p.lower, bad);
  }
}

/// One lane's place in a batched small kernel: W lanes (a group) hold one matrix, one row a lane.
template <class T, int W>
struct small_lane {
  int gl;          ///< lane within its group = the row of the matrix this lane holds
  int gbase;       ///< first lane of the group within the warp
  std::int64_t g;  ///< index of the group's matrix in the batch
  bool valid;      ///< g < nbatch
  bool real_row;   ///< gl < n (lanes past n hold padding)
  T* sg;           ///< the group's staging area in shared memory: W rows of W + 1 entries
};

/// The calling lane's place, for a block of TPB threads whose shared staging memory is `sm`.
template <class T, int W, int TPB>
__device__ __forceinline__ small_lane<T, W> small_lane_of(T* sm, const small_params<T>& p) {
  small_lane<T, W> L;
  const int lane = threadIdx.x & 31;
  L.gl = lane & (W - 1);
  L.gbase = lane - L.gl;
  L.g = static_cast<std::int64_t>(blockIdx.x) * (TPB / W) + threadIdx.x / W;
  L.valid = L.g < p.nbatch;
  L.real_row = L.gl < p.n;
  L.sg = sm + static_cast<std::size_t>(threadIdx.x - L.gl) * (W + 1);
  return L;
}

/// Loads the lane's matrix (formed with `mode`) and leaves its row in `row` (zero padding past n).
/// `bad` is set when a loaded entry is not finite.
template <class T, int W>
__device__ __forceinline__ void load_rows(const small_params<T>& p, const small_lane<T, W>& L, int mode, T (&row)[W],
                                          bool& bad) {
  if (L.valid) load_group<T, W>(p, L.g, L.gl, L.sg, mode, bad);
  __syncwarp();
#pragma unroll
  for (int j = 0; j < W; ++j) row[j] = (L.valid && L.real_row && j < p.n) ? L.sg[L.gl * (W + 1) + j] : T(0);
}

/// Raises the non-finite flag and records the matrix's info code (and the failure flag when non-zero).
template <class T, int W>
__device__ __forceinline__ void store_status(const small_params<T>& p, const small_lane<T, W>& L, bool bad, int info) {
  if (p.check && bad) p.status[0] = 1;
  if (L.valid && L.gl == 0) {
    p.info[L.g] = info;
    if (info != 0) p.status[1] = 1;
  }
}

/// Right-looking Cholesky (lower, A = L L^H) of the group's matrix held row-wise in `row`; returns
/// LAPACK potrf's info (order of the first leading minor that is not positive definite, 0 if none).
/// Entries row[j], j > lane, are left unspecified.
template <class T, int W>
__device__ __forceinline__ int chol_factor(T (&row)[W], int gl, int n) {
  using R = real_t<T>;
  const bool real_row = gl < n;
  int info = 0;
#pragma unroll
  for (int k = 0; k < W; ++k) {
    if (k < n) {
      const R d = real_part(shfl(row[k], k, W));
      if (info == 0 && !(d > R(0))) info = k + 1;
      const R ljj = sqrt(d);
      if (gl == k) row[k] = T(ljj);
      else if (real_row && gl > k) row[k] = scale_by(row[k], R(1) / ljj);
      const T lik = row[k];
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T ljk = shfl(row[k], j, W);
        if (real_row && gl >= j) row[j] -= lik * conj_elem(ljk);
      }
    }
  }
  return info;
}

/// Order of the staging group for n: 4, 8, 16 or 32.
inline int small_width(int n) { return n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : 32; }

template <class T, int W, class Kernel, class... Extra>
void launch_small(Kernel kernel, const small_params<T>& p, const Extra&... extra) {
  constexpr int tpb = small_tpb<T>;
  constexpr std::int64_t per_block = tpb / W;
  const std::int64_t grid = (p.nbatch + per_block - 1) / per_block;
  CUSCI_EXPECTS(grid <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg: batch of " + std::to_string(p.nbatch) + " matrices is too large");
  if (grid == 0) return;
  kernel<<<static_cast<unsigned>(grid), tpb, 0, get_current_stream()>>>(p, extra...);
  CUSCI_CHECK_LAUNCH();
}

/// Launches the width-W instantiation of a kernel family for p.n (W = small_width(p.n)):
/// `kernel_for(std::integral_constant<int, W>{})` returns the kernel for lane-group width W; the kernel
/// takes p and then `extra`.
template <class T, class KernelFor, class... Extra>
void launch_for_width(const small_params<T>& p, KernelFor kernel_for, const Extra&... extra) {
  switch (small_width(p.n)) {
    case 4: launch_small<T, 4>(kernel_for(std::integral_constant<int, 4>{}), p, extra...); break;
    case 8: launch_small<T, 8>(kernel_for(std::integral_constant<int, 8>{}), p, extra...); break;
    case 16: launch_small<T, 16>(kernel_for(std::integral_constant<int, 16>{}), p, extra...); break;
    default: launch_small<T, 32>(kernel_for(std::integral_constant<int, 32>{}), p, extra...); break;
  }
}

}  // namespace cusci::linalg::detail

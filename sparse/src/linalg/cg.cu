// scipy.sparse.linalg.cg on the device: SciPy 1.18's iteration, with the vector updates and dot
// products fused into three kernels an iteration (p update; q = A p with p.q; x, r update with r.r
// and r.z) when A is a CSR matrix and M is none or diagonal, and a single host read of |r|^2 an
// iteration from pinned memory, overlapped with the next iteration's first two kernels.
//
// Also the CSR SpMV kernels of csr_matrix::dot: for matrices with short rows ("CSR-stream",
// Greathouse & Daga, "Efficient sparse matrix-vector multiplication on GPUs using the CSR storage
// format", SC 2014): a block takes 256 consecutive rows, multiplies all their entries with coalesced
// loads into shared memory, then each thread adds up its own row; and for small matrices with longer
// rows (at most 2^21 entries), G lanes a row (G the power of two >= the mean row length, <= 32) adding
// the row's products with a shuffle reduction ("CSR-vector", Bell & Garland, SC 2009).

#include "cusci/detail/checks.hpp"
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/stream.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse {
namespace {

constexpr int kBlock = 256;
// Device scalars of the iteration, in float64.
enum slot : int { RHO = 0, RHO_PREV = 1, PQ = 2, RR = 3, BB = 4, n_slots = 8 };

using linalg::solver_detail::contiguous_vector;
using linalg::solver_detail::grid_reduce;
using linalg::solver_detail::sm_count;

// q = A p and s[PQ] = p.q; G lanes per row (G a power of two <= 32). The row loop runs the same number
// of times in every lane of a warp so that the shuffles are converged.
// Without DOT (csr_matrix::dot's vector kernel), only q = A p.
template <class T, class I, int G, bool DOT = true>
__global__ void __launch_bounds__(kBlock) k_spmv_dot(std::int64_t m, const I* __restrict__ indptr,
                                                     const I* __restrict__ indices, const T* __restrict__ data,
                                                     const T* __restrict__ p, T* __restrict__ q, double* partials,
                                                     unsigned* counter, double* s) {
  constexpr int gpw = 32 / G;  // rows per warp and pass
  const std::int64_t tid = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t group = tid / G;
  const int lane = static_cast<int>(tid % G);
  const std::int64_t ngroups = static_cast<std::int64_t>(gridDim.x) * blockDim.x / G;
  const std::int64_t warp_first = group - group % gpw;
  double acc = 0.0;
  for (std::int64_t base = warp_first; base < m; base += ngroups) {
    const std::int64_t row = base + group % gpw;
    T sum = T(0);
    if (row < m) {
      const std::int64_t b = indptr[row], e = indptr[row + 1];
      for (std::int64_t j = b + lane; j < e; j += G) sum += data[j] * p[indices[j]];
    }
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o, G);
    if (lane == 0 && row < m) {
      q[row] = sum;
      if constexpr (DOT) acc += static_cast<double>(p[row]) * static_cast<double>(sum);
    }
  }
  if constexpr (DOT) {
    double v[1] = {acc};
    grid_reduce<1>(v, partials, counter, [s](const double* t) { s[PQ] = t[0]; });
  }
}

// CSR-stream SpMV: y = A x, and with DOT s[PQ] = x.y (x is p in cg). Tiles of kRows consecutive
// rows, taken by the blocks in a grid-stride loop (so that the partial sums are one per block). When a
// tile has at most `cap` entries (the dynamic shared memory holds cap values of T), its entries are
// read with coalesced loads, U independent ones per thread in flight, their products data[j] *
// x[indices[j]] stored in shared memory, and thread t sums row row0 + t from there in column order
// (the order of SciPy's csr_matvec). A tile with more entries (long rows) is done from global memory:
// short rows a thread each, long rows a warp each.
// The tile branch is uniform over the block (nb, ne are the same for every thread), so the barriers
// inside it are safe.
constexpr int kRows = 256;   // rows per tile = threads per block
constexpr int kUnroll = 4;   // independent entries per thread in flight
constexpr double kStreamMaxAvg = 10.0;  // mean row length up to which the stream kernel is used
// Entries up to which csr_matrix::dot takes the vector kernel (G lanes a row, one launch) for longer
// rows: there a product is a few microseconds of latency, which cuSPARSE's call overhead exceeds.
constexpr std::int64_t kVectorMaxNnz = std::int64_t{1} << 21;

// At least 6 resident blocks: 40 registers, enough to keep the loads of kUnroll entries in flight
// (at 32 registers, 8 blocks, the compiler serialises them two at a time). U and MINB other than the
// defaults are tuning variants, selectable for benchmarks (set_spmv_backend 3 and 4).
template <class T, class I, bool DOT, int U = kUnroll, int MINB = 6>
__global__ void __launch_bounds__(kRows, MINB)
    k_csr_stream(std::int64_t m, std::int64_t ntiles, int cap, const I* __restrict__ indptr,
                 const I* __restrict__ indices, const T* __restrict__ data, const T* __restrict__ x, T* __restrict__ y,
                 double* partials, unsigned* counter, double* s) {
  extern __shared__ double smem_d[];  // double: alignment for either T
  T* prod = reinterpret_cast<T*>(smem_d);
  const int tid = threadIdx.x, lane = tid & 31;
  double acc = 0.0;
  for (std::int64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
    const std::int64_t row0 = tile * kRows;
    const std::int64_t rend = row0 + kRows < m ? row0 + kRows : m;
    const std::int64_t row = row0 + tid;
    const std::int64_t nb = indptr[row0], ne = indptr[rend];
    std::int64_t rb = 0, re = 0;
    if (row < m) {
      rb = indptr[row];
      re = indptr[row + 1];
    }
    const std::int64_t cnt = ne - nb;
    if (cnt <= cap) {
      const int c = static_cast<int>(cnt);
      const I* __restrict__ ind_t = indices + nb;
      const T* __restrict__ val_t = data + nb;
      // The loads are unconditional (past the end: the tile's last entry again, c >= 1 in the loop) so
      // that all of them are issued before the first result is needed; only the stores are guarded.
      for (int k0 = 0; k0 < c; k0 += kRows * U) {
        I col[U];
        T val[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int k = min(k0 + u * kRows + tid, c - 1);
          col[u] = __ldcs(ind_t + k);  // streamed once: evict-first, so that x stays in L2
          val[u] = __ldcs(val_t + k);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) val[u] *= x[col[u]];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int k = k0 + u * kRows + tid;
          if (k < c) prod[k] = val[u];
        }
      }
      __syncthreads();
      if (row < m) {
        T sum = T(0);
        for (int k = static_cast<int>(rb - nb), e = static_cast<int>(re - nb); k < e; ++k) sum += prod[k];
        y[row] = sum;
        if constexpr (DOT) acc += static_cast<double>(x[row]) * static_cast<double>(sum);
      }
      __syncthreads();  // prod is rewritten by the next tile
    } else {
      // Thread per row for rows of at most kShortRow entries (column order, as above); each warp then
      // takes its longer rows one at a time, 32 lanes a row. The ballot mask is the same in every lane,
      // so the loop and its shuffles are converged.
      constexpr int kShortRow = 16;
      const bool is_long = re - rb > kShortRow;
      T sum = T(0);
      if (!is_long)
        for (std::int64_t j = rb; j < re; ++j) sum += data[j] * x[indices[j]];
      for (unsigned mask = __ballot_sync(0xffffffffu, is_long); mask != 0u; mask &= mask - 1u) {
        const int src = __ffs(static_cast<int>(mask)) - 1;
        const std::int64_t b = __shfl_sync(0xffffffffu, rb, src), e = __shfl_sync(0xffffffffu, re, src);
        T part = T(0);
        for (std::int64_t j = b + lane; j < e; j += 32) part += data[j] * x[indices[j]];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) part += __shfl_xor_sync(0xffffffffu, part, o);
        if (lane == src) sum = part;
      }
      if (row < m) {
        y[row] = sum;
        if constexpr (DOT) acc += static_cast<double>(x[row]) * static_cast<double>(sum);
      }
    }
  }
  if constexpr (DOT) {
    double v[1] = {acc};
    grid_reduce<1>(v, partials, counter, [s](const double* t) { s[PQ] = t[0]; });
  }
}

// Launch configuration of k_csr_stream for an m-row matrix with nnz entries.
struct stream_config {
  std::int64_t ntiles = 0;
  int cap = 0;
  std::size_t smem = 0;
  unsigned grid = 1;
};

template <class T, class I, bool DOT, int U = kUnroll, int MINB = 6>
stream_config stream_setup(std::int64_t m, std::int64_t nnz) {
  stream_config c;
  c.ntiles = (m + kRows - 1) / kRows;
  // Room for 1.25 times the mean tile, at least 2 entries a row, rounded to 32; at most 47 KiB (the
  // block's static shared memory, under 1 KiB, and this stay within the default 48 KiB limit).
  const double avg = m > 0 ? static_cast<double>(nnz) / static_cast<double>(m) : 0.0;
  std::int64_t cap = static_cast<std::int64_t>(1.25 * avg * kRows) + 32;
  if (cap < 2 * kRows) cap = 2 * kRows;
  cap = (cap + 31) / 32 * 32;
  const std::int64_t max_cap = (47 * 1024) / static_cast<std::int64_t>(sizeof(T));
  if (cap > max_cap) cap = max_cap;
  c.cap = static_cast<int>(cap);
  c.smem = static_cast<std::size_t>(cap) * sizeof(T);
  // Resident blocks per SM for this shared memory size, cached per device (SpMV calls are frequent).
  static std::mutex mu;
  static std::map<std::pair<int, std::size_t>, int> per_sm_cache;
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  int per_sm = 0;
  {
    std::lock_guard<std::mutex> lk(mu);
    auto it = per_sm_cache.find({dev, c.smem});
    if (it != per_sm_cache.end()) per_sm = it->second;
  }
  if (per_sm == 0) {
    CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_csr_stream<T, I, DOT, U, MINB>, kRows,
                                                                 c.smem));
    if (per_sm < 1) per_sm = 1;
    std::lock_guard<std::mutex> lk(mu);
    per_sm_cache[{dev, c.smem}] = per_sm;
  }
  const std::int64_t max_blocks = static_cast<std::int64_t>(sm_count()) * per_sm;
  std::int64_t g = c.ntiles < max_blocks ? c.ntiles : max_blocks;
  c.grid = static_cast<unsigned>(g > 0 ? g : 1);
  return c;
}

// MODE 0: M = I (z = r); 1: M = diag(d) (z = d r); 2: general M (z given, r.z computed elsewhere).
// With `apply`: alpha = s[RHO] / s[PQ]; x += alpha p; r -= alpha q. Then s[RR] = r.r and, for MODE
// 0/1, s[RHO_PREV] = s[RHO], s[RHO] = r.z.
template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_update(std::int64_t n, bool apply, T* __restrict__ x, T* __restrict__ r,
                                                   const T* __restrict__ p, const T* __restrict__ q,
                                                   const T* __restrict__ d, double* partials, unsigned* counter,
                                                   double* s) {
  const T alpha = apply ? static_cast<T>(s[RHO] / s[PQ]) : T(0);
  double rr = 0.0, rz = 0.0;
  // Two elements a thread and pass (i and i + stride), loaded before either is stored, for more
  // loads in flight; past the end j is i again (loaded twice, stored once).
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += 2 * stride) {
    const bool two = i + stride < n;
    const std::int64_t j = two ? i + stride : i;
    T ri = r[i], rj = r[j];
    if (apply) {
      const T xi = x[i], xj = x[j], pi = p[i], pj = p[j], qi = q[i], qj = q[j];
      x[i] = xi + alpha * pi;
      ri -= alpha * qi;
      r[i] = ri;
      if (two) {
        x[j] = xj + alpha * pj;
        rj -= alpha * qj;
        r[j] = rj;
      }
    }
    rr += static_cast<double>(ri) * static_cast<double>(ri);
    if (two) rr += static_cast<double>(rj) * static_cast<double>(rj);
    if constexpr (MODE == 1) {
      const T di = d[i], dj = d[j];
      rz += static_cast<double>(ri) * static_cast<double>(di * ri);
      if (two) rz += static_cast<double>(rj) * static_cast<double>(dj * rj);
    }
  }
  double v[2] = {rr, rz};
  grid_reduce<2>(v, partials, counter, [s](const double* t) {
    s[RR] = t[0];
    if constexpr (MODE != 2) {
      s[RHO_PREV] = s[RHO];
      s[RHO] = MODE == 0 ? t[0] : t[1];
    }
  });
}

// p = z + beta p with beta = s[RHO] / s[RHO_PREV]; the first iteration sets p = z.
template <class T, int MODE>
__global__ void __launch_bounds__(kBlock, 2048 / kBlock)
    k_update_p(std::int64_t n, bool first, T* __restrict__ p, const T* __restrict__ r, const T* __restrict__ d,
               const T* __restrict__ z, const double* s) {
  const T beta = first ? T(0) : static_cast<T>(s[RHO] / s[RHO_PREV]);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += 2 * stride) {
    const bool two = i + stride < n;  // as in k_update: j = i past the end
    const std::int64_t j = two ? i + stride : i;
    const T zi = MODE == 0 ? r[i] : (MODE == 1 ? d[i] * r[i] : z[i]);
    const T zj = MODE == 0 ? r[j] : (MODE == 1 ? d[j] * r[j] : z[j]);
    const T pi = first ? T(0) : p[i], pj = first ? T(0) : p[j];
    p[i] = first ? zi : pi * beta + zi;
    if (two) p[j] = first ? zj : pj * beta + zj;
  }
}

// s[slot] = a.b; with `shift`, s[RHO_PREV] = s[RHO] first.
template <class T>
__global__ void __launch_bounds__(kBlock) k_dot(std::int64_t n, const T* __restrict__ a, const T* __restrict__ b,
                                                double* partials, unsigned* counter, double* s, int slot, bool shift) {
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    acc += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  double v[1] = {acc};
  grid_reduce<1>(v, partials, counter, [=](const double* t) {
    if (shift) s[RHO_PREV] = s[RHO];
    s[slot] = t[0];
  });
}

template <class T>
__global__ void k_residual(std::int64_t n, const T* __restrict__ b, const T* __restrict__ ax, T* __restrict__ r) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    r[i] = b[i] - ax[i];
}

template <class T>
__global__ void k_diag_mul(std::int64_t n, const T* __restrict__ d, const T* __restrict__ x, T* __restrict__ y) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = d[i] * x[i];
}

template <class T>
__global__ void k_reciprocal(std::int64_t n, const T* __restrict__ a, T* __restrict__ y) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = T(1) / a[i];
}

using cusci::detail::shape_str;

// The solver for one value dtype T and CSR index type I (I unused when A is not a CSR matrix).
template <class T, class I>
struct cg_solver {
  const linalg::linear_operator& A;
  const linalg::cg_options& o;
  dtype xt;
  std::int64_t n;
  cudaStream_t st;
  unsigned vec_grid, spmv_grid;
  int group = 1;
  bool use_stream = false;  // CSR-stream SpMV (short rows) instead of G lanes per row
  stream_config sc;
  device_buffer<double> s, partials;
  device_buffer<unsigned> counter;

  cg_solver(const linalg::linear_operator& a, const linalg::cg_options& opt, dtype t, std::int64_t nn)
      : A(a), o(opt), xt(t), n(nn), st(get_current_stream()) {
    const std::int64_t max_blocks = static_cast<std::int64_t>(sm_count()) * (2048 / kBlock);
    vec_grid = cusci::detail::grid_for(n, kBlock, max_blocks);
    spmv_grid = 1;
    if (const csr_matrix* c = A.csr()) {
      const double avg = n > 0 ? static_cast<double>(c->nnz()) / static_cast<double>(n) : 1.0;
      if (avg <= kStreamMaxAvg) {
        use_stream = true;
        sc = stream_setup<T, I, true>(n, c->nnz());
        spmv_grid = sc.grid;
      } else {
        group = 1;
        while (group < 32 && group < avg) group *= 2;
        spmv_grid = cusci::detail::grid_for(n * group, kBlock, max_blocks);
      }
    }
    const unsigned g = vec_grid > spmv_grid ? vec_grid : spmv_grid;
    s = device_buffer<double>(n_slots, st);
    partials = device_buffer<double>(2 * static_cast<std::size_t>(g), st);
    counter = device_buffer<unsigned>(1, st);
    CUSCI_CUDA_TRY(cudaMemsetAsync(s.data(), 0, n_slots * sizeof(double), st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
  }

  // Grid of k_update<T, MODE>: at most the blocks that are resident at once (it uses more registers
  // than the other vector kernels), so that no second wave of blocks starts late.
  template <int MODE>
  unsigned update_grid() const {
    int per_sm = 0;
    CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_update<T, MODE>, kBlock, 0));
    const std::int64_t g = static_cast<std::int64_t>(sm_count()) * (per_sm > 0 ? per_sm : 1);
    return g < static_cast<std::int64_t>(vec_grid) ? static_cast<unsigned>(g) : vec_grid;
  }

  void dot(const T* a, const T* b, int slot, bool shift) {
    k_dot<T><<<vec_grid, kBlock, 0, st>>>(n, a, b, partials.data(), counter.data(), s.data(), slot, shift);
    CUSCI_CHECK_LAUNCH();
  }

  template <int G>
  void spmv(const I* ptr, const I* ind, const T* val, const T* p, T* q) {
    k_spmv_dot<T, I, G><<<spmv_grid, kBlock, 0, st>>>(n, ptr, ind, val, p, q, partials.data(), counter.data(),
                                                     s.data());
    CUSCI_CHECK_LAUNCH();
  }

  void spmv_dot(const I* ptr, const I* ind, const T* val, const T* p, T* q) {
    if (use_stream) {
      k_csr_stream<T, I, true><<<sc.grid, kRows, sc.smem, st>>>(n, sc.ntiles, sc.cap, ptr, ind, val, p, q,
                                                                partials.data(), counter.data(), s.data());
      CUSCI_CHECK_LAUNCH();
      return;
    }
    switch (group) {
      case 1: spmv<1>(ptr, ind, val, p, q); break;
      case 2: spmv<2>(ptr, ind, val, p, q); break;
      case 4: spmv<4>(ptr, ind, val, p, q); break;
      case 8: spmv<8>(ptr, ind, val, p, q); break;
      case 16: spmv<16>(ptr, ind, val, p, q); break;
      default: spmv<32>(ptr, ind, val, p, q); break;
    }
  }

  template <int MODE>
  linalg::cg_result run(const ndarray& b, double atol_eff, std::int64_t maxiter, const ndarray* dinv) {
    const linalg::linear_operator* M = o.M ? &*o.M : nullptr;
    ndarray x = o.x0 ? contiguous_vector(*o.x0, xt, n, true) : zeros({n}, xt);
    ndarray r;
    if (o.x0) {
      r = empty({n}, xt);
      ndarray ax = contiguous_vector(A.matvec(x), xt, n, false);
      k_residual<T><<<vec_grid, kBlock, 0, st>>>(n, b.data_as<T>(), ax.data_as<T>(), r.data_as<T>());
      CUSCI_CHECK_LAUNCH();
    } else {
      r = b.copy();
    }
    ndarray p = empty({n}, xt), q = empty({n}, xt);
    ndarray d = dinv ? contiguous_vector(*dinv, xt, n, false) : ndarray();
    const T* dp = dinv ? d.template data_as<T>() : nullptr;

    const csr_matrix* Ac = A.csr();
    ndarray a_val, a_ind, a_ptr;
    if (Ac) {
      a_val = Ac->data().astype(xt, false);
      a_ind = Ac->indices();
      a_ptr = Ac->indptr();
    }
    memory_ptr pinned = pinned_malloc(sizeof(double));
    double* h_rr = static_cast<double*>(pinned->ptr());
    event ev(true);
    auto post_rr = [&] {
      CUSCI_CUDA_TRY(cudaMemcpyAsync(h_rr, s.data() + RR, sizeof(double), cudaMemcpyDeviceToHost, st));
      ev.record(st);
    };

    const unsigned ugrid = update_grid<MODE>();
    k_update<T, MODE><<<ugrid, kBlock, 0, st>>>(n, false, x.data_as<T>(), r.data_as<T>(), nullptr, nullptr, dp,
                                                   partials.data(), counter.data(), s.data());
    CUSCI_CHECK_LAUNCH();
    post_rr();

    ndarray z, qa;  // general M: z = M r; general A: q = A p
    auto enqueue_pq = [&](std::int64_t it) {
      const T* zp = nullptr;
      if constexpr (MODE == 2) {
        z = contiguous_vector(M->matvec(r), xt, n, false);
        zp = z.template data_as<T>();
        dot(r.data_as<T>(), zp, RHO, true);
      }
      k_update_p<T, MODE><<<vec_grid, kBlock, 0, st>>>(n, it == 0, p.data_as<T>(), r.data_as<T>(), dp, zp, s.data());
      CUSCI_CHECK_LAUNCH();
      if (Ac) {
        spmv_dot(a_ptr.template data_as<I>(), a_ind.template data_as<I>(), a_val.template data_as<T>(),
                 p.data_as<T>(), q.data_as<T>());
        qa = q;
      } else {
        qa = contiguous_vector(A.matvec(p), xt, n, false);
        dot(p.data_as<T>(), qa.template data_as<T>(), PQ, false);
      }
    };
    // The next iteration's p and q can be computed before the host learns |r|: they do not change
    // x or r. Only when A and M are cusci's own (user functions might synchronize or have effects).
    const bool speculate = Ac != nullptr && MODE != 2;
    if (speculate && maxiter > 0) enqueue_pq(0);
    for (std::int64_t it = 0; it < maxiter; ++it) {
      ev.synchronize();
      if (std::sqrt(*h_rr) < atol_eff) return {x, 0, it};
      if (!speculate) enqueue_pq(it);
      k_update<T, MODE><<<ugrid, kBlock, 0, st>>>(n, true, x.data_as<T>(), r.data_as<T>(), p.data_as<T>(),
                                                     qa.template data_as<T>(), dp, partials.data(), counter.data(),
                                                     s.data());
      CUSCI_CHECK_LAUNCH();
      post_rr();
      if (speculate && it + 1 < maxiter) enqueue_pq(it + 1);
      if (o.callback) o.callback(x);
    }
    return {x, maxiter, maxiter > 0 ? maxiter : 0};
  }
};

std::atomic<int> spmv_backend_choice{0};

template <class T, class I>
std::array<double, 3> cg_kernel_ms_impl(const csr_matrix& A, int reps) {
  const linalg::linear_operator op(A);
  const linalg::cg_options opt{};
  const std::int64_t n = A.shape()[0];
  cg_solver<T, I> sv(op, opt, A.dtype(), n);
  ndarray x = zeros({n}, A.dtype()), r = ones({n}, A.dtype()), p = ones({n}, A.dtype()), q = zeros({n}, A.dtype());
  const ndarray& val = A.data();
  const ndarray& ind = A.indices();
  const ndarray& ptr = A.indptr();
  event e0, e1;
  auto time = [&](auto&& launch) {
    launch();
    e0.record(sv.st);
    for (int i = 0; i < reps; ++i) launch();
    e1.record(sv.st);
    return static_cast<double>(get_elapsed_time(e0, e1)) / reps;
  };
  std::array<double, 3> ms{};
  const unsigned ugrid = sv.template update_grid<0>();
  ms[0] = time([&] {
    k_update_p<T, 0><<<sv.vec_grid, kBlock, 0, sv.st>>>(n, false, p.data_as<T>(), r.data_as<T>(), nullptr, nullptr,
                                                        sv.s.data());
    CUSCI_CHECK_LAUNCH();
  });
  ms[1] = time([&] {
    sv.spmv_dot(ptr.data_as<I>(), ind.data_as<I>(), val.data_as<T>(), p.data_as<T>(), q.data_as<T>());
  });
  ms[2] = time([&] {
    k_update<T, 0><<<ugrid, kBlock, 0, sv.st>>>(n, true, x.data_as<T>(), r.data_as<T>(), p.data_as<T>(),
                                                      q.data_as<T>(), nullptr, sv.partials.data(),
                                                      sv.counter.data(), sv.s.data());
    CUSCI_CHECK_LAUNCH();
  });
  return ms;
}

}  // namespace

namespace detail {

void set_spmv_backend(int backend) { spmv_backend_choice.store(backend, std::memory_order_relaxed); }

bool stream_spmv_preferred(std::int64_t m, std::int64_t nnz) {
  const int b = spmv_backend_choice.load(std::memory_order_relaxed);
  if (b == 1 || b == 5) return false;
  if (b >= 2) return true;
  return m > 0 && static_cast<double>(nnz) <= kStreamMaxAvg * static_cast<double>(m);
}

bool vector_spmv_preferred(std::int64_t m, std::int64_t nnz, bool even_rows) {
  const int b = spmv_backend_choice.load(std::memory_order_relaxed);
  if (b == 5) return true;
  if (b != 0) return false;
  return even_rows && m > 0 && nnz <= kVectorMaxNnz && static_cast<double>(nnz) > kStreamMaxAvg * static_cast<double>(m);
}

void csr_spmv_vector(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                     const ndarray& x, ndarray& y) {
  if (m == 0) return;
  cudaStream_t st = get_current_stream();
  const double avg = static_cast<double>(data.size()) / static_cast<double>(m);
  int g = 1;
  while (g < 32 && g < avg) g *= 2;
  const std::int64_t max_blocks = static_cast<std::int64_t>(sm_count()) * (2048 / kBlock);
  const unsigned grid = cusci::detail::grid_for(m * g, kBlock, max_blocks);
  cusci::detail::dispatch_float(data.dtype(), "cusci::sparse::csr_matrix::dot", "A", [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    auto go = [&](auto itag) {
      using I = typename decltype(itag)::type;
      auto launch = [&](auto g_c) {
        k_spmv_dot<T, I, decltype(g_c)::value, false><<<grid, kBlock, 0, st>>>(
            m, indptr.data_as<I>(), indices.data_as<I>(), data.data_as<T>(), x.data_as<T>(), y.data_as<T>(), nullptr,
            nullptr, nullptr);
        CUSCI_CHECK_LAUNCH();
      };
      switch (g) {
        case 1: launch(std::integral_constant<int, 1>{}); break;
        case 2: launch(std::integral_constant<int, 2>{}); break;
        case 4: launch(std::integral_constant<int, 4>{}); break;
        case 8: launch(std::integral_constant<int, 8>{}); break;
        case 16: launch(std::integral_constant<int, 16>{}); break;
        default: launch(std::integral_constant<int, 32>{}); break;
      }
    };
    if (indptr.dtype() == dtype::int64) go(cusci::detail::type_tag<std::int64_t>{});
    else go(cusci::detail::type_tag<std::int32_t>{});
  });
}

void csr_spmv_stream(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                     const ndarray& x, ndarray& y) {
  if (m == 0) return;
  cudaStream_t st = get_current_stream();
  cusci::detail::dispatch_float(data.dtype(), "cusci::sparse::csr_matrix::dot", "A", [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    auto go = [&](auto itag, auto u_c, auto minb_c) {
      using I = typename decltype(itag)::type;
      constexpr int U = decltype(u_c)::value, MINB = decltype(minb_c)::value;
      const stream_config c = stream_setup<T, I, false, U, MINB>(m, data.size());
      k_csr_stream<T, I, false, U, MINB><<<c.grid, kRows, c.smem, st>>>(
          m, c.ntiles, c.cap, indptr.data_as<I>(), indices.data_as<I>(), data.data_as<T>(), x.data_as<T>(),
          y.data_as<T>(), nullptr, nullptr, nullptr);
      CUSCI_CHECK_LAUNCH();
    };
    using dflt_u = std::integral_constant<int, kUnroll>;
    using dflt_b = std::integral_constant<int, 6>;
    const int variant = spmv_backend_choice.load(std::memory_order_relaxed);
    if (indptr.dtype() == dtype::int64) {
      go(cusci::detail::type_tag<std::int64_t>{}, dflt_u{}, dflt_b{});
    } else if (variant == 3) {  // tuning variant: 8 entries in flight, 4 resident blocks
      go(cusci::detail::type_tag<std::int32_t>{}, std::integral_constant<int, 8>{}, std::integral_constant<int, 4>{});
    } else if (variant == 4) {  // tuning variant: 6 entries in flight, 5 resident blocks
      go(cusci::detail::type_tag<std::int32_t>{}, std::integral_constant<int, 6>{}, std::integral_constant<int, 5>{});
    } else {
      go(cusci::detail::type_tag<std::int32_t>{}, dflt_u{}, dflt_b{});
    }
  });
}

std::array<double, 3> cg_kernel_ms(const csr_matrix& A, int reps) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1] && A.shape()[0] > 0 && reps > 0, value_error,
                "cusci::sparse::detail::cg_kernel_ms: expected a non-empty square matrix and reps > 0");
  return cusci::detail::dispatch_float(A.dtype(), "cusci::sparse::detail::cg_kernel_ms", "A", [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    if (A.index_dtype() == dtype::int64) return cg_kernel_ms_impl<T, std::int64_t>(A, reps);
    return cg_kernel_ms_impl<T, std::int32_t>(A, reps);
  });
}

ndarray diag_multiply(const ndarray& d, const ndarray& x) {
  ndarray y = empty(x.shape(), x.dtype());
  const std::int64_t n = x.size();
  if (n == 0) return y;
  cudaStream_t st = get_current_stream();
  cusci::detail::dispatch_float(x.dtype(), "cusci::sparse::linalg::linear_operator", "x", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_diag_mul<T><<<cusci::detail::grid_for(n), 256, 0, st>>>(n, d.data_as<T>(), x.data_as<T>(), y.data_as<T>());
    CUSCI_CHECK_LAUNCH();
  });
  return y;
}

ndarray reciprocal(const ndarray& a) {
  ndarray y = empty(a.shape(), a.dtype());
  const std::int64_t n = a.size();
  if (n == 0) return y;
  cudaStream_t st = get_current_stream();
  cusci::detail::dispatch_float(a.dtype(), "cusci::sparse::linalg::jacobi", "A", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_reciprocal<T><<<cusci::detail::grid_for(n), 256, 0, st>>>(n, a.data_as<T>(), y.data_as<T>());
    CUSCI_CHECK_LAUNCH();
  });
  return y;
}

}  // namespace detail

namespace linalg {

cg_result cg(const linear_operator& A, const ndarray& b, const cg_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::cg";
  cusci::detail::check_same_device(fn, {A.csr() ? &A.csr()->data() : nullptr, &b, o.x0 ? &*o.x0 : nullptr});
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const std::string a_shape = shape_str(A.shape());
  CUSCI_EXPECTS(m == n, value_error, std::string(fn) + ": expected square matrix, but got shape=(" + a_shape + ",)");
  auto vec_ok = [n](const ndarray& v) {
    return (v.ndim() == 1 && v.shape(0) == n) || (v.ndim() == 2 && v.shape(0) == n && v.shape(1) == 1);
  };
  CUSCI_EXPECTS(vec_ok(b), value_error,
                std::string(fn) + ": shapes of A " + a_shape + " and b " + shape_str(b.shape()) + " are incompatible");
  CUSCI_EXPECTS(!is_complex(b.dtype()), type_error, std::string(fn) + ": complex b is not supported");
  if (o.x0) {
    CUSCI_EXPECTS(vec_ok(*o.x0), value_error,
                  std::string(fn) + ": shapes of A " + a_shape + " and x0 " + shape_str(o.x0->shape()) +
                      " are incompatible");
    CUSCI_EXPECTS(!is_complex(o.x0->dtype()), type_error, std::string(fn) + ": complex x0 is not supported");
  }
  if (o.M)
    CUSCI_EXPECTS(o.M->shape() == A.shape(), value_error,
                  std::string(fn) + ": matrix and preconditioner have different shapes");
  if (!(o.atol >= 0.0)) {
    std::ostringstream os;
    os << fn << ": called with invalid `atol`=" << o.atol << "; if set, `atol` must be a real, non-negative number.";
    throw value_error(os.str());
  }
  const dtype bt = is_floating(b.dtype()) ? b.dtype() : dtype::float64;
  const dtype xt = promote_types(A.dtype(), bt);
  const dtype it = A.csr() ? A.csr()->index_dtype() : dtype::int32;

  auto go = [&](auto ttag, auto itag) -> cg_result {
    using T = typename decltype(ttag)::type;
    using I = typename decltype(itag)::type;
    cg_solver<T, I> solver(A, o, xt, n);
    ndarray bv = contiguous_vector(b, xt, n, false);
    solver.dot(bv.data_as<T>(), bv.data_as<T>(), BB, false);
    double bb = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&bb, solver.s.data() + BB, sizeof(double), cudaMemcpyDeviceToHost, solver.st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(solver.st));
    const double bnrm2 = std::sqrt(bb);
    const double atol_eff = std::max(o.atol, o.rtol * bnrm2);
    if (bnrm2 == 0) return {bv.copy(), 0, 0};
    const std::int64_t maxiter = o.maxiter.value_or(10 * n);
    const linear_operator* M = o.M ? &*o.M : nullptr;
    if (!M) return solver.template run<0>(bv, atol_eff, maxiter, nullptr);
    if (const ndarray* d = M->diagonal_values()) return solver.template run<1>(bv, atol_eff, maxiter, d);
    return solver.template run<2>(bv, atol_eff, maxiter, nullptr);
  };
  return cusci::detail::dispatch_float(xt, fn, "A", [&](auto ttag) {
    if (it == dtype::int64) return go(ttag, cusci::detail::type_tag<std::int64_t>{});
    return go(ttag, cusci::detail::type_tag<std::int32_t>{});
  });
}

}  // namespace linalg
}  // namespace cusci::sparse

// scipy.sparse.linalg.cg on the device: SciPy 1.18's iteration, with the vector updates and dot
// products fused into three kernels an iteration (p update; q = A p with p.q; x, r update with r.r
// and r.z) when A is a CSR matrix and M is none or diagonal, and a single host read of |r|^2 an
// iteration from pinned memory, overlapped with the next iteration's first two kernels.

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/stream.hpp"
#include "detail.hpp"

namespace cusci::sparse {
namespace {

constexpr int kBlock = 256;
// Device scalars of the iteration, in float64.
enum slot : int { RHO = 0, RHO_PREV = 1, PQ = 2, RR = 3, BB = 4, n_slots = 8 };

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// Sums NV per-thread values over the whole grid. Each block writes its partial sums; the last block
// to finish adds the partials in a fixed order (deterministic) and calls fin(totals) in thread 0,
// then resets the counter for the next launch. Every thread of every block must call it.
template <int NV, class Fin>
__device__ __forceinline__ void grid_reduce(double (&v)[NV], double* partials, unsigned* counter, Fin fin) {
  __shared__ double sh[NV][32];
  __shared__ bool last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    v[k] = warp_sum(v[k]);
    if (lane == 0) sh[k][warp] = v[k];
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      double t = lane < nwarps ? sh[k][lane] : 0.0;
      t = warp_sum(t);
      if (lane == 0) partials[k * gridDim.x + blockIdx.x] = t;
    }
    if (lane == 0) {
      __threadfence();
      const unsigned prev = atomicAdd(counter, 1u);
      last = (prev == gridDim.x - 1);
    }
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double t[NV];
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    t[k] = 0.0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) t[k] += __ldcg(partials + k * gridDim.x + i);
    t[k] = warp_sum(t[k]);
  }
  __syncthreads();  // every thread has read sh above; reuse it
#pragma unroll
  for (int k = 0; k < NV; ++k)
    if (lane == 0) sh[k][warp] = t[k];
  __syncthreads();
  if (threadIdx.x == 0) {
    double tot[NV];
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      tot[k] = 0.0;
      for (int w = 0; w < nwarps; ++w) tot[k] += sh[k][w];
    }
    fin(tot);
    *counter = 0u;
  }
}

// q = A p and s[PQ] = p.q; G lanes per row (G a power of two <= 32). The row loop runs the same number
// of times in every lane of a warp so that the shuffles are converged.
template <class T, class I, int G>
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
      acc += static_cast<double>(p[row]) * static_cast<double>(sum);
    }
  }
  double v[1] = {acc};
  grid_reduce<1>(v, partials, counter, [s](const double* t) { s[PQ] = t[0]; });
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
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    T ri = r[i];
    if (apply) {
      x[i] += alpha * p[i];
      ri -= alpha * q[i];
      r[i] = ri;
    }
    rr += static_cast<double>(ri) * static_cast<double>(ri);
    if constexpr (MODE == 1) rz += static_cast<double>(ri) * static_cast<double>(d[i] * ri);
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
__global__ void k_update_p(std::int64_t n, bool first, T* __restrict__ p, const T* __restrict__ r,
                           const T* __restrict__ d, const T* __restrict__ z, const double* s) {
  const T beta = first ? T(0) : static_cast<T>(s[RHO] / s[RHO_PREV]);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T zi = MODE == 0 ? r[i] : (MODE == 1 ? d[i] * r[i] : z[i]);
    p[i] = first ? zi : p[i] * beta + zi;
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

int sm_count() {
  int dev = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms > 0 ? sms : 1;
}

std::string shape_str(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

ndarray contiguous_vector(const ndarray& a, dtype dt, std::int64_t n, bool force_copy) {
  ndarray c = a.astype(dt, force_copy);
  if (!c.is_c_contiguous()) c = c.copy();
  return c.reshape({n});
}

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
  device_buffer<double> s, partials;
  device_buffer<unsigned> counter;

  cg_solver(const linalg::linear_operator& a, const linalg::cg_options& opt, dtype t, std::int64_t nn)
      : A(a), o(opt), xt(t), n(nn), st(get_current_stream()) {
    const std::int64_t max_blocks = static_cast<std::int64_t>(sm_count()) * (2048 / kBlock);
    vec_grid = cusci::detail::grid_for(n, kBlock, max_blocks);
    spmv_grid = 1;
    if (const csr_matrix* c = A.csr()) {
      const double avg = n > 0 ? static_cast<double>(c->nnz()) / static_cast<double>(n) : 1.0;
      group = 1;
      while (group < 32 && group < avg) group *= 2;
      spmv_grid = cusci::detail::grid_for(n * group, kBlock, max_blocks);
    }
    const unsigned g = vec_grid > spmv_grid ? vec_grid : spmv_grid;
    s = device_buffer<double>(n_slots, st);
    partials = device_buffer<double>(2 * static_cast<std::size_t>(g), st);
    counter = device_buffer<unsigned>(1, st);
    CUSCI_CUDA_TRY(cudaMemsetAsync(s.data(), 0, n_slots * sizeof(double), st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
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

    k_update<T, MODE><<<vec_grid, kBlock, 0, st>>>(n, false, x.data_as<T>(), r.data_as<T>(), nullptr, nullptr, dp,
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
      k_update<T, MODE><<<vec_grid, kBlock, 0, st>>>(n, true, x.data_as<T>(), r.data_as<T>(), p.data_as<T>(),
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

}  // namespace

namespace detail {

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
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const std::string a_shape = "(" + std::to_string(m) + ", " + std::to_string(n) + ")";
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

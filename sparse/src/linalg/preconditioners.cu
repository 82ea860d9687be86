// ILU(0) and IC(0) of a CSR matrix on the device, and their triangular solves.
//
// Every kernel here schedules rows without level sets: a warp claims the next row from an atomic
// counter (in increasing order for a factorization and a lower solve, decreasing for an upper
// solve), waits on the ready flags of the rows it depends on (all claimed earlier, so all held by
// running warps: no deadlock whatever the number of resident blocks), computes its row and
// publishes it (values, __threadfence, then the flag). Reads of other rows' values go through L2
// (ld.global.cg) so that no stale L1 line is seen.
// (Liu, Li, Hogg, Duff, Vinter, "A synchronization-free algorithm for parallel sparse triangular
// solves", Euro-Par 2016; ILU(0): Saad, "Iterative Methods for Sparse Linear Systems", Alg. 10.4.)

#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/preconditioners.hpp"
#include "cusci/stream.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse::linalg {

namespace {

using cusci::detail::type_tag;
using solver_detail::dispatch_inexact;
using solver_detail::warp_sum;  // every lane gets the sum

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr unsigned kFull = 0xffffffffu;

template <class T> struct real_of_t { using type = T; };
template <class T> struct real_of_t<cuda::std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of_t<T>::type;

/// Loads through L2 (never a stale L1 line of a value another warp wrote).
template <class T>
__device__ __forceinline__ T ld_cg(const T* p) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return __ldcg(p);
  } else if constexpr (std::is_same_v<T, cuda::std::complex<float>>) {
    const float2 v = __ldcg(reinterpret_cast<const float2*>(p));
    return T(v.x, v.y);
  } else {
    const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
    return T(v.x, v.y);
  }
}

__device__ __forceinline__ int ld_flag(const int* p) { return *static_cast<const volatile int*>(p); }

template <class T>
__device__ __forceinline__ T conj_of(T v) {
  if constexpr (cusci::detail::is_complex_v<T>) return cuda::std::conj(v);
  else return v;
}
template <class T>
__device__ __forceinline__ real_t<T> real_part(T v) {
  if constexpr (cusci::detail::is_complex_v<T>) return v.real();
  else return v;
}
template <class T>
__device__ __forceinline__ real_t<T> abs2(T v) {
  if constexpr (cusci::detail::is_complex_v<T>) return v.real() * v.real() + v.imag() * v.imag();
  else return v * v;
}
/// Position of column c in ind[lo, hi) (sorted), or -1.
template <class I>
__device__ __forceinline__ I find_col(const I* ind, I lo, I hi, I c) {
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    const I v = ind[mid];
    if (v == c) return mid;
    if (v < c) lo = mid + 1;
    else hi = mid;
  }
  return I(-1);
}

/// The next row for this warp (lane 0 claims, every lane gets it).
__device__ __forceinline__ long long claim_row(unsigned long long* counter, int lane) {
  unsigned long long r = 0;
  if (lane == 0) r = atomicAdd(counter, 1ULL);
  return static_cast<long long>(__shfl_sync(kFull, r, 0));
}
/// Lane 0 waits until row k is published; then the whole warp may read it.
__device__ __forceinline__ void wait_row(const int* done, long long k, int lane) {
  if (lane == 0) {
    while (ld_flag(done + k) == 0) {
    }
    __threadfence();
  }
  __syncwarp();
}
/// Every lane's writes of row i, then its flag.
__device__ __forceinline__ void publish_row(int* done, long long i, int lane) {
  __threadfence();
  __syncwarp();
  if (lane == 0) atomicExch(done + i, 1);
}

__global__ void k_set(long long* p, long long v) { *p = v; }

/// diag[i] = position of (i, i) in row i (sorted), or -1; fail = min row without one.
template <class I>
__global__ void k_find_diag(long long n, const I* ptr, const I* ind, I* diag, long long* fail) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const I d = find_col(ind, ptr[i], ptr[i + 1], static_cast<I>(i));
  diag[i] = d;
  if (d < 0) atomicMin(fail, i);
}

/// ILU(0), IKJ order, in place on val (A's values; canonical pattern with every diagonal stored).
/// fail = min row with a zero pivot U[i, i].
template <class T, class I>
__global__ void __launch_bounds__(kBlock) k_ilu0(long long n, const I* ptr, const I* ind, const I* diag, T* val,
                                                 int* done, unsigned long long* counter, long long* fail) {
  const int lane = threadIdx.x & 31;
  for (;;) {
    const long long i = claim_row(counter, lane);
    if (i >= n) return;
    const I re = ptr[i + 1], di = diag[i];
    for (I p = ptr[i]; p < di; ++p) {
      const I k = ind[p];  // k < i, ascending
      wait_row(done, k, lane);
      const I dk = diag[k], ke = ptr[k + 1];
      const T lik = ld_cg(val + p) / ld_cg(val + dk);
      __syncwarp();
      // a[i, j] -= l[i, k] * u[k, j] for every j > k stored in both rows (each j: one lane).
      for (I q = dk + 1 + lane; q < ke; q += 32) {
        const I t = find_col(ind, static_cast<I>(p + 1), re, ind[q]);
        if (t >= 0) val[t] = ld_cg(val + t) - lik * ld_cg(val + q);
      }
      if (lane == 0) val[p] = lik;
      __threadfence_block();
      __syncwarp();
    }
    if (lane == 0 && ld_cg(val + di) == T(0)) atomicMin(fail, i);
    publish_row(done, i, lane);
  }
}

/// IC(0) on the lower triangle (canonical, diagonal last in each row), in place:
/// L[i, k] = (A[i, k] - sum_j L[i, j] conj(L[k, j])) / L[k, k], L[i, i] = sqrt(A[i, i] - sum |L[i, j]|^2).
/// fail = min row whose pivot is not > 0.
template <class T, class I>
__global__ void __launch_bounds__(kBlock) k_ic0(long long n, const I* ptr, const I* ind, const I* diag, T* val,
                                                int* done, unsigned long long* counter, long long* fail) {
  using R = real_t<T>;
  const int lane = threadIdx.x & 31;
  for (;;) {
    const long long i = claim_row(counter, lane);
    if (i >= n) return;
    const I rs = ptr[i], di = diag[i];
    for (I p = rs; p < di; ++p) {
      const I k = ind[p];
      wait_row(done, k, lane);
      const I dk = diag[k];
      T s = T(0);
      for (I q = ptr[k] + lane; q < dk; q += 32) {
        const I t = find_col(ind, rs, p, ind[q]);
        if (t >= 0) s += ld_cg(val + t) * conj_of(ld_cg(val + q));
      }
      s = warp_sum(s);
      if (lane == 0) val[p] = (ld_cg(val + p) - s) / ld_cg(val + dk);
      __threadfence_block();
      __syncwarp();
    }
    R d2 = R(0);
    for (I t = rs + lane; t < di; t += 32) d2 += abs2(ld_cg(val + t));
    d2 = warp_sum(d2);
    if (lane == 0) {
      const R d = real_part(ld_cg(val + di)) - d2;
      if (!(d > R(0))) atomicMin(fail, i);
      val[di] = T(sqrt(d));
    }
    publish_row(done, i, lane);
  }
}

/// x = T^-1 b for a triangular CSR T (LOWER: entries left of diag[i] used; else right of it;
/// UNIT: the diagonal taken as 1).
template <class T, class I, bool LOWER, bool UNIT>
__global__ void __launch_bounds__(kBlock) k_trsv(long long n, const I* ptr, const I* ind, const I* diag,
                                                 const T* val, const T* b, T* x, int* done,
                                                 unsigned long long* counter) {
  const int lane = threadIdx.x & 31;
  for (;;) {
    const long long c = claim_row(counter, lane);
    if (c >= n) return;
    const long long i = LOWER ? c : n - 1 - c;
    const I di = diag[i];
    const I lo = LOWER ? ptr[i] : static_cast<I>(di + 1), hi = LOWER ? di : ptr[i + 1];
    T s = T(0);
    for (I q = lo + lane; q < hi; q += 32) {
      const I k = ind[q];
      while (ld_flag(done + k) == 0) {
      }
      __threadfence();
      s += val[q] * ld_cg(x + k);
    }
    s = warp_sum(s);
    if (lane == 0) {
      T xi = b[i] - s;
      if constexpr (!UNIT) xi = xi / val[di];
      x[i] = xi;
    }
    publish_row(done, i, lane);
  }
}

template <class F>
decltype(auto) dispatch_index(dtype t, F&& f) {
  if (t == dtype::int64) return f(type_tag<std::int64_t>{});
  return f(type_tag<std::int32_t>{});
}

unsigned row_grid(long long n) {
  int dev = 0, sms = 1;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const long long want = (n + kWarps - 1) / kWarps, cap = static_cast<long long>(sms) * (2048 / kBlock);
  return static_cast<unsigned>(want < cap ? want : cap);
}

/// Reads one int64 from the device (synchronizes the stream).
long long read_back(const ndarray& a, cudaStream_t st) {
  long long v = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&v, a.data(), sizeof(long long), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  return v;
}

/// Positions of the diagonal in each row of a canonical square CSR matrix; `fail` (int64 [1]) gets
/// the first row without one (or keeps n). Asynchronous.
ndarray find_diag(const csr_matrix& A, const ndarray& fail, cudaStream_t st) {
  const long long n = A.shape()[0];
  ndarray diag = empty({n}, A.index_dtype());
  if (n == 0) return diag;
  dispatch_index(A.index_dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_find_diag<I><<<cusci::detail::grid_for(n), kBlock, 0, st>>>(n, A.indptr().data_as<I>(), A.indices().data_as<I>(),
                                                                 diag.data_as<I>(), fail.data_as<long long>());
    CUSCI_CHECK_LAUNCH();
  });
  return diag;
}

/// The operator dtype of a matrix of dtype t (the four inexact dtypes kept; others float64).
dtype factor_dtype(dtype t) {
  if (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128) return t;
  return dtype::float64;
}

/// A triangular factor ready for solves.
struct tri_factor {
  csr_matrix A;  // canonical
  ndarray diag;  // [n], A's index dtype
  bool lower, unit;
};

tri_factor make_tri(const csr_matrix& A, bool lower, bool unit, const char* fn) {
  cudaStream_t st = get_current_stream();
  const long long n = A.shape()[0];
  ndarray fail = empty({1}, dtype::int64);
  k_set<<<1, 1, 0, st>>>(fail.data_as<long long>(), n);
  CUSCI_CHECK_LAUNCH();
  ndarray diag = find_diag(A, fail, st);
  const long long bad = read_back(fail, st);
  CUSCI_EXPECTS(bad >= n, runtime_error,
                std::string(fn) + ": row " + std::to_string(bad) + " of a triangular factor has no stored diagonal entry");
  return tri_factor{A, diag, lower, unit};
}

/// x = T^-1 b, b [n] contiguous of dtype rt. Asynchronous.
ndarray tri_solve(const tri_factor& f, const ndarray& b, dtype rt) {
  cudaStream_t st = get_current_stream();
  const long long n = f.A.shape()[0];
  ndarray x = empty({n}, rt);
  if (n == 0) return x;
  ndarray val = f.A.data().astype(rt, false);
  ndarray done = zeros({n}, dtype::int32), counter = zeros({1}, dtype::uint64);
  const unsigned grid = row_grid(n);
  dispatch_inexact(rt, "cusci::sparse::linalg::incomplete_factorization", "values", [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    dispatch_index(f.A.index_dtype(), [&](auto itag) {
      using I = typename decltype(itag)::type;
      auto args = [&](auto kernel) {
        kernel<<<grid, kBlock, 0, st>>>(n, f.A.indptr().data_as<I>(), f.A.indices().data_as<I>(), f.diag.data_as<I>(),
                                        val.data_as<T>(), b.data_as<T>(), x.data_as<T>(), done.data_as<int>(),
                                        counter.data_as<unsigned long long>());
        CUSCI_CHECK_LAUNCH();
      };
      if (f.lower && f.unit) args(k_trsv<T, I, true, true>);
      else if (f.lower) args(k_trsv<T, I, true, false>);
      else if (f.unit) args(k_trsv<T, I, false, true>);
      else args(k_trsv<T, I, false, false>);
    });
  });
  return x;
}

/// y = second^-1 first^-1 x for x [n] or [n, 1] (the public matvec has checked the shape).
ndarray apply_pair(const tri_factor& first, const tri_factor& second, dtype ft, const ndarray& x) {
  const std::int64_t n = first.A.shape()[0];
  const dtype xt = is_floating(x.dtype()) || is_complex(x.dtype()) ? x.dtype() : dtype::float64;
  dtype rt = promote_types(ft, xt);
  if (rt == dtype::float16) rt = dtype::float32;
  ndarray b = x.reshape({n}).astype(rt, false);
  if (!b.is_c_contiguous()) b = b.copy();
  return tri_solve(second, tri_solve(first, b, rt), rt);
}

}  // namespace

struct incomplete_factorization::impl {
  cusci::dtype dt;
  tri_factor lower, upper;  // M = lower * upper
  std::once_flag once;
  std::optional<tri_factor> upper_h, lower_h;  // U^H (lower), L^H (upper), formed on first rmatvec
};

namespace {

/// Fills the operator's functions from its factors.
void finish(const std::shared_ptr<incomplete_factorization::impl>& im, bool hermitian, linear_operator::matvec_fn& fn,
            linear_operator::matvec_fn& rfn) {
  fn = [im](const ndarray& x) { return apply_pair(im->lower, im->upper, im->dt, x); };
  if (hermitian) {
    rfn = fn;
    return;
  }
  rfn = [im](const ndarray& x) {
    std::call_once(im->once, [&] {
      static constexpr const char* f = "cusci::sparse::linalg::incomplete_factorization::rmatvec";
      im->upper_h.emplace(make_tri(conj_transpose(im->upper.A).tocsr(), true, im->upper.unit, f));
      im->lower_h.emplace(make_tri(conj_transpose(im->lower.A).tocsr(), false, im->lower.unit, f));
    });
    return apply_pair(*im->upper_h, *im->lower_h, im->dt, x);
  };
}

/// A canonical copy (index arrays shared when A is canonical) with values of dtype vt, copied.
csr_matrix canonical_copy(const csr_matrix& A, dtype vt) {
  csr_matrix C = A;
  C.sum_duplicates();
  return csr_matrix::from_valid(C.data().astype(vt, true), C.indices(), C.indptr(), C.shape(), true);
}

/// Runs a factorization kernel (ILU0 or IC0) over the canonical C in place; returns the first
/// failing row (n: none). Synchronizes.
template <bool IC>
long long factorize(const csr_matrix& C, const char* fn, ndarray& diag) {
  cudaStream_t st = get_current_stream();
  const long long n = C.shape()[0];
  ndarray fail = empty({1}, dtype::int64);
  k_set<<<1, 1, 0, st>>>(fail.data_as<long long>(), n);
  CUSCI_CHECK_LAUNCH();
  diag = find_diag(C, fail, st);
  const long long missing = read_back(fail, st);
  CUSCI_EXPECTS(missing >= n, runtime_error,
                std::string(fn) + ": row " + std::to_string(missing) + " has no stored diagonal entry");
  ndarray done = zeros({n}, dtype::int32), counter = zeros({1}, dtype::uint64);
  const unsigned grid = row_grid(n);
  dispatch_inexact(C.dtype(), fn, "values", [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    dispatch_index(C.index_dtype(), [&](auto itag) {
      using I = typename decltype(itag)::type;
      auto kernel = IC ? k_ic0<T, I> : k_ilu0<T, I>;
      kernel<<<grid, kBlock, 0, st>>>(n, C.indptr().data_as<I>(), C.indices().data_as<I>(), diag.data_as<I>(),
                                      C.data().data_as<T>(), done.data_as<int>(), counter.data_as<unsigned long long>(),
                                      fail.data_as<long long>());
      CUSCI_CHECK_LAUNCH();
    });
  });
  return read_back(fail, st);
}

/// The strictly lower triangle of LU plus an explicit unit diagonal, CSR, sorted (zeros of the
/// triangle kept: the pattern is A's). Synchronizes.
csr_matrix unit_lower(const csr_matrix& LU) {
  const std::int64_t n = LU.shape()[0];
  const coo_matrix t = tril(LU, -1).tocoo();
  const ndarray diag_idx = arange(scalar(n)).astype(t.row().dtype());
  const ndarray data = concatenate({t.data(), ones({n}, LU.dtype())});
  const ndarray row = concatenate({t.row(), diag_idx}), col = concatenate({t.col(), diag_idx});
  csr_matrix L = coo_matrix(data, {row, col}, matrix_options{.shape = LU.shape(), .index_dtype = LU.index_dtype()}).tocsr();
  L.sort_indices();
  return L;
}

void check_input(const csr_matrix& A, const char* fn) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                std::string(fn) + ": A must be square, got shape " + cusci::detail::shape_str(A.shape()));
  CUSCI_EXPECTS(A.dtype() != dtype::float16, type_error,
                std::string(fn) + ": A must have a sparse value dtype (float32, float64, complex64, complex128, "
                                  "integer or bool), got float16");
}

}  // namespace

incomplete_factorization ilu0(const csr_matrix& A) {
  static constexpr const char* fn = "cusci::sparse::linalg::ilu0";
  const std::int64_t n = A.shape()[0];
  check_input(A, fn);
  const dtype vt = factor_dtype(A.dtype());
  csr_matrix LU = canonical_copy(A, vt);
  if (n > 0) {
    ndarray diag;
    const long long bad = factorize<false>(LU, fn, diag);
    CUSCI_EXPECTS(bad >= n, runtime_error,
                  std::string(fn) + ": Factor is exactly singular: zero pivot in row " + std::to_string(bad));
  }
  csr_matrix L = unit_lower(LU);
  csr_matrix U = triu(LU, 0, "csr").tocsr();
  U.sort_indices();
  incomplete_factorization op(A.shape(), vt);
  auto im = std::make_shared<incomplete_factorization::impl>();
  im->dt = vt;
  im->lower = make_tri(L, true, true, fn);
  im->upper = make_tri(U, false, false, fn);
  op.L_ = std::make_shared<const csr_matrix>(L);
  op.U_ = std::make_shared<const csr_matrix>(U);
  op.impl_ = im;
  finish(im, false, op.fn_, op.rfn_);
  return op;
}

incomplete_factorization ic0(const csr_matrix& A) {
  static constexpr const char* fn = "cusci::sparse::linalg::ic0";
  const std::int64_t n = A.shape()[0];
  check_input(A, fn);
  const dtype vt = factor_dtype(A.dtype());
  csr_matrix L = canonical_copy(tril(A, 0, "csr").tocsr(), vt);
  if (n > 0) {
    ndarray diag;
    const long long bad = factorize<true>(L, fn, diag);
    CUSCI_EXPECTS(bad >= n, runtime_error,
                  std::string(fn) + ": matrix is not positive definite: pivot <= 0 in row " + std::to_string(bad));
  }
  csr_matrix U = conj_transpose(L).tocsr();
  incomplete_factorization op(A.shape(), vt);
  auto im = std::make_shared<incomplete_factorization::impl>();
  im->dt = vt;
  im->lower = make_tri(L, true, false, fn);
  im->upper = make_tri(U, false, false, fn);
  op.L_ = std::make_shared<const csr_matrix>(L);
  op.U_ = std::make_shared<const csr_matrix>(U);
  op.impl_ = im;
  finish(im, true, op.fn_, op.rfn_);
  return op;
}

}  // namespace cusci::sparse::linalg

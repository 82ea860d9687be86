// scipy.sparse.linalg's matrix functions on the device: onenormest (Higham & Tisseur's block
// estimator), expm_multiply (Al-Mohy & Higham's truncated Taylor series with scaling, SciPy 1.18's
// _expm_multiply.py step for step) and funm_multiply_krylov (restarted Arnoldi/Lanczos).
//
// The series terms of expm_multiply take one product with A and one fused kernel each: the new term
// K = scale * (A B - mu B) / div, F += coeff * K, and the infinity norms (maximum absolute row sums)
// of K and F, reduced with an atomic maximum over the bit patterns of the non-negative doubles; the
// host reads both norms (pinned memory) once a term for the stopping test.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/memory.hpp"
#include "cusci/numeric.hpp"
#include "cusci/products.hpp"
#include "cusci/random.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"
#include "cusci/sparse/linalg/matfuncs.hpp"
#include "cusci/stream.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse {
namespace {

using cusci::detail::type_tag;
using linalg::solver_detail::dispatch_inexact;  // float32, float64, complex64, complex128
using cplx = std::complex<double>;

constexpr int kBlock = 256;
// Slots of the norms read by the host (bit patterns of non-negative doubles).
enum norm_slot : int { S_K = 0, S_F = 1, S_C1 = 2, n_norm_slots = 4 };

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<cuda::std::complex<T>> { using type = T; };

template <class T>
__device__ __forceinline__ double abs_d(T v) {
  if constexpr (cusci::detail::is_complex_v<T>) return static_cast<double>(cuda::std::abs(v));
  else return fabs(static_cast<double>(v));
}

// max(a, b) that propagates NaN (NumPy's norm of an array holding NaN is NaN).
__device__ __forceinline__ double nan_max(double a, double b) {
  return (a != a || b != b) ? __longlong_as_double(0x7ff8000000000000LL) : ::fmax(a, b);
}

// Maximum over the block of v, then one atomic maximum into *slot: the bit patterns of non-negative
// doubles (and NaN, above +inf) order as unsigned integers. Every thread of the block must call it
// (blockDim.x == kBlock); it ends with a barrier, so it may be called again at once.
__device__ __forceinline__ void block_max_to(double v, unsigned long long* slot) {
  __shared__ double sh[kBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = nan_max(v, __shfl_down_sync(0xffffffffu, v, o));
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double m = sh[0];
    for (int w = 1; w < static_cast<int>(blockDim.x >> 5); ++w) m = nan_max(m, sh[w]);
    atomicMax(slot, static_cast<unsigned long long>(__double_as_longlong(m)));
  }
  __syncthreads();  // sh is reused by the next call
}

// One series term on rows x cols elements (C order): with `compute`, K = (scale * (Y - mu * Bold)) /
// div (Bold may alias K: each element is read before it is written by the same thread); then
// F += coeff * K; slots[S_K] = max row sum |K|, slots[S_F] = max row sum |F|.
template <class T>
__global__ void __launch_bounds__(kBlock)
    k_expm_step(std::int64_t rows, std::int64_t cols, const T* Y, const T* Bold, T* K, T* F, T mu,
                typename real_of<T>::type scale, typename real_of<T>::type div, typename real_of<T>::type coeff,
                bool compute, unsigned long long* slots) {
  double mk = 0.0, mf = 0.0;
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    double sk = 0.0, sf = 0.0;
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t i = r * cols + c;
      T k;
      if (compute) {
        k = (scale * (Y[i] - mu * Bold[i])) / div;
        K[i] = k;
      } else {
        k = K[i];
      }
      const T f = F[i] + coeff * k;
      F[i] = f;
      sk += abs_d(k);
      sf += abs_d(f);
    }
    mk = nan_max(mk, sk);
    mf = nan_max(mf, sf);
  }
  block_max_to(mk, slots + S_K);
  block_max_to(mf, slots + S_F);
}

// v = scale * src; dst_a = v, dst_b = v (either may be null; dst_a may alias src); with a slot,
// *slot = max row sum |v|.
template <class T>
__global__ void __launch_bounds__(kBlock)
    k_scale_copy_norm(std::int64_t rows, std::int64_t cols, const T* src, T* dst_a, T* dst_b, T scale,
                      unsigned long long* slot) {
  double m = 0.0;
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    double s = 0.0;
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t i = r * cols + c;
      const T v = scale * src[i];
      if (dst_a) dst_a[i] = v;
      if (dst_b) dst_b[i] = v;
      s += abs_d(v);
    }
    m = nan_max(m, s);
  }
  if (slot) block_max_to(m, slot);
}

// Column sums of |A - mu I| without the diagonal: colsum[j] += |a_ij| for i != j (float64 atomics).
template <class T, class I>
__global__ void __launch_bounds__(kBlock)
    k_offdiag_colsum(std::int64_t m, const I* __restrict__ indptr, const I* __restrict__ indices,
                     const T* __restrict__ data, double* colsum) {
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < m;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    for (std::int64_t j = indptr[r]; j < static_cast<std::int64_t>(indptr[r + 1]); ++j) {
      const std::int64_t c = indices[j];
      if (c != r) atomicAdd(colsum + c, abs_d(data[j]));
    }
  }
}

// colsum[j] += |diag[j] - mu| (diag with duplicates summed).
template <class T>
__global__ void __launch_bounds__(kBlock)
    k_diag_colsum(std::int64_t n, const T* __restrict__ diag, T mu, double* colsum) {
  for (std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    colsum[j] += abs_d(diag[j] - mu);
}

template <class T>
T to_dev_scalar(cplx v) {
  if constexpr (cusci::detail::is_complex_v<T>) return T(static_cast<typename T::value_type>(v.real()),
                                                         static_cast<typename T::value_type>(v.imag()));
  else return static_cast<T>(v.real());
}

unsigned grid_rows(std::int64_t rows) {
  return cusci::detail::grid_for(rows > 0 ? rows : 1, kBlock, 65535LL * 16);
}

// A host scalar as a cusci scalar of a real or complex kind (a complex scalar would promote a real
// array to complex).
scalar host_scalar(cplx v, dtype dt) { return is_complex(dt) ? scalar(v) : scalar(v.real()); }

// The host values of a device array as complex<double> (any numeric dtype). Synchronizes.
std::vector<cplx> to_host_c(const ndarray& a) {
  return a.get().astype(dtype::complex128).to_vector<cplx>();
}
std::vector<double> to_host_d(const ndarray& a) { return a.get().astype(dtype::float64).to_vector<double>(); }

ndarray contiguous(const ndarray& a, dtype dt) {
  ndarray c = a.astype(dt, false);
  if (!c.is_c_contiguous()) c = c.copy();
  return c;
}

// The operator's product with X [n] or [n, k] (C-contiguous, dtype dt), as a C-contiguous array of
// X's shape and dtype dt. CSR operators take one SpMV/SpMM; others one matvec (rmatvec) per column.
ndarray apply_op(const linalg::linear_operator& A, const ndarray& X, dtype dt, bool adjoint) {
  const std::int64_t n = X.shape(0);
  if (!adjoint && A.csr()) return contiguous(A.csr()->dot(X), dt).reshape(X.shape());
  auto one = [&](const ndarray& x) {
    ndarray y = adjoint ? A.rmatvec(x) : A.matvec(x);
    return contiguous(y, dt).reshape({n});
  };
  if (X.ndim() == 1) return one(X);
  std::vector<ndarray> cols;
  cols.reserve(static_cast<std::size_t>(X.shape(1)));
  for (std::int64_t j = 0; j < X.shape(1); ++j) cols.push_back(one(contiguous(X[{slice{}, j}], dt)));
  return contiguous(cusci::stack(cols, 1), dt);
}

// A CSR operator converted to dtype dt (the same operator when it already has it), so that its
// products come out in dt.
linalg::linear_operator with_dtype(const linalg::linear_operator& A, dtype dt) {
  if (A.csr() && A.csr()->dtype() != dt) return linalg::linear_operator(A.csr()->astype(dt));
  return A;
}

// Host reads of the norm slots: copy to pinned memory, wait on an event.
struct norm_reader {
  cudaStream_t st;
  device_buffer<unsigned long long> slots;
  memory_ptr pinned;
  event ev{true};
  explicit norm_reader(cudaStream_t s) : st(s), slots(n_norm_slots, s), pinned(pinned_malloc(n_norm_slots * 8)) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(slots.data(), 0, n_norm_slots * 8, st));
  }
  void clear(int first, int count) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(slots.data() + first, 0, static_cast<std::size_t>(count) * 8, st));
  }
  unsigned long long* slot(int i) { return slots.data() + i; }
  // Reads every slot; synchronizes.
  std::vector<double> read() {
    CUSCI_CUDA_TRY(cudaMemcpyAsync(pinned->ptr(), slots.data(), n_norm_slots * 8, cudaMemcpyDeviceToHost, st));
    ev.record(st);
    ev.synchronize();
    std::vector<double> out(n_norm_slots);
    std::memcpy(out.data(), pinned->ptr(), n_norm_slots * 8);
    return out;
  }
};

// ------------------------------------------------------------------------------------------------
// onenormest

using block_fn = std::function<ndarray(const ndarray&)>;  // [n, t] -> [n, t], dtype wt

struct onenorm_core_args {
  std::int64_t n = 0;
  dtype wt = dtype::float64;  // float64 or complex128
  int t = 2, itmax = 5;
  bool compute_v = false, compute_w = false;
  std::uint64_t seed = 0;
};

linalg::onenormest_result onenormest_impl(const onenorm_core_args& a, const block_fn& mm, const block_fn& rmm) {
  linalg::onenormest_result res;
  const std::int64_t n = a.n;
  const dtype wt = a.wt;
  const int t = a.t;
  if (t >= n) {
    // The explicit matrix A I: exact column sums.
    ndarray AE = mm(cusci::eye(n, {}, 0, wt));
    res.nmults = 1;
    ndarray cs = cusci::sum(cusci::abs(AE), axis_arg(0));
    const std::int64_t j = static_cast<std::int64_t>(to_host_d(cusci::argmax(cs))[0]);
    res.est = to_host_d(cs[j])[0];
    if (a.compute_v) {
      res.v = cusci::zeros({n}, dtype::float64);
      ndarray e = res.v[j];
      e.fill(1.0);
    }
    if (a.compute_w) res.w = AE[{slice{}, j}].copy();
    return res;
  }
  random::generator gen(a.seed);
  auto rand_col = [&]() {
    ndarray r = gen.integers(0, 2, {n}, dtype::int64).astype(wt);
    return contiguous(cusci::subtract(cusci::multiply(r, scalar(2.0)), scalar(1.0)), wt);
  };
  auto block = [&](const std::vector<ndarray>& cols) { return contiguous(cusci::stack(cols, 1), wt); };
  auto column = [&](const ndarray& Y, std::int64_t j) { return contiguous(Y[{slice{}, j}], wt); };
  const cplx nn(static_cast<double>(n), 0.0);
  // Dot products (no conjugation, as np.dot) of column i of X with the columns of `others`, on the host.
  auto dots = [&](const ndarray& xi, const std::vector<ndarray>& others) {
    if (others.empty()) return std::vector<cplx>{};
    ndarray O = block(others);                       // [n, k]
    return to_host_c(cusci::matmul(xi.reshape({1, n}), O));  // [1, k]
  };
  auto parallel_to_any = [&](const ndarray& v, const std::vector<ndarray>& others) {
    for (const cplx& d : dots(v, others))
      if (d == nn) return true;
    return false;
  };
  auto needs_resampling = [&](int i, const std::vector<ndarray>& X, const std::vector<ndarray>* Y) {
    std::vector<ndarray> others(X.begin(), X.begin() + i);
    if (Y) others.insert(others.end(), Y->begin(), Y->end());
    return parallel_to_any(X[static_cast<std::size_t>(i)], others);
  };

  std::vector<ndarray> X(static_cast<std::size_t>(t));
  X[0] = cusci::ones({n}, wt);
  for (int i = 1; i < t; ++i) X[static_cast<std::size_t>(i)] = rand_col();
  if (t > 1)
    for (int i = 0; i < t; ++i)
      while (needs_resampling(i, X, nullptr)) {
        X[static_cast<std::size_t>(i)] = rand_col();
        ++res.nresamples;
      }
  for (auto& c : X) c = contiguous(cusci::divide(c, scalar(static_cast<double>(n))), wt);

  std::vector<std::int64_t> ind_hist, ind;
  double est_old = 0.0, est = 0.0;
  std::vector<ndarray> S(static_cast<std::size_t>(t)), S_old;
  for (auto& c : S) c = cusci::zeros({n}, wt);
  std::int64_t ind_best = 0;
  ndarray w;
  int k = 1;
  while (true) {
    ndarray Y = mm(block(X));
    ++res.nmults;
    const std::vector<double> mags = to_host_d(cusci::sum(cusci::abs(Y), axis_arg(0)));
    std::int64_t best_j = 0;
    est = mags[0];
    for (std::size_t j = 1; j < mags.size(); ++j)
      if (mags[j] > est) {  // np.argmax: the first maximum
        est = mags[j];
        best_j = static_cast<std::int64_t>(j);
      }
    if (est > est_old || k == 2) {
      if (k >= 2) ind_best = ind[static_cast<std::size_t>(best_j)];
      w = column(Y, best_j);
    }
    if (k >= 2 && est <= est_old) {
      est = est_old;
      break;
    }
    est_old = est;
    S_old = S;
    if (k > a.itmax) break;
    // S = sign_round_up(Y): zeros count as +1, then Y / |Y|.
    {
      ndarray Yr = cusci::where(cusci::equal(Y, scalar(0.0)), scalar(1.0), Y);
      ndarray Sb = contiguous(cusci::divide(Yr, cusci::abs(Yr)), wt);
      for (int j = 0; j < t; ++j) S[static_cast<std::size_t>(j)] = column(Sb, j);
    }
    {
      // Every column of S parallel to a column of S_old: one [t, t] product.
      const std::vector<cplx> P = to_host_c(cusci::matmul(block(S).T(), block(S_old)));
      bool all_par = true;
      for (int i = 0; i < t && all_par; ++i) {
        bool any = false;
        for (int j = 0; j < t; ++j) any = any || P[static_cast<std::size_t>(i * t + j)] == nn;
        all_par = any;
      }
      if (all_par) break;
    }
    if (t > 1)
      for (int i = 0; i < t; ++i)
        while (needs_resampling(i, S, &S_old)) {
          S[static_cast<std::size_t>(i)] = rand_col();
          ++res.nresamples;
        }
    ndarray Z = rmm(block(S));
    ++res.nmults;
    ndarray h = cusci::max(cusci::abs(Z), axis_arg(1));  // [n] float64
    if (k >= 2) {
      const double hmax = to_host_d(cusci::max(h))[0];
      const double hb = to_host_d(h[ind_best])[0];
      if (hmax == hb) break;
    }
    const std::int64_t L = std::min<std::int64_t>(n, t + static_cast<std::int64_t>(ind_hist.size()));
    sort_options so;
    so.stable = true;
    ndarray order = cusci::argsort(h, -1, so);
    std::vector<double> top = to_host_d(order[{slice{n - L, std::nullopt, std::nullopt}}]);
    ind.assign(top.size(), 0);
    for (std::size_t i = 0; i < top.size(); ++i) ind[i] = static_cast<std::int64_t>(top[top.size() - 1 - i]);
    auto in_hist = [&](std::int64_t v) { return std::find(ind_hist.begin(), ind_hist.end(), v) != ind_hist.end(); };
    if (t > 1) {
      bool all_seen = true;
      for (int i = 0; i < t && i < static_cast<int>(ind.size()); ++i) all_seen = all_seen && in_hist(ind[static_cast<std::size_t>(i)]);
      if (all_seen) break;
      std::vector<std::int64_t> fresh, seen;
      for (std::int64_t v : ind) (in_hist(v) ? seen : fresh).push_back(v);
      ind = fresh;
      ind.insert(ind.end(), seen.begin(), seen.end());
    }
    for (int j = 0; j < t; ++j) {
      ndarray e = cusci::zeros({n}, wt);
      ndarray ej = e[ind[static_cast<std::size_t>(j)]];
      ej.fill(1.0);
      X[static_cast<std::size_t>(j)] = e;
    }
    std::vector<std::int64_t> new_ind;
    for (int j = 0; j < t; ++j)
      if (!in_hist(ind[static_cast<std::size_t>(j)])) new_ind.push_back(ind[static_cast<std::size_t>(j)]);
    ind_hist.insert(ind_hist.end(), new_ind.begin(), new_ind.end());
    ++k;
  }
  res.est = est;
  if (a.compute_v) {
    res.v = cusci::zeros({n}, dtype::float64);
    ndarray e = res.v[ind_best];
    e.fill(1.0);
  }
  if (a.compute_w) res.w = w;
  return res;
}

// ------------------------------------------------------------------------------------------------
// expm_multiply: SciPy's parameter selection

const std::map<int, double>& theta_table() {
  static const std::map<int, double> th = {
      {1, 2.29e-16}, {2, 2.58e-8}, {3, 1.39e-5}, {4, 3.40e-4}, {5, 2.40e-3}, {6, 9.07e-3}, {7, 2.38e-2},
      {8, 5.00e-2},  {9, 8.96e-2}, {10, 1.44e-1}, {11, 2.14e-1}, {12, 3.00e-1}, {13, 4.00e-1}, {14, 5.14e-1},
      {15, 6.41e-1}, {16, 7.81e-1}, {17, 9.31e-1}, {18, 1.09}, {19, 1.26}, {20, 1.44}, {21, 1.62},
      {22, 1.82},    {23, 2.01}, {24, 2.22}, {25, 2.43}, {26, 2.64}, {27, 2.86}, {28, 3.08},
      {29, 3.31},    {30, 3.54}, {35, 4.7},  {40, 6.0},  {45, 7.2},  {50, 8.5},  {55, 9.9}};
  return th;
}

// Norm information of t * (A - mu I), lazily estimated (SciPy's LazyOperatorNormInfo).
struct norm_info {
  const linalg::linear_operator* A = nullptr;  // unshifted, converted to wt when CSR
  cplx mu{};
  double tscale = 1.0;  // the t of t * (A - mu I)
  double A_1_norm = 0.0;  // exact or estimated 1-norm of t * (A - mu I)
  double scale = 1.0;
  dtype wt = dtype::float64;
  std::int64_t n = 0;
  std::map<int, double> d_cache;
  std::int64_t* norm_matvecs = nullptr;

  double onenorm() const { return scale * A_1_norm; }
  double d(int p) {
    auto it = d_cache.find(p);
    if (it == d_cache.end()) {
      // onenormest(aslinearoperator(t * A) ** p), t = 2 columns.
      const dtype w = wt;
      const cplx m = mu;
      const double ts = tscale;
      const linalg::linear_operator& op = *A;
      auto power = [&, p](const ndarray& X, bool adj) {
        ndarray Y = X;
        const cplx mm = adj ? std::conj(m) : m;
        for (int i = 0; i < p; ++i) {
          ndarray AY = apply_op(op, Y, w, adj);
          ndarray sh = m == cplx(0.0) ? AY : cusci::subtract(AY, cusci::multiply(Y, host_scalar(mm, w)));
          Y = contiguous(ts == 1.0 ? sh : cusci::multiply(sh, scalar(ts)), w);
        }
        return Y;
      };
      onenorm_core_args a;
      a.n = n;
      a.wt = w;
      linalg::onenormest_result r =
          onenormest_impl(a, [&](const ndarray& X) { return power(X, false); },
                          [&](const ndarray& X) { return power(X, true); });
      if (norm_matvecs) *norm_matvecs += r.nmults * p;
      it = d_cache.emplace(p, std::pow(r.est, 1.0 / p)).first;
    }
    return scale * it->second;
  }
  double alpha(int p) { return std::max(d(p), d(p + 1)); }
};

int compute_p_max(int m_max) {
  const double sq = std::sqrt(static_cast<double>(m_max));
  const int lo = static_cast<int>(std::floor(sq)), hi = static_cast<int>(std::ceil(sq + 1));
  int best = -1;
  for (int p = lo; p <= hi; ++p)
    if (p * (p - 1) <= m_max + 1) best = std::max(best, p);
  return best;
}

bool condition_3_13(double A_1_norm, std::int64_t n0, int m_max, int ell) {
  const int p_max = compute_p_max(m_max);
  const double a = 2.0 * ell * p_max * (p_max + 3);
  const double b = theta_table().at(m_max) / static_cast<double>(n0 * m_max);
  return A_1_norm <= a * b;
}

std::pair<std::int64_t, std::int64_t> fragment_3_1(norm_info& ni, std::int64_t n0, int m_max = 55, int ell = 2) {
  std::int64_t best_m = -1, best_s = -1;
  if (condition_3_13(ni.onenorm(), n0, m_max, ell)) {
    for (const auto& [m, theta] : theta_table()) {
      const double sd = std::ceil(ni.onenorm() / theta);
      const std::int64_t s = static_cast<std::int64_t>(sd);
      if (best_m < 0 || m * s < best_m * best_s) {
        best_m = m;
        best_s = s;
      }
    }
  } else {
    for (int p = 2; p <= compute_p_max(m_max); ++p)
      for (int m = p * (p - 1) - 1; m <= m_max; ++m) {
        auto it = theta_table().find(m);
        if (it == theta_table().end()) continue;
        const std::int64_t s = static_cast<std::int64_t>(std::ceil(ni.alpha(p) / it->second));
        if (best_m < 0 || m * s < best_m * best_s) {
          best_m = m;
          best_s = s;
        }
      }
    best_s = std::max<std::int64_t>(best_s, 1);
  }
  return {best_m, best_s};
}

// ------------------------------------------------------------------------------------------------
// expm_multiply: the series

constexpr double kTol = 1.1102230246251565e-16;  // 2^-53, SciPy's tol for every dtype

template <class T>
struct expm_engine {
  const linalg::linear_operator& A;  // converted to dt when CSR
  dtype dt;
  std::int64_t rows, cols;  // B as [rows, cols] (cols = 1 for a vector)
  shape_t bshape;
  cplx mu;
  cudaStream_t st;
  norm_reader nr;
  std::int64_t matvecs = 0;

  expm_engine(const linalg::linear_operator& a, dtype t, const shape_t& bs, cplx m)
      : A(a), dt(t), rows(bs[0]), cols(bs.size() == 2 ? bs[1] : 1), bshape(bs), mu(m), st(get_current_stream()),
        nr(st) {}

  unsigned grid() const { return grid_rows(rows); }

  // dst_a = dst_b = scale * src with the norm into `slot` (or none).
  void scale_copy(const ndarray& src, ndarray* dst_a, ndarray* dst_b, cplx scale, int slot) {
    if (slot >= 0) nr.clear(slot, 1);
    k_scale_copy_norm<T><<<grid(), kBlock, 0, st>>>(rows, cols, src.data_as<T>(), dst_a ? dst_a->data_as<T>() : nullptr,
                                                    dst_b ? dst_b->data_as<T>() : nullptr, to_dev_scalar<T>(scale),
                                                    slot >= 0 ? nr.slot(slot) : nullptr);
    CUSCI_CHECK_LAUNCH();
  }

  // K = (scale * (A src - mu src)) / div when `compute` (src may alias K); F += coeff * K; norms.
  void step(const ndarray* src, ndarray& K, ndarray& F, double scale, double div, double coeff, bool compute) {
    using R = typename real_of<T>::type;
    ndarray Y;
    if (compute) {
      Y = apply_op(A, src->reshape(bshape), dt, false);  // K[p] views are flat [rows * cols]
      ++matvecs;
    }
    nr.clear(S_K, 2);
    k_expm_step<T><<<grid(), kBlock, 0, st>>>(rows, cols, compute ? Y.data_as<T>() : nullptr,
                                              compute ? src->data_as<T>() : nullptr, K.data_as<T>(), F.data_as<T>(),
                                              to_dev_scalar<T>(mu), static_cast<R>(scale), static_cast<R>(div),
                                              static_cast<R>(coeff), compute, nr.slots.data());
    CUSCI_CHECK_LAUNCH();
  }

  // SciPy's _expm_multiply_simple_core: returns F = e^{t A} B (B contiguous, dtype dt, shape bshape).
  ndarray simple_core(const ndarray& B, double t, std::int64_t m_star, std::int64_t s) {
    ndarray F = B.copy();
    ndarray Bc = B.copy();
    const cplx eta = std::exp(t * mu / static_cast<double>(s));
    for (std::int64_t i = 0; i < s; ++i) {
      if (i == 0 && m_star > 0) scale_copy(Bc, nullptr, nullptr, 1.0, S_C1);  // c1 = ||B||
      double c1 = 0.0;
      for (std::int64_t j = 0; j < m_star; ++j) {
        const double coeff = t / static_cast<double>(s * (j + 1));
        step(&Bc, Bc, F, coeff, 1.0, 1.0, true);
        const std::vector<double> v = nr.read();
        if (j == 0) c1 = v[S_C1];
        const double c2 = v[S_K];
        if (c1 + c2 <= kTol * v[S_F]) break;
        c1 = c2;
      }
      // F = eta F; B = F; the next c1 = ||B|| (read with the next step's norms).
      scale_copy(F, &F, &Bc, eta, m_star > 0 ? S_C1 : -1);
    }
    return F;
  }

  // SciPy's _expm_multiply_interval_core_1 (core2 == false) and _2: X [nsamples, rows * cols].
  void interval_core_12(ndarray& X, double h, std::int64_t m_star, std::int64_t s, std::int64_t q, bool core2) {
    const std::int64_t d = q / s;
    const std::int64_t jj = core2 ? q / d : s - 1;
    const std::int64_t r = core2 ? q - d * jj : 0;
    const std::int64_t len = rows * cols;
    ndarray Kst = cusci::empty({m_star + 1, len}, dt);
    ndarray F = cusci::empty({len}, dt);
    auto Kp = [&](std::int64_t p) { return Kst[p]; };
    for (std::int64_t i = 0; i <= jj; ++i) {
      ndarray Z = X[i * d];
      ndarray K0 = Kp(0);
      scale_copy(Z, &K0, nullptr, 1.0, -1);
      std::int64_t high_p = 0;
      const std::int64_t eff_d = core2 ? (i < jj ? d : r) : d;
      for (std::int64_t k = 1; k <= eff_d; ++k) {
        scale_copy(K0, &F, nullptr, 1.0, S_C1);  // F = K[0], c1 = ||F||
        double c1 = 0.0;
        for (std::int64_t p = 1; p <= m_star; ++p) {
          // core_1 tests p > high_p with high_p never raised (every term recomputed), as SciPy.
          const bool compute = core2 ? (p == high_p + 1) : (p > high_p);
          if (compute && core2) high_p = p;
          const double coeff = std::pow(static_cast<double>(k), static_cast<double>(p));
          ndarray Kprev = Kp(p - 1), Kcur = Kp(p);
          step(&Kprev, Kcur, F, h, static_cast<double>(p), coeff, compute);
          const std::vector<double> v = nr.read();
          if (p == 1) c1 = v[S_C1];
          const double c2 = coeff * v[S_K];
          if (c1 + c2 <= kTol * v[S_F]) break;
          c1 = c2;
        }
        ndarray Xo = X[k + i * d];
        scale_copy(F, &Xo, nullptr, std::exp(static_cast<double>(k) * h * mu), -1);
      }
    }
  }
};

}  // namespace

namespace linalg {

onenormest_result onenormest(const linear_operator& A, int t, int itmax, bool compute_v, bool compute_w,
                             std::uint64_t seed) {
  static constexpr const char* fn = "cusci::sparse::linalg::onenormest";
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                std::string(fn) + ": expected the operator to act like a square matrix");
  const std::int64_t n = A.shape()[1];
  if (t < n) {
    CUSCI_EXPECTS(itmax >= 2, value_error, std::string(fn) + ": at least two iterations are required");
    CUSCI_EXPECTS(t >= 1, value_error, std::string(fn) + ": at least one column is required");
    CUSCI_EXPECTS(A.has_rmatvec() || A.csr(), not_implemented_error,
                  std::string(fn) + ": the operator has no rmatvec (needed for t < n)");
  }
  const dtype wt = is_complex(A.dtype()) ? dtype::complex128 : dtype::float64;
  onenorm_core_args a;
  a.n = n;
  a.wt = wt;
  a.t = t;
  a.itmax = itmax;
  a.compute_v = compute_v;
  a.compute_w = compute_w;
  a.seed = seed;
  if (n == 0) return {};
  const linear_operator Aw = with_dtype(A, wt);
  return onenormest_impl(a, [&](const ndarray& X) { return apply_op(Aw, X, wt, false); },
                         [&](const ndarray& X) { return apply_op(Aw, X, wt, true); });
}

ndarray expm_multiply(const linear_operator& A, const ndarray& B, const expm_multiply_options& o,
                      expm_multiply_info* info) {
  static constexpr const char* fn = "cusci::sparse::linalg::expm_multiply";
  const std::int64_t n = A.shape()[0];
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error, std::string(fn) + ": expected A to be like a square matrix");
  CUSCI_EXPECTS(B.ndim() >= 1 && B.shape(0) == n, value_error,
                std::string(fn) + ": shapes of matrices A " + detail::shape_str(A.shape()) + " and B " +
                    detail::shape_str(B.shape()) + " are incompatible");
  CUSCI_EXPECTS(B.ndim() <= 2, value_error, std::string(fn) + ": expected B to be like a matrix or a vector");
  CUSCI_EXPECTS(is_inexact(B.dtype()) || is_integer(B.dtype()) || is_bool(B.dtype()), type_error,
                std::string(fn) + ": B must have a numeric dtype, got " + std::string(dtype_name(B.dtype())));
  CUSCI_EXPECTS(is_inexact(A.dtype()), type_error,
                std::string(fn) + ": A must have dtype float32, float64, complex64 or complex128");
  CUSCI_EXPECTS(o.traceA.has_value() || A.csr() != nullptr, value_error,
                std::string(fn) + ": traceA is required for a linear_operator (the trace of A, an estimate will do)");
  CUSCI_EXPECTS(A.csr() != nullptr || n <= 2 || A.has_rmatvec(), not_implemented_error,
                std::string(fn) + ": the 1-norm estimates of A need rmatvec, which the operator does not define");
  const bool interval = o.start || o.stop || o.num || o.endpoint;
  std::int64_t nsamples = 0;
  double step = 0.0, t0 = 0.0, tq = 0.0;
  if (interval) {
    CUSCI_EXPECTS(o.start.has_value() && o.stop.has_value(), value_error,
                  std::string(fn) + ": start and stop are required for time points (np.linspace(start, stop, ...))");
    const std::int64_t num = o.num.value_or(50);
    CUSCI_EXPECTS(num >= 0, value_error, std::string(fn) + ": Number of samples, " + std::to_string(num) +
                                             ", must be non-negative.");
    const bool endpoint = o.endpoint.value_or(true);
    nsamples = num;
    CUSCI_EXPECTS(nsamples >= 2, value_error, std::string(fn) + ": at least two time points are required");
    const double div = endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
    step = (*o.stop - *o.start) / div;
    t0 = *o.start;
    tq = (endpoint) ? *o.stop : static_cast<double>(num - 1) * step + *o.start;
  }
  // Computation dtype: promotion of A's and B's (integers as float64), complex when traceA is.
  dtype bt = is_inexact(B.dtype()) ? B.dtype() : dtype::float64;
  dtype xt = promote_types(A.dtype(), bt);
  if (o.traceA && o.traceA->imag() != 0.0 && !is_complex(xt))
    xt = xt == dtype::float32 ? dtype::complex64 : dtype::complex128;
  if (interval) xt = promote_types(xt, dtype::float64);
  const std::int64_t n0 = B.ndim() == 1 ? 1 : B.shape(1);
  expm_multiply_info inf;
  if (n == 0 || n0 == 0) {
    if (info) *info = inf;
    if (!interval) return contiguous(B, xt);
    shape_t os{nsamples};
    for (auto dd : B.shape()) os.push_back(dd);
    return cusci::zeros(os, xt);
  }
  const linear_operator Ax = with_dtype(A, xt);

  // mu = trace / n and the 1-norm of A - mu I.
  cplx trace;
  if (o.traceA) trace = *o.traceA;
  else trace = to_host_c(cusci::sum(A.csr()->diagonal()))[0];
  const cplx mu = trace / static_cast<double>(n);
  double A_1_norm = 0.0;
  const dtype wt = is_complex(xt) ? dtype::complex128 : dtype::float64;
  const linear_operator Aw = with_dtype(A, wt);
  if (const csr_matrix* c = A.csr()) {
    const csr_matrix cw = c->astype(wt, false);
    ndarray colsum = cusci::zeros({n}, dtype::float64);
    ndarray diag = contiguous(cw.diagonal(), wt);
    cudaStream_t st = get_current_stream();
    dispatch_inexact(wt, fn, "A", [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto go = [&](auto itag) {
        using I = typename decltype(itag)::type;
        k_offdiag_colsum<T, I><<<grid_rows(n), kBlock, 0, st>>>(n, cw.indptr().data_as<I>(), cw.indices().data_as<I>(),
                                                               cw.data().data_as<T>(), colsum.data_as<double>());
        CUSCI_CHECK_LAUNCH();
      };
      if (cw.index_dtype() == dtype::int64) go(type_tag<std::int64_t>{});
      else go(type_tag<std::int32_t>{});
      k_diag_colsum<T><<<grid_rows(n), kBlock, 0, st>>>(n, diag.data_as<T>(), to_dev_scalar<T>(mu),
                                                        colsum.data_as<double>());
      CUSCI_CHECK_LAUNCH();
    });
    A_1_norm = to_host_d(cusci::max(colsum))[0];
  } else {
    auto shifted = [&](const ndarray& X, bool adj) {
      ndarray AX = apply_op(Aw, X, wt, adj);
      const cplx m = adj ? std::conj(mu) : mu;
      return contiguous(mu == cplx(0.0) ? AX : cusci::subtract(AX, cusci::multiply(X, host_scalar(m, wt))), wt);
    };
    onenorm_core_args a;
    a.n = n;
    a.wt = wt;
    onenormest_result r = onenormest_impl(a, [&](const ndarray& X) { return shifted(X, false); },
                                          [&](const ndarray& X) { return shifted(X, true); });
    inf.norm_matvecs += r.nmults;
    A_1_norm = r.est;
  }
  inf.A_1_norm = A_1_norm;
  inf.mu = mu;

  const double t = interval ? tq - t0 : 1.0;
  norm_info ni;
  ni.A = &Aw;
  ni.mu = mu;
  ni.tscale = t;
  ni.A_1_norm = t * A_1_norm;
  ni.wt = wt;
  ni.n = n;
  ni.norm_matvecs = &inf.norm_matvecs;
  std::int64_t m_star = 0, s = 1;
  if (t * A_1_norm != 0.0) std::tie(m_star, s) = fragment_3_1(ni, n0);
  inf.m_star = m_star;
  inf.s = s;

  ndarray Bx = contiguous(B, xt);
  ndarray out = dispatch_inexact(xt, fn, "A", [&](auto tag) -> ndarray {
    using T = typename decltype(tag)::type;
    expm_engine<T> eng(Ax, xt, Bx.shape(), mu);
    if (!interval) {
      ndarray F = eng.simple_core(Bx, 1.0, m_star, s);
      inf.matvecs = eng.matvecs;
      return F;
    }
    const std::int64_t q = nsamples - 1;
    const std::int64_t len = n * n0;
    ndarray X = cusci::empty({nsamples, len}, xt);
    ndarray x0 = eng.simple_core(Bx, t0, m_star, s);
    ndarray X0 = X[0];
    eng.scale_copy(x0.reshape({len}), &X0, nullptr, 1.0, -1);
    if (q <= s) {
      inf.status = 0;
      std::int64_t m2 = 0, s2 = 1;
      if (ni.onenorm() != 0.0) {
        ni.scale = 1.0 / static_cast<double>(q);
        std::tie(m2, s2) = fragment_3_1(ni, n0);
        ni.scale = 1.0;
      }
      inf.m_star = m2;
      inf.s = s2;
      for (std::int64_t k = 0; k < q; ++k) {
        ndarray xk = X[k].reshape(Bx.shape());
        ndarray nx = eng.simple_core(xk, step, m2, s2);
        ndarray Xk1 = X[k + 1];
        eng.scale_copy(nx.reshape({len}), &Xk1, nullptr, 1.0, -1);
      }
    } else if (q % s == 0) {
      inf.status = 1;
      eng.interval_core_12(X, step, m_star, s, q, false);
    } else {
      inf.status = 2;
      eng.interval_core_12(X, step, m_star, s, q, true);
    }
    inf.matvecs = eng.matvecs;
    shape_t os{nsamples};
    for (auto dd : B.shape()) os.push_back(dd);
    return X.reshape(os);
  });
  if (info) *info = inf;
  return out;
}

// ------------------------------------------------------------------------------------------------
// funm_multiply_krylov

ndarray funm_multiply_krylov(const matrix_function& f, const linear_operator& A, const ndarray& b,
                             const funm_multiply_krylov_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::funm_multiply_krylov";
  const std::string& aa = o.assume_a;
  CUSCI_EXPECTS(aa == "hermitian" || aa == "general" || aa == "her" || aa == "gen", value_error,
                std::string(fn) + ": " + aa + " is not a recognized matrix structure");
  const bool herm = aa == "her" || aa == "hermitian";
  CUSCI_EXPECTS(b.ndim() == 1, value_error, std::string(fn) + ": argument 'b' must be a 1D array.");
  const std::int64_t n = b.shape(0);
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1] && A.shape()[1] == n, value_error,
                std::string(fn) + ": shapes of A " + detail::shape_str(A.shape()) + " and b " +
                    detail::shape_str(b.shape()) + " are incompatible");
  CUSCI_EXPECTS(is_inexact(b.dtype()) || is_integer(b.dtype()) || is_bool(b.dtype()), type_error,
                std::string(fn) + ": b must have a numeric dtype");
  const std::int64_t m = o.restart_every_m.value_or(std::min<std::int64_t>(20, n));
  CUSCI_EXPECTS(m > 0, value_error, std::string(fn) + ": argument 'restart_every_m' must be positive.");
  CUSCI_EXPECTS(o.max_restarts > 0, value_error, std::string(fn) + ": argument 'max_restarts' must be positive.");
  if (!(o.atol >= 0.0)) {
    std::ostringstream os;
    os << fn << ": called with invalid `atol`=" << o.atol
       << "; if set, `atol` must be a real, non-negative number.";
    throw value_error(os.str());
  }
  const std::int64_t max_restarts = std::min<std::int64_t>(o.max_restarts, n / m + 1);
  const std::int64_t mmax = m * max_restarts;
  // np.common_type: integers count as float64.
  const dtype bt = is_inexact(b.dtype()) ? b.dtype() : dtype::float64;
  const dtype it = promote_types(A.dtype(), bt);
  const bool cx = is_complex(it);
  const double eps_b = real_dtype(bt) == dtype::float32   ? 1.1920928955078125e-07
                       : real_dtype(bt) == dtype::float16 ? 9.765625e-04
                                                          : 2.220446049250313e-16;
  const double norm_tol = eps_b * eps_b;

  ndarray bx = contiguous(b, it);
  const double bnorm = to_host_d(cusci::linalg::norm(bx))[0];
  const double atol = std::max(o.atol, o.rtol * bnorm);
  if (bnorm == 0) return b.copy();
  const linear_operator Ax = with_dtype(A, it);

  // V: [m + 1] columns of [n], stored as the rows of a C-order [m + 1, n] array; H on the host.
  ndarray V = cusci::zeros({m + 1, n}, it);
  std::vector<cplx> H(static_cast<std::size_t>((mmax + 1) * mmax), cplx(0.0));
  auto Hat = [&](std::int64_t i, std::int64_t j) -> cplx& { return H[static_cast<std::size_t>(i * mmax + j)]; };
  auto vdot_d = [&](const ndarray& x, const ndarray& y) {  // conj(x) . y (np.vdot / np.dot), 0-d
    return cx ? cusci::vdot(x, y) : cusci::dot(x, y);
  };
  auto set_row = [&](std::int64_t i, const ndarray& v) {
    ndarray dst = V[i];
    dispatch_inexact(it, fn, "b", [&](auto tag) {
      using T = typename decltype(tag)::type;
      k_scale_copy_norm<T><<<grid_rows(n), kBlock, 0, get_current_stream()>>>(n, 1, v.data_as<T>(), dst.data_as<T>(),
                                                                             nullptr, to_dev_scalar<T>(1.0), nullptr);
      CUSCI_CHECK_LAUNCH();
    });
  };
  // One Arnoldi/Lanczos cycle starting from v0 / v0norm into H[off: off + m + 1, off: off + m];
  // returns {breakdown, j}.
  auto cycle = [&](const ndarray& v0, double v0norm, std::int64_t off) -> std::pair<bool, std::int64_t> {
    set_row(0, contiguous(cusci::divide(v0, scalar(v0norm)), it));
    for (std::int64_t k = 0; k < m; ++k) {
      ndarray w = apply_op(Ax, V[k], it, false);
      std::vector<ndarray> coef;
      if (herm) {
        if (k > 0) {
          const cplx hkm = Hat(off + k, off + k - 1);
          w = cusci::subtract(w, cusci::multiply(V[k - 1], host_scalar(hkm, it)));
        }
        ndarray hkk = vdot_d(w, V[k]);  // np.vdot(V[:, k+1], V[:, k])
        w = cusci::subtract(w, cusci::multiply(hkk, V[k]));
        coef.push_back(hkk.astype(it));
      } else {
        for (std::int64_t i = 0; i <= k; ++i) {
          ndarray hik = vdot_d(V[i], w);
          w = cusci::subtract(w, cusci::multiply(hik, V[i]));
          coef.push_back(hik.astype(it));
        }
      }
      w = contiguous(w, it);
      coef.push_back(cusci::linalg::norm(w).astype(it));
      const std::vector<cplx> hv = to_host_c(cusci::stack(coef, 0));  // one read a basis vector
      if (herm) Hat(off + k, off + k) = hv[0];
      else
        for (std::int64_t i = 0; i <= k; ++i) Hat(off + i, off + k) = hv[static_cast<std::size_t>(i)];
      const double hn = hv.back().real();
      Hat(off + k + 1, off + k) = hn;
      if (hn < norm_tol) return {true, k};
      set_row(k + 1, contiguous(cusci::divide(w, scalar(hn)), it));
      if (herm && k < m - 1) Hat(off + k, off + k + 1) = hn;
    }
    return {false, m};
  };
  // f(t H[:e, :e]) on the host; returns column 0 as a device vector of dtype it.
  auto fcol = [&](std::int64_t e) -> std::vector<cplx> {
    host_array hm(cx ? dtype::complex128 : dtype::float64, {e, e});
    for (std::int64_t i = 0; i < e; ++i)
      for (std::int64_t j = 0; j < e; ++j) {
        const cplx v = o.t * Hat(i, j);
        if (cx) hm.data_as<cplx>()[i * e + j] = v;
        else hm.data_as<double>()[i * e + j] = v.real();
      }
    host_array r = f(hm);
    CUSCI_EXPECTS(r.ndim() == 2 && r.shape()[0] == e && r.shape()[1] == e, value_error,
                  std::string(fn) + ": f returned an array of shape " + detail::shape_str(r.shape()) + ", expected (" +
                      std::to_string(e) + ", " + std::to_string(e) + ")");
    std::vector<cplx> all = r.astype(dtype::complex128).to_vector<cplx>();
    std::vector<cplx> col(static_cast<std::size_t>(e));
    for (std::int64_t i = 0; i < e; ++i) col[static_cast<std::size_t>(i)] = all[static_cast<std::size_t>(i * e)];
    return col;
  };
  // bnorm * V[:cnt]^T c with c = col[begin: begin + cnt] (C order V rows are the basis vectors).
  auto combine = [&](const std::vector<cplx>& col, std::int64_t begin, std::int64_t cnt) {
    host_array hc(cx ? dtype::complex128 : dtype::float64, {cnt});
    for (std::int64_t i = 0; i < cnt; ++i) {
      const cplx v = col[static_cast<std::size_t>(begin + i)];
      if (cx) hc.data_as<cplx>()[i] = v;
      else hc.data_as<double>()[i] = v.real();
    }
    ndarray c = cusci::asarray(hc).astype(it);
    ndarray Vs = V[{slice{0, cnt, std::nullopt}}];  // [cnt, n]
    return cusci::multiply(cusci::matmul(c, Vs), scalar(bnorm));
  };
  auto cnorm = [&](const std::vector<cplx>& col, std::int64_t begin, std::int64_t end) {
    double s = 0.0;
    for (std::int64_t i = begin; i < end; ++i) s += std::norm(bnorm * col[static_cast<std::size_t>(i)]);
    return std::sqrt(s);
  };

  std::int64_t restart = 1;
  auto [breakdown, j] = cycle(bx, bnorm, 0);
  CUSCI_EXPECTS(j > 0, value_error, std::string(fn) + ": b is in a null space of A (breakdown at the first step)");
  std::vector<cplx> col = fcol(j);
  ndarray y = contiguous(combine(col, 0, j), it);
  if (breakdown) return y;
  double update_norm = cnorm(col, 0, j);
  while (restart < max_restarts && update_norm > atol) {
    const std::int64_t begin = restart * m;
    std::int64_t end = (restart + 1) * m;
    ndarray vm = V[m].copy();
    auto [bd, jr] = cycle(vm, 1.0, begin);
    if (bd) {
      end = begin + jr;
      if (jr == 0) return y;
      col = fcol(end);
      return contiguous(cusci::add(y, combine(col, begin, jr)), it);
    }
    col = fcol(end);
    y = contiguous(cusci::add(y, combine(col, begin, m)), it);
    update_norm = cnorm(col, begin, end);
    ++restart;
  }
  return y;
}

}  // namespace linalg
}  // namespace cusci::sparse

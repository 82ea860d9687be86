// Kernels of the products family of cusci::sparse: the row kernel for sparse x dense products in
// every value dtype, reductions over the lines of compressed matrices, diagonals, and the
// expand-sort-compress SpGEMM used for integer/bool values and int64-sized products.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::is_complex_v;
using cusci::detail::type_tag;

constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n) {
  const std::int64_t g = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(g < 1 ? 1 : (g > 65535 * 16 ? 65535 * 16 : g));
}

// --- value helpers: NumPy semantics on the device --------------------------------------------------

template <class T>
__device__ __forceinline__ bool is_nan(const T& v) {
  if constexpr (is_complex_v<T>) return isnan(v.real()) || isnan(v.imag());
  else if constexpr (std::is_floating_point_v<T>) return isnan(v);
  else return false;
}
// a > b (complex: lexicographic, NumPy's ordering; bool: true > false).
template <class T>
__device__ __forceinline__ bool greater(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) return a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
  else if constexpr (std::is_same_v<T, bool>) return a && !b;
  else return a > b;
}
template <class T>
__device__ __forceinline__ bool is_zero(const T& v) {
  if constexpr (is_complex_v<T>) return v.real() == 0 && v.imag() == 0;
  else return v == T(0);
}
// np.maximum / np.minimum (NaN-propagating: the first NaN wins).
template <bool MAX, class T>
__device__ __forceinline__ T pick(const T& a, const T& b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  const bool b_better = MAX ? greater(b, a) : greater(a, b);
  return b_better ? b : a;
}
// acc + a * x in T's own arithmetic (integers wrap; bool: OR of ANDs as SciPy's sparsetools).
template <class T>
__device__ __forceinline__ T fma_t(const T& acc, const T& a, const T& x) {
  if constexpr (std::is_same_v<T, bool>) return acc || (a && x);
  else if constexpr (is_complex_v<T> || std::is_floating_point_v<T>) return acc + a * x;
  else {
    using U = std::make_unsigned_t<T>;  // wrap-around without signed-overflow UB
    return static_cast<T>(static_cast<U>(static_cast<U>(acc) + static_cast<U>(static_cast<U>(a) * static_cast<U>(x))));
  }
}
template <class T>
__device__ __forceinline__ T add_t(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (is_complex_v<T> || std::is_floating_point_v<T>) return a + b;
  else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  }
}

template <class F>
decltype(auto) dispatch_value(dtype t, const char* fn, F&& f) {
  return cusci::detail::dispatch(t, [&](auto tag) -> decltype(f(type_tag<double>{})) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, __half>) {
      throw type_error(std::string(fn) + ": float16 values are not supported by cusci::sparse");
    } else {
      return f(tag);
    }
  });
}
template <class F>
decltype(auto) dispatch_index(dtype t, F&& f) {
  if (t == dtype::int32) return f(type_tag<std::int32_t>{});
  if (t == dtype::int64) return f(type_tag<std::int64_t>{});
  throw type_error("cusci::sparse: index arrays must be int32 or int64, got " + std::string(dtype_name(t)));
}
template <class F>
decltype(auto) dispatch_sum(dtype t, F&& f) {
  switch (t) {
    case dtype::int64: return f(type_tag<std::int64_t>{});
    case dtype::uint64: return f(type_tag<std::uint64_t>{});
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    case dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error("cusci::sparse: internal: accumulator dtype " + std::string(dtype_name(t)));
}

// --- sparse x dense -----------------------------------------------------------------------------

template <class T, class I>
__global__ void k_rowprod(std::int64_t m, std::int64_t kk, const I* __restrict__ ptr, const I* __restrict__ ind,
                          const T* __restrict__ val, const T* __restrict__ X, std::int64_t xs0, std::int64_t xs1,
                          T* __restrict__ Y, std::int64_t ys0, std::int64_t ys1) {
  const std::int64_t total = m * kk;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t / kk, c = t - i * kk;
    T acc = T(0);
    const std::int64_t end = ptr[i + 1];
    for (std::int64_t p = ptr[i]; p < end; ++p) acc = fma_t(acc, val[p], X[static_cast<std::int64_t>(ind[p]) * xs0 + c * xs1]);
    Y[i * ys0 + c * ys1] = acc;
  }
}

// --- reductions ---------------------------------------------------------------------------------

template <class R, class I>
__global__ void k_line_sum(std::int64_t nl, const I* __restrict__ ptr, const R* __restrict__ val, R* __restrict__ out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < nl;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    R acc = R(0);
    for (std::int64_t p = ptr[i]; p < ptr[i + 1]; ++p) acc = add_t(acc, val[p]);
    out[i] = acc;
  }
}

__device__ __forceinline__ void atomic_add(std::int64_t* p, std::int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void atomic_add(std::uint64_t* p, std::uint64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
template <class F>
__device__ __forceinline__ void atomic_add(cuda::std::complex<F>* p, cuda::std::complex<F> v) {
  F* q = reinterpret_cast<F*>(p);
  atomicAdd(q, v.real());
  atomicAdd(q + 1, v.imag());
}

template <class R, class I>
__global__ void k_scatter_sum(std::int64_t nnz, const I* __restrict__ idx, const R* __restrict__ val, R* out) {
  for (std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; p < nnz;
       p += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    atomic_add(out + idx[p], val[p]);
}

template <bool MAX, class T, class I>
__global__ void k_line_minmax(std::int64_t nl, std::int64_t len, const I* __restrict__ ptr, const T* __restrict__ val,
                              T* __restrict__ out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < nl;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t p0 = ptr[i], p1 = ptr[i + 1];
    T v = T(0);
    if (p1 > p0) {
      v = val[p0];
      for (std::int64_t p = p0 + 1; p < p1; ++p) v = pick<MAX>(v, val[p]);
      if (p1 - p0 < len) v = pick<MAX>(v, T(0));
    }
    out[i] = v;
  }
}

template <bool MAX, class T, class I>
__global__ void k_line_arg(std::int64_t nl, std::int64_t len, const I* __restrict__ ptr, const I* __restrict__ ind,
                           const T* __restrict__ val, std::int64_t* __restrict__ out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < nl;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t p0 = ptr[i], p1 = ptr[i + 1], cnt = p1 - p0;
    std::int64_t r = 0;
    if (cnt > 0) {
      // np.argmax / np.argmin: the first NaN, else the first extreme.
      std::int64_t e = 0;
      T best = val[p0];
      if (!is_nan(best)) {
        for (std::int64_t q = 1; q < cnt; ++q) {
          const T v = val[p0 + q];
          if (is_nan(v)) {
            e = q;
            break;
          }
          if (MAX ? greater(v, best) : greater(best, v)) {
            best = v;
            e = q;
          }
        }
      }
      const T ev = val[p0 + e];
      const bool beats = MAX ? greater(ev, T(0)) : greater(T(0), ev);
      if (beats || cnt == len) {
        r = ind[p0 + e];
      } else {
        std::int64_t z = 0;  // first position whose index differs from the position (a missing index)
        while (z < cnt && static_cast<std::int64_t>(ind[p0 + z]) == z) ++z;
        r = is_zero(ev) ? (e < z ? e : z) : z;
      }
    }
    out[i] = r;
  }
}

template <class I>
__global__ void k_first_missing(std::int64_t nnz, std::int64_t ncols, const I* __restrict__ row,
                                const I* __restrict__ col, unsigned long long* res) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < nnz;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    if (static_cast<std::int64_t>(row[k]) * ncols + static_cast<std::int64_t>(col[k]) != k)
      atomicMin(res, static_cast<unsigned long long>(k));
}

template <class T, class I>
__global__ void k_diag(std::int64_t len, std::int64_t k, const I* __restrict__ ptr, const I* __restrict__ ind,
                       const T* __restrict__ val, T* __restrict__ out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < len;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = k >= 0 ? i : i - k, c = r + k;
    T acc = T(0);
    for (std::int64_t p = ptr[r]; p < ptr[r + 1]; ++p)
      if (static_cast<std::int64_t>(ind[p]) == c) acc = add_t(acc, val[p]);
    out[i] = acc;
  }
}

// --- expand-sort-compress SpGEMM ------------------------------------------------------------------

__global__ void k_esc_count(std::int64_t m, const std::int64_t* __restrict__ aptr, const std::int64_t* __restrict__ aind,
                            const std::int64_t* __restrict__ bptr, std::int64_t* __restrict__ cnt) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < m;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t c = 0;
    for (std::int64_t p = aptr[i]; p < aptr[i + 1]; ++p) c += bptr[aind[p] + 1] - bptr[aind[p]];
    cnt[i] = c;
  }
}

template <class T>
__global__ void k_esc_expand(std::int64_t m, std::int64_t n, const std::int64_t* __restrict__ aptr,
                             const std::int64_t* __restrict__ aind, const T* __restrict__ aval,
                             const std::int64_t* __restrict__ bptr, const std::int64_t* __restrict__ bind,
                             const T* __restrict__ bval, const std::int64_t* __restrict__ offs,
                             std::uint64_t* __restrict__ keys, T* __restrict__ vals) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < m;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t o = offs[i];
    for (std::int64_t p = aptr[i]; p < aptr[i + 1]; ++p) {
      const std::int64_t k = aind[p];
      const T a = aval[p];
      for (std::int64_t q = bptr[k]; q < bptr[k + 1]; ++q, ++o) {
        keys[o] = static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(bind[q]);
        vals[o] = fma_t(T(0), a, bval[q]);
      }
    }
  }
}

template <class T>
struct add_op {
  __device__ __forceinline__ T operator()(const T& a, const T& b) const { return add_t(a, b); }
};

template <class T>
__global__ void k_nonzero_flags(std::int64_t n, const T* __restrict__ v, unsigned char* __restrict__ f) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    f[i] = is_zero(v[i]) ? 0 : 1;
}

template <class I>
__global__ void k_esc_finish(std::int64_t m, std::int64_t n, std::int64_t nnz, const std::uint64_t* __restrict__ keys,
                             I* __restrict__ ptr, I* __restrict__ ind) {
  const std::int64_t total = nnz > m + 1 ? nnz : m + 1;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (t < nnz) ind[t] = static_cast<I>(keys[t] % static_cast<std::uint64_t>(n));
    if (t <= m) {  // ptr[t] = first position whose key >= t * n
      const std::uint64_t target = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(n);
      std::int64_t lo = 0, hi = nnz;
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      ptr[t] = static_cast<I>(lo);
    }
  }
}

int bit_length(std::uint64_t v) {
  int b = 0;
  while (v) {
    ++b;
    v >>= 1;
  }
  return b;
}

std::int64_t read_i64(const void* dev, cudaStream_t s) {
  std::int64_t h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, dev, sizeof h, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

}  // namespace

void csr_rowprod(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m, std::int64_t k,
                 const ndarray& X, std::int64_t xs0, std::int64_t xs1, ndarray& Y, std::int64_t ys0,
                 std::int64_t ys1) {
  const std::int64_t kk = k == 0 ? 1 : k;
  if (m == 0 || kk == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_value(data.dtype(), "cusci::sparse::dot", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(indptr.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      k_rowprod<T, I><<<grid_for(m * kk), kBlock, 0, s>>>(m, kk, indptr.data_as<I>(), indices.data_as<I>(),
                                                          data.data_as<T>(), X.data_as<T>(), xs0, xs1,
                                                          Y.data_as<T>(), ys0, ys1);
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void line_sum(const ndarray& data, const ndarray& indptr, ndarray& out) {
  const std::int64_t nl = out.size();
  if (nl == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_sum(data.dtype(), [&](auto vt) {
    using R = typename decltype(vt)::type;
    dispatch_index(indptr.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      k_line_sum<R, I><<<grid_for(nl), kBlock, 0, s>>>(nl, indptr.data_as<I>(), data.data_as<R>(), out.data_as<R>());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void scatter_sum(const ndarray& data, const ndarray& idx, ndarray& out) {
  const std::int64_t nnz = data.size();
  if (nnz == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_sum(data.dtype(), [&](auto vt) {
    using R = typename decltype(vt)::type;
    dispatch_index(idx.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      k_scatter_sum<R, I><<<grid_for(nnz), kBlock, 0, s>>>(nnz, idx.data_as<I>(), data.data_as<R>(), out.data_as<R>());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void line_minmax(const ndarray& data, const ndarray& indptr, std::int64_t line_len, bool is_max, ndarray& out) {
  const std::int64_t nl = out.size();
  if (nl == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_value(data.dtype(), "cusci::sparse::max", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(indptr.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      if (is_max)
        k_line_minmax<true, T, I><<<grid_for(nl), kBlock, 0, s>>>(nl, line_len, indptr.data_as<I>(), data.data_as<T>(),
                                                                  out.data_as<T>());
      else
        k_line_minmax<false, T, I><<<grid_for(nl), kBlock, 0, s>>>(nl, line_len, indptr.data_as<I>(),
                                                                   data.data_as<T>(), out.data_as<T>());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void line_argminmax(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t line_len,
                    bool is_max, ndarray& out) {
  const std::int64_t nl = out.size();
  if (nl == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_value(data.dtype(), "cusci::sparse::argmax", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(indptr.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      if (is_max)
        k_line_arg<true, T, I><<<grid_for(nl), kBlock, 0, s>>>(nl, line_len, indptr.data_as<I>(), indices.data_as<I>(),
                                                               data.data_as<T>(), out.data_as<std::int64_t>());
      else
        k_line_arg<false, T, I><<<grid_for(nl), kBlock, 0, s>>>(nl, line_len, indptr.data_as<I>(),
                                                                indices.data_as<I>(), data.data_as<T>(),
                                                                out.data_as<std::int64_t>());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

std::int64_t first_missing_flat(const ndarray& row, const ndarray& col, std::int64_t ncols) {
  const std::int64_t nnz = row.size();
  if (nnz == 0) return 0;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned long long> res(1, s);
  const unsigned long long init = std::numeric_limits<unsigned long long>::max();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(res.data(), &init, sizeof init, cudaMemcpyHostToDevice, s));
  dispatch_index(row.dtype(), [&](auto it) {
    using I = typename decltype(it)::type;
    k_first_missing<I><<<grid_for(nnz), kBlock, 0, s>>>(nnz, ncols, row.data_as<I>(), col.data_as<I>(), res.data());
    CUSCI_CHECK_LAUNCH();
  });
  unsigned long long h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, res.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h == init ? nnz : static_cast<std::int64_t>(h);
}

void csr_diagonal_k(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t,
                    std::int64_t k, ndarray& out) {
  const std::int64_t len = out.size();
  if (len == 0) return;
  cudaStream_t s = get_current_stream();
  dispatch_value(data.dtype(), "cusci::sparse::diagonal", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(indptr.dtype(), [&](auto it) {
      using I = typename decltype(it)::type;
      k_diag<T, I><<<grid_for(len), kBlock, 0, s>>>(len, k, indptr.data_as<I>(), indices.data_as<I>(),
                                                    data.data_as<T>(), out.data_as<T>());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

csr_matrix spgemm_esc(const csr_matrix& A, const csr_matrix& B) {
  static constexpr const char* fn = "cusci::sparse::dot";
  const std::int64_t m = A.shape()[0], n = B.shape()[1];
  CUSCI_EXPECTS(A.dtype() == B.dtype(), type_error, std::string(fn) + ": internal: operand dtypes differ");
  CUSCI_EXPECTS(m == 0 || n == 0 || static_cast<double>(m) * static_cast<double>(n) < 1.8e19, value_error,
                std::string(fn) + ": result shape too large for the expand-sort-compress product");
  cudaStream_t s = get_current_stream();
  const ndarray aptr = A.indptr().astype(dtype::int64, false), aind = A.indices().astype(dtype::int64, false);
  const ndarray bptr = B.indptr().astype(dtype::int64, false), bind = B.indices().astype(dtype::int64, false);
  ndarray offs = empty({m + 1}, dtype::int64);
  std::int64_t total = 0;
  if (m > 0) {
    ndarray cnt = empty({m}, dtype::int64);
    k_esc_count<<<grid_for(m), kBlock, 0, s>>>(m, aptr.data_as<std::int64_t>(), aind.data_as<std::int64_t>(),
                                               bptr.data_as<std::int64_t>(), cnt.data_as<std::int64_t>());
    CUSCI_CHECK_LAUNCH();
    std::size_t tb = 0;
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, tb, cnt.data_as<std::int64_t>(),
                                                 offs.data_as<std::int64_t>() + 1, m, s));
    memory_ptr tmp = cusci::malloc(tb > 0 ? tb : 1, s);
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp->ptr(), tb, cnt.data_as<std::int64_t>(),
                                                 offs.data_as<std::int64_t>() + 1, m, s));
    CUSCI_CUDA_TRY(cudaMemsetAsync(offs.data(), 0, sizeof(std::int64_t), s));
    total = read_i64(offs.data_as<std::int64_t>() + m, s);
  }
  const dtype it = get_index_dtype(std::max({m, n, A.shape()[1]}));
  if (total == 0) {
    ndarray ptr = zeros({m + 1}, it);
    return csr_matrix::from_valid(empty({0}, A.dtype()), empty({0}, it), ptr, {m, n}, true);
  }
  return dispatch_value(A.dtype(), fn, [&](auto vt) -> csr_matrix {
    using T = typename decltype(vt)::type;
    device_buffer<std::uint64_t> keys(total, s), keys2(total, s);
    device_buffer<T> vals(total, s), vals2(total, s);
    k_esc_expand<T><<<grid_for(m), kBlock, 0, s>>>(m, n, aptr.data_as<std::int64_t>(), aind.data_as<std::int64_t>(),
                                                   A.data().data_as<T>(), bptr.data_as<std::int64_t>(),
                                                   bind.data_as<std::int64_t>(), B.data().data_as<T>(),
                                                   offs.data_as<std::int64_t>(), keys.data(), vals.data());
    CUSCI_CHECK_LAUNCH();
    const int bits = bit_length(static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) - 1);
    std::size_t tb = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, tb, keys.data(), keys2.data(), vals.data(), vals2.data(),
                                                   total, 0, bits < 1 ? 1 : bits, s));
    {
      memory_ptr tmp = cusci::malloc(tb > 0 ? tb : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp->ptr(), tb, keys.data(), keys2.data(), vals.data(),
                                                     vals2.data(), total, 0, bits < 1 ? 1 : bits, s));
    }
    // Sorted pairs are in keys2/vals2; reduce runs of equal keys into keys/vals.
    device_buffer<std::int64_t> nruns(1, s);
    tb = 0;
    CUSCI_CUDA_TRY(cub::DeviceReduce::ReduceByKey(nullptr, tb, keys2.data(), keys.data(), vals2.data(), vals.data(),
                                                  nruns.data(), add_op<T>{}, total, s));
    {
      memory_ptr tmp = cusci::malloc(tb > 0 ? tb : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceReduce::ReduceByKey(tmp->ptr(), tb, keys2.data(), keys.data(), vals2.data(),
                                                    vals.data(), nruns.data(), add_op<T>{}, total, s));
    }
    const std::int64_t runs = read_i64(nruns.data(), s);
    // Drop the entries that sum to zero (SciPy's csr_matmat keeps only nonzero sums).
    device_buffer<unsigned char> flags(runs > 0 ? runs : 1, s);
    k_nonzero_flags<T><<<grid_for(runs), kBlock, 0, s>>>(runs, vals.data(), flags.data());
    CUSCI_CHECK_LAUNCH();
    ndarray out_val = empty({runs}, A.dtype());
    tb = 0;
    CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, tb, keys.data(), flags.data(), keys2.data(), nruns.data(), runs, s));
    std::size_t tb2 = 0;
    CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, tb2, vals.data(), flags.data(), out_val.data_as<T>(),
                                              nruns.data(), runs, s));
    {
      memory_ptr tmp = cusci::malloc(std::max<std::size_t>({tb, tb2, 1}), s);
      CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(tmp->ptr(), tb, keys.data(), flags.data(), keys2.data(), nruns.data(),
                                                runs, s));
      CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(tmp->ptr(), tb2, vals.data(), flags.data(), out_val.data_as<T>(),
                                                nruns.data(), runs, s));
    }
    const std::int64_t nnz = read_i64(nruns.data(), s);
    const dtype cit = get_index_dtype(std::max({m, n, A.shape()[1], nnz}));
    ndarray ptr = empty({m + 1}, cit), ind = empty({nnz}, cit);
    dispatch_index(cit, [&](auto itag) {
      using I = typename decltype(itag)::type;
      k_esc_finish<I><<<grid_for(std::max(nnz, m + 1)), kBlock, 0, s>>>(m, n, nnz, keys2.data(), ptr.data_as<I>(),
                                                                      ind.data_as<I>());
      CUSCI_CHECK_LAUNCH();
    });
    ndarray val = nnz == runs ? out_val : view_head(out_val, nnz);
    return csr_matrix::from_valid(val, ind, ptr, {m, n}, true);
  });
}

}  // namespace cusci::sparse::detail

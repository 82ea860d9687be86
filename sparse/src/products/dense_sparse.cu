// The column kernel of dense x sparse products (X @ B): out[b, j] = sum over the stored entries q of
// column j of B of val[q] * X[b, row[q]], from the column-compressed arrays of B (a CSC matrix's own
// arrays, or the cached column structure of a CSR matrix with each entry's position in its arrays).
//
// One thread per column j holds the accumulators of up to kChunk rows b of X in registers (one row:
// a separate instantiation with one accumulator), so each stored entry is read once per kChunk rows
// of X; entries are loaded 4 (one row) or 2 at a time before they are added in storage order, for
// more memory requests in flight; consecutive threads take consecutive columns, whose
// row indices are close in banded matrices, so the reads of X[b, row] and the writes of out[b, j]
// coalesce. Each output is one thread's sum from zero in the column's storage order (bit-reproducible),
// each product rounded before the addition: this translation unit is compiled with -fmad=false (see
// products.cmake), so that float results follow SciPy's csc_matvecs arithmetic.
// Bytes for the 2-D Poisson matrix (5 entries a column, int32 indices, float64, k rows of X): the
// column pointers (4 B/column), row indices (4 B/entry), positions (4 B/entry, CSR only), values (8
// B/entry, gathered through the positions: neighbouring columns share B's rows, so the gathered
// sectors are reused from L1/L2), X (8 k B/row of B) and out (8 k B/column).

#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::is_complex_v;
using cusci::detail::type_tag;

constexpr int kBlock = 256;
constexpr int kChunk = 8;  // rows of X a thread accumulates at once

// acc + a * x in T's own arithmetic (integers wrap; bool: OR of ANDs, as SciPy's sparsetools).
template <class T>
__device__ __forceinline__ T mul_add(const T& acc, const T& a, const T& x) {
  if constexpr (std::is_same_v<T, bool>) return acc || (a && x);
  else if constexpr (is_complex_v<T> || std::is_floating_point_v<T>) return acc + a * x;
  else {
    using U = std::make_unsigned_t<T>;  // wrap-around without signed-overflow UB
    return static_cast<T>(static_cast<U>(static_cast<U>(acc) + static_cast<U>(static_cast<U>(a) * static_cast<U>(x))));
  }
}

// CH accumulators a thread; rows b0 = blockIdx.y * CH ... of X (k rows in all). perm may be null.
// The entries are taken U at a time: their indices, then their values and rows of X are all loaded
// before the additions (more loads in flight a thread), which still run in storage order.
template <int CH, int U, class T, class I>
__global__ void __launch_bounds__(kBlock) k_colprod(std::int64_t n, std::int64_t k, const I* __restrict__ ptr,
                                                    const I* __restrict__ idx, const I* __restrict__ perm,
                                                    const T* __restrict__ val, const T* __restrict__ X,
                                                    std::int64_t xs_b, std::int64_t xs_i, T* __restrict__ Y) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(kBlock) + threadIdx.x;
  if (j >= n) return;
  const std::int64_t b0 = static_cast<std::int64_t>(blockIdx.y) * CH;
  const std::int64_t nb = k - b0 < CH ? k - b0 : CH;
  const T* xb = X + b0 * xs_b;
  T acc[CH];
#pragma unroll
  for (int c = 0; c < CH; ++c) acc[c] = T(0);
  std::int64_t q = ptr[j];
  const std::int64_t q1 = ptr[j + 1];
  for (; q + U <= q1; q += U) {
    std::int64_t row[U], pos[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      row[u] = static_cast<std::int64_t>(idx[q + u]);
      pos[u] = perm ? static_cast<std::int64_t>(perm[q + u]) : q + u;
    }
    T v[U], x[U][CH];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      v[u] = val[pos[u]];
#pragma unroll
      for (int c = 0; c < CH; ++c)
        if (c < nb) x[u][c] = xb[row[u] * xs_i + c * xs_b];
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int c = 0; c < CH; ++c)
        if (c < nb) acc[c] = mul_add(acc[c], v[u], x[u][c]);
  }
  for (; q < q1; ++q) {
    const T v = perm ? val[perm[q]] : val[q];
    const T* xi = xb + static_cast<std::int64_t>(idx[q]) * xs_i;
#pragma unroll
    for (int c = 0; c < CH; ++c)
      if (c < nb) acc[c] = mul_add(acc[c], v, xi[c * xs_b]);
  }
  T* y = Y + b0 * n + j;
#pragma unroll
  for (int c = 0; c < CH; ++c)
    if (c < nb) y[c * n] = acc[c];
}

template <class F>
void dispatch_value(dtype t, F&& f) {
  cusci::detail::dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, __half>) {
      throw type_error("cusci::sparse::dot: float16 values are not supported by cusci::sparse");
    } else {
      f(tag);
    }
  });
}

}  // namespace

void colprod(const ndarray& val, const ndarray& idx, const ndarray& ptr, const ndarray* perm, std::int64_t n,
             std::int64_t k, const ndarray& X, std::int64_t xs_b, std::int64_t xs_i, ndarray& Y) {
  if (n == 0 || k == 0) return;
  cudaStream_t s = get_current_stream();
  const std::int64_t gx = (n + kBlock - 1) / kBlock;
  CUSCI_EXPECTS(gx <= 0x7fffffff, value_error, "cusci::sparse::dot: too many columns for one launch");
  dispatch_value(val.dtype(), [&](auto vt) {
    using T = typename decltype(vt)::type;
    auto launch = [&](auto ch, auto itag) {
      constexpr int CH = decltype(ch)::value;
      // Entries loaded together: 4 for one row of X, else 2 (1 for complex128: registers).
      constexpr int U = CH == 1 ? 4 : (sizeof(T) >= 16 ? 1 : 2);
      using I = typename decltype(itag)::type;
      const std::int64_t chunks = (k + CH - 1) / CH;
      const I* pp = perm ? perm->data_as<I>() : nullptr;
      // blockIdx.y runs over the chunks of rows of X (at most 65535 a launch).
      for (std::int64_t c0 = 0; c0 < chunks; c0 += 65535) {
        const std::int64_t cn = chunks - c0 < 65535 ? chunks - c0 : 65535;
        const std::int64_t kb = c0 * CH;
        const std::int64_t kn = k - kb < cn * CH ? k - kb : cn * CH;
        const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(cn));
        k_colprod<CH, U, T, I><<<grid, kBlock, 0, s>>>(n, kn, ptr.data_as<I>(), idx.data_as<I>(), pp, val.data_as<T>(),
                                                   X.data_as<T>() + kb * xs_b, xs_b, xs_i,
                                                   Y.data_as<T>() + kb * n);
        CUSCI_CHECK_LAUNCH();
      }
    };
    auto with_index = [&](auto ch) {
      if (ptr.dtype() == dtype::int32) launch(ch, type_tag<std::int32_t>{});
      else launch(ch, type_tag<std::int64_t>{});
    };
    if (k == 1) with_index(std::integral_constant<int, 1>{});
    else with_index(std::integral_constant<int, kChunk>{});
  });
}

}  // namespace cusci::sparse::detail

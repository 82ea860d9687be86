// Device kernels of the direct solvers: the row permutations around the triangular solves of a
// SuperLU factorization (scatter by perm_r / gather by perm_c, every right-hand side at once) and the
// span of an entry set's diagonals (is_sptriangular, spbandwidth).

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "linalg/direct_detail.hpp"

namespace cusci::sparse::linalg::detail {
namespace {

constexpr int kBlock = 256;

// One element of itemsize 4, 8 or 16 moved as a whole.
template <int S> struct item;
template <> struct item<4> { using type = unsigned int; };
template <> struct item<8> { using type = unsigned long long; };
template <> struct item<16> { using type = uint4; };

// Element (i, j) of the [n, k] arrays (strides in elements); row i moves to row perm[i] (scatter) or
// takes row perm[i] (gather).
template <class U>
__global__ void k_permute_rows(const U* __restrict__ in, const int* __restrict__ perm, U* __restrict__ out,
                               std::int64_t n, std::int64_t k, std::int64_t in_rs, std::int64_t in_cs,
                               std::int64_t out_rs, std::int64_t out_cs, bool scatter) {
  const std::int64_t total = n * k;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e / k, j = e - i * k;
    const std::int64_t p = perm[i];
    if (scatter)
      out[p * out_rs + j * out_cs] = in[i * in_rs + j * in_cs];
    else
      out[i * out_rs + j * out_cs] = in[p * in_rs + j * in_cs];
  }
}

template <class I>
__global__ void k_diag_span(const I* __restrict__ row, const I* __restrict__ col, std::int64_t nnz,
                            unsigned long long* __restrict__ minmax) {
  // Gaps offset by 2^62 so that they order as unsigned integers for atomicMin/atomicMax.
  constexpr long long bias = 1LL << 62;
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < nnz;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const long long g = static_cast<long long>(col[e]) - static_cast<long long>(row[e]);
    lo = g < lo ? g : lo;
    hi = g > hi ? g : hi;
  }
  for (int o = 16; o > 0; o >>= 1) {
    const long long l2 = __shfl_down_sync(0xffffffffu, lo, o), h2 = __shfl_down_sync(0xffffffffu, hi, o);
    lo = l2 < lo ? l2 : lo;
    hi = h2 > hi ? h2 : hi;
  }
  if ((threadIdx.x & 31) == 0 && lo != LLONG_MAX) {
    atomicMin(&minmax[0], static_cast<unsigned long long>(lo + bias));
    atomicMax(&minmax[1], static_cast<unsigned long long>(hi + bias));
  }
}

int grid_for(std::int64_t work) {
  const std::int64_t blocks = (work + kBlock - 1) / kBlock;
  return static_cast<int>(blocks < 1 ? 1 : (blocks > 65535 * 4 ? 65535 * 4 : blocks));
}

}  // namespace

void permute_rows(const ndarray& in, const ndarray& perm, ndarray& out, bool scatter) {
  const std::int64_t n = in.shape(0), k = in.ndim() == 2 ? in.shape(1) : 1;
  if (n * k == 0) return;
  const std::int64_t is = static_cast<std::int64_t>(in.itemsize());
  const std::int64_t irs = in.strides()[0] / is, ics = in.ndim() == 2 ? in.strides()[1] / is : 0;
  const std::int64_t ors = out.strides()[0] / is, ocs = out.ndim() == 2 ? out.strides()[1] / is : 0;
  cudaStream_t s = get_current_stream();
  const int grid = grid_for(n * k);
  const int* p = perm.data_as<int>();
  switch (is) {
    case 4:
      k_permute_rows<<<grid, kBlock, 0, s>>>(in.data_as<item<4>::type>(), p, out.data_as<item<4>::type>(), n, k, irs,
                                            ics, ors, ocs, scatter);
      break;
    case 8:
      k_permute_rows<<<grid, kBlock, 0, s>>>(in.data_as<item<8>::type>(), p, out.data_as<item<8>::type>(), n, k, irs,
                                            ics, ors, ocs, scatter);
      break;
    default:
      k_permute_rows<<<grid, kBlock, 0, s>>>(in.data_as<item<16>::type>(), p, out.data_as<item<16>::type>(), n, k,
                                            irs, ics, ors, ocs, scatter);
      break;
  }
  CUSCI_CHECK_LAUNCH();
}

diag_span entry_diagonal_span(const ndarray& row, const ndarray& col) {
  const std::int64_t nnz = row.size();
  cudaStream_t s = get_current_stream();
  constexpr long long bias = 1LL << 62;
  // [0] = min (starts at the largest value), [1] = max (starts at 0), both biased.
  unsigned long long init[2] = {~0ULL, 0ULL};
  ndarray mm = asarray(static_cast<const void*>(init), dtype::uint64, {2});
  const int grid = grid_for(nnz);
  if (row.dtype() == dtype::int32)
    k_diag_span<<<grid, kBlock, 0, s>>>(row.data_as<std::int32_t>(), col.data_as<std::int32_t>(), nnz,
                                        mm.data_as<unsigned long long>());
  else
    k_diag_span<<<grid, kBlock, 0, s>>>(row.data_as<std::int64_t>(), col.data_as<std::int64_t>(), nnz,
                                        mm.data_as<unsigned long long>());
  CUSCI_CHECK_LAUNCH();
  const host_array h = to_host(mm);  // synchronizes
  const std::uint64_t* v = h.data_as<std::uint64_t>();
  diag_span d;
  d.min_gap = static_cast<std::int64_t>(static_cast<long long>(v[0]) - bias);
  d.max_gap = static_cast<std::int64_t>(static_cast<long long>(v[1]) - bias);
  return d;
}

}  // namespace cusci::sparse::linalg::detail

/// @file sorting_search.cu
/// searchsorted (one thread per query, NaN-aware binary search, optional sorter) and unique (stable
/// argsort or sort, run-start flags, CUB select of the run starts, scans for the inverse).

#include <string>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "sorting/sorting_common.cuh"
#include "cusci/dtype.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::dispatch;
using detail::strided_indexer;

// --- searchsorted ------------------------------------------------------------------------------

/// out[q] = insertion index of query q (C order of v) into a[0..n) (element stride `as` bytes),
/// through `sorter` when given; a visited sorter index out of range sets *bad.
template <class T, bool Right, bool Sorted>
__global__ void search_kernel(const char* abase, i64 as, i64 n, const std::int64_t* sorter, const char* vbase,
                              strided_indexer vix, i64 nq, std::int64_t* out, int* bad) {
  for (i64 q = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; q < nq; q += static_cast<i64>(gridDim.x) * blockDim.x) {
    const T x = *reinterpret_cast<const T*>(vbase + vix.offset(q));
    i64 lo = 0, hi = n;
    while (lo < hi) {
      const i64 mid = lo + ((hi - lo) >> 1);
      i64 j = mid;
      if constexpr (Sorted) {
        j = sorter[mid];
        if (j < 0 || j >= n) {
          *bad = 1;
          lo = 0;
          break;
        }
      }
      const T y = *reinterpret_cast<const T*>(abase + j * as);
      const bool go_right = Right ? !np_less(x, y) : np_less(y, x);
      if (go_right) lo = mid + 1;
      else hi = mid;
    }
    out[q] = lo;
  }
}

// --- unique ------------------------------------------------------------------------------------

/// s[i] = element perm[i] (C order) of the strided input.
template <class T>
__global__ void gather_flat(const char* base, strided_indexer ix, const std::int64_t* perm, T* s, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    s[i] = *reinterpret_cast<const T*>(base + ix.offset(perm[i]));
}

/// flag[i] = s[i] starts a run of equal values.
template <class T>
__global__ void run_starts(const T* s, std::uint8_t* flag, std::int64_t* scan_in, i64 n, bool equal_nan) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const bool f = i == 0 || !np_equal(s[i], s[i - 1], equal_nan);
    flag[i] = f;
    if (scan_in) scan_in[i] = f;
  }
}

template <class T>
__global__ void unique_outputs(const T* s, const std::int64_t* perm, const std::int64_t* pos, i64 k, i64 n, T* values,
                               std::int64_t* index, std::int64_t* counts) {
  for (i64 j = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; j < k; j += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 p = pos[j];
    values[j] = s[p];
    if (index) index[j] = perm[p];
    if (counts) counts[j] = (j + 1 < k ? pos[j + 1] : n) - p;
  }
}

/// inverse[perm[i]] = (inclusive scan of the run starts)[i] - 1.
__global__ void scatter_inverse(const std::int64_t* scan, const std::int64_t* perm, std::int64_t* inv, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    inv[perm[i]] = scan[i] - 1;
}

std::int64_t read_count(const std::int64_t* d, cudaStream_t st) {
  std::int64_t h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  return h;
}

}  // namespace

ndarray searchsorted(const ndarray& a, const ndarray& v, search_side side, const std::optional<ndarray>& sorter) {
  const char* fn = "cusci::searchsorted";
  CUSCI_EXPECTS(a.ndim() == 1, value_error,
                std::string(fn) + ": a must be 1-D, got an array of shape " + shape_str(a.shape()));
  const i64 n = a.shape()[0];
  ndarray srt;
  if (sorter) {
    CUSCI_EXPECTS(is_integer(sorter->dtype()) || is_bool(sorter->dtype()), type_error,
                  std::string(fn) + ": sorter must have an integer dtype, got " +
                      std::string(dtype_name(sorter->dtype())));
    CUSCI_EXPECTS(sorter->ndim() == 1 && sorter->shape()[0] == n, value_error,
                  std::string(fn) + ": sorter must be 1-D of the same length as a (" + std::to_string(n) + "), got shape " +
                      shape_str(sorter->shape()));
    srt = sorter->astype(dtype::int64, false);
    if (!srt.is_c_contiguous()) srt = srt.copy();
  }
  const dtype common = promote_types(a.dtype(), v.dtype());
  ndarray a1 = a.astype(common, false);
  ndarray v1 = v.astype(common, false);
  ndarray out = empty(v.shape(), dtype::int64);
  const i64 nq = v.size();
  if (nq == 0) return out;
  cudaStream_t st = get_current_stream();
  device_buffer<int> bad;
  if (sorter) {
    bad = device_buffer<int>(1);
    CUSCI_CUDA_TRY(cudaMemsetAsync(bad.data(), 0, sizeof(int), st));
  }
  const i64 as = n > 0 ? a1.strides()[0] : 0;
  dispatch(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto launch = [&](auto kernel) {
      kernel<<<grid(nq, 132LL * 64), block, 0, st>>>(static_cast<const char*>(a1.data()), as, n,
                                                     sorter ? srt.data_as<std::int64_t>() : nullptr,
                                                     static_cast<const char*>(v1.data()), indexer_of(v1), nq,
                                                     out.data_as<std::int64_t>(), bad.data());
      CUSCI_CHECK_LAUNCH();
    };
    if (side == search_side::left) {
      if (sorter) launch(search_kernel<T, false, true>);
      else launch(search_kernel<T, false, false>);
    } else {
      if (sorter) launch(search_kernel<T, true, true>);
      else launch(search_kernel<T, true, false>);
    }
  });
  if (sorter) {
    int h = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, bad.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    CUSCI_EXPECTS(h == 0, value_error, std::string(fn) + ": Sorter index out of range.");
  }
  return out;
}

unique_result unique(const ndarray& ar, unique_options opts) {
  const char* fn = "cusci::unique";
  if (opts.axis)
    throw not_implemented_error(std::string(fn) + ": only axis=None is supported, got axis=" + std::to_string(*opts.axis));
  unique_result res;
  const i64 n = ar.size();
  const bool need_perm = opts.return_index || opts.return_inverse;
  cudaStream_t st = get_current_stream();
  if (n == 0) {
    res.values = empty({0}, ar.dtype());
    if (opts.return_index) res.indices = empty({0}, dtype::int64);
    if (opts.return_inverse) res.inverse = empty(ar.shape(), dtype::int64);
    if (opts.return_counts) res.counts = empty({0}, dtype::int64);
    return res;
  }
  dispatch(ar.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ndarray s, perm;
    if (need_perm) {
      perm = argsort(ar, std::nullopt);
      s = empty({n}, ar.dtype());
      gather_flat<T><<<grid(n), block, 0, st>>>(static_cast<const char*>(ar.data()), indexer_of(ar),
                                                perm.data_as<std::int64_t>(), s.data_as<T>(), n);
      CUSCI_CHECK_LAUNCH();
    } else {
      s = sort(ar, std::nullopt);
    }
    device_buffer<std::uint8_t> flag(static_cast<std::size_t>(n));
    device_buffer<std::int64_t> scan_in;
    if (opts.return_inverse) scan_in = device_buffer<std::int64_t>(static_cast<std::size_t>(n));
    run_starts<T><<<grid(n), block, 0, st>>>(s.data_as<T>(), flag.data(), scan_in.data(), n, opts.equal_nan);
    CUSCI_CHECK_LAUNCH();
    device_buffer<std::int64_t> pos(static_cast<std::size_t>(n)), count(1);
    thrust::counting_iterator<std::int64_t> it(0);
    std::int64_t* pos_p = pos.data();
    std::int64_t* cnt_p = count.data();
    const std::uint8_t* flag_p = flag.data();
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, it, flag_p, pos_p, cnt_p, n, st);
    });
    if (opts.return_inverse) {
      std::int64_t* sc = scan_in.data();
      cub_run([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, sc, sc, n, st); });
      res.inverse = empty(ar.shape(), dtype::int64);
      scatter_inverse<<<grid(n), block, 0, st>>>(sc, perm.data_as<std::int64_t>(), res.inverse->data_as<std::int64_t>(), n);
      CUSCI_CHECK_LAUNCH();
    }
    const i64 k = read_count(cnt_p, st);  // synchronizes
    res.values = empty({k}, ar.dtype());
    if (opts.return_index) res.indices = empty({k}, dtype::int64);
    if (opts.return_counts) res.counts = empty({k}, dtype::int64);
    unique_outputs<T><<<grid(k), block, 0, st>>>(s.data_as<T>(), need_perm ? perm.data_as<std::int64_t>() : nullptr,
                                                 pos_p, k, n, res.values.data_as<T>(),
                                                 opts.return_index ? res.indices->data_as<std::int64_t>() : nullptr,
                                                 opts.return_counts ? res.counts->data_as<std::int64_t>() : nullptr);
    CUSCI_CHECK_LAUNCH();
  });
  // NumPy 2.5 finds plain unique values (no return_* arrays) with a hash table, which keeps the first
  // member of each class in input order: for the class of all NaNs (complex: any NaN part) that is
  // the first NaN of the input, not the first one in sorted order.
  const i64 k = res.values.size();
  if (opts.equal_nan && !need_perm && !opts.return_counts && k > 0 &&
      (is_floating(ar.dtype()) || is_complex(ar.dtype()))) {
    const ndarray flat = ravel(ar);
    const ndarray first_nan = take(flat, argmax(isnan(flat)).reshape({1}));
    const ndarray last = res.values[{slice{k - 1, k, {}}}];
    res.values = concatenate({res.values[{slice{0, k - 1, {}}}], where(isnan(last), first_nan, last)});
  }
  return res;
}

}  // namespace cusci

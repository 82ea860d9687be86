/// @file sorting_bincount.cu
/// bincount: x read as int32 or int64 (other integer dtypes through an int64 copy, as NumPy's cast to
/// intp) and weights as float64, so that a few CUB min/max reductions and bin kernels serve every dtype: min/max (synchronizes once to size the result and
/// reject negatives), then block-private shared-memory histograms merged with global atomics.

#include <algorithm>
#include <limits>
#include <string>

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "sorting_common.cuh"
#include "cusci/dtype.hpp"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::strided_indexer;

// --- bincount --------------------------------------------------------------------------------------

struct minmax_i {
  std::int64_t mn, mx;
};
struct minmax_i_op {
  __host__ __device__ minmax_i operator()(const minmax_i& a, const minmax_i& b) const {
    return {a.mn < b.mn ? a.mn : b.mn, a.mx > b.mx ? a.mx : b.mx};
  }
};
template <class T>
struct to_minmax_i {
  const char* base;
  strided_indexer ix;
  bool contig;  // C-contiguous: plain indexing (no per-element index arithmetic)
  __host__ __device__ minmax_i operator()(std::int64_t i) const {
#ifdef __CUDA_ARCH__
    const T raw = contig ? reinterpret_cast<const T*>(base)[i] : *reinterpret_cast<const T*>(base + ix.offset(i));
    const std::int64_t v = static_cast<std::int64_t>(raw);
    return {v, v};
#else
    return {0, 0};
#endif
  }
};

/// Counts (W = void) or weight sums of bin values x in [0, nbins); shared-memory bins when `smem`.
template <class T, class W, class Acc>
__global__ void bin_kernel(const char* xb, strided_indexer xi, bool xc, const char* wb, strided_indexer wi, bool wc, i64 n,
                           Acc* out, i64 nbins, bool smem) {
  extern __shared__ unsigned char sh_raw[];
  using SAcc = std::conditional_t<std::is_same_v<Acc, double>, double, unsigned int>;
  SAcc* sh = reinterpret_cast<SAcc*>(sh_raw);
  if (smem) {
    for (i64 b = threadIdx.x; b < nbins; b += blockDim.x) sh[b] = 0;
    __syncthreads();
  }
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 b = static_cast<i64>(xc ? reinterpret_cast<const T*>(xb)[i] : *reinterpret_cast<const T*>(xb + xi.offset(i)));
    if constexpr (std::is_same_v<W, void>) {
      if (smem) atomicAdd(&sh[b], 1u);
      else atomicAdd(reinterpret_cast<unsigned long long*>(out) + b, 1ull);
    } else {
      const W wr = wc ? reinterpret_cast<const W*>(wb)[i] : *reinterpret_cast<const W*>(wb + wi.offset(i));
      const double w = static_cast<double>(cval(wr));
      if (smem) atomicAdd(&sh[b], w);
      else atomicAdd(out + b, w);
    }
  }
  if (smem) {
    __syncthreads();
    for (i64 b = threadIdx.x; b < nbins; b += blockDim.x) {
      const SAcc v = sh[b];
      if (v != SAcc(0)) {
        if constexpr (std::is_same_v<Acc, double>) atomicAdd(out + b, v);
        else atomicAdd(reinterpret_cast<unsigned long long*>(out) + b, static_cast<unsigned long long>(v));
      }
    }
  }
}

inline constexpr i64 smem_count_bins = 12288;  // 48 KiB of 32-bit counters
inline constexpr i64 smem_sum_bins = 6144;     // 48 KiB of float64 sums

void check_real(dtype t, const char* fn, const char* what) {
  CUSCI_EXPECTS(!is_complex(t), type_error,
                std::string(fn) + ": " + what + " must have a real dtype, got " + std::string(dtype_name(t)));
}

}  // namespace

ndarray bincount(const ndarray& x, bincount_options opts) {
  const char* fn = "cusci::bincount";
  CUSCI_EXPECTS(is_integer(x.dtype()) || is_bool(x.dtype()), type_error,
                std::string(fn) + ": Cannot cast array data from dtype('" + std::string(dtype_name(x.dtype())) +
                    "') to dtype('int64') according to the rule 'safe'");
  CUSCI_EXPECTS(x.ndim() == 1, value_error,
                std::string(fn) + ": object too deep for desired array (x must be 1-D, got shape " +
                    shape_str(x.shape()) + ")");
  CUSCI_EXPECTS(opts.minlength >= 0, value_error,
                std::string(fn) + ": minlength must be non-negative, got " + std::to_string(opts.minlength));
  const i64 n = x.size();
  if (opts.weights) {
    check_real(opts.weights->dtype(), fn, "weights");
    CUSCI_EXPECTS(opts.weights->size() == n && opts.weights->ndim() == 1, value_error,
                  std::string(fn) + ": The weights and list don't have the same length (weights shape " +
                      shape_str(opts.weights->shape()) + ", x shape " + shape_str(x.shape()) + ").");
  }
  const bool weighted = opts.weights.has_value();
  // NumPy casts x to intp and the weights to double: the same here (int32 and int64 are read as they
  // are, every other integer dtype through an int64 copy), so that few instantiations serve all
  const bool x32 = x.dtype() == dtype::int32;
  const ndarray xi = (x32 || x.dtype() == dtype::int64) ? x : x.astype(dtype::int64, false);
  const bool xc = xi.is_c_contiguous();
  std::optional<ndarray> wd;
  if (weighted) wd = opts.weights->astype(dtype::float64, false);
  const bool wc = weighted && wd->is_c_contiguous();
  cudaStream_t st = get_current_stream();
  const char* xb = static_cast<const char*>(xi.data());
  const strided_indexer xix = indexer_of(xi);
  i64 nb = opts.minlength;
  if (n > 0) {
    device_buffer<minmax_i> mm(1);
    minmax_i* mp = mm.data();
    const minmax_i init{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
    auto reduce = [&](auto tag) {
      using T = typename decltype(tag)::type;
      thrust::counting_iterator<std::int64_t> it(0);
      auto tr = thrust::make_transform_iterator(it, to_minmax_i<T>{xb, xix, xc});
      cub_run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Reduce(t, b, tr, mp, n, minmax_i_op{}, init, st); });
    };
    if (x32) reduce(detail::type_tag<std::int32_t>{});
    else reduce(detail::type_tag<std::int64_t>{});
    minmax_i h{};
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, mp, sizeof(h), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    CUSCI_EXPECTS(h.mn >= 0, value_error, std::string(fn) + ": 'list' argument must have no negative elements");
    nb = std::max<i64>(nb, h.mx + 1);
  }
  ndarray acc = zeros({nb}, weighted ? dtype::float64 : dtype::int64);
  if (n == 0) return acc;
  const bool smem = nb <= (weighted ? smem_sum_bins : smem_count_bins);
  const std::size_t shb = smem ? static_cast<std::size_t>(nb) * (weighted ? 8 : 4) : 0;
  const unsigned g = grid(n, 132LL * 8);
  auto launch = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (weighted) {
      bin_kernel<T, double, double><<<g, block, shb, st>>>(xb, xix, xc, static_cast<const char*>(wd->data()),
                                                           indexer_of(*wd), wc, n, acc.data_as<double>(), nb, smem);
    } else {
      bin_kernel<T, void, std::int64_t><<<g, block, shb, st>>>(xb, xix, xc, nullptr, strided_indexer{}, false, n,
                                                               acc.data_as<std::int64_t>(), nb, smem);
    }
    CUSCI_CHECK_LAUNCH();
  };
  if (x32) launch(detail::type_tag<std::int32_t>{});
  else launch(detail::type_tag<std::int64_t>{});
  return acc;
}

}  // namespace cusci

/// @file sorting_bincount.cu
/// bincount: x read as int32 or int64 (other integer dtypes through an int64 copy, as NumPy's cast to
/// intp) and weights as float64, so that a few kernels serve every dtype.
///
/// One pass over x in the common case: each block counts the values in [0, spec_bins) into a
/// shared-memory histogram (merged into the result with one global atomic per non-empty bin) while
/// it folds x's min and max into two global words; the host then reads min/max back (one sync: the
/// result's length is max(x) + 1, and negative values raise). When max(x) >= spec_bins, a second pass
/// adds the values in [spec_bins, max(x)] (shared-memory bins when they fit, otherwise warp-aggregated
/// global atomics).

#include <algorithm>
#include <climits>
#include <string>

#include "sorting/sorting_common.cuh"
#include "cusci/dtype.hpp"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::strided_indexer;

// --- bincount --------------------------------------------------------------------------------------

inline constexpr int bc_threads = 256;
inline constexpr int bc_items = 8;  // elements a thread loads before it adds them (memory parallelism)
inline constexpr i64 bc_tile = static_cast<i64>(bc_threads) * bc_items;
inline constexpr i64 spec_count_bins = 4096;  // first pass: 16 KiB of 32-bit counters a block
inline constexpr i64 spec_sum_bins = 2048;    // first pass: 16 KiB of float64 sums a block
inline constexpr i64 smem_count_bins = 12288;  // second pass: up to 48 KiB of 32-bit counters
inline constexpr i64 smem_sum_bins = 6144;     // second pass: up to 48 KiB of float64 sums
inline constexpr std::uint64_t top64 = std::uint64_t(1) << 63;

template <class T>
__device__ __forceinline__ T load_at(const char* base, const strided_indexer& ix, bool contig, i64 i) {
  return contig ? reinterpret_cast<const T*>(base)[i] : *reinterpret_cast<const T*>(base + ix.offset(i));
}

/// One pass over x[0, n): the values v in [lo, lo + nloc) add 1 (W = void) or their weight (W = double)
/// to out[v - lo], through a block-private shared-memory histogram of nloc bins (`smem`) or global
/// atomics (counts aggregated over the lanes of a warp that hit the same bin). With `mm`, the block
/// also folds the order keys of x's min and max into mm[0] (complement of the min's key) and mm[1]
/// with atomicMax (both start at 0). A block's shared counters are 32-bit: it sees far fewer than 2^32
/// elements. Uniform control flow over tiles (the warp intrinsics need every lane).
template <class T, class W, bool smem>
__global__ void __launch_bounds__(bc_threads)
    bin_pass(const char* xb, strided_indexer xi, bool xc, const char* wb, strided_indexer wi, bool wc, i64 n, i64 lo,
             i64 nloc, void* out, unsigned long long* mm) {
  constexpr bool weighted = !std::is_same_v<W, void>;
  using SAcc = std::conditional_t<weighted, double, unsigned int>;
  extern __shared__ __align__(8) unsigned char sh_raw[];
  SAcc* sh = reinterpret_cast<SAcc*>(sh_raw);
  if constexpr (smem) {
    for (i64 b = threadIdx.x; b < nloc; b += bc_threads) sh[b] = 0;
    __syncthreads();
  }
  i64 mn = LLONG_MAX, mx = LLONG_MIN;
  const i64 tiles = (n + bc_tile - 1) / bc_tile;
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const i64 i0 = tile * bc_tile + threadIdx.x;
    i64 v[bc_items];
    double w[weighted ? bc_items : 1];
#pragma unroll
    for (int k = 0; k < bc_items; ++k) {
      const i64 i = i0 + static_cast<i64>(k) * bc_threads;
      v[k] = i < n ? static_cast<i64>(load_at<T>(xb, xi, xc, i)) : -1;
      if constexpr (weighted) w[k] = i < n ? load_at<double>(wb, wi, wc, i) : 0.0;
    }
#pragma unroll
    for (int k = 0; k < bc_items; ++k) {
      const bool valid = i0 + static_cast<i64>(k) * bc_threads < n;
      if (valid) {
        mn = v[k] < mn ? v[k] : mn;
        mx = v[k] > mx ? v[k] : mx;
      }
      const bool in = valid && v[k] >= lo && v[k] - lo < nloc;  // v >= lo >= 0: no overflow
      const i64 b = v[k] - lo;
      if constexpr (smem) {
        if (in) {
          if constexpr (weighted) atomicAdd(&sh[b], w[k]);
          else atomicAdd(&sh[b], 1u);
        }
      } else if constexpr (weighted) {
        if (in) atomicAdd(static_cast<double*>(out) + b, w[k]);
      } else {
        const unsigned same = __match_any_sync(0xffffffffu, in ? b : -1);
        if (in && (threadIdx.x & 31) == static_cast<unsigned>(__ffs(same) - 1))
          atomicAdd(static_cast<unsigned long long*>(out) + b, static_cast<unsigned long long>(__popc(same)));
      }
    }
  }
  if constexpr (smem) {
    __syncthreads();
    for (i64 b = threadIdx.x; b < nloc; b += bc_threads) {
      const SAcc s = sh[b];
      if (s != SAcc(0)) {
        if constexpr (weighted) atomicAdd(static_cast<double*>(out) + b, s);
        else atomicAdd(static_cast<unsigned long long*>(out) + b, static_cast<unsigned long long>(s));
      }
    }
  }
  if (mm != nullptr) {
    // order keys (sign bit flipped), the min's complemented: both folded with a max
    unsigned long long kmin = ~(static_cast<std::uint64_t>(mn) ^ top64), kmax = static_cast<std::uint64_t>(mx) ^ top64;
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
      const unsigned long long a = __shfl_xor_sync(0xffffffffu, kmin, s), c = __shfl_xor_sync(0xffffffffu, kmax, s);
      kmin = a > kmin ? a : kmin;
      kmax = c > kmax ? c : kmax;
    }
    if ((threadIdx.x & 31) == 0) {
      atomicMax(mm, kmin);
      atomicMax(mm + 1, kmax);
    }
  }
}

/// Blocks for a pass over n elements: one per tile, at most 8 a multiprocessor of an H200 (132).
unsigned bc_grid(i64 n) { return static_cast<unsigned>(std::min<i64>((n + bc_tile - 1) / bc_tile, 132LL * 8)); }

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
  const dtype acc_dt = weighted ? dtype::float64 : dtype::int64;
  if (n == 0) return zeros({opts.minlength}, acc_dt);
  // NumPy casts x to intp and the weights to double: the same here (int32 and int64 are read as they
  // are, every other integer dtype through an int64 copy), so that few instantiations serve all
  const bool x32 = x.dtype() == dtype::int32;
  const ndarray xi = (x32 || x.dtype() == dtype::int64) ? x : x.astype(dtype::int64, false);
  const bool xc = xi.is_c_contiguous();
  std::optional<ndarray> wd;
  if (weighted) wd = opts.weights->astype(dtype::float64, false);
  const char* xb = static_cast<const char*>(xi.data());
  const strided_indexer xix = indexer_of(xi);
  const char* wb = weighted ? static_cast<const char*>(wd->data()) : nullptr;
  const strided_indexer wix = weighted ? indexer_of(*wd) : strided_indexer{};
  const bool wc = weighted && wd->is_c_contiguous();
  cudaStream_t st = get_current_stream();
  const unsigned g = bc_grid(n);
  auto pass = [&](auto smem_tag, i64 lo, i64 nloc, void* out, unsigned long long* mm) {
    constexpr bool smem = decltype(smem_tag)::value;
    const std::size_t shb = smem ? static_cast<std::size_t>(nloc) * 8 / (weighted ? 1 : 2) : 0;
    auto go = [&](auto xt) {
      using T = typename decltype(xt)::type;
      if (weighted) bin_pass<T, double, smem><<<g, bc_threads, shb, st>>>(xb, xix, xc, wb, wix, wc, n, lo, nloc, out, mm);
      else bin_pass<T, void, smem><<<g, bc_threads, shb, st>>>(xb, xix, xc, nullptr, strided_indexer{}, false, n, lo, nloc, out, mm);
      CUSCI_CHECK_LAUNCH();
    };
    if (x32) go(detail::type_tag<std::int32_t>{});
    else go(detail::type_tag<std::int64_t>{});
  };
  // first pass: bins [0, spec) and min/max; the accumulator holds max(spec, minlength) bins (the
  // result is its first max(max(x) + 1, minlength) when max(x) < spec) and the two min/max words
  const i64 spec = weighted ? spec_sum_bins : spec_count_bins;
  const i64 alen = std::max(spec, opts.minlength);
  ndarray acc = zeros({alen + 2}, acc_dt);
  auto* mm = reinterpret_cast<unsigned long long*>(static_cast<char*>(acc.data()) + alen * 8);
  pass(std::true_type{}, 0, spec, acc.data(), mm);
  unsigned long long h[2];
  CUSCI_CUDA_TRY(cudaMemcpyAsync(h, mm, sizeof(h), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  const i64 mn = static_cast<i64>(~h[0] ^ top64), mx = static_cast<i64>(h[1] ^ top64);
  CUSCI_EXPECTS(mn >= 0, value_error, std::string(fn) + ": 'list' argument must have no negative elements");
  const i64 nb = std::max<i64>(opts.minlength, mx + 1);
  if (mx < spec) return acc[{slice{0, nb}}];
  // values beyond the first pass's bins: a fresh result with the first pass's bins, the rest added
  ndarray res = zeros({nb}, acc_dt);
  CUSCI_CUDA_TRY(cudaMemcpyAsync(res.data(), acc.data(), static_cast<std::size_t>(spec) * 8, cudaMemcpyDeviceToDevice, st));
  const i64 rest = nb - spec;
  void* out = static_cast<char*>(res.data()) + spec * 8;
  if (rest <= (weighted ? smem_sum_bins : smem_count_bins)) pass(std::true_type{}, spec, rest, out, nullptr);
  else pass(std::false_type{}, spec, rest, out, nullptr);
  return res;
}

}  // namespace cusci

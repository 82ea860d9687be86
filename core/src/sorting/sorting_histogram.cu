/// @file sorting_histogram.cu
/// histogram: with `bins` a count and no range, one pass folds the data's min, max and "any NaN" into
/// three global words (one sync to read them: NumPy's edges are computed on the host from them);
/// then one fused binning pass: each element's bin (NumPy's uniform-bin arithmetic in the edges'
/// dtype, or a binary search against explicit edges) accumulated into a block-private shared-memory
/// histogram, merged with one global atomic per non-empty bin, the edges staged in shared memory
/// beside it. Both passes load several elements a thread before using them. Weights are summed as
/// float64 (NumPy's bincount does the same) and the density is computed in float64.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>
#include <string>

#include <cub/device/device_reduce.cuh>

#include "sorting/sorting_common.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/dtype.hpp"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::dispatch;
using detail::strided_indexer;

inline constexpr i64 smem_count_bins = 12288;  // 48 KiB of 32-bit counters
inline constexpr i64 smem_sum_bins = 6144;     // 48 KiB of float64 sums
inline constexpr std::size_t smem_limit = 48 * 1024;  // dynamic shared memory without an opt-in
inline constexpr int h_threads = 256;
inline constexpr int h_items = 8;  // elements a thread loads before it bins them (memory parallelism)
inline constexpr i64 h_tile = static_cast<i64>(h_threads) * h_items;

/// Blocks for a pass over n elements: one per tile, at most 8 a multiprocessor of an H200 (132).
unsigned h_grid(i64 n) { return static_cast<unsigned>(std::min<i64>((n + h_tile - 1) / h_tile, 132LL * 8)); }

template <class T>
__device__ __forceinline__ T load_at(const char* base, const strided_indexer& ix, bool contig, i64 i) {
  return contig ? reinterpret_cast<const T*>(base)[i] : *reinterpret_cast<const T*>(base + ix.offset(i));
}

/// Bytes of a block's shared counters (a multiple of 8: the staged edges follow them).
inline std::size_t count_bytes(i64 nb, bool weighted) {
  return (static_cast<std::size_t>(nb) * (weighted ? 8 : 4) + 7) / 8 * 8;
}

/// Block-private histogram in shared memory (`smem`), merged into `out` at the end with one global
/// atomic per non-empty bin; without `smem` every element goes to `out` with a global atomic. Counts
/// are 32-bit in shared memory (a block sees fewer than 2^32 elements) and int64 in `out`; weights
/// are summed in float64.
template <class W>
struct priv_hist {
  using weight_type = W;
  static constexpr bool weighted = !std::is_same_v<W, void>;
  using SAcc = std::conditional_t<weighted, double, unsigned int>;
  SAcc* sh;
  void* out;
  i64 nbins;
  bool smem;
  const char* wb;
  strided_indexer wi;
  bool wc;

  /// Zeroes the shared counters and, with `sedges`, copies the edges e[0, ne) to shared memory after
  /// them; returns the edges to read (shared or e).
  template <class E>
  __device__ __forceinline__ const E* init(unsigned char* raw, const E* e, i64 ne, bool sedges) {
    sh = reinterpret_cast<SAcc*>(raw);
    if (smem)
      for (i64 b = threadIdx.x; b < nbins; b += blockDim.x) sh[b] = 0;
    const E* ep = e;
    if (sedges) {
      const std::size_t off = smem ? (static_cast<std::size_t>(nbins) * sizeof(SAcc) + 7) / 8 * 8 : 0;
      E* se = reinterpret_cast<E*>(raw + off);
      for (i64 b = threadIdx.x; b < ne; b += blockDim.x) se[b] = e[b];
      ep = se;
    }
    __syncthreads();
    return ep;
  }
  /// Weight of element i (0 without weights).
  __device__ __forceinline__ double weight(i64 i) const {
    if constexpr (weighted) return static_cast<double>(cval(load_at<W>(wb, wi, wc, i)));
    else return 0.0;
  }
  /// Adds an element of weight w (ignored without weights) to bin b (0 <= b < nbins).
  __device__ __forceinline__ void add(i64 b, double w) {
    if constexpr (weighted) {
      if (smem) atomicAdd(&sh[b], w);
      else atomicAdd(static_cast<double*>(out) + b, w);
    } else {
      if (smem) atomicAdd(&sh[b], 1u);
      else atomicAdd(static_cast<unsigned long long*>(out) + b, 1ull);
    }
  }
  __device__ __forceinline__ void flush() {
    if (!smem) return;
    __syncthreads();
    for (i64 b = threadIdx.x; b < nbins; b += blockDim.x) {
      const SAcc v = sh[b];
      if (v != SAcc(0)) {
        if constexpr (weighted) atomicAdd(static_cast<double*>(out) + b, v);
        else atomicAdd(static_cast<unsigned long long*>(out) + b, static_cast<unsigned long long>(v));
      }
    }
  }
};

// --- histogram ------------------------------------------------------------------------------------

/// One arithmetic step in the edges' dtype E (float16 rounds after each operation, as NumPy's loops).
template <class E>
__device__ __forceinline__ E rnd(compute_t<E> v) {
  if constexpr (is_half_v<E>) return __float2half_rn(v);
  else return v;
}

/// The binning loop of both histogram kernels: tiles of h_tile elements in a grid-stride loop; each
/// thread loads its h_items elements (as V) and their weights before binning any of them (eight
/// loads in flight), then calls bin(value, weight) for each element that exists.
template <class V, class W, class Bin>
__device__ __forceinline__ void bin_tiles(const char* ab, const strided_indexer& ai, bool ac, i64 n,
                                          const priv_hist<W>& h, Bin bin) {
  const i64 tiles = (n + h_tile - 1) / h_tile;
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const i64 i0 = tile * h_tile + threadIdx.x;
    V vs[h_items];
    double w[h_items];
#pragma unroll
    for (int k = 0; k < h_items; ++k) {
      const i64 i = i0 + static_cast<i64>(k) * h_threads;
      if (i < n) {
        vs[k] = load_at<V>(ab, ai, ac, i);
        w[k] = h.weight(i);
      }
    }
#pragma unroll
    for (int k = 0; k < h_items; ++k)
      if (i0 + static_cast<i64>(k) * h_threads < n) bin(vs[k], w[k]);
  }
}

/// Histogram over NumPy's uniform-bin index of each element (elements outside [first, last], NaN
/// included, are not counted), computed and accumulated in one pass.
template <class A, class E, class W>
__global__ void __launch_bounds__(h_threads)
    uniform_hist(const char* ab, strided_indexer ai, bool ac, i64 n, const E* edges, bool sedges, i64 nb, E first,
                 E last, E denom, E numer, priv_hist<W> h) {
  extern __shared__ __align__(8) unsigned char sh_raw[];
  const E* ep = h.init(sh_raw, edges, nb + 1, sedges);
  bin_tiles<A>(ab, ai, ac, n, h, [&](const A& raw, double w) {
    E x;
    if constexpr (is_half_v<A> || std::is_same_v<A, E>) x = raw;
    else x = static_cast<E>(raw);
    const auto xc = cval(x);
    if (!(xc >= cval(first) && xc <= cval(last))) return;
    // NumPy's uniform-bin index: ((x - first) / denom) * numer truncated, then corrected by one
    // against the edges themselves (the last bin holds the last edge)
    const E d = rnd<E>(xc - cval(first));
    const E q = rnd<E>(cval(d) / cval(denom));
    const E f = rnd<E>(cval(q) * cval(numer));
    i64 idx = static_cast<i64>(cval(f));
    if (idx == nb) idx -= 1;
    if (xc < cval(ep[idx])) idx -= 1;
    if (idx != nb - 1 && xc >= cval(ep[idx + 1])) idx += 1;
    h.add(idx, w);
  });
  h.flush();
}

/// Histogram against explicit edges e[0..m] (common dtype T): e[b] <= x < e[b+1], the last bin
/// closed; elements outside (NaN included) not counted. Bin search and accumulation in one pass.
template <class T, class W>
__global__ void __launch_bounds__(h_threads)
    edge_hist(const char* ab, strided_indexer ai, bool ac, i64 n, const T* edges, bool sedges, i64 m, priv_hist<W> h) {
  extern __shared__ __align__(8) unsigned char sh_raw[];
  const T* e = h.init(sh_raw, edges, m + 1, sedges);
  bin_tiles<T>(ab, ai, ac, n, h, [&](const T& x, double w) {
    // number of edges <= x
    i64 lo = 0, hi = m + 1;
    while (lo < hi) {
      const i64 mid = lo + ((hi - lo) >> 1);
      if (!np_less(x, e[mid])) lo = mid + 1;
      else hi = mid;
    }
    i64 b = lo - 1;
    if (b == m && !np_less(e[m], x)) b = m - 1;  // x == last edge
    if (b >= 0 && b < m) h.add(b, w);
  });
  h.flush();
}

template <class T>
__global__ void check_monotonic(const T* e, i64 m1, int* bad) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i + 1 < m1; i += static_cast<i64>(gridDim.x) * blockDim.x)
    if (cval(e[i]) > cval(e[i + 1])) *bad = 1;
}

/// out[b] = hist[b] / (e[b+1] - e[b]) / total, in float64.
template <class H, class E>
__global__ void density_kernel(const H* hist, const E* e, const double* total, double* out, i64 nb) {
  for (i64 b = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; b < nb; b += static_cast<i64>(gridDim.x) * blockDim.x) {
    const double db = static_cast<double>(cval(e[b + 1])) - static_cast<double>(cval(e[b]));
    out[b] = static_cast<double>(cval(hist[b])) / db / *total;
  }
}

/// Order key of a double (sign-magnitude bits made unsigned-ordered; NaNs are never keyed).
__device__ __forceinline__ unsigned long long order_key(double v) {
  const auto u = static_cast<unsigned long long>(__double_as_longlong(v));
  constexpr unsigned long long top = 1ull << 63;
  return (u & top) ? ~u : (u | top);
}
/// The double of an order key.
inline double from_order_key(unsigned long long k) {
  constexpr unsigned long long top = 1ull << 63;
  const unsigned long long u = (k & top) ? (k & ~top) : ~k;
  double v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

/// One pass over a[0, n) (T = __half, float or double): folds the order keys of the min (complemented)
/// and the max of the non-NaN values into mm[0] and mm[1] with atomicMax, and sets mm[2] when a NaN
/// is seen (all three start at 0). Uniform control flow (warp shuffles at the end).
template <class T>
__global__ void __launch_bounds__(h_threads) range_pass(const char* ab, strided_indexer ai, bool ac, i64 n,
                                                       unsigned long long* mm) {
  using C = compute_t<T>;
  C mn = ::cuda::std::numeric_limits<C>::infinity(), mx = -::cuda::std::numeric_limits<C>::infinity();
  bool nan = false;
  const i64 tiles = (n + h_tile - 1) / h_tile;
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const i64 i0 = tile * h_tile + threadIdx.x;
    T xs[h_items];
#pragma unroll
    for (int k = 0; k < h_items; ++k) {
      const i64 i = i0 + static_cast<i64>(k) * h_threads;
      if (i < n) xs[k] = load_at<T>(ab, ai, ac, i);
    }
#pragma unroll
    for (int k = 0; k < h_items; ++k) {
      if (i0 + static_cast<i64>(k) * h_threads >= n) continue;
      const C v = cval(xs[k]);
      if (v != v) {
        nan = true;
      } else {
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
      }
    }
  }
  unsigned long long kmin = ~order_key(static_cast<double>(mn)), kmax = order_key(static_cast<double>(mx));
#pragma unroll
  for (int s = 16; s > 0; s >>= 1) {
    const unsigned long long a = __shfl_xor_sync(0xffffffffu, kmin, s), c = __shfl_xor_sync(0xffffffffu, kmax, s);
    kmin = a > kmin ? a : kmin;
    kmax = c > kmax ? c : kmax;
  }
  nan = __any_sync(0xffffffffu, nan);
  if ((threadIdx.x & 31) == 0) {
    atomicMax(mm, kmin);
    atomicMax(mm + 1, kmax);
    if (nan) atomicOr(mm + 2, 1ull);
  }
}

void check_real(dtype t, const char* fn, const char* what) {
  CUSCI_EXPECTS(!is_complex(t), type_error,
                std::string(fn) + ": " + what + " must have a real dtype, got " + std::string(dtype_name(t)));
}

/// Accumulator (zeros: int64 counts, or float64 weight sums) filled by `launch(priv_hist<W>, grid,
/// shared bytes, sedges)`, which launches one fused binning kernel over the n elements; `edge_bytes`
/// are the bytes of the nb + 1 edges, staged in shared memory after the counters (`sedges`) when
/// both fit.
template <class L>
ndarray hist_acc(i64 n, i64 nb, const std::optional<ndarray>& weights, std::size_t edge_bytes, L&& launch) {
  const bool weighted = weights.has_value();
  ndarray acc = zeros({nb}, weighted ? dtype::float64 : dtype::int64);
  if (n > 0 && nb > 0) {
    const bool smem = nb <= (weighted ? smem_sum_bins : smem_count_bins);
    const std::size_t cb = smem ? count_bytes(nb, weighted) : 0;
    const bool sedges = cb + edge_bytes <= smem_limit;
    const std::size_t shb = cb + (sedges ? edge_bytes : 0);
    const unsigned g = h_grid(n);
    if (weighted) {
      const ndarray wd = weights->astype(dtype::float64, false);
      launch(priv_hist<double>{nullptr, acc.data(), nb, smem, static_cast<const char*>(wd.data()), indexer_of(wd),
                               wd.is_c_contiguous()},
             g, shb, sedges);
    } else {
      launch(priv_hist<void>{nullptr, acc.data(), nb, smem, nullptr, strided_indexer{}, false}, g, shb, sedges);
    }
    CUSCI_CHECK_LAUNCH();
  }
  return acc;
}

/// The result from the accumulator: the weights' dtype (weighted) or int64, density applied.
ndarray finish_hist(const ndarray& acc, i64 nb, const std::optional<ndarray>& weights, bool density,
                    const ndarray& edges) {
  cudaStream_t st = get_current_stream();
  const bool weighted = weights.has_value();
  ndarray hist = weighted ? acc.astype(weights->dtype(), false) : acc;
  if (!density) return hist;
  // density: hist / diff(edges) / hist.sum(), in float64 (the hist values are exact in float64)
  const ndarray hd = hist.astype(dtype::float64);
  const ndarray ed = edges.astype(dtype::float64);
  device_buffer<double> total(1);
  double* tp = total.data();
  const double* hp = hd.data_as<double>();
  cub_run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, hp, tp, nb, st); });
  ndarray out = empty({nb}, dtype::float64);
  density_kernel<double, double><<<grid(nb), block, 0, st>>>(hp, ed.data_as<double>(), tp, out.data_as<double>(), nb);
  CUSCI_CHECK_LAUNCH();
  return out;
}

void check_weights(const ndarray& a, const std::optional<ndarray>& w, const char* fn) {
  if (!w) return;
  check_real(w->dtype(), fn, "weights");
  CUSCI_EXPECTS(w->shape() == a.shape(), value_error,
                std::string(fn) + ": weights should have the same shape as a, got " + shape_str(w->shape()) + " and " +
                    shape_str(a.shape()));
}

/// Rounds a float32 result to E's precision (float16 rounds, float32 is already there).
template <class E>
float round_to(float v) {
  if constexpr (is_half_v<E>) return __half2float(__float2half(v));
  else return v;
}

/// Edge values as NumPy's linspace(first, last, nb + 1) then astype(E), on the host. NumPy computes
/// in float64 for Python-float (or integer) bounds and in E itself for data-derived bounds of a float
/// input (`in_e`: float32 and float16 scalars from a.min()/a.max()).
template <class E>
std::vector<E> linspace_edges(double first, double last, i64 nb, bool in_e) {
  const i64 num = nb + 1;
  const i64 div = num - 1;
  std::vector<E> e(static_cast<std::size_t>(num));
  auto put = [&](i64 i, double y) {
    if constexpr (is_half_v<E>) e[i] = __double2half(y);
    else e[i] = static_cast<E>(y);
  };
  if (!in_e || std::is_same_v<E, double>) {
    const double delta = last - first;
    const double step = delta / static_cast<double>(div);
    for (i64 i = 0; i < num; ++i) {
      double y = static_cast<double>(i);
      if (step == 0) y = (y / static_cast<double>(div)) * delta;
      else y = y * step;
      y += first;
      if (i == num - 1) y = last;
      put(i, y);
    }
  } else {
    auto r = [](float v) { return round_to<E>(v); };
    const float f = r(static_cast<float>(first)), l = r(static_cast<float>(last));
    const float delta = r(l - f);
    const float fdiv = r(static_cast<float>(div));
    const float step = r(delta / fdiv);
    for (i64 i = 0; i < num; ++i) {
      float y = r(static_cast<float>(i));
      if (step == 0) y = r(r(y / fdiv) * delta);
      else y = r(y * step);
      y = r(y + f);
      if (i == num - 1) y = l;
      put(i, static_cast<double>(y));
    }
  }
  return e;
}

template <class E>
double host_val(E v) {
  if constexpr (is_half_v<E>) return static_cast<double>(__half2float(v));
  else return static_cast<double>(v);
}

std::string fmt(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

histogram_result histogram(const ndarray& a, std::int64_t bins, histogram_options opts) {
  const char* fn = "cusci::histogram";
  check_real(a.dtype(), fn, "a");
  check_weights(a, opts.weights, fn);
  CUSCI_EXPECTS(bins > 0, value_error, std::string(fn) + ": `bins` must be positive, when an integer, got " +
                                           std::to_string(bins));
  // NumPy's linspace of bins + 1 float64 edges: an absurd `bins` fails here (ValueError "array is too
  // big" / MemoryError), before the host builds the edges.
  (void)detail::checked_host_count(bins == std::numeric_limits<i64>::max() ? bins : bins + 1, sizeof(double), fn,
                                   "bins");
  const i64 n = a.size();
  const dtype edt = (is_floating(a.dtype())) ? a.dtype() : dtype::float64;
  double first, last;
  bool autodetected = false;
  if (opts.range) {
    first = opts.range->first;
    last = opts.range->second;
    CUSCI_EXPECTS(!(first > last), value_error, std::string(fn) + ": max must be larger than min in range parameter.");
    CUSCI_EXPECTS(std::isfinite(first) && std::isfinite(last), value_error,
                  std::string(fn) + ": supplied range of [" + fmt(first) + ", " + fmt(last) + "] is not finite");
  } else if (n == 0) {
    first = 0;
    last = 1;
  } else {
    cudaStream_t st = get_current_stream();
    autodetected = true;
    device_buffer<unsigned long long> mm(3);
    CUSCI_CUDA_TRY(cudaMemsetAsync(mm.data(), 0, 3 * sizeof(unsigned long long), st));
    // floats read as they are; bool and integers through a float64 copy (exact for |v| <= 2^53; the
    // min/max are compared as float64 values anyway): three instantiations of the reduction
    auto minmax = [&](auto tag, const ndarray& src) {
      using T = typename decltype(tag)::type;
      range_pass<T><<<h_grid(n), h_threads, 0, st>>>(static_cast<const char*>(src.data()), indexer_of(src),
                                                      src.is_c_contiguous(), n, mm.data());
      CUSCI_CHECK_LAUNCH();
    };
    if (a.dtype() == dtype::float16) minmax(detail::type_tag<__half>{}, a);
    else if (a.dtype() == dtype::float32) minmax(detail::type_tag<float>{}, a);
    else minmax(detail::type_tag<double>{}, a.astype(dtype::float64, false));
    unsigned long long h[3];
    CUSCI_CUDA_TRY(cudaMemcpyAsync(h, mm.data(), sizeof(h), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    first = h[2] ? std::nan("") : from_order_key(~h[0]);
    last = h[2] ? std::nan("") : from_order_key(h[1]);
    CUSCI_EXPECTS(std::isfinite(first) && std::isfinite(last), value_error,
                  std::string(fn) + ": autodetected range of [" + fmt(first) + ", " + fmt(last) + "] is not finite");
  }
  cudaStream_t st = get_current_stream();
  histogram_result res;
  std::optional<ndarray> acc;
  dispatch(edt, [&](auto etag) {
    using E = typename decltype(etag)::type;
    if constexpr (is_real_float_v<E>) {
      if (first == last) {
        // NumPy: first - 0.5, last + 0.5 in the edges' dtype for data-derived edges (float scalars)
        if (autodetected && !std::is_same_v<E, double>) {
          first = round_to<E>(static_cast<float>(first) - 0.5f);
          last = round_to<E>(static_cast<float>(last) + 0.5f);
        } else {
          first -= 0.5;
          last += 0.5;
        }
      }
      std::vector<E> he = linspace_edges<E>(first, last, bins, autodetected);
      for (std::size_t i = 0; i + 1 < he.size(); ++i)
        CUSCI_EXPECTS(host_val(he[i]) < host_val(he[i + 1]), value_error,
                      std::string(fn) + ": Too many bins for data range. Cannot create " + std::to_string(bins) +
                          " finite-sized bins.");
      res.bin_edges = asarray(static_cast<const void*>(he.data()), edt, {bins + 1});
      auto cast = [](double v) -> E {
        if constexpr (is_half_v<E>) return __double2half(v);
        else return static_cast<E>(v);
      };
      const E fE = cast(first), lE = cast(last), dE = cast(last - first), nE = cast(static_cast<double>(bins));
      const E* ep = res.bin_edges.data_as<E>();
      const char* ab = static_cast<const char*>(a.data());
      const strided_indexer aix = indexer_of(a);
      const bool ac = a.is_c_contiguous();
      acc = hist_acc(n, bins, opts.weights, static_cast<std::size_t>(bins + 1) * sizeof(E),
                     [&](auto h, unsigned g, std::size_t shb, bool sedges) {
        using W = typename decltype(h)::weight_type;
        dispatch(a.dtype(), [&](auto atag) {
          using A = typename decltype(atag)::type;
          if constexpr (!is_complex_v<A>) {
            if constexpr (is_real_float_v<A> && !std::is_same_v<A, E>) {
              // float input always has edges of its own dtype
            } else {
              uniform_hist<A, E, W><<<g, h_threads, shb, st>>>(ab, aix, ac, n, ep, sedges, bins, fE, lE, dE, nE, h);
            }
          }
        });
      });
    }
  });
  CUSCI_EXPECTS(acc.has_value(), type_error, std::string(fn) + ": unsupported dtype " + std::string(dtype_name(a.dtype())));
  res.hist = finish_hist(*acc, bins, opts.weights, opts.density, res.bin_edges);
  return res;
}

histogram_result histogram(const ndarray& a, const ndarray& bins, histogram_options opts) {
  const char* fn = "cusci::histogram";
  check_real(a.dtype(), fn, "a");
  check_real(bins.dtype(), fn, "bins");
  check_weights(a, opts.weights, fn);
  CUSCI_EXPECTS(bins.ndim() == 1, value_error, std::string(fn) + ": `bins` must be 1d, when an array, got shape " +
                                                   shape_str(bins.shape()));
  cudaStream_t st = get_current_stream();
  const i64 m1 = bins.size();
  const i64 m = m1 > 0 ? m1 - 1 : 0;
  if (m1 > 1) {
    device_buffer<int> bad(1);
    CUSCI_CUDA_TRY(cudaMemsetAsync(bad.data(), 0, sizeof(int), st));
    ndarray bc = bins.is_c_contiguous() ? bins : bins.copy();
    dispatch(bins.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!is_complex_v<T>) {
        check_monotonic<T><<<grid(m1), block, 0, st>>>(bc.data_as<T>(), m1, bad.data());
        CUSCI_CHECK_LAUNCH();
      }
    });
    int h = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, bad.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    CUSCI_EXPECTS(h == 0, value_error, std::string(fn) + ": `bins` must increase monotonically, when an array");
  }
  const i64 n = a.size();
  const dtype common = promote_types(a.dtype(), bins.dtype());
  ndarray a1 = a.astype(common, false);
  ndarray e1 = bins.astype(common, false);
  if (!e1.is_c_contiguous()) e1 = e1.copy();
  const char* ab = static_cast<const char*>(a1.data());
  const strided_indexer aix = indexer_of(a1);
  const bool ac = a1.is_c_contiguous();
  const ndarray acc = hist_acc(n, m, opts.weights, static_cast<std::size_t>(m + 1) * itemsize(common),
                               [&](auto h, unsigned g, std::size_t shb, bool sedges) {
    using W = typename decltype(h)::weight_type;
    dispatch(common, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!is_complex_v<T>)
        edge_hist<T, W><<<g, h_threads, shb, st>>>(ab, aix, ac, n, e1.data_as<T>(), sedges, m, h);
    });
  });
  histogram_result res;
  res.bin_edges = bins;
  res.hist = finish_hist(acc, m, opts.weights, opts.density, bins);
  return res;
}

}  // namespace cusci

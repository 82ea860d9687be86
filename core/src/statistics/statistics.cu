// Kernel of the statistics family: positions of the order statistics that median / quantile gather,
// with NumPy's virtual-index formulas (numpy/lib/_function_base_impl.py: _QuantileMethods,
// _get_indexes, _get_gamma, _inverted_cdf, _closest_observation) evaluated in the q dtype. Everything
// else in the family composes existing operations (statistics.cpp).

#include <cuda_fp16.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/statistics.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail {
namespace {

// Arithmetic in the q dtype: float and double natively; float16 computed in float and rounded to
// half after every operation (as NumPy's float16 loops do).
template <class C, bool Half>
struct qmath {
  __device__ static C r(C x) {
    if constexpr (Half) return __half2float(__float2half_rn(x));
    else return x;
  }
  // explicitly rounded operations: no contraction into FMAs (NumPy rounds every operation)
  __device__ static C mul(C a, C b) {
    if constexpr (sizeof(C) == 8) return __dmul_rn(a, b);
    else return r(__fmul_rn(a, b));
  }
  __device__ static C add(C a, C b) {
    if constexpr (sizeof(C) == 8) return __dadd_rn(a, b);
    else return r(__fadd_rn(a, b));
  }
  __device__ static C sub(C a, C b) {
    if constexpr (sizeof(C) == 8) return __dsub_rn(a, b);
    else return r(__fsub_rn(a, b));
  }
  __device__ static C from_int(std::int64_t n) {
    if constexpr (Half) return __half2float(__double2half(static_cast<double>(n)));
    else return static_cast<C>(n);
  }
  __device__ static C from_double(double d) {
    if constexpr (Half) return __half2float(__double2half(d));
    else return static_cast<C>(d);
  }
};

template <class C, bool Half>
__global__ void quantile_positions_kernel(const C* __restrict__ qv, std::int64_t nq, const std::int64_t* counts,
                                          std::int64_t rows, std::int64_t row_len, int method,
                                          std::int64_t* __restrict__ prev, std::int64_t* __restrict__ next,
                                          C* __restrict__ gamma) {
  using M = qmath<C, Half>;
  const std::int64_t total = nq * rows;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t qi = t / rows, row = t - qi * rows;
    const std::int64_t c = counts ? counts[row] : row_len;
    const std::int64_t base = row * row_len;
    if (method < 0) {  // median: the two middle elements, interleaved [rows, 2]
      std::int64_t i0 = (c - 1) / 2, i1 = c / 2;
      if (c <= 0) i0 = i1 = row_len - 1;  // all NaN: the last element (a NaN)
      prev[2 * row] = base + i0;
      prev[2 * row + 1] = base + i1;
      continue;
    }
    if (c <= 0) {  // all-NaN row (nan-variants): point at its last element, a NaN
      prev[t] = next[t] = base + row_len - 1;
      gamma[t] = C(0);
      continue;
    }
    const C q = qv[qi];
    const C n = M::from_int(c);
    const C nm1 = M::from_int(c - 1);
    const auto qm = static_cast<quantile_method>(method);
    // discrete methods: one integer index
    bool discrete = true;
    std::int64_t idx = 0;
    switch (qm) {
      case quantile_method::lower: idx = static_cast<std::int64_t>(floor(M::mul(nm1, q))); break;
      case quantile_method::higher: idx = static_cast<std::int64_t>(ceil(M::mul(nm1, q))); break;
      case quantile_method::nearest: idx = static_cast<std::int64_t>(rint(M::mul(nm1, q))); break;
      case quantile_method::inverted_cdf:
      case quantile_method::closest_observation: {
        C index = M::sub(M::mul(n, q), C(1));
        if (qm == quantile_method::closest_observation) index = M::sub(index, C(0.5));
        const C p = floor(index);
        const C g = M::sub(index, p);
        bool take_prev = g == C(0);
        if (qm == quantile_method::closest_observation) {
          const C m = M::sub(p, M::mul(C(2), floor(p / C(2))));  // Python's p % 2
          take_prev = take_prev && m == C(1);
        }
        idx = static_cast<std::int64_t>(take_prev ? p : M::add(p, C(1)));
        break;
      }
      default: discrete = false;
    }
    if (discrete) {
      if (idx < 0) idx = 0;
      if (idx > c - 1) idx = c - 1;  // NumPy would raise IndexError (float rounding of huge n)
      prev[t] = next[t] = base + idx;
      gamma[t] = C(0);
      continue;
    }
    // continuous methods: virtual index v
    C v;
    double alpha = 0, beta = 0;
    bool hf = false;
    switch (qm) {
      case quantile_method::linear: v = M::mul(nm1, q); break;
      case quantile_method::averaged_inverted_cdf: v = M::sub(M::mul(n, q), C(1)); break;
      case quantile_method::midpoint: {
        const C x = M::mul(nm1, q);
        v = M::mul(C(0.5), M::add(floor(x), ceil(x)));
        break;
      }
      case quantile_method::interpolated_inverted_cdf: alpha = 0; beta = 1; hf = true; v = C(0); break;
      case quantile_method::hazen: alpha = 0.5; beta = 0.5; hf = true; v = C(0); break;
      case quantile_method::weibull: alpha = 0; beta = 0; hf = true; v = C(0); break;
      case quantile_method::median_unbiased: alpha = 1.0 / 3.0; beta = 1.0 / 3.0; hf = true; v = C(0); break;
      case quantile_method::normal_unbiased: alpha = 3.0 / 8.0; beta = 3.0 / 8.0; hf = true; v = C(0); break;
      default: v = M::mul(nm1, q);
    }
    if (hf) {  // n * q + (alpha + q * (1 - alpha - beta)) - 1, the constants rounded once to C
      const C coef = M::from_double(1.0 - alpha - beta);
      const C t1 = M::mul(n, q);
      const C t2 = M::add(M::from_double(alpha), M::mul(q, coef));
      v = M::sub(M::add(t1, t2), C(1));
    }
    // _get_indexes: floor / floor + 1, above the last valid index both -1 (the last), below 0 both 0
    C p = floor(v);
    std::int64_t i0 = static_cast<std::int64_t>(p), i1 = i0 + 1;
    if (v >= nm1) {
      p = C(-1);
      i0 = i1 = c - 1;
    } else if (v < C(0)) {
      p = C(0);
      i0 = i1 = 0;
    }
    C g = M::sub(v, p);  // _get_gamma uses the clamped previous index (-1 above the bounds)
    if (qm == quantile_method::averaged_inverted_cdf) g = g == C(0) ? C(0.5) : C(1);
    if (qm == quantile_method::midpoint) g = (v - floor(v)) == C(0) ? C(0) : C(0.5);
    prev[t] = base + i0;
    next[t] = base + i1;
    gamma[t] = g;
  }
}

}  // namespace

void quantile_positions(const void* q, std::int64_t nq, cusci::dtype gdt, const std::int64_t* counts,
                        std::int64_t rows, std::int64_t row_len, int method_id, std::int64_t* prev,
                        std::int64_t* next, void* gamma) {
  const std::int64_t total = method_id < 0 ? rows : nq * rows;
  if (total <= 0) return;
  const int threads = 256;
  const std::int64_t want = (total + threads - 1) / threads;
  const int blocks = static_cast<int>(want < 65535 ? want : 65535);
  cudaStream_t s = get_current_stream();
  if (method_id < 0) nq = 1;
  if (gdt == dtype::float64) {
    quantile_positions_kernel<double, false><<<blocks, threads, 0, s>>>(
        static_cast<const double*>(q), nq, counts, rows, row_len, method_id, prev, next, static_cast<double*>(gamma));
  } else if (gdt == dtype::float16) {
    quantile_positions_kernel<float, true><<<blocks, threads, 0, s>>>(
        static_cast<const float*>(q), nq, counts, rows, row_len, method_id, prev, next, static_cast<float*>(gamma));
  } else {
    quantile_positions_kernel<float, false><<<blocks, threads, 0, s>>>(
        static_cast<const float*>(q), nq, counts, rows, row_len, method_id, prev, next, static_cast<float*>(gamma));
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::detail

// --- radix selection of a few order statistics of one contiguous float row --------------------------
// For the whole-array median / percentile of a large 1-D float32 / float64 array: instead of sorting,
// find the keys of up to 8 ranks digit by digit (8-bit digits from the top: 4 passes over the data for
// float32, 8 for float64). Each pass histograms the digit of the elements whose higher digits match
// one of the ranks' prefixes (block-private shared histograms, warp-aggregated with __match_any_sync,
// merged with one global atomic per non-empty bin); a one-block kernel then picks each rank's digit by
// a running count and updates its prefix and remaining rank. Keys are the usual order-preserving
// unsigned maps of the IEEE bits with every NaN mapped to the largest key (NaNs last, as NumPy's sort);
// the number of NaNs is counted in the first pass so that the caller can propagate NaN.
namespace cusci::detail {
namespace {

constexpr int kSelMax = 8;

template <class K>
struct sel_state {
  K prefix[kSelMax];
  unsigned long long rank[kSelMax];
  int slot[kSelMax];
  K slot_prefix[kSelMax];
  int nslots;
  unsigned long long nan_count;
};

__device__ inline std::uint32_t sel_key(float x) {
  const std::uint32_t u = __float_as_uint(x);
  if (x != x) return 0xffffffffu;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ inline std::uint64_t sel_key(double x) {
  const std::uint64_t u = static_cast<std::uint64_t>(__double_as_longlong(x));
  if (x != x) return ~std::uint64_t{0};
  return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}
__device__ inline float sel_value(std::uint32_t k, float) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}
__device__ inline double sel_value(std::uint64_t k, double) {
  return __longlong_as_double(static_cast<long long>((k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k));
}

template <class K>
__global__ void sel_init(sel_state<K>* st, const std::int64_t* ranks, int m) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int r = 0; r < m; ++r) {
    st->prefix[r] = 0;
    st->rank[r] = static_cast<unsigned long long>(ranks[r]);
    st->slot[r] = 0;
    st->slot_prefix[r] = 0;
  }
  st->nslots = 1;
  st->nan_count = 0;
}

template <class T, class K>
__global__ void sel_hist(const T* __restrict__ x, std::int64_t n, sel_state<K>* st, unsigned* hist, int shift,
                         K himask, bool count_nan) {
  __shared__ unsigned sh[kSelMax * 256];
  __shared__ K sp[kSelMax];
  const int ns = st->nslots;
  for (int j = threadIdx.x; j < ns * 256; j += blockDim.x) sh[j] = 0;
  if (threadIdx.x < ns) sp[threadIdx.x] = st->slot_prefix[threadIdx.x];
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned long long nans = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // uniform trip count within a warp (every lane joins __match_any_sync)
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; base < n; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    int bin = -1;
    if (i < n) {
      const T v = x[i];
      if (count_nan && v != v) ++nans;
      const K k = sel_key(v);
      for (int s = 0; s < ns; ++s) {
        if ((k & himask) == sp[s]) {
          bin = s * 256 + static_cast<int>((k >> shift) & K(255));
          break;
        }
      }
    }
    if (__any_sync(0xffffffffu, bin >= 0)) {
      const int b0 = __shfl_sync(0xffffffffu, bin, 0);
      if (__all_sync(0xffffffffu, bin == b0)) {  // one bin for the whole warp (b0 >= 0 here)
        if (lane == 0) atomicAdd(&sh[b0], 32u);
      } else {
        const unsigned peers = __match_any_sync(0xffffffffu, bin);
        if (bin >= 0 && lane == __ffs(peers) - 1) atomicAdd(&sh[bin], static_cast<unsigned>(__popc(peers)));
      }
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < ns * 256; j += blockDim.x)
    if (sh[j]) atomicAdd(&hist[j], sh[j]);
  if (count_nan) {
    for (int o = 16; o > 0; o >>= 1) nans += __shfl_down_sync(0xffffffffu, nans, o);
    if (lane == 0 && nans) atomicAdd(&st->nan_count, nans);
  }
}

template <class K>
__global__ void sel_pick(sel_state<K>* st, unsigned* hist, int m, int shift) {
  if (threadIdx.x == 0) {
    for (int r = 0; r < m; ++r) {
      const unsigned* h = hist + st->slot[r] * 256;
      unsigned long long cum = 0;
      const unsigned long long rk = st->rank[r];
      int b = 0;
      for (; b < 255; ++b) {
        if (cum + h[b] > rk) break;
        cum += h[b];
      }
      st->prefix[r] |= static_cast<K>(b) << shift;
      st->rank[r] = rk - cum;
    }
    int ns = 0;
    for (int r = 0; r < m; ++r) {
      int s = 0;
      while (s < ns && st->slot_prefix[s] != st->prefix[r]) ++s;
      if (s == ns) st->slot_prefix[ns++] = st->prefix[r];
      st->slot[r] = s;
    }
    st->nslots = ns;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < kSelMax * 256; j += blockDim.x) hist[j] = 0;
}

template <class T, class K>
__global__ void sel_finish(const sel_state<K>* st, int m, T* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int r = 0; r < m; ++r) out[r] = sel_value(st->prefix[r], T{});
  out[m] = st->nan_count ? sel_value(~K(0), T{}) : T(0);
}

template <class T, class K>
void select_run(const T* x, std::int64_t n, const std::int64_t* ranks, int m, T* out) {
  cudaStream_t s = get_current_stream();
  device_buffer<sel_state<K>> st(1, s);
  device_buffer<unsigned> hist(kSelMax * 256, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(hist.data(), 0, kSelMax * 256 * sizeof(unsigned), s));
  sel_init<K><<<1, 1, 0, s>>>(st.data(), ranks, m);
  CUSCI_CHECK_LAUNCH();
  int dev = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int threads = 256;
  const std::int64_t want = (n + threads * 8 - 1) / (threads * 8);
  const int blocks = static_cast<int>(want < sms * 8 ? (want > 0 ? want : 1) : sms * 8);
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  for (int p = 0; p < bits / 8; ++p) {
    const int shift = bits - 8 * (p + 1);
    const K himask = p == 0 ? K(0) : static_cast<K>(~K(0) << (shift + 8));
    sel_hist<T, K><<<blocks, threads, 0, s>>>(x, n, st.data(), hist.data(), shift, himask, p == 0);
    CUSCI_CHECK_LAUNCH();
    sel_pick<K><<<1, 256, 0, s>>>(st.data(), hist.data(), m, shift);
    CUSCI_CHECK_LAUNCH();
  }
  sel_finish<T, K><<<1, 1, 0, s>>>(st.data(), m, out);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void select_ranks(const void* x, cusci::dtype dt, std::int64_t n, const std::int64_t* ranks, int m, void* out) {
  CUSCI_EXPECTS(m >= 1 && m <= kSelMax, value_error, "cusci::detail::select_ranks: 1 to 8 ranks");
  CUSCI_EXPECTS(n > 0 && n < (std::int64_t{1} << 32), value_error, "cusci::detail::select_ranks: 0 < n < 2^32");
  if (dt == dtype::float32) {
    select_run<float, std::uint32_t>(static_cast<const float*>(x), n, ranks, m, static_cast<float*>(out));
  } else if (dt == dtype::float64) {
    select_run<double, std::uint64_t>(static_cast<const double*>(x), n, ranks, m, static_cast<double*>(out));
  } else {
    throw type_error("cusci::detail::select_ranks: float32 or float64 only");
  }
}

}  // namespace cusci::detail

// The per-element passes of the measurements: one read of values and labels per pass, reductions
// by slot through global atomics aggregated over runs of equal slots (measure_common.cuh).
//
// Performance design (H200, ~4.1 TB/s): a pass over 2**24 float32 values with int32 labels moves
// 128 MiB, ~31 us at the copy roofline. Labelled images put the elements of one label side by side in
// C order. The former layout (one element per thread, a 32-lane segmented warp scan per element and
// per accumulated quantity, a 64-bit division per coordinate and element) measured 138 us for the
// sums of 100,000 tiles (runs of ~13 labels), 257 us for center_of_mass's moments: instruction
// bound, far from the roofline. Now each thread reads kChunk = 8 consecutive elements (16-byte loads
// when aligned), sums the runs inside its chunk in registers (a run entirely inside the chunk: one
// atomic by that thread), and only the runs crossing chunk edges go through one segmented warp scan
// per quantity, cut short to the longest segment (usually 1-2 steps). That is ~one atomic per run
// and per quantity (sum_labels with an index array skips the counts), the per-slot arrays (1e5
// labels: under 2 MiB) staying in the 50 MiB L2. Expected: sum_labels' pass ~40-50 us (bandwidth
// plus ~1.3e6 L2 atomics), center_of_mass's ~60-80 us (coordinates from one set of 32-bit divisions
// per chunk, then counted). Extremes and positions keep one reduction per run of a chunk (atomicMin /
// atomicMax skipped when the stored extreme already wins), no warp scan: ~40-60 us. Positions of
// values of more than 4 bytes take a second pass (first the extreme keys, then the first position
// holding them) so that 64-bit values need no 128-bit atomics.

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/stream.hpp"
#include "measurements/measure_common.cuh"
#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, 132 * 16)));
}

/// Iterates a grid-stride loop in whole warps: every lane of a warp runs the same iterations (lanes
/// past the end get i >= n), as warp_run_add needs.
#define CUSCI_WARP_LOOP(i, n)                                                                           \
  for (long long base_ = (static_cast<long long>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u)),     \
                 i = base_ + (threadIdx.x & 31u);                                                       \
       base_ < (n); base_ += static_cast<long long>(gridDim.x) * blockDim.x, i = base_ + (threadIdx.x & 31u))

/// Iterates a grid-stride loop of chunks in whole warps: lane l of a warp gets the chunk of kChunk
/// elements starting at i0 (the warp's 32 chunks are consecutive); every lane of a warp runs the same
/// iterations (chunks past the end get i0 >= n), as chunk_run_reduce needs.
#define CUSCI_CHUNK_LOOP(i0, n)                                                                          \
  for (long long wbase_ = (static_cast<long long>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u)) * kChunk, \
                 i0 = wbase_ + static_cast<long long>(threadIdx.x & 31u) * kChunk;                       \
       wbase_ < (n); wbase_ += static_cast<long long>(gridDim.x) * blockDim.x * kChunk,                   \
                 i0 = wbase_ + static_cast<long long>(threadIdx.x & 31u) * kChunk)

unsigned grid_for_chunks(std::int64_t n) { return grid_for((n + kChunk - 1) / kChunk); }

/// A: sum_acc_t<T>, or double (every value converted to double first). counts may be null (not
/// wanted).
template <class T, class L, class A>
__global__ void sum_count_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                                 unsigned long long* counts, A* sums) {
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    chunk_run_reduce<kChunk, A, 1>(
        s, 0,
        [&](int j, acc_vec<A, 1>& a) {
          if constexpr (std::is_same_v<A, double>) a.v[0] += to_double(x[j]);
          else a.v[0] += sum_value(x[j]);
        },
        [&](long long slot, const acc_vec<A, 1>& a, unsigned len) {
          if (counts) atomicAdd(counts + slot, static_cast<unsigned long long>(len));
          atomicAdd(sums + slot, a.v[0]);
        });
  }
}

template <class T, class L>
__global__ void centered_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                                const double* __restrict__ means, double* out) {
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    double mu = 0.0;
    chunk_run_reduce<kChunk, double, 1>(
        s, 0,
        [&](int j, acc_vec<double, 1>& a) {
          if (s[j] < 0) return;
          if (j == 0 || s[j] != s[j - 1]) mu = means[s[j]];
          const double c = to_double(x[j]) - mu;
          a.v[0] += c * c;
        },
        [&](long long slot, const acc_vec<double, 1>& a, unsigned) { atomicAdd(out + slot, a.v[0]); });
  }
}

struct dims_t {
  long long n[32];
  int ndim;
};

/// center_of_mass of more than kMomentDims dimensions: one element per thread.
template <class T, class L>
__global__ void moment_kernel_nd(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m, dims_t dims,
                              double* out) {
  const long long w = dims.ndim + 1;  // columns: x * coordinate d for each d, then x
  CUSCI_WARP_LOOP(i, n) {
    long long s = -1;
    double x = 0.0;
    if (i < n) {
      s = slot_of(m, label_at(lab, i));
      if (s >= 0) x = to_double(v[i]);
    }
    const long long row = s >= 0 ? s * w : -1;
    long long rem = i < n ? i : 0;
    for (int d = dims.ndim - 1; d >= 0; --d) {
      const long long c = rem % dims.n[d];
      rem /= dims.n[d];
      warp_run_add<double>(out + d, row, x * static_cast<double>(c));
    }
    warp_run_add<double>(out + dims.ndim, row, x);
  }
}

/// center_of_mass's sums of up to kMomentDims dimensions, chunked: the coordinates of a chunk's first
/// element come from one set of divisions, the others by counting (the shape right-aligned in
/// kMomentDims dimensions of which the leading ones have extent 1). small: n < 2**32 (32-bit
/// divisions).
constexpr int kMomentDims = 4;

template <class T, class L>
__global__ void moment_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m, dims_t dims,
                              bool small, double* out) {
  constexpr int D = kMomentDims;
  const int nd = dims.ndim;
  const int klo = D - nd;  // accumulator k < D: coordinate k - klo; k == D: the value
  long long ext[D];
#pragma unroll
  for (int k = 0; k < D; ++k) ext[k] = k < klo ? 1 : dims.n[k - klo];
  const long long w = nd + 1;
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    long long c[D];
    if (small) {
      unsigned rem = i0 < n ? static_cast<unsigned>(i0) : 0u;
#pragma unroll
      for (int k = D - 1; k >= 0; --k) {
        if (k < klo) {
          c[k] = 0;
        } else {
          const unsigned e = static_cast<unsigned>(ext[k]);
          c[k] = rem % e;
          rem /= e;
        }
      }
    } else {
      long long rem = i0 < n ? i0 : 0;
#pragma unroll
      for (int k = D - 1; k >= 0; --k) {
        if (k < klo) {
          c[k] = 0;
        } else {
          c[k] = rem % ext[k];
          rem /= ext[k];
        }
      }
    }
    chunk_run_reduce<kChunk, double, D + 1>(
        s, klo,
        [&](int j, acc_vec<double, D + 1>& a) {
          if (s[j] >= 0) {
            const double xv = to_double(x[j]);
#pragma unroll
            for (int k = 0; k < D; ++k) a.v[k] += xv * static_cast<double>(c[k]);
            a.v[D] += xv;
          }
          // The next element's coordinates (C order).
#pragma unroll
          for (int k = D - 1; k >= 0; --k) {
            if (++c[k] < ext[k] || k == 0) break;
            c[k] = 0;
          }
        },
        [&](long long slot, const acc_vec<double, D + 1>& a, unsigned) {
          double* row = out + slot * w;
#pragma unroll
          for (int k = 0; k < D; ++k)
            if (k >= klo) atomicAdd(row + (k - klo), a.v[k]);
          atomicAdd(row + nd, a.v[D]);
        });
  }
}

/// counts[s] = 1 where slot s has elements; the extreme keys by atomicMin / atomicMax once per run of
/// a chunk (skipped when the current extreme already wins: the reads hit L2).
template <class T, class L>
__global__ void extreme_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                               unsigned long long* counts, unsigned long long* mn, unsigned long long* mx) {
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    const auto flush = [&](long long slot, unsigned long long kmin, unsigned long long kmax) {
      if (slot < 0) return;
      if (counts[slot] == 0) counts[slot] = 1;
      if (kmin < mn[slot]) atomicMin(mn + slot, kmin);
      if (kmax > mx[slot]) atomicMax(mx + slot, kmax);
    };
    unsigned long long kmin = order_key(x[0]), kmax = kmin;
#pragma unroll
    for (int j = 1; j < kChunk; ++j) {
      const unsigned long long k = order_key(x[j]);
      if (s[j] != s[j - 1]) {
        flush(s[j - 1], kmin, kmax);
        kmin = kmax = k;
      } else {
        kmin = k < kmin ? k : kmin;
        kmax = k > kmax ? k : kmax;
      }
    }
    flush(s[kChunk - 1], kmin, kmax);
  }
}

/// The first position of each slot's extreme keys: per run of a chunk, the first element whose key
/// equals the slot's extreme, then atomicMin of the position (so the smallest C-order position wins).
template <class T, class L>
__global__ void position_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                                const unsigned long long* __restrict__ mn, const unsigned long long* __restrict__ mx,
                                unsigned long long* minpos, unsigned long long* maxpos) {
  constexpr unsigned long long kNone = ~0ull;
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    const auto flush = [&](long long slot, unsigned long long fmin, unsigned long long fmax) {
      if (slot < 0) return;
      if (fmin != kNone && fmin < minpos[slot]) atomicMin(minpos + slot, fmin);
      if (fmax != kNone && fmax < maxpos[slot]) atomicMin(maxpos + slot, fmax);
    };
    unsigned long long tmin = 0, tmax = 0, fmin = kNone, fmax = kNone;
#pragma unroll
    for (int j = 0; j < kChunk; ++j) {
      if (j == 0 || s[j] != s[j - 1]) {
        if (j > 0) flush(s[j - 1], fmin, fmax);
        fmin = fmax = kNone;
        if (s[j] >= 0) {
          if (minpos) tmin = mn[s[j]];
          if (maxpos) tmax = mx[s[j]];
        }
      }
      if (s[j] >= 0) {
        const unsigned long long k = order_key(x[j]);
        const unsigned long long p = static_cast<unsigned long long>(i0 + j);
        if (minpos && fmin == kNone && k == tmin) fmin = p;
        if (maxpos && fmax == kNone && k == tmax) fmax = p;
      }
    }
    flush(s[kChunk - 1], fmin, fmax);
  }
}

/// A 32-bit order key of a value of at most 4 bytes (NaN: 0xffffffff, above +inf).
template <class T>
__device__ __forceinline__ unsigned order_key32(T v) {
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, float>) {
    return static_cast<unsigned>(order_key(v) == ~0ull ? 0xffffffffull : order_key(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1u : 0u;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<unsigned>(static_cast<int>(v)) ^ 0x80000000u;
  } else {
    return static_cast<unsigned>(v);
  }
}

/// One pass for positions of values of at most 4 bytes (n < 2**32 - 1): (key << 32 | position) with
/// atomicMin for the minimum (ties: the smaller position), (key << 32 | ~position) with atomicMax
/// for the maximum. The initial values (~0 / 0) cannot be reached by an element, so they mark empty
/// slots.
template <class T, class L>
__global__ void packed_extreme_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                                      unsigned long long* pmin, unsigned long long* pmax) {
  CUSCI_CHUNK_LOOP(i0, n) {
    T x[kChunk];
    L l[kChunk];
    long long s[kChunk];
    load_chunk(v, i0, n, x);
    load_chunk(lab, i0, n, l);
    chunk_slots(m, l, i0, n, s);
    // Per run of the chunk: the smallest (key, position) and the largest (key, ~position).
    const auto flush = [&](long long slot, unsigned long long lo, unsigned long long hi) {
      if (slot < 0) return;
      if (pmin && lo < pmin[slot]) atomicMin(pmin + slot, lo);
      if (pmax && hi > pmax[slot]) atomicMax(pmax + slot, hi);
    };
    unsigned long long lo = 0, hi = 0;
#pragma unroll
    for (int j = 0; j < kChunk; ++j) {
      const unsigned long long k = static_cast<unsigned long long>(order_key32(x[j])) << 32;
      const unsigned p = static_cast<unsigned>(i0 + j);
      const unsigned long long a = k | p, b = k | (0xffffffffu - p);
      if (j == 0 || s[j] != s[j - 1]) {
        if (j > 0) flush(s[j - 1], lo, hi);
        lo = a;
        hi = b;
      } else {
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
      }
    }
    flush(s[kChunk - 1], lo, hi);
  }
}

/// Unpacks packed_extreme_kernel's results into counts (0 / 1: present), 64-bit order keys and
/// positions. kind: 0 bool / unsigned, 1 signed integer, 2 float (NaN key).
__global__ void unpack_kernel(const unsigned long long* packed, long long k, bool is_min, int kind,
                              unsigned long long* counts, unsigned long long* keys, unsigned long long* pos) {
  for (long long s = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; s < k;
       s += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long pk = packed[s];
    const bool present = is_min ? pk != ~0ull : pk != 0ull;
    counts[s] = present ? 1ull : 0ull;
    const unsigned k32 = static_cast<unsigned>(pk >> 32);
    const unsigned lo = static_cast<unsigned>(pk);
    pos[s] = is_min ? lo : 0xffffffffu - lo;
    if (kind == 1) {
      keys[s] = static_cast<unsigned long long>(static_cast<long long>(static_cast<int>(k32 ^ 0x80000000u))) ^ (1ull << 63);
    } else if (kind == 2 && k32 == 0xffffffffu) {
      keys[s] = ~0ull;
    } else {
      keys[s] = k32;
    }
  }
}

template <class T>
__global__ void keys_to_values_kernel(const unsigned long long* keys, const unsigned long long* counts, long long k,
                                      T* out) {
  for (long long s = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; s < k;
       s += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (counts[s]) out[s] = from_key<T>(keys[s]);
    else out[s] = from_key<T>(order_key(T(0)));
  }
}

__global__ void unravel_kernel(const unsigned long long* pos, const unsigned long long* counts, long long k,
                               dims_t dims, long long* out) {
  for (long long s = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; s < k;
       s += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long rem = (counts == nullptr || counts[s]) ? static_cast<long long>(pos[s]) : 0;
    for (int d = dims.ndim - 1; d >= 0; --d) {
      out[s * dims.ndim + d] = rem % dims.n[d];
      rem /= dims.n[d];
    }
  }
}

template <class T, class L>
__global__ void histogram_kernel(const T* __restrict__ v, const L* __restrict__ lab, long long n, slot_map m,
                                 const double* __restrict__ edges, long long bins, unsigned long long* counts) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long s = slot_of(m, label_at(lab, i));
    if (s < 0 || bins <= 0) continue;
    const double x = to_double(v[i]);
    if (!(x >= edges[0] && x <= edges[bins])) continue;  // outside, or NaN
    // upper_bound: the first edge > x; the bin is the one before it; x == max goes to the last bin.
    long long a = 0, b = bins + 1;
    while (a < b) {
      const long long c = (a + b) >> 1;
      if (edges[c] <= x) a = c + 1;
      else b = c;
    }
    long long bin = a - 1;
    if (bin >= bins) bin = bins - 1;
    atomicAdd(counts + s * bins + bin, 1ull);
  }
}

/// index_summary's pass: out[0] = max of ~key (the minimum's key inverted), out[1] = max of key
/// (key: the value's bits with the sign bit flipped, ordered as the int64 values), out[2] != 0 where
/// some a[i] != a[0] + i. out zeroed first; one atomic per warp and quantity.
template <class T>
__global__ void index_summary_kernel(const T* __restrict__ a, long long n, unsigned long long* out) {
  const unsigned long long first = static_cast<unsigned long long>(static_cast<long long>(a[0]));
  unsigned long long lo = 0, hi = 0, bad = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long x = static_cast<unsigned long long>(static_cast<long long>(a[i]));
    const unsigned long long k = x ^ (1ull << 63);
    lo = max(lo, ~k);
    hi = max(hi, k);
    bad |= (x - first) ^ static_cast<unsigned long long>(i);
  }
  for (unsigned off = 16; off > 0; off >>= 1) {
    lo = max(lo, __shfl_xor_sync(0xffffffffu, lo, off));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, off));
    bad |= __shfl_xor_sync(0xffffffffu, bad, off);
  }
  if ((threadIdx.x & 31u) == 0) {
    atomicMax(out, lo);
    atomicMax(out + 1, hi);
    if (bad) atomicOr(out + 2, 1ull);
  }
}

dims_t dims_of(const shape_t& shape) {
  dims_t d{};
  d.ndim = static_cast<int>(shape.size());
  CUSCI_EXPECTS(d.ndim <= 32, value_error, "cusci::ndimage: at most 32 dimensions");
  for (int i = 0; i < d.ndim; ++i) d.n[i] = shape[i];
  return d;
}

/// Calls f(T tag, L tag) for the values' real dtype and the labels' int32 / int64.
template <class F>
void dispatch_region(const region_view& r, F&& f) {
  const dtype lt = r.has_labels ? r.labels.dtype() : dtype::int32;
  if (is_complex(r.values.dtype()))
    throw type_error("cusci::ndimage: complex values are not supported by the measurements");
  cusci::detail::dispatch(r.values.dtype(), [&](auto tv) {
    using T = typename decltype(tv)::type;
    if constexpr (cusci::detail::is_complex_v<T>) {
      return;
    } else if (lt == dtype::int64) {
      f(tv, cusci::detail::type_tag<long long>{});
    } else {
      f(tv, cusci::detail::type_tag<int>{});
    }
  });
}

template <class L>
const L* labels_ptr(const region_view& r) {
  return r.has_labels ? static_cast<const L*>(r.labels.data()) : nullptr;
}

}  // namespace

void sum_count_pass(const region_view& r, ndarray& counts, ndarray& sums, bool double_sums, bool want_counts) {
  const bool integer = !is_floating(r.values.dtype()) && !double_sums;
  counts = want_counts ? zeros({r.nslots}, dtype::uint64) : ndarray{};
  sums = zeros({r.nslots}, integer ? dtype::uint64 : dtype::float64);
  if (r.size == 0) return;
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    const auto launch = [&](auto* acc) {
      using A = std::remove_pointer_t<decltype(acc)>;
      sum_count_kernel<T, L, A><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
          static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
          want_counts ? static_cast<unsigned long long*>(counts.data()) : nullptr, acc);
      CUSCI_CHECK_LAUNCH();
    };
    if (integer || std::is_same_v<sum_acc_t<T>, double>) launch(static_cast<sum_acc_t<T>*>(sums.data()));
    else launch(static_cast<double*>(sums.data()));
  });
}

void centered_pass(const region_view& r, const ndarray& means, ndarray& out) {
  out = zeros({r.nslots}, dtype::float64);
  if (r.size == 0) return;
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    centered_kernel<T, L><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
        static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
        static_cast<const double*>(means.data()), static_cast<double*>(out.data()));
    CUSCI_CHECK_LAUNCH();
  });
}

void moment_pass(const region_view& r, ndarray& out) {
  const auto nd = static_cast<std::int64_t>(r.shape.size());
  out = zeros({r.nslots, nd + 1}, dtype::float64);
  if (r.size == 0) return;
  const dims_t dims = dims_of(r.shape);
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    if (dims.ndim <= kMomentDims) {
      moment_kernel<T, L><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
          static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map, dims, r.size <= 0xffffffffLL,
          static_cast<double*>(out.data()));
    } else {
      moment_kernel_nd<T, L><<<grid_for(r.size), kBlock, 0, get_current_stream()>>>(
          static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map, dims, static_cast<double*>(out.data()));
    }
    CUSCI_CHECK_LAUNCH();
  });
}

void extreme_pass(const region_view& r, ndarray& counts, ndarray& minkey, ndarray& maxkey) {
  counts = zeros({r.nslots}, dtype::uint64);
  minkey = empty({r.nslots}, dtype::uint64);
  minkey.fill(scalar(~0ull));
  maxkey = zeros({r.nslots}, dtype::uint64);
  if (r.size == 0) return;
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    extreme_kernel<T, L><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
        static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
        static_cast<unsigned long long*>(counts.data()), static_cast<unsigned long long*>(minkey.data()),
        static_cast<unsigned long long*>(maxkey.data()));
    CUSCI_CHECK_LAUNCH();
  });
}

bool packed_extreme_pass(const region_view& r, bool want_min, bool want_max, ndarray& counts, ndarray& minkey,
                         ndarray& maxkey, ndarray& minpos, ndarray& maxpos) {
  const dtype t = r.values.dtype();
  if (is_complex(t) || itemsize(t) > 4 || r.size >= 0xffffffffLL) return false;
  const int kind = is_floating(t) ? 2 : is_signed_integer(t) ? 1 : 0;
  ndarray pmin, pmax;
  if (want_min) {
    pmin = empty({r.nslots}, dtype::uint64);
    pmin.fill(scalar(~0ull));
  }
  if (want_max) pmax = zeros({r.nslots}, dtype::uint64);
  if (r.size > 0) {
    dispatch_region(r, [&](auto tv, auto tl) {
      using T = typename decltype(tv)::type;
      using L = typename decltype(tl)::type;
      if constexpr (sizeof(T) <= 4) {
        packed_extreme_kernel<T, L><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
            static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
            want_min ? static_cast<unsigned long long*>(pmin.data()) : nullptr,
            want_max ? static_cast<unsigned long long*>(pmax.data()) : nullptr);
        CUSCI_CHECK_LAUNCH();
      }
    });
  }
  counts = empty({r.nslots}, dtype::uint64);
  const std::int64_t k = r.nslots;
  auto unpack = [&](const ndarray& packed, bool is_min, ndarray& keys, ndarray& pos) {
    keys = empty({k}, dtype::uint64);
    pos = empty({k}, dtype::uint64);
    if (k == 0) return;
    unpack_kernel<<<grid_for(k), kBlock, 0, get_current_stream()>>>(
        static_cast<const unsigned long long*>(packed.data()), k, is_min, kind,
        static_cast<unsigned long long*>(counts.data()), static_cast<unsigned long long*>(keys.data()),
        static_cast<unsigned long long*>(pos.data()));
    CUSCI_CHECK_LAUNCH();
  };
  if (want_min) unpack(pmin, true, minkey, minpos);
  if (want_max) unpack(pmax, false, maxkey, maxpos);
  return true;
}

void position_pass(const region_view& r, const ndarray& minkey, const ndarray& maxkey, ndarray& minpos,
                   ndarray& maxpos) {
  if (r.size == 0) return;
  auto* pmin = minpos.size() ? static_cast<unsigned long long*>(minpos.data()) : nullptr;
  auto* pmax = maxpos.size() ? static_cast<unsigned long long*>(maxpos.data()) : nullptr;
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    position_kernel<T, L><<<grid_for_chunks(r.size), kBlock, 0, get_current_stream()>>>(
        static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
        static_cast<const unsigned long long*>(minkey.data()), static_cast<const unsigned long long*>(maxkey.data()),
        pmin, pmax);
    CUSCI_CHECK_LAUNCH();
  });
}

void keys_to_values(const ndarray& keys, const ndarray& counts, ndarray& out) {
  const std::int64_t k = keys.size();
  if (k == 0) return;
  cusci::detail::dispatch(out.dtype(), [&](auto tv) {
    using T = typename decltype(tv)::type;
    if constexpr (!cusci::detail::is_complex_v<T>) {
      keys_to_values_kernel<T><<<grid_for(k), kBlock, 0, get_current_stream()>>>(
          static_cast<const unsigned long long*>(keys.data()), static_cast<const unsigned long long*>(counts.data()), k,
          static_cast<T*>(out.data()));
      CUSCI_CHECK_LAUNCH();
    }
  });
}

void unravel_positions(const ndarray& pos, const ndarray& counts, const shape_t& shape, ndarray& out) {
  const std::int64_t k = pos.size();
  out = zeros({k, static_cast<std::int64_t>(shape.size())}, dtype::int64);
  if (k == 0 || shape.empty()) return;
  unravel_kernel<<<grid_for(k), kBlock, 0, get_current_stream()>>>(
      static_cast<const unsigned long long*>(pos.data()),
      counts.size() ? static_cast<const unsigned long long*>(counts.data()) : nullptr, k, dims_of(shape),
      static_cast<long long*>(out.data()));
  CUSCI_CHECK_LAUNCH();
}

void histogram_pass(const region_view& r, const ndarray& edges, std::int64_t bins, ndarray& counts) {
  counts = zeros({r.nslots, bins}, dtype::int64);
  if (r.size == 0 || bins == 0) return;
  dispatch_region(r, [&](auto tv, auto tl) {
    using T = typename decltype(tv)::type;
    using L = typename decltype(tl)::type;
    histogram_kernel<T, L><<<grid_for(r.size), kBlock, 0, get_current_stream()>>>(
        static_cast<const T*>(r.values.data()), labels_ptr<L>(r), r.size, r.map,
        static_cast<const double*>(edges.data()), bins, static_cast<unsigned long long*>(counts.data()));
    CUSCI_CHECK_LAUNCH();
  });
}

index_summary summarize_index(const ndarray& index) {
  const ndarray a = ascontiguousarray(index);
  const std::int64_t n = a.size();
  CUSCI_EXPECTS(n > 0, value_error, "cusci::ndimage: summarize_index needs a non-empty index");
  ndarray out = zeros({3}, dtype::uint64);
  cusci::detail::dispatch_integer(a.dtype(), "cusci::ndimage", "index must be an integer array", [&](auto tv) {
    using T = typename decltype(tv)::type;
    index_summary_kernel<T><<<std::min<unsigned>(grid_for(n), 264u), kBlock, 0, get_current_stream()>>>(
        static_cast<const T*>(a.data()), n, static_cast<unsigned long long*>(out.data()));
    CUSCI_CHECK_LAUNCH();
  });
  const host_array h = to_host(out);  // the one synchronization
  const auto* v = h.data_as<std::uint64_t>();
  index_summary r;
  r.lo = static_cast<std::int64_t>(~v[0] ^ (1ull << 63));
  r.hi = static_cast<std::int64_t>(v[1] ^ (1ull << 63));
  r.consecutive = v[2] == 0;
  return r;
}

}  // namespace cusci::ndimage::detail

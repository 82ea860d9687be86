// The minimum / maximum policies: on the axis-pass engine (minimum_filter1d, maximum_filter1d, and
// the separable minimum_filter / maximum_filter) and on the footprint engine (minimum_filter /
// maximum_filter with a footprint that is not all true). The axis passes compare doubles, as SciPy's
// 1-D filter (64-bit integers rounded as SciPy rounds them, cval compared as SciPy's even outside the
// input type's range); float32 on the van Herk kernel is compared in float32 with cval rounded to
// float32, which selects the same value. The footprint engine compares values of the input type.
// Axis passes: direct kernels for windows up to direct_max_taps values, the van Herk / Gil-Werman
// kernel above; for float inputs both report NaN, and the lines holding NaN are then recomputed
// with SciPy's running list (nan_replay_kernel), which SciPy's NaN results depend on.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"
#include "engine/axis_fast.cuh"
#include "engine/cast.cuh"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"
#include "filters/filter_common.hpp"

namespace cusci::ndimage::detail {
namespace {

/// Windows up to this many values take the direct kernels (K comparisons per output), longer ones
/// the van Herk kernel (vhg_kernel).
inline constexpr int direct_max_taps = 16;

/// The minimum (Min) or maximum over the window.
///  - Axis engine (SciPy's NI_MinOrMaxFilter1D): the window's extremum; among equal values the
///    last one (SciPy's running list keeps the latest of equal values, which shows in the sign of
///    a zero). Windows near NaN are recomputed afterwards (watch_nan, nan_replay_kernel).
///  - Footprint engine (SciPy's NI_MinOrMaxFilter): the first footprint value, then each later
///    value that compares strictly smaller (larger), in SciPy's order: a NaN first value stays the
///    result, a later NaN is never taken (exactly SciPy's rule, no correction needed).
template <bool Min>
struct extremum_policy {
  /// Doubles for every dtype, as SciPy's line buffers: 64-bit integers are rounded to double as
  /// SciPy rounds them, and a cval outside the input type's range (-1 for unsigned inputs) compares
  /// as itself, as in SciPy.
  template <class Tin, class Tout>
  using acc = double;
  static constexpr bool uses_weights = false;
  static constexpr bool watch_nan = true;

  template <class A>
  __device__ static bool better(A t, A v) {
    if constexpr (Min) return t < v;
    else return t > v;
  }
  /// t replaces v: smaller (larger) or equal (the later of equal values wins).
  template <class A>
  __device__ static bool better_or_equal(A t, A v) {
    if constexpr (Min) return t <= v;
    else return t >= v;
  }

  // Axis engine: the window's K values.
  template <class A, class Get, class W>
  __device__ static A compute(const Get& get, const W&, const pass_params& p) {
    A v = get(0);
    for (int k = 1; k < p.K; ++k) {
      const A t = get(k);
      if (better_or_equal(t, v)) v = t;
    }
    return v;
  }

  // Fast float kernels: windows of up to 16 values (longer ones take the van Herk kernel).
  template <class T>
  static constexpr int max_fast_taps = direct_max_taps;
  template <class T>
  __device__ static T fast_init() {
    return Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  }
  template <class T>
  __device__ static T fast_step(T acc, T, T x) {
    return better_or_equal(x, acc) ? x : acc;
  }

  // Footprint engine: the footprint's values in SciPy's order; a weight (grey morphology's
  // structure) is added to each value (subtracted for the minimum), in T, as SciPy.
  template <class T, class Get>
  __device__ static T reduce(const Get& get, int n, const double* w) {
    auto value = [&](int k) -> T {
      const T v = get(k);
      if (w == nullptr) return v;
      return static_cast<T>(static_cast<double>(v) + (Min ? -w[k] : w[k]));
    };
    T r = value(0);
    for (int k = 1; k < n; ++k) {
      const T t = value(k);
      if (better(t, r)) r = t;
    }
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// Long windows: van Herk / Gil-Werman. The extended line is cut into blocks of K values; g[i] is
// the extremum of its block from the block's start to i, h[i] from i to the block's end. A window
// [j, j + K - 1] covers the end of one block and the start of the next (or exactly one block), so
// its extremum is combine(h[j], g[j + K - 1]): three comparisons per output whatever K.
// Ties take the last of equal values, as the axis policy: g updates on <= (>=) from the left, h
// only on < (>) from the right, and combine prefers g (the later positions).
// NaN: windows holding NaN are recomputed by nan_replay_kernel; this kernel only reports them.
//
// Block: 256 threads over a tile of `to` outputs of `cx` adjacent lines (cx = 1: a line along a
// unit-stride or strided axis with n_inner == 1; cx = 8 or 32: neighbouring inner positions, so
// that the loads of a row of the tile are coalesced). Shared memory: the staged W = to + K - 1
// values per line (overwritten by h) and g, 2 W cx values of S.
//
// Cost (H200: ~4.1 TB/s, 132 SMs): each input is read (1 + (K - 1) / to) times and each output
// written once; per value about four shared-memory accesses and three comparisons, far below the
// ~15 B/cycle/SM share of the copy bandwidth for float32, so the pass stays memory bound: about
// (4 + 4) * n bytes / 4.1 TB/s for float32 (~8 ms per Gi-element pair read+write), independent of K
// while to >= K (the host keeps to >= max(K, 64)). The direct fast kernels (K <= 16) need K
// comparisons per output and stay memory bound up to about K = 30 on this GPU, so the switch at
// K > 16 never loses and removes the generic kernels' K shared-memory reads per output.

/// The staged type: float32 stays float32 (comparing it with cval rounded to float32 selects the
/// same value as SciPy's comparison in double), every other dtype its axis accumulator.
template <class T>
using vhg_stage_t = std::conditional_t<std::is_same_v<T, float>, float, double>;

inline constexpr int vhg_threads = 256;
static_assert(vhg_threads % 32 == 0, "vhg_kernel: every line count per tile (1, 8, 32) must divide the block");
/// Values per chunk of the two-level scans (blocks of K values are scanned as chunks of this many
/// in parallel, then the chunks' extrema are combined per block), so that long blocks keep the
/// threads busy.
inline constexpr int vhg_chunk = 16;

/// Shared memory of vhg_kernel for a tile of `to` outputs of cx lines, items of `item` bytes.
inline std::size_t vhg_bytes(std::int64_t to, std::int64_t K, std::int64_t cx, std::size_t item) {
  const std::int64_t W = to + K - 1;
  const std::int64_t nb = (W + K - 1) / K, cpb = (K + vhg_chunk - 1) / vhg_chunk;
  const std::int64_t span = W * cx + (W * cx) / 32 + 1;  // vhg_kernel's padded [W][cx] arrays
  return static_cast<std::size_t>(2 * span + 2 * nb * cpb * cx) * item;
}

template <bool Min, class T>
__global__ void __launch_bounds__(vhg_threads)
    vhg_kernel(const pass_params p, int to, int cx, std::int64_t n_seg, std::int64_t n_cb, std::int64_t n_blocks) {
  using S = vhg_stage_t<T>;
  using P = extremum_policy<Min>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int K = p.K;
  const int W = to + K - 1;
  // [W][cx] arrays, element (row, c) at at(row, c): one padding slot after every 32 values, so
  // that the threads scanning chunks of one line (cx = 1) hit distinct banks.
  const int span = W * cx + ((W * cx) >> 5) + 1;
  auto at = [cx](int row, int c) {
    const int q = row * cx + c;
    return q + (q >> 5);
  };
  S* h = reinterpret_cast<S*>(smem);  // staged values, then the suffix extrema
  S* g = h + span;                    // prefix extrema
  const int tid = threadIdx.x;
  const int nb = (W + K - 1) / K;  // blocks of K values per line
  const int cpb = (K + vhg_chunk - 1) / vhg_chunk;  // chunks per block
  S* cpre = g + span;  // [nb * cpb][cx]
  S* csuf = cpre + static_cast<std::size_t>(nb) * cpb * cx;  // [nb * cpb][cx]
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t seg = b % n_seg;
    const std::int64_t r = b / n_seg;
    const std::int64_t cb = r % n_cb;
    const std::int64_t o = r / n_cb;
    const std::int64_t y0 = seg * to;
    const std::int64_t n0 = cb * cx;
    // cx divides vhg_threads, so a thread's line (c_t) is the same in every strided loop below:
    // its input and output line addresses are computed once per tile (strided_indexer::offset
    // divides per dimension), and it stages rows tid / cx + k * rstep, U loads in flight.
    const int c_t = tid % cx, rstep = vhg_threads / cx;
    const std::int64_t n_t = n0 + c_t;
    const bool live = n_t < p.n_inner;
    const char* base_t = live ? p.in + p.in_outer.offset(o) + p.in_inner.offset(n_t) : nullptr;
    char* obase_t = live ? p.out + p.out_outer.offset(o) + p.out_inner.offset(n_t) : nullptr;
    __syncthreads();  // the previous tile's reads are done
    constexpr int U = 8;
    for (int r0 = tid / cx; r0 < W; r0 += rstep * U) {
      S v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int row = r0 + u * rstep;
        v[u] = (live && row < W) ? load_ext<T, S>(p, base_t, y0 + row - p.shift) : S(0);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int row = r0 + u * rstep;
        if (row < W) {
          note_nan<P>(p.nan_flag, v[u]);
          h[at(row, c_t)] = v[u];
        }
      }
    }
    __syncthreads();
    // (a) Each chunk of at most vhg_chunk values of a block: its own prefix (g) and suffix (h).
    for (int it = tid; it < nb * cpb * cx; it += vhg_threads) {
      const int c = it % cx, ch = it / cx;
      const int blk = ch / cpb, m = ch - blk * cpb;
      const int bend = blk * K + K < W ? blk * K + K : W;
      const int i0 = blk * K + m * vhg_chunk;
      if (i0 >= bend) continue;
      const int i1 = i0 + vhg_chunk < bend ? i0 + vhg_chunk : bend;
      S run = h[at(i0, c)];
      g[at(i0, c)] = run;
      for (int i = i0 + 1; i < i1; ++i) {
        const S v = h[at(i, c)];
        if (P::better_or_equal(v, run)) run = v;
        g[at(i, c)] = run;
      }
      run = h[at(i1 - 1, c)];
      for (int i = i1 - 2; i >= i0; --i) {
        const S v = h[at(i, c)];
        if (P::better(v, run)) run = v;
        h[at(i, c)] = run;
      }
    }
    __syncthreads();
    // (b) Per block: the extremum of the chunks before each chunk (cpre) and after it (csuf).
    for (int it = tid; it < nb * cx; it += vhg_threads) {
      const int c = it % cx, blk = it / cx;
      const int b0 = blk * K;
      const int bend = b0 + K < W ? b0 + K : W;
      const int nch = (bend - b0 + vhg_chunk - 1) / vhg_chunk;
      auto chunk_last = [&](int m) { return (b0 + (m + 1) * vhg_chunk < bend ? b0 + (m + 1) * vhg_chunk : bend) - 1; };
      S run = g[at(chunk_last(0), c)];
      for (int m = 1; m < nch; ++m) {
        cpre[(blk * cpb + m) * cx + c] = run;
        const S v = g[at(chunk_last(m), c)];
        if (P::better_or_equal(v, run)) run = v;
      }
      run = h[at(b0 + (nch - 1) * vhg_chunk, c)];
      for (int m = nch - 2; m >= 0; --m) {
        csuf[(blk * cpb + m) * cx + c] = run;
        const S v = h[at(b0 + m * vhg_chunk, c)];
        if (P::better(v, run)) run = v;
      }
    }
    __syncthreads();
    for (int j = tid / cx; live && j < to; j += rstep) {
      const int c = c_t;
      const std::int64_t y = y0 + j;
      if (y >= p.L) break;
      // h of the window's start: its chunk's suffix, then the later chunks of its block (which
      // win ties); g of its end: the earlier chunks of its block, then its chunk's prefix (wins).
      const int ja = j / K, ma = (j - ja * K) / vhg_chunk;
      const int bend = ja * K + K < W ? ja * K + K : W;
      S a = h[at(j, c)];
      if (ja * K + (ma + 1) * vhg_chunk < bend) {
        const S t = csuf[(ja * cpb + ma) * cx + c];
        if (!P::better(a, t)) a = t;
      }
      const int e = j + K - 1, je = e / K, me = (e - je * K) / vhg_chunk;
      S z = g[at(e, c)];
      if (me > 0) {
        const S t = cpre[(je * cpb + me) * cx + c];
        if (!P::better_or_equal(z, t)) z = t;
      }
      const S v = P::better_or_equal(z, a) ? z : a;
      store_value<T>(obase_t + y * p.out_sa, v);
    }
  }
}

/// Runs the van Herk kernel where its tile fits (see vhg_kernel); false otherwise.
template <bool Min, class T>
bool vhg_launch(const pass_params& p, cudaStream_t stream) {
  using S = vhg_stage_t<T>;
  const std::int64_t K = p.K;
  const std::int64_t slots = static_cast<std::int64_t>(smem_limit / (2 * sizeof(S)));  // W * cx, roughly
  for (int cx : {32, 8, 1}) {
    if (cx > 1 && p.n_inner < cx) continue;
    const std::int64_t need = std::min<std::int64_t>(p.L, std::max<std::int64_t>(K, 64));
    std::int64_t to = std::min<std::int64_t>(slots / cx - (K - 1), p.L);
    while (to >= need && vhg_bytes(to, K, cx, sizeof(S)) > smem_limit) to -= std::max<std::int64_t>(1, to / 32);
    if (to < need || to < 1) continue;
    const std::int64_t n_seg = (p.L + to - 1) / to;
    const std::int64_t n_cb = (p.n_inner + cx - 1) / cx;
    const std::int64_t n_blocks = n_seg * n_cb * p.n_outer;
    const std::size_t bytes = vhg_bytes(to, K, cx, sizeof(S));
    vhg_kernel<Min, T><<<blocks_for(n_blocks), vhg_threads, bytes, stream>>>(p, static_cast<int>(to), cx, n_seg,
                                                                             n_cb, n_blocks);
    CUSCI_CHECK_LAUNCH();
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// NaN: SciPy's exact answer. SciPy's NI_MinOrMaxFilter1D runs a monotone list over the extended
// line (values in double; position ll of the list's time is extended position ll - shift): for
// each new value v the front entry leaves when its window has passed; if v <= front (>= for the
// maximum) the list becomes [v], else entries are dropped from the back while back >= v (<=) and v
// is appended; the output is the front. A NaN compares false both ways, so it is appended without
// dropping anything, stops later drops from the back, and blocks the reset while at the front; a
// reset triggered by a value behind a NaN drops entries smaller than v, and the front may then be
// wrong for up to K - 2 positions after the NaN has left the window. So:
//  - without NaN the list holds the window's extremum, the latest of equal values (the parallel
//    kernels' answer);
//  - a NaN at list time p can change only the outputs at times p .. p + 2K - 3;
//  - at a time s whose positions s - 2K + 3 .. s hold no NaN (or 0 .. s, from the line's start),
//    the list is the one without NaN, which a list started at s - K + 1 as [value] reproduces
//    (every earlier entry has left by s).
// nan_replay_kernel therefore splits each line into segments of outputs; a segment with a NaN
// within reach (2K - 3 before its first output's window end, up to its last one) restarts SciPy's
// list at the latest clean time s before it (or at the line's start, as SciPy) and replays it in a
// ring of K entries (global scratch) over the segment, overwriting the segment's outputs.
// Cost: nothing but one flag read per thread when no kernel saw a NaN; otherwise one read of each
// line (plus 2K - 3 values per segment) to look for NaN, and for each segment near a NaN a
// sequential replay of about seg_len + 2K values (more where NaN are so dense that no clean run of
// 2K - 2 values precedes the segment: then from the line's start).

inline constexpr int replay_threads = 128;

template <bool Min, class T>
__global__ void __launch_bounds__(replay_threads)
    nan_replay_kernel(const pass_params p, const int* flag, double* ring_val, std::int64_t* ring_death,
                      std::int64_t seg_len, std::int64_t n_seg, std::int64_t n_items) {
  if (*flag == 0) return;
  const int K = p.K;
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  double* val = ring_val + t * K;
  std::int64_t* death = ring_death + t * K;
  for (std::int64_t item = t; item < n_items; item += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t line = item / n_seg, seg = item - line * n_seg;
    const std::int64_t o = line / p.n_inner, c = line - o * p.n_inner;
    const char* base = p.in + p.in_outer.offset(o) + p.in_inner.offset(c);
    char* obase = p.out + p.out_outer.offset(o) + p.out_inner.offset(c);
    auto x = [&](std::int64_t ll) { return load_ext<T, double>(p, base, ll - p.shift); };
    const std::int64_t y0 = seg * seg_len;
    const std::int64_t y1 = y0 + seg_len < p.L ? y0 + seg_len : p.L;
    const std::int64_t first = y0 + K - 1;  // list time of output y0 (its window's end)
    const std::int64_t last = y1 + K - 2;   // ... of output y1 - 1
    bool any = false;
    for (std::int64_t ll = first - 2 * K + 3 > 0 ? first - 2 * K + 3 : 0; ll <= last && !any; ++ll) {
      const double v = x(ll);
      any = v != v;
    }
    if (!any) continue;
    // The latest time s <= first after 2K - 2 values without NaN (or after a clean start of the
    // line): restart there; none: SciPy's own start.
    std::int64_t s0 = 0;
    for (std::int64_t q = first, top = -1; q >= 0; --q) {
      const double v = x(q);
      if (v != v) {
        top = -1;
        continue;
      }
      if (top < 0) top = q;
      if (top - q + 1 >= 2 * static_cast<std::int64_t>(K) - 2 || q == 0) {
        s0 = top - K + 1 > 0 ? top - K + 1 : 0;
        break;
      }
    }
    int ring = 0, back = 0;
    val[0] = x(s0);
    death[0] = s0 + K;
    for (std::int64_t ll = s0 + 1; ll <= last; ++ll) {
      const double v = x(ll);
      if (death[ring] == ll) ring = ring + 1 == K ? 0 : ring + 1;
      if (Min ? v <= val[ring] : v >= val[ring]) {
        val[ring] = v;
        death[ring] = ll + K;
        back = ring;
      } else {
        // Stops at the front at the latest: the front is not >= v (<= v) here.
        while (Min ? val[back] >= v : val[back] <= v) back = (back == 0 ? K : back) - 1;
        back = back + 1 == K ? 0 : back + 1;
        val[back] = v;
        death[back] = ll + K;
      }
      if (ll >= first) store_value<T>(obase + (ll - K + 1) * p.out_sa, val[ring]);
    }
  }
}

template <bool Min, class T>
void nan_replay_launch(const pass_params& p, const int* flag, cudaStream_t stream) {
  const std::int64_t n_lines = p.n_outer * p.n_inner;
  // Segments of at least 2048 outputs and 4 K (the look-back of a restart is about 2 K values).
  const std::int64_t seg_len = std::max<std::int64_t>(2048, 4 * static_cast<std::int64_t>(p.K));
  const std::int64_t n_seg = (p.L + seg_len - 1) / seg_len;
  const std::int64_t n_items = n_lines * n_seg;
  // One ring of K entries per thread: at most 8192 threads and 64 MiB of scratch, at least one block.
  constexpr std::int64_t scratch_bytes = 64LL << 20;
  const std::int64_t per_thread = static_cast<std::int64_t>(p.K) * (sizeof(double) + sizeof(std::int64_t));
  std::int64_t threads =
      std::min<std::int64_t>({n_items, 8192, std::max<std::int64_t>(1, scratch_bytes / per_thread)});
  const std::int64_t grid = (threads + replay_threads - 1) / replay_threads;
  threads = grid * replay_threads;
  device_buffer<double> rv(static_cast<std::size_t>(threads * p.K), stream);
  device_buffer<std::int64_t> rd(static_cast<std::size_t>(threads * p.K), stream);
  nan_replay_kernel<Min, T><<<static_cast<unsigned>(grid), replay_threads, 0, stream>>>(
      p, flag, rv.data(), rd.data(), seg_len, n_seg, n_items);
  CUSCI_CHECK_LAUNCH();
}

template <bool Min>
void axis_run(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
              std::int64_t origin) {
  using P = extremum_policy<Min>;
  pass_params p = make_pass_params(in, out, axis, static_cast<int>(size), origin, mode, cval);
  cudaStream_t stream = get_current_stream();
  const std::vector<double> no_weights;
  // A NaN cval in constant mode reaches every line (each line's windows reach beyond one of its
  // ends when K > 1), for every dtype (SciPy's line buffer holds doubles): every line is replayed.
  const bool nan_cval = mode == ext::constant && std::isnan(cval) && p.K > 1;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    if (nan_cval) {
      device_buffer<int> flag(1, stream);
      CUSCI_CUDA_TRY(cudaMemsetAsync(flag.data(), 1, sizeof(int), stream));
      nan_replay_launch<Min, T>(p, flag.data(), stream);
      return;
    }
    if constexpr (std::is_integral_v<T>) {
      // Integers: no NaN; compared as doubles, as SciPy.
      if (p.K > direct_max_taps && vhg_launch<Min, T>(p, stream)) return;
      launch<P, T, T>(p, stream);
    } else {
      // Floats: the parallel kernels report NaN through the flag; the lines holding NaN are then
      // replayed in SciPy's order (the replay returns at once when the flag is clear).
      device_buffer<int> flag(1, stream);
      CUSCI_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(int), stream));
      p.nan_flag = flag.data();
      if (p.K <= direct_max_taps) {
        if (!try_fast<P, T>(p, no_weights, stream)) launch<P, T, T>(p, stream);
      } else if (!vhg_launch<Min, T>(p, stream)) {
        launch<P, T, T>(p, stream);
      }
      if (p.K > 1) nan_replay_launch<Min, T>(p, flag.data(), stream);
    }
  };
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return run(std::uint8_t{});
    case dtype::int8: return run(std::int8_t{});
    case dtype::int16: return run(std::int16_t{});
    case dtype::uint16: return run(std::uint16_t{});
    case dtype::int32: return run(std::int32_t{});
    case dtype::uint32: return run(std::uint32_t{});
    case dtype::int64: return run(std::int64_t{});
    case dtype::uint64: return run(std::uint64_t{});
    case dtype::float32: return run(float{});
    case dtype::float64: return run(double{});
    default: break;
  }
  throw type_error("cusci::ndimage: dtype " + std::string(dtype_name(in.dtype())) +
                   " is not supported by the minimum / maximum kernels");
}

template <bool Min>
void footprint_run(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval) {
  using P = extremum_policy<Min>;
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return footprint_launch<P, std::uint8_t>(in, out, f, x86_cast<std::uint8_t>(cval));
    case dtype::int8: return footprint_launch<P, std::int8_t>(in, out, f, x86_cast<std::int8_t>(cval));
    case dtype::int16: return footprint_launch<P, std::int16_t>(in, out, f, x86_cast<std::int16_t>(cval));
    case dtype::uint16: return footprint_launch<P, std::uint16_t>(in, out, f, x86_cast<std::uint16_t>(cval));
    case dtype::int32: return footprint_launch<P, std::int32_t>(in, out, f, x86_cast<std::int32_t>(cval));
    case dtype::uint32: return footprint_launch<P, std::uint32_t>(in, out, f, x86_cast<std::uint32_t>(cval));
    case dtype::int64: return footprint_launch<P, std::int64_t>(in, out, f, x86_cast<std::int64_t>(cval));
    case dtype::uint64: return footprint_launch<P, std::uint64_t>(in, out, f, x86_cast<std::uint64_t>(cval));
    case dtype::float32: return footprint_launch<P, float>(in, out, f, x86_cast<float>(cval));
    case dtype::float64: return footprint_launch<P, double>(in, out, f, x86_cast<double>(cval));
    default: break;
  }
  throw type_error("cusci::ndimage: dtype " + std::string(dtype_name(in.dtype())) +
                   " is not supported by the minimum / maximum kernels");
}

}  // namespace

void min_max_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin, bool minimum) {
  if (out.size() == 0) return;
  if (in.dtype() != out.dtype()) {
    // SciPy stores each value of the window's extremum into the output dtype with a C cast: the
    // extremum in the input dtype, then a one-tap correlation (weight 1.0) that casts it.
    const ndarray tmp = cusci::empty(in.shape(), in.dtype());
    min_max_pass(in, tmp, axis, size, mode, cval, origin, minimum);
    correlate_pass(tmp, out, axis, {1.0}, mode, cval, 0);
    return;
  }
  if (size == 1) {
    // One value per window: SciPy's list returns it as it is (NaN included).
    copy_into(in, out);
    return;
  }
  if (minimum) axis_run<true>(in, out, axis, size, mode, cval, origin);
  else axis_run<false>(in, out, axis, size, mode, cval, origin);
}

void min_max_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval,
                            bool minimum) {
  if (out.size() == 0) return;
  if (in.dtype() != out.dtype()) {
    const ndarray tmp = cusci::empty(in.shape(), in.dtype());
    min_max_footprint_pass(in, tmp, f, cval, minimum);
    correlate_pass(tmp, out, out.ndim() - 1, {1.0}, ext::constant, 0.0, 0);
    return;
  }
  if (minimum) footprint_run<true>(in, out, f, cval);
  else footprint_run<false>(in, out, f, cval);
}

}  // namespace cusci::ndimage::detail

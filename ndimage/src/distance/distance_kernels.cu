// Kernels of cusci::ndimage's distance transforms (SciPy 1.18.1's NI_EuclideanFeatureTransform,
// NI_DistanceTransformOnePass and NI_DistanceTransformBruteForce, scipy/ndimage/src/ni_morphology.c,
// re-derived here), compiled without fused multiply-adds so that every double expression rounds as
// SciPy's host code and the feature transform picks the same element on ties.
//
// Euclidean (edt_run): Maurer, Qi and Raghavan's separable exact algorithm ("A linear time
// algorithm for computing exact Euclidean distance transforms of binary images in arbitrary
// dimensions", IEEE PAMI 25, 2003), one pass per axis in SciPy's order (axis 0 first, the last axis
// last), the feature transform carried from pass to pass:
// - pass d treats every line along axis d. Its sites are the elements that already have a feature
//   (pass 0: the background). Each site carries the squared distance wR of its feature within the
//   axes before d; the line's lower envelope of the parabolas (x - i)^2 s_d^2 + wR(i) is built with a
//   stack (SciPy's test c vR - b uR - a wR - a b c <= 0 keeps a site) and queried left to right (a
//   site is left for the next one only when that is strictly nearer: ties keep the lower position).
// - the general form (edt_pass, any sampling): one thread per line; consecutive threads take
//   consecutive lines, so the loads and stores of a warp are coalesced for every axis but the last.
//   The stack (positions and wR) lives in a scratch array laid out [slot][line], its two top entries
//   mirrored in registers. Features ping-pong between two int32 arrays of (ndim,) + shape.
// - a final kernel writes the indices and the distances sqrt(sum_k ((f_k - x_k) s_k)^2) (SciPy's
//   NumPy expression: int32 difference, float64, times sampling, squared, summed over k in order).
// Why a second form: on an H200 with a 4096 x 4096 image each edt_pass launch took 7-13 ms (4096
// threads, each walking 4096 elements through dependent stack loads: latency-bound), against 2.7 ms
// for CuPy's whole transform. With unit sampling (none, or every entry 1.0) every quantity of a pass
// is an integer and, while n_d (3 W + n_d^2) < 2^52 (W: the largest wR, sum over the axes before d of
// (n_k - 1)^2) and n_d <= 32767, every deletion test and distance is exact in double. Then:
// - the final stack is order-independent: a site v is popped only when some u < v < x have
//   x_uv > x_vx (its breakpoints with them, which is what the test's sign states), i.e. v is nowhere
//   a (weak) minimum of the line's parabolas; and a list whose consecutive triples all pass the test
//   has non-decreasing breakpoints, so each entry is a weak minimum on its interval. Hence the stack is
//   exactly the set of sites that are a weak minimum somewhere, in position order, whatever order the
//   sites were removed in.
// - the query is a function of x alone: along such a stack the distances at x strictly decrease,
//   stay flat, then strictly increase, so the sequential walk (move on only when the next entry is
//   strictly nearer, its pointer monotone in x) stops at the first entry of minimal distance; a
//   binary search for the first entry not farther than its successor finds the same one.
// So, exactly as the sequential passes:
// - pass 0 (every wR is 0): the nearest background element along axis 0, the upper one on ties.
//   Lines are cut into at most 64 segments of >= 64 rows; edt_scan_a records each segment's first and
//   last background row, edt_scan_b resolves each segment from its neighbours' records (one thread
//   per column segment, consecutive threads on consecutive columns: coalesced).
// - pass d >= 1 (edt_band, Cao, Tang, Mei and Nie's parallel banding, I3D 2010, re-derived): a block
//   stages L lines (L consecutive lines along the later axes, up to 32, or one contiguous line) in
//   shared memory with coalesced loads; 256 threads each build the envelope of one band of a line as
//   a linked list (SciPy's stack); neighbouring bands are joined in a tree, removing sites at the
//   junction while a junction triple fails the test; the survivors are compacted (a scan of the band
//   counts), each band finds its first position's site by binary search and walks on sequentially,
//   and the features are stored coalesced. Shared memory: 14 bytes per element of the L lines.
// Other sampling, or lines beyond those bounds, take edt_pass (a pass's features are the same either
// way, so the forms mix per pass). Expected cost on 4096^2 (not yet measured): pass 0 reads the mask
// about twice and writes 64 MiB (~40 us); pass 1 reads 64 MiB, writes 128 MiB and works ~14 shared-
// memory steps per element (~0.1-0.2 ms); edt_finish ~0.2 ms (measured 0.22 ms), which fusing into
// the last pass would cut further.
//
// Chamfer (cdt_run): SciPy's forward raster pass and the same pass on the array reversed along every
// axis. In a raster pass an element takes the smallest (neighbour value + 1) over the structure's
// elements before its centre, the earliest in C order winning ties and the value already there kept
// unless strictly beaten. All those neighbours lie in earlier rows (rows = lines along the last axis)
// except the left neighbour, which SciPy checks last. So per row: a(p) = best over the earlier rows'
// neighbours (parallel over the row), then d(p) = min over j <= p of a(j) + (p - j) with ties going
// to the largest j (the left neighbour wins only when strictly smaller): a prefix minimum of
// a(j) - j, one block-wide scan of 64-bit keys. One thread block walks the rows in order (a row needs
// the rows before it), so the time grows with the number of rows (4096^2: two passes of 4096 rows,
// a few microseconds each).
//
// Brute force (bf_run): the background elements touching the foreground (SciPy's border list) are
// collected with an atomic counter (order irrelevant: ties are decided by the flat index, the largest
// winning as in SciPy's list walk), then one thread per foreground element scans the list (warp-wide
// broadcast loads). O(foreground x border), as SciPy's.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "distance/distance_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

using i64 = std::int64_t;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using u8 = std::uint8_t;

constexpr int maxa = distance_max_axes;
constexpr int threads = 256;

unsigned grid_for(i64 n, i64 per_block) {
  const i64 b = (n + per_block - 1) / per_block;
  return static_cast<unsigned>(b < 1 ? 1 : (b > 2147483647 ? 2147483647 : b));
}

struct shape_params {
  int nd = 0;
  i64 size = 0;
  i64 n[maxa] = {};
  i64 pitch[maxa] = {};  // C-order element pitches of the shape
};

shape_params make_shape(const std::vector<i64>& shape) {
  shape_params s;
  s.nd = static_cast<int>(shape.size());
  i64 p = 1;
  for (int k = s.nd - 1; k >= 0; --k) {
    s.n[k] = shape[static_cast<std::size_t>(k)];
    s.pitch[k] = p;
    p *= s.n[k];
  }
  s.size = p;
  return s;
}

struct target_params {
  void* ptr = nullptr;
  i64 st[maxa + 1] = {};  // element strides (indices: component stride first)
};

target_params make_target(const strided_target& t) {
  target_params p;
  p.ptr = t.ptr;
  for (std::size_t k = 0; k < t.strides.size() && k < maxa + 1; ++k) p.st[k] = t.strides[k];
  return p;
}

/// Element offset of C-flat index x in a strided target whose strides start at `first`.
__device__ i64 target_offset(const shape_params& s, const target_params& t, int first, i64 x, i64* coords) {
  i64 off = 0;
  for (int k = s.nd - 1; k >= 0; --k) {
    const i64 c = x % s.n[k];
    x /= s.n[k];
    if (coords) coords[k] = c;
    off += c * t.st[k + first];
  }
  return off;
}

// ---------------------------------------------------------------------------------------------
// Euclidean feature transform
// ---------------------------------------------------------------------------------------------

struct edt_pass_params {
  shape_params s;
  int d = 0;
  i64 nlines = 0;
  i64 inner = 1;     // product of the axes after d
  int has_samp = 0;
  int tail_nan = 0;  // a sampling after axis d is not finite: SciPy's wR (0 * s)^2 terms are NaN
  double samp[maxa] = {};
  const u8* mask = nullptr;
  const i32* fin = nullptr;  // features before the pass (component k at k * size)
  i32* fout = nullptr;
  i32* g = nullptr;          // stack positions [slot * nlines + line]
  double* w = nullptr;       // stack wR values
  int* any_bg = nullptr;
};

/// Threads per block of edt_pass: one thread per line and few lines (4096 for a 4096^2 image), so
/// small blocks spread the lines over every SM instead of filling a few.
constexpr int edt_pass_threads = 32;

__global__ void __launch_bounds__(edt_pass_threads) edt_pass(const edt_pass_params p) {
  const i64 line = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (line >= p.nlines) return;
  const int d = p.d;
  const i64 len = p.s.n[d];
  const i64 size = p.s.size;
  i64 o = line / p.inner;
  const i64 q = line - o * p.inner;
  const i64 base = o * len * p.inner + q;
  i64 coor[maxa];
  for (int k = d - 1; k >= 0; --k) {
    coor[k] = o % p.s.n[k];
    o /= p.s.n[k];
  }
  const double sd = p.samp[d];
  const double nan = __longlong_as_double(0x7ff8000000000000LL);
  i32* g = p.g + line;
  double* w = p.w + line;
  const i64 gs = p.nlines;  // slot stride
  // The stack lives in g / w (slot l at l * gs); its two top entries are mirrored in registers
  // (top = slot l, sec = slot l - 1), so that pushes and the usual short pops wait on no memory.
  int l = -1;
  i64 g_top = 0, g_sec = 0;
  double w_top = 0.0, w_sec = 0.0;
  bool saw_bg = false;
  for (i64 i = 0; i < len; ++i) {
    const i64 fl = base + i * p.inner;
    const bool valid = d == 0 ? p.mask[fl] == 0 : p.fin[fl] >= 0;
    if (!valid) continue;
    saw_bg = true;
    double wr = 0.0;
    for (int jj = 0; jj < d; ++jj) {
      double tw = static_cast<double>(static_cast<i64>(p.fin[jj * size + fl]) - coor[jj]);
      if (p.has_samp) tw = __dmul_rn(tw, p.samp[jj]);
      wr = __dadd_rn(wr, __dmul_rn(tw, tw));
    }
    if (p.tail_nan) wr = nan;
    while (l >= 1) {
      const i64 i1 = g_top;
      const i64 i2 = g_sec;
      double a = __dsub_rn(static_cast<double>(i1), static_cast<double>(i2));
      double b = __dsub_rn(static_cast<double>(i), static_cast<double>(i1));
      if (p.has_samp) {
        a = __dmul_rn(a, sd);
        b = __dmul_rn(b, sd);
      }
      const double c = __dadd_rn(a, b);
      const double ur = w_sec;
      const double vr = w_top;
      // SciPy: c * vR - b * uR - a * wR - a * b * c <= 0.0
      const double e = __dsub_rn(__dsub_rn(__dsub_rn(__dmul_rn(c, vr), __dmul_rn(b, ur)), __dmul_rn(a, wr)),
                                 __dmul_rn(__dmul_rn(a, b), c));
      if (e <= 0.0) break;
      --l;  // pop: the second entry becomes the top, the one below it the second
      g_top = g_sec;
      w_top = w_sec;
      if (l >= 1) {
        g_sec = g[(l - 1) * gs];
        w_sec = w[(l - 1) * gs];
      }
    }
    ++l;
    g_sec = g_top;
    w_sec = w_top;
    g_top = i;
    w_top = wr;
    g[l * gs] = static_cast<i32>(i);
    w[l * gs] = wr;
  }
  if (d == 0 && saw_bg) atomicOr(p.any_bg, 1);
  if (l < 0) {
    for (i64 i = 0; i < len; ++i) p.fout[base + i * p.inner] = -1;
    return;
  }
  const int maxl = l;
  l = 0;
  // The query walks the stack upwards: the current entry and the next one in registers.
  i64 g_cur = g[0];
  double w_cur = w[0];
  i64 g_nxt = maxl > 0 ? g[gs] : 0;
  double w_nxt = maxl > 0 ? w[gs] : 0.0;
  for (i64 i = 0; i < len; ++i) {
    double t = static_cast<double>(g_cur - i);
    if (p.has_samp) t = __dmul_rn(t, sd);
    double d1 = __dadd_rn(w_cur, __dmul_rn(t, t));
    while (l < maxl) {
      double t2 = static_cast<double>(g_nxt - i);
      if (p.has_samp) t2 = __dmul_rn(t2, sd);
      const double d2 = __dadd_rn(w_nxt, __dmul_rn(t2, t2));
      if (d1 <= d2) break;
      d1 = d2;
      ++l;
      g_cur = g_nxt;
      w_cur = w_nxt;
      if (l < maxl) {
        g_nxt = g[(l + 1) * gs];
        w_nxt = w[(l + 1) * gs];
      }
    }
    const i64 fl = base + i * p.inner;
    const i64 sfl = base + g_cur * p.inner;
    for (int jj = 0; jj < d; ++jj) p.fout[jj * size + fl] = p.fin[jj * size + sfl];
    p.fout[d * size + fl] = static_cast<i32>(g_cur);
  }
}

struct edt_finish_params {
  shape_params s;
  int has_samp = 0;
  double samp[maxa] = {};
  const i32* f = nullptr;
  const int* any_bg = nullptr;
  target_params dist;  // float64
  target_params ind;   // int32, (nd,) + shape
};

__global__ void __launch_bounds__(threads) edt_finish(const edt_finish_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.s.size) return;
  i64 coords[maxa];
  const i64 ioff = target_offset(p.s, p.ind, 1, x, coords);
  const bool any = *p.any_bg != 0;
  i32* ind = static_cast<i32*>(p.ind.ptr);
  double acc = 0.0;
  for (int k = 0; k < p.s.nd; ++k) {
    i32 f;
    const i64 at = ioff + k * p.ind.st[0];
    if (any) f = p.f[k * p.s.size + x];
    else if (k == 0) f = -1;
    else f = ind ? ind[at] : 0;  // SciPy leaves these components as they were
    if (ind && (any || k == 0)) ind[at] = f;
    // NumPy: (ft - indices) in int32 (wrapping), as float64, times sampling, squared, summed over k.
    const i32 diff = static_cast<i32>(static_cast<u32>(f) - static_cast<u32>(static_cast<i32>(coords[k])));
    double t = static_cast<double>(diff);
    if (p.has_samp) t = __dmul_rn(t, p.samp[k]);
    acc = k == 0 ? __dmul_rn(t, t) : __dadd_rn(acc, __dmul_rn(t, t));
  }
  if (p.dist.ptr) {
    const i64 doff = target_offset(p.s, p.dist, 0, x, nullptr);
    static_cast<double*>(p.dist.ptr)[doff] = __dsqrt_rn(acc);
  }
}

#define EDT_FN __device__ __forceinline__
// edt-exact-begin
// Exact path (unit sampling): pass 0 as a segmented nearest-background scan, passes d >= 1 banded.
// These functions are plain C++ so that their logic can be exercised on the host as well.

/// Pass 0, step 1: first and last background row of segment s of column c (-1: none).
EDT_FN bool scan_segment(const u8* mask, i64 cols, i64 n0, i64 m, i64 c, i64 s, i32* first, i32* last) {
  const i64 lo = s * m;
  const i64 hi = lo + m < n0 ? lo + m : n0;
  i64 f = -1, l = -1;
  for (i64 i = lo; i < hi; ++i)
    if (mask[i * cols + c] == 0) {
      if (f < 0) f = i;
      l = i;
    }
  first[s * cols + c] = static_cast<i32>(f);
  last[s * cols + c] = static_cast<i32>(l);
  return f >= 0;
}

/// Pass 0, step 2: every row of segment s of column c takes its nearest background row along axis
/// 0, the upper one (smaller position) on ties, -1 when the column has none.
EDT_FN void scan_resolve(const u8* mask, i64 cols, i64 n0, i64 m, i64 nseg, i64 c, i64 s, const i32* first,
                         const i32* last, i32* fout) {
  const i64 none = static_cast<i64>(1) << 62;
  i64 prev = -1;  // last background row at or before the current one
  for (i64 t = s - 1; t >= 0; --t)
    if (last[t * cols + c] >= 0) {
      prev = last[t * cols + c];
      break;
    }
  i64 after = none;  // first background row after the segment
  for (i64 t = s + 1; t < nseg; ++t)
    if (first[t * cols + c] >= 0) {
      after = first[t * cols + c];
      break;
    }
  const i64 lo = s * m;
  const i64 hi = lo + m < n0 ? lo + m : n0;
  i64 nx = -1;  // first background row at or after the current one (none: after the line)
  for (i64 x = lo; x < hi; ++x) {
    if (nx < x) {
      i64 y = x;
      while (y < hi && mask[y * cols + c] != 0) ++y;
      nx = y < hi ? y : after;
    }
    if (nx == x) prev = x;
    i64 r;
    if (prev >= 0 && nx != none) r = x - prev <= nx - x ? prev : nx;
    else if (prev >= 0) r = prev;
    else if (nx != none) r = nx;
    else r = -1;
    fout[x * cols + c] = static_cast<i32>(r);
  }
}

/// Views of a banded block's shared memory (per line l of the block, position i at l * n + i).
struct band_smem {
  double* w = nullptr;  // the site's wR; -1: no site, or a site removed from the envelope
  short* prv = nullptr; // envelope links (-1: none)
  short* nxt = nullptr; // later: the chosen site of each position
  short* cmp = nullptr; // the line's final envelope, compacted
  int* hd = nullptr;    // per thread: head / tail of its band group's envelope, band counts
  int* tl = nullptr;
  int* cnt = nullptr;
};

/// SciPy's deletion test for the stack entries u < v < x: positive removes v. Exact here (integers).
EDT_FN double band_test(const double* w, int u, int v, int x) {
  const double a = static_cast<double>(v - u);
  const double b = static_cast<double>(x - v);
  const double c = a + b;
  return c * w[v] - b * w[u] - a * w[x] - a * b * c;
}

EDT_FN double band_dist(const double* w, int g, int x) {
  const double t = static_cast<double>(g - x);
  return w[g] + t * t;
}

/// Builds the envelope of the sites of band k (positions [k m, k m + m)) of line l, as SciPy's stack.
EDT_FN void band_build(const band_smem& sm, int n, int m, int t, int l, int k) {
  double* w = sm.w + l * n;
  short* prv = sm.prv + l * n;
  short* nxt = sm.nxt + l * n;
  const int lo = k * m;
  const int hi = lo + m < n ? lo + m : n;
  int head = -1, tail = -1;
  for (int i = lo; i < hi; ++i) {
    if (w[i] < 0.0) continue;
    while (tail >= 0 && prv[tail] >= 0 && band_test(w, prv[tail], tail, i) > 0.0) {
      const int pt = prv[tail];
      w[tail] = -1.0;
      tail = pt;
    }
    prv[i] = static_cast<short>(tail);
    if (tail >= 0) nxt[tail] = static_cast<short>(i);
    else head = i;
    tail = i;
  }
  if (tail >= 0) nxt[tail] = -1;
  sm.hd[t] = head;
  sm.tl[t] = tail;
}

/// Joins the envelope of thread t's band group with the next group's (thread tb): the sites that
/// fail the deletion test at the junction are removed until both junction triples pass.
EDT_FN void band_merge(const band_smem& sm, int n, int t, int l, int tb) {
  double* w = sm.w + l * n;
  short* prv = sm.prv + l * n;
  short* nxt = sm.nxt + l * n;
  const int hb = sm.hd[tb];
  const int tlb = sm.tl[tb];
  if (hb < 0) return;
  if (sm.hd[t] < 0) {
    sm.hd[t] = hb;
    sm.tl[t] = tlb;
    return;
  }
  int a = sm.tl[t], b = hb;
  for (;;) {
    const int pa = prv[a];
    if (pa >= 0 && band_test(w, pa, a, b) > 0.0) {
      w[a] = -1.0;
      a = pa;
      continue;
    }
    const int nb = nxt[b];
    if (nb >= 0 && band_test(w, a, b, nb) > 0.0) {
      w[b] = -1.0;
      b = nb;
      continue;
    }
    break;
  }
  nxt[a] = static_cast<short>(b);
  prv[b] = static_cast<short>(a);
  sm.tl[t] = tlb;
}

/// Number of band k's sites left on the final envelope.
EDT_FN int band_count(const band_smem& sm, int n, int m, int l, int k) {
  const double* w = sm.w + l * n;
  const int lo = k * m;
  const int hi = lo + m < n ? lo + m : n;
  int c = 0;
  for (int i = lo; i < hi; ++i) c += w[i] >= 0.0 ? 1 : 0;
  return c;
}

/// Writes band k's envelope sites at their place `start` in the line's compacted envelope.
EDT_FN void band_compact(const band_smem& sm, int n, int m, int l, int k, int start) {
  const double* w = sm.w + l * n;
  short* cmp = sm.cmp + l * n;
  const int lo = k * m;
  const int hi = lo + m < n ? lo + m : n;
  for (int i = lo; i < hi; ++i)
    if (w[i] >= 0.0) cmp[start++] = static_cast<short>(i);
}

/// Chooses the site of every position of band k: the first envelope entry whose distance is not
/// above the next one's (binary search at the band's first position), then the sequential walk.
EDT_FN void band_query(const band_smem& sm, int n, int m, int l, int k, int total) {
  const double* w = sm.w + l * n;
  const short* cmp = sm.cmp + l * n;
  short* sel = sm.nxt + l * n;
  const int lo = k * m;
  const int hi = lo + m < n ? lo + m : n;
  if (lo >= hi) return;
  if (total == 0) {
    for (int x = lo; x < hi; ++x) sel[x] = -1;
    return;
  }
  int j0 = 0, j1 = total - 1;
  while (j0 < j1) {
    const int mid = (j0 + j1) >> 1;
    if (band_dist(w, cmp[mid], lo) <= band_dist(w, cmp[mid + 1], lo)) j1 = mid;
    else j0 = mid + 1;
  }
  int j = j0;
  for (int x = lo; x < hi; ++x) {
    double d1 = band_dist(w, cmp[j], x);
    while (j + 1 < total) {
      const double d2 = band_dist(w, cmp[j + 1], x);
      if (d1 <= d2) break;
      d1 = d2;
      ++j;
    }
    sel[x] = cmp[j];
  }
}
// edt-exact-end
#undef EDT_FN

struct edt_scan_params {
  i64 n0 = 0;
  i64 cols = 1;  // lines along axis 0 (the product of the other axes)
  i64 m = 1;     // rows per segment
  i64 nseg = 1;
  const u8* mask = nullptr;
  i32* first = nullptr;  // [segment * cols + column]
  i32* last = nullptr;
  i32* fout = nullptr;
  int* any_bg = nullptr;
};

__global__ void __launch_bounds__(threads) edt_scan_a(const edt_scan_params p) {
  const i64 id = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  bool bg = false;
  if (id < p.cols * p.nseg) bg = scan_segment(p.mask, p.cols, p.n0, p.m, id % p.cols, id / p.cols, p.first, p.last);
  if (__syncthreads_or(bg ? 1 : 0) && threadIdx.x == 0) atomicOr(p.any_bg, 1);
}

__global__ void __launch_bounds__(threads) edt_scan_b(const edt_scan_params p) {
  const i64 id = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (id >= p.cols * p.nseg) return;
  scan_resolve(p.mask, p.cols, p.n0, p.m, p.nseg, id % p.cols, id / p.cols, p.first, p.last, p.fout);
}

constexpr int band_threads = 256;

struct edt_band_params {
  shape_params s;
  int d = 0;
  i64 inner = 1;
  int L = 1;  // lines per block (a power of two), consecutive along the axes after d
  int logL = 0;
  i64 qblocks = 1;  // blocks per group of lines sharing the axes before d
  const i32* fin = nullptr;
  i32* fout = nullptr;
};

/// Dynamic shared memory of edt_band for lines of n elements, L lines per block.
std::size_t band_smem_bytes(i64 n, int L) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(L) * (sizeof(double) + 3 * sizeof(short)) +
         3 * band_threads * sizeof(int) + 16;
}

__global__ void __launch_bounds__(band_threads) edt_band(const edt_band_params p) {
  extern __shared__ double band_sh[];
  const int d = p.d;
  const int n = static_cast<int>(p.s.n[d]);
  const int L = p.L;
  const int logL = p.logL;
  const int ln = L * n;
  band_smem sm;
  sm.w = band_sh;
  sm.prv = reinterpret_cast<short*>(band_sh + ln);
  sm.nxt = sm.prv + ln;
  sm.cmp = sm.nxt + ln;
  sm.hd = reinterpret_cast<int*>(reinterpret_cast<char*>(band_sh) + ((static_cast<i64>(ln) * 14 + 7) & ~static_cast<i64>(7)));
  sm.tl = sm.hd + band_threads;
  sm.cnt = sm.tl + band_threads;
  const int t = threadIdx.x;
  const int l = t & (L - 1);
  const int k = t >> logL;
  const int nb = band_threads >> logL;
  const int m = (n + nb - 1) / nb;
  const i64 size = p.s.size;
  const i64 o = blockIdx.x / p.qblocks;
  const i64 q0 = (blockIdx.x - o * p.qblocks) * L;
  const i64 base = o * n * p.inner + q0;
  i64 coor[maxa];
  {
    i64 r = o;
    for (int jj = d - 1; jj >= 0; --jj) {
      coor[jj] = r % p.s.n[jj];
      r /= p.s.n[jj];
    }
  }
  // Load: consecutive threads read consecutive memory (L lines side by side, or one contiguous line).
  for (int idx = t; idx < ln; idx += band_threads) {
    const int li = idx & (L - 1);
    const int i = idx >> logL;
    double wr = -1.0;
    if (q0 + li < p.inner) {
      const i64 fl = base + static_cast<i64>(i) * p.inner + li;
      if (p.fin[fl] >= 0) {
        wr = 0.0;
        for (int jj = 0; jj < d; ++jj) {
          const double tw = static_cast<double>(static_cast<i64>(p.fin[jj * size + fl]) - coor[jj]);
          wr = __dadd_rn(wr, __dmul_rn(tw, tw));
        }
      }
    }
    sm.w[li * n + i] = wr;
  }
  __syncthreads();
  band_build(sm, n, m, t, l, k);
  __syncthreads();
  for (int span = 1; span < nb; span <<= 1) {
    if ((k & (2 * span - 1)) == 0 && k + span < nb) band_merge(sm, n, t, l, t + span * L);
    __syncthreads();
  }
  const int own = band_count(sm, n, m, l, k);
  sm.cnt[t] = own;
  __syncthreads();
  for (int off = 1; off < nb; off <<= 1) {  // inclusive scan of the band counts of each line
    const int v = sm.cnt[t] + (k >= off ? sm.cnt[t - off * L] : 0);
    __syncthreads();
    sm.cnt[t] = v;
    __syncthreads();
  }
  band_compact(sm, n, m, l, k, sm.cnt[t] - own);
  __syncthreads();
  band_query(sm, n, m, l, k, sm.cnt[l + L * (nb - 1)]);
  __syncthreads();
  for (int idx = t; idx < ln; idx += band_threads) {
    const int li = idx & (L - 1);
    const int i = idx >> logL;
    if (q0 + li >= p.inner) continue;
    const i64 fl = base + static_cast<i64>(i) * p.inner + li;
    const int g = sm.nxt[li * n + i];
    if (g < 0) {
      p.fout[fl] = -1;
      continue;
    }
    const i64 sfl = base + static_cast<i64>(g) * p.inner + li;
    for (int jj = 0; jj < d; ++jj) p.fout[jj * size + fl] = p.fin[jj * size + sfl];
    p.fout[d * size + fl] = g;
  }
}

// ---------------------------------------------------------------------------------------------
// Shared: flat features to an indices array; int32 C-contiguous to a strided int32 target
// ---------------------------------------------------------------------------------------------

struct unravel_params {
  shape_params s;
  const i32* flat = nullptr;
  const i32* gather = nullptr;  // strided_target::gather_from
  target_params ind;
};

__global__ void __launch_bounds__(threads) unravel_features(const unravel_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.s.size) return;
  const i64 ioff = target_offset(p.s, p.ind, 1, x, nullptr);
  i64 f = p.flat[x];
  i32* ind = static_cast<i32*>(p.ind.ptr);
  if (p.gather) {
    for (int k = 0; k < p.s.nd; ++k) ind[ioff + k * p.ind.st[0]] = p.gather[k * p.s.size + f];
    return;
  }
  for (int k = p.s.nd - 1; k >= 0; --k) {
    ind[ioff + k * p.ind.st[0]] = static_cast<i32>(f % p.s.n[k]);
    f /= p.s.n[k];
  }
}

struct store_params {
  shape_params s;
  const i32* src = nullptr;
  target_params dst;
};

__global__ void __launch_bounds__(threads) store_i32(const store_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.s.size) return;
  static_cast<i32*>(p.dst.ptr)[target_offset(p.s, p.dst, 0, x, nullptr)] = p.src[x];
}

// ---------------------------------------------------------------------------------------------
// Chamfer raster passes
// ---------------------------------------------------------------------------------------------

constexpr int cdt_threads = 1024;
constexpr int cdt_items = 4;
constexpr int cdt_chunk = cdt_threads * cdt_items;
constexpr u64 key_max = ~static_cast<u64>(0);
constexpr u64 inf_biased = static_cast<u64>(1) << 32;  // above every finite a(j) - j + 2^31

__device__ u64 make_key(u64 biased, i64 pos) { return (biased << 31) | static_cast<u64>(0x7FFFFFFF - pos); }
__device__ i64 key_pos(u64 k) { return 0x7FFFFFFF - static_cast<i64>(k & 0x7FFFFFFFULL); }
__device__ u64 key_biased(u64 k) { return k >> 31; }
__device__ u64 umin(u64 a, u64 b) { return a < b ? a : b; }

struct cdt_params {
  shape_params s;
  int rev = 0;
  int noff = 0;             // offsets in earlier rows, structure order
  int has_left = 0;         // the structure holds the left neighbour (0, ..., 0, -1)
  const signed char* off = nullptr;  // [noff][nd] in device memory, or nullptr: off_inline
  signed char off_inline[1024] = {};  // [noff][nd] when noff * nd <= 1024 (every structure up to 5-D)
  i32* dt = nullptr;        // C-contiguous
  i32* ft = nullptr;        // C-contiguous flat features
};

__global__ void __launch_bounds__(cdt_threads) cdt_pass(const cdt_params p) {
  __shared__ u64 wtot[cdt_threads / 32];
  __shared__ i32 feat_sh[cdt_chunk];
  __shared__ u64 carry;
  __shared__ i32 carry_feat;
  const int nd = p.s.nd;
  const i64 rowlen = p.s.n[nd - 1];
  const i64 nrows = p.s.size / rowlen;
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  i64 rc[maxa];  // view coordinates of the row's leading axes
  for (i64 row = 0; row < nrows; ++row) {
    i64 r = row;
    i64 rowbase = 0;  // memory flat index of the row's leading coordinates
    for (int k = nd - 2; k >= 0; --k) {
      rc[k] = r % p.s.n[k];
      r /= p.s.n[k];
      rowbase += (p.rev ? p.s.n[k] - 1 - rc[k] : rc[k]) * p.s.pitch[k];
    }
    if (tid == 0) {
      carry = key_max;
      carry_feat = 0;
    }
    __syncthreads();
    for (i64 p0 = 0; p0 < rowlen; p0 += cdt_chunk) {
      u64 key[cdt_items];
      i32 val[cdt_items];
      i32 amin[cdt_items];
      i32 afeat[cdt_items];
      i64 mem[cdt_items];
      for (int it = 0; it < cdt_items; ++it) {
        const i64 pos = p0 + static_cast<i64>(tid) * cdt_items + it;
        key[it] = key_max;
        mem[it] = -1;
        if (pos >= rowlen) continue;
        const i64 m = rowbase + (p.rev ? rowlen - 1 - pos : pos);
        mem[it] = m;
        const i32 value = p.dt[m];
        i32 mn = value;
        i32 mf = p.ft[m];
        if (value != 0) {
          for (int e = 0; e < p.noff; ++e) {
            const signed char* o = (p.off ? p.off : p.off_inline) + static_cast<i64>(e) * nd;
            bool inside = true;
            i64 nm = 0;
            for (int k = 0; k < nd && inside; ++k) {
              const i64 v = (k == nd - 1 ? pos : rc[k]) + o[k];
              if (v < 0 || v >= p.s.n[k]) inside = false;
              else nm += (p.rev ? p.s.n[k] - 1 - v : v) * p.s.pitch[k];
            }
            if (!inside) continue;
            const i32 tt = p.dt[nm];
            if (tt >= 0 && (mn < 0 || tt + 1 < mn)) {
              mn = tt + 1;
              mf = p.ft[nm];
            }
          }
        }
        val[it] = value;
        amin[it] = mn;
        afeat[it] = mf;
        if (p.has_left) {
          key[it] = mn < 0 ? make_key(inf_biased, pos)
                           : make_key(static_cast<u64>(static_cast<i64>(mn) - pos + 2147483648LL), pos);
          feat_sh[pos - p0] = mf;
        }
      }
      if (!p.has_left) {
        for (int it = 0; it < cdt_items; ++it)
          if (mem[it] >= 0 && val[it] != 0) {
            p.dt[mem[it]] = amin[it];
            p.ft[mem[it]] = afeat[it];
          }
        __syncthreads();
        continue;
      }
      // Block-wide inclusive prefix minimum of the keys (thread-major: a thread's items are consecutive).
      u64 incl[cdt_items];
      incl[0] = key[0];
      for (int it = 1; it < cdt_items; ++it) incl[it] = umin(incl[it - 1], key[it]);
      u64 v = incl[cdt_items - 1];
      for (int o = 1; o < 32; o <<= 1) {
        const u64 y = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v = umin(v, y);
      }
      u64 excl = __shfl_up_sync(0xffffffffu, v, 1);
      if (lane == 0) excl = key_max;
      if (lane == 31) wtot[warp] = v;
      __syncthreads();
      if (warp == 0) {
        u64 t = lane < cdt_threads / 32 ? wtot[lane] : key_max;
        for (int o = 1; o < 32; o <<= 1) {
          const u64 y = __shfl_up_sync(0xffffffffu, t, o);
          if (lane >= o) t = umin(t, y);
        }
        if (lane < cdt_threads / 32) wtot[lane] = t;
      }
      __syncthreads();
      if (warp > 0) excl = umin(excl, wtot[warp - 1]);
      const u64 c0 = carry;
      const i32 cf = carry_feat;
      excl = umin(excl, c0);
      for (int it = 0; it < cdt_items; ++it) {
        if (mem[it] < 0 || val[it] == 0) continue;
        const u64 k = umin(excl, incl[it]);
        if (key_biased(k) >= inf_biased) continue;  // unreached: value -1 and own feature stay
        const i64 pos = p0 + static_cast<i64>(tid) * cdt_items + it;
        const i64 j = key_pos(k);
        p.dt[mem[it]] = static_cast<i32>(static_cast<i64>(key_biased(k)) - 2147483648LL + pos);
        p.ft[mem[it]] = j >= p0 ? feat_sh[j - p0] : cf;
      }
      __syncthreads();
      if (tid == 0) {
        const u64 tot = wtot[cdt_threads / 32 - 1];
        if (tot < c0) {
          carry = tot;
          carry_feat = feat_sh[key_pos(tot) - p0];
        }
      }
      __syncthreads();
    }
  }
}

struct cdt_init_params {
  i64 size = 0;
  const u8* mask = nullptr;
  i32* dt = nullptr;
  i32* ft = nullptr;
};

__global__ void __launch_bounds__(threads) cdt_init(const cdt_init_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.size) return;
  p.dt[x] = p.mask[x] ? -1 : 0;
  p.ft[x] = static_cast<i32>(x);
}

// ---------------------------------------------------------------------------------------------
// Brute force
// ---------------------------------------------------------------------------------------------

struct bf_border_params {
  shape_params s;
  const u8* mask = nullptr;
  i32* list = nullptr;     // flat indices
  i32* coords = nullptr;   // [k * size + slot]
  int* count = nullptr;
};

__global__ void __launch_bounds__(threads) bf_border(const bf_border_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.s.size || p.mask[x] != 0) return;
  i64 c[maxa];
  i64 r = x;
  int eff[maxa];
  int ne = 0;
  for (int k = p.s.nd - 1; k >= 0; --k) {
    c[k] = r % p.s.n[k];
    r /= p.s.n[k];
  }
  for (int k = 0; k < p.s.nd; ++k)
    if (p.s.n[k] > 1) eff[ne++] = k;
  // Any foreground element within chessboard distance 1 (SciPy: binary_dilation with the full
  // structure, border value 0, xor the input): enumerate the 3^ne offsets.
  i64 total = 1;
  for (int e = 0; e < ne; ++e) total *= 3;
  bool border = false;
  for (i64 t = 0; t < total && !border; ++t) {
    i64 u = t;
    i64 nm = 0;
    bool inside = true;
    bool centre = true;
    for (int e = 0; e < ne && inside; ++e) {
      const int k = eff[e];
      const i64 o = u % 3 - 1;
      u /= 3;
      if (o != 0) centre = false;
      const i64 v = c[k] + o;
      if (v < 0 || v >= p.s.n[k]) inside = false;
      else nm += v * p.s.pitch[k];
    }
    if (inside && !centre && p.mask[nm]) border = true;
  }
  if (!border) return;
  const int slot = atomicAdd(p.count, 1);
  p.list[slot] = static_cast<i32>(x);
  for (int k = 0; k < p.s.nd; ++k) p.coords[k * p.s.size + slot] = static_cast<i32>(c[k]);
}

struct bf_params {
  shape_params s;
  int metric = 1;
  int has_samp = 0;
  double samp[maxa] = {};
  const u8* mask = nullptr;
  const i32* list = nullptr;
  const i32* coords = nullptr;
  const int* count = nullptr;
  target_params dist;  // float64 (euclidean) or uint32
  i32* flat = nullptr; // flat features (nullptr: not wanted)
};

__global__ void __launch_bounds__(threads) bf_main(const bf_params p) {
  const i64 x = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x;
  if (x >= p.s.size) return;
  i64 c[maxa];
  const i64 doff = target_offset(p.s, p.dist, 0, x, c);
  const bool fg = p.mask[x] != 0;
  const int n = *p.count;
  i32 best_idx = 0;  // SciPy's min_index starts at 0
  bool found = false;
  if (p.metric == 1) {
    double best = fg ? 1.7976931348623157e308 : 0.0;  // DBL_MAX
    if (fg) {
      for (int e = 0; e < n; ++e) {
        double dd = 0.0;
        for (int k = 0; k < p.s.nd; ++k) {
          double t = static_cast<double>(c[k] - static_cast<i64>(p.coords[k * p.s.size + e]));
          if (p.has_samp) t = __dmul_rn(t, p.samp[k]);
          dd = __dadd_rn(dd, __dmul_rn(t, t));
        }
        const i32 idx = p.list[e];
        if (dd < best || (found && dd == best && idx > best_idx)) {
          best = dd;
          best_idx = idx;
          found = true;
        }
      }
    }
    if (p.dist.ptr) static_cast<double*>(p.dist.ptr)[doff] = fg ? __dsqrt_rn(best) : 0.0;
  } else {
    u32 best = fg ? 0xFFFFFFFFu : 0u;
    if (fg) {
      for (int e = 0; e < n; ++e) {
        u32 dd = 0;
        for (int k = 0; k < p.s.nd; ++k) {
          i64 t = c[k] - static_cast<i64>(p.coords[k * p.s.size + e]);
          if (t < 0) t = -t;
          if (p.metric == 2) dd += static_cast<u32>(t);
          else if (static_cast<u32>(t) > dd) dd = static_cast<u32>(t);
        }
        const i32 idx = p.list[e];
        if (dd < best || (found && dd == best && idx > best_idx)) {
          best = dd;
          best_idx = idx;
          found = true;
        }
      }
    }
    if (p.dist.ptr) static_cast<u32*>(p.dist.ptr)[doff] = best;
  }
  if (p.flat) p.flat[x] = fg ? best_idx : static_cast<i32>(x);
}

void check(cudaError_t e) { CUSCI_CUDA_TRY(e); }

}  // namespace

void edt_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, const std::vector<double>& sampling,
             const strided_target& distances, const strided_target& indices) {
  const shape_params s = make_shape(shape);
  if (s.size == 0) return;
  cudaStream_t stream = get_current_stream();
  const std::size_t nf = static_cast<std::size_t>(s.nd) * static_cast<std::size_t>(s.size);
  device_buffer<i32> fa(nf, stream);
  device_buffer<i32> fb(nf, stream);
  device_buffer<i32> gbuf(static_cast<std::size_t>(s.size), stream);
  device_buffer<double> wbuf(static_cast<std::size_t>(s.size), stream);
  device_buffer<int> flag(1, stream);
  check(cudaMemsetAsync(flag.data(), 0, sizeof(int), stream));
  edt_pass_params pp;
  pp.s = s;
  pp.has_samp = sampling.empty() ? 0 : 1;
  for (int k = 0; k < s.nd && pp.has_samp; ++k) pp.samp[k] = sampling[static_cast<std::size_t>(k)];
  pp.mask = mask;
  pp.g = gbuf.data();
  pp.w = wbuf.data();
  pp.any_bg = flag.data();
  i32* bufs[2] = {fa.data(), fb.data()};
  int cur = 0;
  // Unit sampling: every quantity of the passes is an integer, exact in double under the bounds
  // checked below, so the parallel forms give the sequential stack's choices (see the header).
  bool unit = true;
  for (double v : sampling)
    if (v != 1.0) unit = false;
  int optin = 0;
  if (unit && s.nd > 1) {
    int dev = 0;
    check(cudaGetDevice(&dev));
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  }
  double wmax = 0.0;  // sum over the axes before d of (n_k - 1)^2: the largest wR
  for (int d = 0; d < s.nd; ++d) {
    pp.d = d;
    pp.inner = 1;
    for (int k = d + 1; k < s.nd; ++k) pp.inner *= s.n[k];
    const double nd_ = static_cast<double>(s.n[d]);
    const bool exact = unit && s.n[d] <= 32767 && nd_ * (3.0 * wmax + nd_ * nd_) < 4503599627370496.0;  // 2^52
    wmax += (nd_ - 1.0) * (nd_ - 1.0);
    if (exact && d == 0) {
      edt_scan_params sp;
      sp.n0 = s.n[0];
      sp.cols = pp.inner;
      sp.m = (sp.n0 + 63) / 64 < 64 ? 64 : (sp.n0 + 63) / 64;
      sp.nseg = (sp.n0 + sp.m - 1) / sp.m;
      device_buffer<i32> seg(static_cast<std::size_t>(2 * sp.nseg * sp.cols), stream);
      sp.mask = mask;
      sp.first = seg.data();
      sp.last = seg.data() + sp.nseg * sp.cols;
      sp.fout = bufs[1 - cur];
      sp.any_bg = flag.data();
      edt_scan_a<<<grid_for(sp.nseg * sp.cols, threads), threads, 0, stream>>>(sp);
      CUSCI_CHECK_LAUNCH();
      edt_scan_b<<<grid_for(sp.nseg * sp.cols, threads), threads, 0, stream>>>(sp);
      CUSCI_CHECK_LAUNCH();
      cur = 1 - cur;
      continue;
    }
    if (exact && d >= 1) {
      int L = 1;
      while (L < 32 && 2 * L <= pp.inner && band_smem_bytes(s.n[d], 2 * L) <= 100 * 1024) L *= 2;
      const std::size_t bytes = band_smem_bytes(s.n[d], L);
      if (bytes <= static_cast<std::size_t>(optin)) {
        edt_band_params bp;
        bp.s = s;
        bp.d = d;
        bp.inner = pp.inner;
        bp.L = L;
        while ((1 << bp.logL) < L) ++bp.logL;
        bp.qblocks = (pp.inner + L - 1) / L;
        bp.fin = bufs[cur];
        bp.fout = bufs[1 - cur];
        const i64 outer = s.size / (s.n[d] * pp.inner);
        check(cudaFuncSetAttribute(edt_band, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
        edt_band<<<grid_for(outer * bp.qblocks, 1), band_threads, bytes, stream>>>(bp);
        CUSCI_CHECK_LAUNCH();
        cur = 1 - cur;
        continue;
      }
    }
    pp.nlines = s.size / s.n[d];
    pp.tail_nan = 0;
    for (int k = d + 1; k < s.nd && pp.has_samp; ++k)
      if (!std::isfinite(pp.samp[k])) pp.tail_nan = 1;
    pp.fin = bufs[cur];
    pp.fout = bufs[1 - cur];
    edt_pass<<<grid_for(pp.nlines, edt_pass_threads), edt_pass_threads, 0, stream>>>(pp);
    CUSCI_CHECK_LAUNCH();
    cur = 1 - cur;
  }
  edt_finish_params fp;
  fp.s = s;
  fp.has_samp = pp.has_samp;
  for (int k = 0; k < s.nd; ++k) fp.samp[k] = pp.samp[k];
  fp.f = bufs[cur];
  fp.any_bg = flag.data();
  fp.dist = make_target(distances);
  fp.ind = make_target(indices);
  edt_finish<<<grid_for(s.size, threads), threads, 0, stream>>>(fp);
  CUSCI_CHECK_LAUNCH();
}

namespace {

void write_features(const shape_params& s, const i32* flat, const strided_target& indices, cudaStream_t stream) {
  if (!indices.ptr || s.nd == 0) return;
  unravel_params up;
  up.s = s;
  up.flat = flat;
  up.gather = indices.gather_from;
  up.ind = make_target(indices);
  unravel_features<<<grid_for(s.size, threads), threads, 0, stream>>>(up);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void cdt_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, const std::vector<std::uint8_t>& structure,
             const strided_target& distances, const strided_target& indices) {
  const shape_params s = make_shape(shape);
  if (s.size == 0) return;
  cudaStream_t stream = get_current_stream();
  const int nd = s.nd;
  // The structure's elements before its centre, in C order; the last of them is the left neighbour.
  std::vector<signed char> offs;
  int noff = 0;
  int has_left = 0;
  const std::size_t half = structure.size() / 2;
  for (std::size_t e = 0; e < half; ++e) {
    if (!structure[e]) continue;
    if (e + 1 == half) {
      has_left = 1;
      continue;
    }
    std::size_t u = e;
    std::vector<signed char> o(static_cast<std::size_t>(nd));
    for (int k = nd - 1; k >= 0; --k) {
      o[static_cast<std::size_t>(k)] = static_cast<signed char>(static_cast<int>(u % 3) - 1);
      u /= 3;
    }
    offs.insert(offs.end(), o.begin(), o.end());
    ++noff;
  }
  device_buffer<i32> dt(static_cast<std::size_t>(s.size), stream);
  device_buffer<i32> ft(static_cast<std::size_t>(s.size), stream);
  const bool inline_offsets = offs.size() <= sizeof(cdt_params::off_inline);
  device_buffer<signed char> doff(inline_offsets ? 1 : offs.size(), stream);
  if (!inline_offsets)
    check(cudaMemcpyAsync(doff.data(), offs.data(), offs.size(), cudaMemcpyHostToDevice, stream));
  cdt_init_params ip;
  ip.size = s.size;
  ip.mask = mask;
  ip.dt = dt.data();
  ip.ft = ft.data();
  cdt_init<<<grid_for(s.size, threads), threads, 0, stream>>>(ip);
  CUSCI_CHECK_LAUNCH();
  cdt_params cp;
  cp.s = s;
  cp.noff = noff;
  cp.has_left = has_left;
  cp.off = inline_offsets ? nullptr : doff.data();
  for (std::size_t e = 0; inline_offsets && e < offs.size(); ++e) cp.off_inline[e] = offs[e];
  cp.dt = dt.data();
  cp.ft = ft.data();
  for (int rev = 0; rev < 2; ++rev) {
    cp.rev = rev;
    cdt_pass<<<1, cdt_threads, 0, stream>>>(cp);
    CUSCI_CHECK_LAUNCH();
  }
  if (distances.ptr) {
    store_params sp;
    sp.s = s;
    sp.src = dt.data();
    sp.dst = make_target(distances);
    store_i32<<<grid_for(s.size, threads), threads, 0, stream>>>(sp);
    CUSCI_CHECK_LAUNCH();
  }
  write_features(s, ft.data(), indices, stream);
  // Structures of 6-D and more: the host copy of the offsets must outlive the asynchronous copy.
  if (!inline_offsets) check(cudaStreamSynchronize(stream));
}

void bf_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, int metric,
            const std::vector<double>& sampling, const strided_target& distances, const strided_target& indices) {
  const shape_params s = make_shape(shape);
  if (s.size == 0) return;
  cudaStream_t stream = get_current_stream();
  const std::size_t n = static_cast<std::size_t>(s.size);
  device_buffer<i32> list(n, stream);
  device_buffer<i32> coords(static_cast<std::size_t>(s.nd > 0 ? s.nd : 1) * n, stream);
  device_buffer<int> count(1, stream);
  device_buffer<i32> flat(indices.ptr ? n : 1, stream);
  check(cudaMemsetAsync(count.data(), 0, sizeof(int), stream));
  bf_border_params bp;
  bp.s = s;
  bp.mask = mask;
  bp.list = list.data();
  bp.coords = coords.data();
  bp.count = count.data();
  bf_border<<<grid_for(s.size, threads), threads, 0, stream>>>(bp);
  CUSCI_CHECK_LAUNCH();
  bf_params p;
  p.s = s;
  p.metric = metric;
  p.has_samp = sampling.empty() || metric != 1 ? 0 : 1;
  for (int k = 0; k < s.nd && p.has_samp; ++k) p.samp[k] = sampling[static_cast<std::size_t>(k)];
  p.mask = mask;
  p.list = list.data();
  p.coords = coords.data();
  p.count = count.data();
  p.dist = make_target(distances);
  p.flat = indices.ptr ? flat.data() : nullptr;
  bf_main<<<grid_for(s.size, threads), threads, 0, stream>>>(p);
  CUSCI_CHECK_LAUNCH();
  write_features(s, flat.data(), indices, stream);
}

}  // namespace cusci::ndimage::detail

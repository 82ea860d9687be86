// label's and find_objects' kernels.
//
// label: union-find over the whole image (Playne & Hawick, IEEE TPDS 2018): every foreground element
// starts as its own root; each element unites with its foreground neighbours of the structure's
// backward half by linking the larger root under the smaller with atomicMin, so a root is always
// the smallest flat index of its feature, i.e. the feature's first element in a C-order scan. After
// flattening, roots are numbered by an exclusive scan over the root flags: feature k is the k-th root
// in C order, which is SciPy's numbering (first appearance in a C-order scan), not merely an
// equivalent labelling.
//
// Performance design (H200, 4096**2 int32 labels = 64 MiB per pass): init, merge, flatten, scan and
// relabel are each one coalesced pass (about 16 us each at the roofline); the merge pass touches only
// the neighbours of the backward half (2 in 2-D with 4-connectivity, 4 with 8-connectivity) and its
// find loops are short because links always point to smaller indices and flattening is not needed
// between merges. Finds halve the paths they walk (find_root_halving): without that, the links of a
// run of foreground elements along a row form a chain as long as the run, walked again by every later
// find (the first H200 measurement: 2.3 ms on 4096**2 blobs). The structure's steps travel in the
// kernel parameters (no host-to-device copy, which would wait for the stream). The next step, when
// the benchmark asks for it, is a block-local union-find in shared memory (a 32 x 8 tile merged
// inside the block) before the global merge of tile borders, which removes most global atomics on
// blob images.

#include <cub/device/device_scan.cuh>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

constexpr int kBlock = 256;
constexpr int kMaxDims = 32;

unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, 132 * 16)));
}

#define CUSCI_GRID_LOOP(i, n)                                                                  \
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

struct geometry {
  long long n[kMaxDims];       // shape
  long long stride[kMaxDims];  // C-order strides in elements
  int ndim;
  int n_offsets;
};

template <class T>
__device__ __forceinline__ bool nonzero(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v) != 0.0f || __hisnan(v);
  else if constexpr (std::is_floating_point_v<T>) return v != T(0) || v != v;
  else return v != T(0);
}

template <class T>
__global__ void init_kernel(const T* __restrict__ in, long long n, int* parent) {
  CUSCI_GRID_LOOP(i, n) parent[i] = nonzero(in[i]) ? static_cast<int>(i) : -1;
}

/// find_root with path halving (each visited element re-pointed to its grandparent): the merge's
/// chains stay short (without it a run of n foreground elements along a row becomes a chain of n
/// links that every later find walks). Only elements that are no longer roots are written, always
/// with an ancestor, so every element stays in its feature's tree; a link that unite's atomicMin made
/// on an element that had stopped being a root may be overwritten, and unite's retry (old != b)
/// makes that union again through the roots.
__device__ __forceinline__ int find_root_halving(int* parent, int x) {
  volatile int* p = parent;
  int y = p[x];
  while (y != x) {
    const int z = p[y];
    if (z != y) p[x] = z;
    x = z == y ? y : z;
    y = p[x];
  }
  return x;
}

__device__ __forceinline__ void unite(int* parent, int a, int b) {
  bool done = false;
  while (!done) {
    a = find_root_halving(parent, a);
    b = find_root_halving(parent, b);
    if (a < b) {
      const int old = atomicMin(parent + b, a);
      done = old == b;
      b = old;
    } else if (b < a) {
      const int old = atomicMin(parent + a, b);
      done = old == a;
      a = old;
    } else {
      done = true;
    }
  }
}

/// deltas: [n_offsets, ndim] coordinate steps of the structure's backward half. Sizes are below
/// 2**31 (label refuses larger inputs), so coordinates use 32-bit arithmetic (64-bit division costs
/// several times more on the GPU).
/// The structure's steps passed by value when they fit (the usual structures: up to 3-D full), so
/// that no host-to-device copy (which would wait for the stream) precedes the merge.
struct delta_list {
  int v[96];
};

__global__ void merge_kernel(int* parent, int n, const __grid_constant__ geometry g,
                             const __grid_constant__ delta_list dl, const long long* __restrict__ deltas) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (parent[i] < 0) continue;
    int c[kMaxDims];
    int rem = i;
    for (int d = g.ndim - 1; d >= 0; --d) {
      const int nd = static_cast<int>(g.n[d]);
      c[d] = rem % nd;
      rem /= nd;
    }
    for (int k = 0; k < g.n_offsets; ++k) {
      int q = i;
      bool inside = true;
      for (int d = 0; d < g.ndim; ++d) {
        const int step = deltas != nullptr ? static_cast<int>(deltas[k * g.ndim + d]) : dl.v[k * g.ndim + d];
        const int cd = c[d] + step;
        if (cd < 0 || cd >= static_cast<int>(g.n[d])) {
          inside = false;
          break;
        }
        q += step * static_cast<int>(g.stride[d]);
      }
      if (!inside) continue;
      const int pq = parent[q];
      // Background, or already linked to the same element (common inside a feature): nothing to do.
      if (pq < 0 || pq == parent[i]) continue;
      unite(parent, i, q);
    }
  }
}

__global__ void flatten_kernel(int* parent, long long n, int* flags) {
  CUSCI_GRID_LOOP(i, n) {
    const int p = parent[i];
    if (p < 0) {
      flags[i] = 0;
      continue;
    }
    const int r = find_root_halving(parent, static_cast<int>(i));
    parent[i] = r;
    flags[i] = r == static_cast<int>(i) ? 1 : 0;
  }
}

__global__ void relabel_kernel(const int* __restrict__ parent, const int* __restrict__ ids, long long n, int* out) {
  CUSCI_GRID_LOOP(i, n) {
    const int p = parent[i];
    out[i] = p < 0 ? 0 : ids[p] + 1;
  }
}

__global__ void count_kernel(const int* ids, const int* flags, long long n, long long* count) {
  *count = static_cast<long long>(ids[n - 1]) + flags[n - 1];
}

template <class L>
__global__ void bbox_kernel(const L* __restrict__ lab, long long n, long long max_label, geometry g, long long* bbox) {
  CUSCI_GRID_LOOP(i, n) {
    const long long l = static_cast<long long>(lab[i]);
    if (l < 1 || l > max_label) continue;
    long long rem = i;
    long long* b = bbox + (l - 1) * g.ndim * 2;
    for (int d = g.ndim - 1; d >= 0; --d) {
      const long long c = rem % g.n[d];
      rem /= g.n[d];
      // Skip the atomics when the box already holds c (most elements of a feature do).
      if (c < b[2 * d]) atomicMin(reinterpret_cast<long long*>(b + 2 * d), c);
      if (c > b[2 * d + 1]) atomicMax(reinterpret_cast<long long*>(b + 2 * d + 1), c);
    }
  }
}

__global__ void bbox_init_kernel(long long* bbox, long long count) {
  CUSCI_GRID_LOOP(i, count) bbox[i] = (i & 1) ? -1 : std::numeric_limits<long long>::max();
}

geometry geometry_of(const shape_t& shape, int n_offsets) {
  geometry g{};
  g.ndim = static_cast<int>(shape.size());
  CUSCI_EXPECTS(g.ndim <= kMaxDims, value_error, "cusci::ndimage: at most 32 dimensions");
  long long s = 1;
  for (int d = g.ndim - 1; d >= 0; --d) {
    g.n[d] = shape[d];
    g.stride[d] = s;
    s *= shape[d];
  }
  g.n_offsets = n_offsets;
  return g;
}

}  // namespace

std::int64_t label_pass(const ndarray& input, const std::int64_t* deltas, int n_offsets, ndarray& out) {
  const std::int64_t n = input.size();
  if (n == 0) return 0;
  cudaStream_t st = get_current_stream();
  int* parent = static_cast<int*>(out.data());
  cusci::detail::dispatch(input.dtype(), [&](auto tv) {
    using T = typename decltype(tv)::type;
    if constexpr (cusci::detail::is_complex_v<T>) {
      throw type_error("cusci::ndimage::label: Complex type not supported");
    } else {
      init_kernel<T><<<grid_for(n), kBlock, 0, st>>>(static_cast<const T*>(input.data()), n, parent);
      CUSCI_CHECK_LAUNCH();
    }
  });
  const geometry g = geometry_of(input.shape(), n_offsets);
  if (n_offsets > 0) {
    const std::size_t nsteps = static_cast<std::size_t>(n_offsets) * static_cast<std::size_t>(g.ndim);
    delta_list dl{};
    if (nsteps <= std::size(dl.v)) {
      for (std::size_t k = 0; k < nsteps; ++k) dl.v[k] = static_cast<int>(deltas[k]);
      merge_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<int>(n), g, dl, nullptr);
      CUSCI_CHECK_LAUNCH();
    } else {
      std::vector<std::int64_t> host(deltas, deltas + nsteps);
      ndarray d = asarray(host);
      merge_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<int>(n), g, dl,
                                                   static_cast<const long long*>(d.data()));
      CUSCI_CHECK_LAUNCH();  // `d` may go back to the pool now: its block is reused only on this stream
    }
  }
  ndarray flags = empty({n}, dtype::int32);
  ndarray ids = empty({n}, dtype::int32);
  flatten_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, n, static_cast<int*>(flags.data()));
  CUSCI_CHECK_LAUNCH();
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int*>(flags.data()),
                                               static_cast<int*>(ids.data()), n, st));
  ndarray tmp = empty({static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))}, dtype::uint8);
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, static_cast<const int*>(flags.data()),
                                               static_cast<int*>(ids.data()), n, st));
  relabel_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<const int*>(ids.data()), n, parent);
  CUSCI_CHECK_LAUNCH();
  // num_features = ids[n - 1] + flags[n - 1], read back once.
  ndarray count = empty({}, dtype::int64);
  count_kernel<<<1, 1, 0, st>>>(static_cast<const int*>(ids.data()), static_cast<const int*>(flags.data()), n,
                                static_cast<long long*>(count.data()));
  CUSCI_CHECK_LAUNCH();
  return count.item<std::int64_t>();
}

void find_objects_pass(const ndarray& labels, std::int64_t max_label, ndarray& bbox) {
  const auto nd = static_cast<std::int64_t>(labels.ndim());
  bbox = empty({max_label, nd, 2}, dtype::int64);
  const std::int64_t count = max_label * nd * 2;
  cudaStream_t st = get_current_stream();
  if (count == 0) return;
  bbox_init_kernel<<<grid_for(count), kBlock, 0, st>>>(static_cast<long long*>(bbox.data()), count);
  CUSCI_CHECK_LAUNCH();
  const std::int64_t n = labels.size();
  if (n == 0) return;
  const geometry g = geometry_of(labels.shape(), 0);
  if (labels.dtype() == dtype::int64) {
    bbox_kernel<long long><<<grid_for(n), kBlock, 0, st>>>(static_cast<const long long*>(labels.data()), n, max_label, g,
                                                            static_cast<long long*>(bbox.data()));
  } else {
    bbox_kernel<int><<<grid_for(n), kBlock, 0, st>>>(static_cast<const int*>(labels.data()), n, max_label, g,
                                                      static_cast<long long*>(bbox.data()));
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail

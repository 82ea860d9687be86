/// @file scan.cu
/// cumsum, cumprod, nancumsum, nancumprod and diff.
///
/// The output (C order) is viewed as (outer, L, inner) around the scan axis of length L:
///  - inner == 1, outer == 1 (a 1-D scan, also axis=None), or up to 8 rows of >= 2^20: for a
///    contiguous, 8-byte-aligned float32 input of a sum (cumsum, nancumsum) CUB's single-pass scan over
///    pairs of elements (pair_scan, below); for another contiguous input of the accumulator's dtype
///    (float32, float64, int64, uint64, complex128) CUB's single-pass scan over the raw typed pointer (sums of float32, float64 and 64-bit integers through
///    cub::DispatchScan with sum_scan_policy_hub, 32 items of 128 threads, re-tuned on the H200; other
///    operators through cub::DeviceScan::InclusiveScan; the NaN variants through a transform iterator
///    over the pointer). An own single-pass decoupled look-back kernel (scan_1d: 16-byte loads, 32 KiB
///    tiles, warp-wide look-back; Merrill and Garland 2016) measured slower than both on the H200
///    (R3-own 0.725 ms against the pair scan's 0.588 ms and CUB's 0.645 ms over the floats; 54% of the
///    roofline in float64 against CUB's 88%) and was deleted, as was a persistent variant of it that
///    prefetched the next tiles into shared memory with cp.async (35% of the roofline); the numbers are
///    in docs/benchmarks.md. Any other input goes through CUB over a runtime-dtype loader;
///  - inner == 1, outer > 1 (rows along the last axis): a block per row (cub::BlockScan over tiles of
///    1024 elements, carrying the running prefix);
///  - inner > 1 (a strided axis): a column-tiled single-pass scan. A block owns a tile of consecutive
///    columns (one per thread, or VC = 16 / itemsize adjacent ones moved as a 16-byte vector when the
///    layout allows) and R consecutive rows (its "chunk"), holds them in registers, publishes the
///    chunk's per-column aggregate, looks back over the preceding chunks of its tile for their
///    aggregates / inclusive prefixes (warp 0 reads up to 32 flags at once) and writes the chunk
///    once. Chunks are handed out in order through an atomic ticket, so a block only waits on blocks
///    that are already running: no deadlock whatever the residency.
/// No kernel here synchronizes with the host (nor do the host-side occupancy and attribute queries);
/// their look-back state comes from the pool.
/// Accumulation: float32 and float16 in float32 (NumPy's float32 scan is sequential in float32),
/// float64 in float64, complex in complex128, integers in int64/uint64 (wrapping as NumPy).

#include <algorithm>
#include <cstring>

#include <utility>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/dispatch/dispatch_scan.cuh>
#include <cuda/atomic>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "reduction/reduction_ops.cuh"

namespace cusci {
namespace {

using namespace detail::red;
using c128 = cuda::std::complex<double>;

template <bool Prod>
struct scan_op {
  template <class A>
  __host__ __device__ __forceinline__ A operator()(const A& a, const A& b) const {
#ifdef __CUDA_ARCH__
    return arith<Prod>(a, b);
#else
    return a;  // never called on the host
#endif
  }
};

/// The dtype of accumulator type A.
template <class A>
__host__ __device__ constexpr dtype acc_dtype() {
  if constexpr (std::is_same_v<A, c128>) return dtype::complex128;
  else return dtype_of<A>;
}

template <class A, bool Prod>
__host__ __device__ __forceinline__ A scan_identity() {
  // -0.0 for floating-point sums: -0.0 + x == x for every x, so a prefix that starts from the
  // identity keeps the sign of a zero as NumPy's sequential sum (the sum of zeros is -0.0 exactly when
  // all of them are -0.0, whatever the order); +0.0 would turn a leading -0.0 into +0.0.
  if constexpr (Prod) return A(1);
  else if constexpr (is_complex_v<A>) return A(-0.0, -0.0);
  else if constexpr (std::is_floating_point_v<A>) return A(-0.0);
  else return A(0);
}

/// What a NaN becomes in nancumsum / nancumprod: NumPy replaces it by +0.0 (or 1) before scanning.
template <class A, bool Prod>
__host__ __device__ __forceinline__ A nan_fill() {
  return Prod ? A(1) : A(0);
}

/// Element i of a strided 1-D input of runtime dtype, as A; NaN replaced by the identity when Nan.
template <class A, bool Prod, bool Nan>
struct loader {
  const char* base;
  i64 stride;
  dtype dt;
  __device__ __forceinline__ A operator()(i64 i) const {
    A v = load_as<A>(base + i * stride, dt);
    if constexpr (Nan) {
      if (isnan_any(v)) v = nan_fill<A, Prod>();
    }
    return v;
  }
};

template <class A, bool Prod, bool Nan>
__device__ __forceinline__ A load_fix(const char* p, dtype dt) {
  A v = load_as<A>(p, dt);
  if constexpr (Nan) {
    if (isnan_any(v)) v = nan_fill<A, Prod>();
  }
  return v;
}

/// The scan operator handed to CUB. Floating-point sums use cuda::std::plus (the same a + b): CUB
/// selects its sm_90-tuned policy (float: 128 threads x 24 items, double: 224 x 24, with tuned
/// look-back delays) only for its own primitive operators; a custom functor falls back to the generic
/// 128 x 15 policy, about 60% of the copy roofline. Unsigned sums likewise (they wrap by definition).
template <class A, bool Prod>
using cub_op_t = std::conditional_t<!Prod && (std::is_floating_point_v<A> || std::is_same_v<A, std::uint64_t>),
                                    ::cuda::std::plus<A>, scan_op<Prod>>;

/// CUB's scan policy for sums over raw pointers of 4- and 8-byte primitives (float32, float64,
/// uint64; int64 sums run as uint64) on sm_90 and newer, re-tuned on the H200: CUB's own sm_90
/// tuning (float 128 threads x 24 items, double 224 x 24 nominal, i.e. 12 doubles) measured 75% and
/// 78% of the copy roofline for 2^28 float32 / 2^27 float64 scans; 128 threads x 32 float32 items
/// measured 81% (28, 30, 34, 36, 40, 48 and 64 items all 72-78%), and 128 x 32 8-byte items 87-88%.
/// The look-back delays stay CUB's tuned ones for the type. Older architectures keep CUB's chain.
template <class A>
struct sum_scan_policy_hub {
  using cub_hub = cub::detail::scan::policy_hub<A, A, A, unsigned long long, ::cuda::std::plus<A>>;
  static constexpr int kNominalItems = sizeof(A) == 4 ? 32 : 64;  // nominal 4-byte items: 32 of A either way
  using delay_t = std::conditional_t<std::is_same_v<A, float>, cub::detail::fixed_delay_constructor_t<688, 1140>,
                                     std::conditional_t<std::is_same_v<A, double>,
                                                        cub::detail::fixed_delay_constructor_t<576, 1215>,
                                                        cub::detail::fixed_delay_constructor_t<632, 1290>>>;
  struct Policy900 : cub::ChainedPolicy<900, Policy900, typename cub_hub::Policy860> {
    using ScanPolicyT =
        cub::AgentScanPolicy<128, kNominalItems, A, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                             cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                             cub::detail::MemBoundScaling<128, kNominalItems, A>, delay_t>;
  };
  using MaxPolicy = Policy900;
};

/// One cub::DeviceScan::InclusiveScan of n elements from `in` into out[0, n), temporary storage from
/// the pool. An inclusive scan has no initial value: out[0] = in[0], so a leading -0.0 keeps its sign.
/// Sums over raw float32 / float64 / uint64 pointers dispatch with sum_scan_policy_hub.
template <class A, bool Prod, class In>
void cub_run(In in, A* out, i64 n, cudaStream_t stream) {
  using op_t = cub_op_t<A, Prod>;
  std::size_t bytes = 0;
  if constexpr (std::is_same_v<In, const A*> && std::is_same_v<op_t, ::cuda::std::plus<A>> &&
                (std::is_same_v<A, float> || std::is_same_v<A, double> || std::is_same_v<A, std::uint64_t>)) {
    using dispatch_t = cub::DispatchScan<const A*, A*, op_t, cub::NullType, unsigned long long, A,
                                         cub::ForceInclusive::No, sum_scan_policy_hub<A>>;
    const auto count = static_cast<unsigned long long>(n);
    CUSCI_CUDA_TRY(dispatch_t::Dispatch(nullptr, bytes, in, out, op_t{}, cub::NullType{}, count, stream));
    memory_ptr tmp = cusci::malloc(std::max<std::size_t>(bytes, 1), stream);
    CUSCI_CUDA_TRY(dispatch_t::Dispatch(tmp->ptr(), bytes, in, out, op_t{}, cub::NullType{}, count, stream));
  } else {
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op_t{}, n, stream));
    memory_ptr tmp = cusci::malloc(std::max<std::size_t>(bytes, 1), stream);
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveScan(tmp->ptr(), bytes, in, out, op_t{}, n, stream));
  }
}

/// A CUB scan of n elements (1-D, strided, runtime dtype) into out[0, n).
template <class A, bool Prod, bool Nan>
void cub_scan(const char* base, i64 stride, dtype dt, i64 n, A* out, cudaStream_t stream) {
  cub_run<A, Prod>(thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), loader<A, Prod, Nan>{base, stride, dt}),
                   out, n, stream);
}

/// x with NaN replaced by NumPy's fill (nancumsum / nancumprod), over a typed pointer.
template <class A, bool Prod>
struct nan_fixer {
  __host__ __device__ __forceinline__ A operator()(const A& x) const {
#ifdef __CUDA_ARCH__
    return isnan_any(x) ? nan_fill<A, Prod>() : x;
#else
    return x;  // never called on the host
#endif
  }
};

/// A CUB scan of n contiguous elements of A's own dtype into out[0, n): the raw pointer (CUB's
/// vectorizable loads, no dtype switch) or, for the NaN variants, a transform iterator over it.
/// int64 sums run as uint64 sums over the same bits (two's complement wraps identically), which
/// takes CUB's tuned primitive-sum policy without a signed overflow.
template <class A, bool Prod, bool Nan>
void cub_scan_typed(const A* in, A* out, i64 n, cudaStream_t stream) {
  if constexpr (std::is_same_v<A, std::int64_t> && !Prod) {
    cub_run<std::uint64_t, false>(reinterpret_cast<const std::uint64_t*>(in), reinterpret_cast<std::uint64_t*>(out), n,
                                  stream);
  } else if constexpr (Nan) {
    cub_run<A, Prod>(thrust::make_transform_iterator(in, nan_fixer<A, Prod>{}), out, n, stream);
  } else {
    cub_run<A, Prod>(in, out, n, stream);
  }
}

/// float32 sums (cumsum, nancumsum) as an inclusive scan over pairs: item j is (x[2j], x[2j] + x[2j+1]),
/// carried as one 64-bit word, and the operator (a, b) -> (a.y + b.x, a.y + b.y) turns the running
/// pair of the prefix (whose .y is the sum through its last element) and a pair into the sums at both
/// of its elements: scanned item j is (s[2j], s[2j+1]), written over out as it stands. Half as many
/// items, 8 bytes each, as the float scan: CUB's single-pass scan then has the shape of the float64
/// one (64-bit items, a 64-bit tile state word). On the H200 (2^28 float32) it measured 88.6-89.4% of
/// the copy roofline against 81.2-81.7% for CUB over the floats (policy below, 128 threads x 32
/// pairs; 24 pairs 80.5%, 40 pairs 75.5%, 16 pairs 87.1%, 256 x 16 85.9%). Rounding: s[2j+1] adds the
/// pair's own sum to s[2j-1]; any association is as valid as NumPy's sequential loop (the tests
/// bound the error against a wider-precision scan). Deviation: the pair's sum x[2j] + x[2j+1] is
/// formed first, so it can overflow to inf where NumPy's sequential sum stays finite (two elements
/// of the same sign within a factor 2 of float32's largest value, e.g. [-3e38, 0, 3e38, 3e38]: NumPy's
/// last sum is 3e38, this one inf); CUB's float scan reassociates likewise, at tile boundaries.
template <bool Nan>
struct pair_prep {
  __host__ __device__ __forceinline__ unsigned long long operator()(const float2& v) const {
    float a = v.x, b = v.y;
#ifdef __CUDA_ARCH__
    if constexpr (Nan) {
      a = isnan_any(a) ? nan_fill<float, false>() : a;
      b = isnan_any(b) ? nan_fill<float, false>() : b;
    }
#endif
    const float2 p{a, a + b};
    unsigned long long r;
    memcpy(&r, &p, sizeof r);
    return r;
  }
};
struct pair_sum {
  __host__ __device__ __forceinline__ unsigned long long operator()(const unsigned long long& l,
                                                                    const unsigned long long& r) const {
    float2 a, b;
    memcpy(&a, &l, sizeof a);
    memcpy(&b, &r, sizeof b);
    const float2 o{a.y + b.x, a.y + b.y};
    unsigned long long w;
    memcpy(&w, &o, sizeof w);
    return w;
  }
};
/// The pair scan's policy on every architecture: 128 threads x 32 pairs (nominal 64 4-byte items),
/// warp-transposed loads and stores, float64's tuned look-back delays.
struct pair_scan_policy_hub {
  struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900> {
    using ScanPolicyT = cub::AgentScanPolicy<128, 64, unsigned long long, cub::BLOCK_LOAD_WARP_TRANSPOSE,
                                             cub::LOAD_DEFAULT, cub::BLOCK_STORE_WARP_TRANSPOSE,
                                             cub::BLOCK_SCAN_WARP_SCANS,
                                             cub::detail::MemBoundScaling<128, 64, unsigned long long>,
                                             cub::detail::fixed_delay_constructor_t<576, 1215>>;
  };
  using MaxPolicy = Policy900;
};

/// Odd n: the last element after the pairs, out[n-1] = out[n-2] + x[n-1].
template <bool Nan>
__global__ void pair_scan_tail(const float* in, float* out, i64 n) {
  float x = in[n - 1];
  if constexpr (Nan) x = isnan_any(x) ? nan_fill<float, false>() : x;
  out[n - 1] = out[n - 2] + x;
}

/// Inclusive float32 sum of in[0, n) into out (n >= 2, in and out 8-byte aligned) over pairs.
template <bool Nan>
void pair_scan(const float* in, float* out, i64 n, cudaStream_t stream) {
  auto items = thrust::make_transform_iterator(reinterpret_cast<const float2*>(in), pair_prep<Nan>{});
  using dispatch_t = cub::DispatchScan<decltype(items), unsigned long long*, pair_sum, cub::NullType,
                                       unsigned long long, unsigned long long, cub::ForceInclusive::No,
                                       pair_scan_policy_hub>;
  auto* o = reinterpret_cast<unsigned long long*>(out);
  const auto count = static_cast<unsigned long long>(n / 2);
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(dispatch_t::Dispatch(nullptr, bytes, items, o, pair_sum{}, cub::NullType{}, count, stream));
  memory_ptr tmp = cusci::malloc(std::max<std::size_t>(bytes, 1), stream);
  CUSCI_CUDA_TRY(dispatch_t::Dispatch(tmp->ptr(), bytes, items, o, pair_sum{}, cub::NullType{}, count, stream));
  if (n % 2 != 0) {
    pair_scan_tail<Nan><<<1, 1, 0, stream>>>(in, out, n);
    CUSCI_CHECK_LAUNCH();
  }
}

/// 16-byte-or-smaller loads and stores through L2 only (look-back state written by other blocks
/// must never be served from a stale L1 line).
template <class T>
__device__ __forceinline__ T ld_cg(const T* p) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "ld_cg: 4, 8 or 16 bytes");
  T t;
  if constexpr (sizeof(T) == 4) {
    const unsigned u = __ldcg(reinterpret_cast<const unsigned*>(p));
    memcpy(&t, &u, 4);
  } else if constexpr (sizeof(T) == 8) {
    const unsigned long long u = __ldcg(reinterpret_cast<const unsigned long long*>(p));
    memcpy(&t, &u, 8);
  } else {
    const uint4 u = __ldcg(reinterpret_cast<const uint4*>(p));
    memcpy(&t, &u, 16);
  }
  return t;
}

template <class T>
__device__ __forceinline__ void st_cg(T* p, const T& t) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "st_cg: 4, 8 or 16 bytes");
  if constexpr (sizeof(T) == 4) {
    unsigned u;
    memcpy(&u, &t, 4);
    __stcg(reinterpret_cast<unsigned*>(p), u);
  } else if constexpr (sizeof(T) == 8) {
    unsigned long long u;
    memcpy(&u, &t, 8);
    __stcg(reinterpret_cast<unsigned long long*>(p), u);
  } else {
    uint4 u;
    memcpy(&u, &t, 16);
    __stcg(reinterpret_cast<uint4*>(p), u);
  }
}

/// VC consecutive values of A moved as one 16-byte (or smaller) access.
template <class A, int VC>
struct alignas(sizeof(A) * VC) vpack {
  A v[VC];
};

template <class A, bool Prod, int VC>
__device__ __forceinline__ vpack<A, VC> vop(const vpack<A, VC>& a, const vpack<A, VC>& b) {
  const scan_op<Prod> op{};
  vpack<A, VC> r;
#pragma unroll
  for (int c = 0; c < VC; ++c) r.v[c] = op(a.v[c], b.v[c]);
  return r;
}

template <class A, bool Prod, int VC>
__device__ __forceinline__ vpack<A, VC> videntity() {
  vpack<A, VC> r;
#pragma unroll
  for (int c = 0; c < VC; ++c) r.v[c] = scan_identity<A, Prod>();
  return r;
}

__device__ __forceinline__ int flag_acquire(int* f) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>(*f).load(cuda::memory_order_acquire);
}

__device__ __forceinline__ void flag_release(int* f, int v) {
  cuda::atomic_ref<int, cuda::thread_scope_device>(*f).store(v, cuda::memory_order_release);
}

/// Warp 0's look-back window: lane j reads the flag of the tile `end - 1 - j` through read(p) (tiles
/// below 0 count as inclusive) and spins until every lane up to the nearest inclusive one has published. Returns the
/// number of predecessors to combine (the last of them inclusive when *inc) in every lane; `f` is the
/// lane's flag.
template <class Read>
__device__ __forceinline__ int lookback_window(Read read, i64 end, int lane, int& f, bool& inc) {
  const i64 p = end - 1 - lane;
  unsigned ready, incl;
  for (int spins = 0;; ++spins) {
    f = p >= 0 ? read(p) : 2;
    ready = __ballot_sync(0xffffffffu, f != 0);
    incl = __ballot_sync(0xffffffffu, f == 2);
    // Lanes below the nearest inclusive one (or all 32 when there is none) must be ready.
    const unsigned need = incl ? ((incl & (0u - incl)) << 1) - 1u : 0xffffffffu;
    if ((ready & need) == need) break;
    if (spins > 4) __nanosleep(32);
  }
  inc = incl != 0;
  return inc ? __ffs(static_cast<int>(incl)) : 32;
}

/// One pool allocation holding a look-back scan's state: [ticket (16 B)] [flags: n_flags int]
/// [agg: n_vals values of `item` bytes] [incl: the same], each part 16-byte aligned; the ticket and
/// the flags are zeroed (asynchronously, on `stream`).
struct lookback_state {
  memory_ptr mem;
  unsigned* ticket = nullptr;
  int* flags = nullptr;
  void* agg = nullptr;
  void* incl = nullptr;
};
lookback_state alloc_lookback(std::size_t n_flags, std::size_t n_vals, std::size_t item, cudaStream_t stream) {
  const std::size_t fbytes = 16 + ((n_flags * sizeof(int) + 15) / 16) * 16;
  const std::size_t vbytes = ((n_vals * item + 15) / 16) * 16;
  lookback_state st;
  st.mem = cusci::malloc(fbytes + 2 * vbytes, stream);
  char* b = static_cast<char*>(st.mem->ptr());
  CUSCI_CUDA_TRY(cudaMemsetAsync(b, 0, fbytes, stream));
  st.ticket = reinterpret_cast<unsigned*>(b);
  st.flags = reinterpret_cast<int*>(b + 16);
  st.agg = b + fbytes;
  st.incl = b + fbytes + vbytes;
  return st;
}

constexpr int row_items = 4;
/// Rows up to this length are scanned by one block of scan_rows even when there is a single row.
constexpr i64 small_scan_len = 4096;

/// A block per row: tiles of block_threads * row_items elements, each thread a blocked run of
/// row_items, cub::BlockScan over the tile, then the running prefix of the row added.
template <class A, bool Prod, bool Nan>
__global__ void __launch_bounds__(block_threads) scan_rows(const char* base, dtype dt, nd_map<1> rows, i64 ax_stride,
                                                          i64 L, i64 outer, A* out) {
  using BS = cub::BlockScan<A, block_threads>;
  __shared__ typename BS::TempStorage tmp;
  const scan_op<Prod> op{};
  for (i64 row = blockIdx.x; row < outer; row += gridDim.x) {
    i64 off[1];
    rows.offsets(row, off);
    const char* rb = base + off[0];
    A* ob = out + row * L;
    A carry = scan_identity<A, Prod>();
    for (i64 t0 = 0; t0 < L; t0 += static_cast<i64>(block_threads) * row_items) {
      A x[row_items];
#pragma unroll
      for (int k = 0; k < row_items; ++k) {
        const i64 j = t0 + static_cast<i64>(threadIdx.x) * row_items + k;
        x[k] = j < L ? load_fix<A, Prod, Nan>(rb + j * ax_stride, dt) : scan_identity<A, Prod>();
      }
      A agg;
      BS(tmp).InclusiveScan(x, x, op, agg);
#pragma unroll
      for (int k = 0; k < row_items; ++k) {
        const i64 j = t0 + static_cast<i64>(threadIdx.x) * row_items + k;
        if (j < L) ob[j] = op(carry, x[k]);
      }
      carry = op(carry, agg);
      __syncthreads();  // tmp is reused by the next tile
    }
  }
}

struct col_args {
  const char* base;
  dtype dt;
  nd_map<1> cols;  // column index (outer-major, inner-minor) -> input byte offset of its row 0
  i64 ax_stride;   // bytes between rows of a column
  i64 L, inner, n_cols;
  i64 n_tiles, n_chunks;
  void* out;       // A[outer][L][inner]
  void* agg;       // A[n_chunks][n_cols]
  void* incl;      // A[n_chunks][n_cols]
  int* flags;      // [n_chunks][n_tiles]: 0 nothing, 1 aggregate, 2 inclusive prefix published
  unsigned* ticket;
};

/// Rows per chunk, threads per block and columns per thread of the strided-axis scan: VC = 1 for
/// any input (runtime dtype, any strides), VC = 16 / sizeof(A) for the 16-byte path (input of A's
/// own dtype with VC adjacent columns contiguous and aligned). A thread holds about 128 bytes (VC = 1)
/// or 384 bytes (24 rows of 16 bytes) of its chunk in registers; three 128-thread blocks of the
/// 16-byte path per SM keep about 144 KiB of loads in flight per SM.
template <class A, int VC>
struct col_cfg {
  static constexpr int rows = VC > 1 ? 24 : (128 / static_cast<int>(sizeof(A)) < 4 ? 4
                                             : (128 / static_cast<int>(sizeof(A)) > 32 ? 32 : 128 / static_cast<int>(sizeof(A))));
  static constexpr int threads = VC > 1 ? 128 : block_threads;
  static constexpr int min_blocks = VC > 1 ? 3 : 1;
};

template <class A, bool Prod, bool Nan, int VC>
__global__ void __launch_bounds__(col_cfg<A, VC>::threads, col_cfg<A, VC>::min_blocks) scan_cols(col_args g) {
  constexpr int R = col_cfg<A, VC>::rows;
  constexpr int T = col_cfg<A, VC>::threads;
  using vec_t = vpack<A, VC>;
  __shared__ unsigned s_ticket;
  __shared__ int s_cnt[2];
  __shared__ bool s_inc[2];
  if (threadIdx.x == 0) s_ticket = g.n_chunks > 1 ? atomicAdd(g.ticket, 1u) : blockIdx.x;
  __syncthreads();
  const i64 t = s_ticket;
  const i64 chunk = t / g.n_tiles, tile = t - chunk * g.n_tiles;
  const i64 k = (tile * T + threadIdx.x) * VC;  // the thread's first column
  const bool valid = k < g.n_cols;
  const i64 r0 = chunk * R;
  const int rn = static_cast<int>(g.L - r0 < R ? g.L - r0 : R);
  vec_t x[R];
  vec_t local = videntity<A, Prod, VC>();
  i64 o = 0, i = 0;
  if (valid) {
    i64 off[1];
    g.cols.offsets(k, off);
    const char* cb = g.base + off[0] + r0 * g.ax_stride;
    const bool same = g.dt == acc_dtype<A>();  // a plain typed load, no runtime dtype switch
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (q < rn) {
        if constexpr (VC > 1) {
          x[q] = *reinterpret_cast<const vec_t*>(cb);
          if constexpr (Nan) {
#pragma unroll
            for (int c = 0; c < VC; ++c)
              if (isnan_any(x[q].v[c])) x[q].v[c] = nan_fill<A, Prod>();
          }
        } else if (same) {
          x[q].v[0] = *reinterpret_cast<const A*>(cb);
          if constexpr (Nan) {
            if (isnan_any(x[q].v[0])) x[q].v[0] = nan_fill<A, Prod>();
          }
        } else {
          x[q].v[0] = load_fix<A, Prod, Nan>(cb, g.dt);
        }
      }
      cb += g.ax_stride;
    }
    o = k / g.inner;
    i = k - o * g.inner;
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (q < rn) local = vop<A, Prod, VC>(local, x[q]);
  }
  vec_t prefix = videntity<A, Prod, VC>();
  if (g.n_chunks > 1) {
    vec_t* agg = static_cast<vec_t*>(g.agg);
    vec_t* incl = static_cast<vec_t*>(g.incl);
    const i64 kv = k / VC;  // the thread's slot in a chunk's row of state
    const i64 row = g.n_cols / VC;
    if (valid) st_cg((chunk == 0 ? incl : agg) + chunk * row + kv, local);
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) flag_release(g.flags + chunk * g.n_tiles + tile, chunk == 0 ? 2 : 1);
    if (chunk > 0) {
      // Warp 0 finds how many preceding chunks to combine (the nearest inclusive one and the
      // aggregates after it, at most 32 per round); every thread then folds its columns' values.
      for (int round = 0;; ++round) {
        const i64 end = chunk - static_cast<i64>(round) * 32;
        if (threadIdx.x < 32) {
          int f;
          bool inc;
          const int cnt = lookback_window([&](i64 p) { return flag_acquire(g.flags + p * g.n_tiles + tile); }, end,
                                          static_cast<int>(threadIdx.x), f, inc);
          if (threadIdx.x == 0) {
            s_cnt[round & 1] = cnt;
            s_inc[round & 1] = inc;
          }
        }
        __syncthreads();
        const int cnt = s_cnt[round & 1];
        const bool inc = s_inc[round & 1];
        if (valid) {
#pragma unroll 4
          for (int j = 0; j < cnt; ++j) {
            const i64 p = end - 1 - j;
            const vec_t v = ld_cg((inc && j == cnt - 1 ? incl : agg) + p * row + kv);
            prefix = vop<A, Prod, VC>(v, prefix);
          }
        }
        if (inc) break;
      }
      if (valid) st_cg(incl + chunk * row + kv, vop<A, Prod, VC>(prefix, local));
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) flag_release(g.flags + chunk * g.n_tiles + tile, 2);
    }
  }
  if (valid) {
    A* ob = static_cast<A*>(g.out) + (o * g.L + r0) * g.inner + i;
    vec_t run = prefix;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (q < rn) {
        run = vop<A, Prod, VC>(run, x[q]);
        *reinterpret_cast<vec_t*>(ob) = run;
      }
      ob += g.inner;
    }
  }
}

/// Whether A has the 16-byte strided-axis kernel (float32, float64, int64, uint64; NaN variants only for
/// floats).
template <class A, bool Nan>
constexpr bool fast_cols() {
  return (std::is_same_v<A, float> || std::is_same_v<A, double> || std::is_same_v<A, std::int64_t> ||
          std::is_same_v<A, std::uint64_t>) &&
         (!Nan || std::is_floating_point_v<A>);
}

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Scans `src` along `ax` into the C-contiguous A buffer `out` of src's shape.
template <class A, bool Prod, bool Nan>
void scan_into(const ndarray& src, int ax, A* out) {
  cudaStream_t stream = get_current_stream();
  const int nd = src.ndim();
  const detail::line_view lv = detail::line_view_of(src.shape(), ax);
  const i64 outer = lv.outer, inner = lv.inner, L = lv.length;
  const i64 ax_stride = src.strides()[ax];
  const char* base = static_cast<const char*>(src.data());
  if (inner == 1) {
    if (outer == 1 && L <= small_scan_len) {
      // One short row: one block, one launch, no work area (a device-wide scan costs a temporary
      // allocation and two or more launches, several microseconds of host time for a few elements).
      const nd_map<1> none{};
      fast_launch<scan_rows<A, Prod, Nan>>(1, stream, base, src.dtype(), none, ax_stride, L, outer, out);
      return;
    }
    if (outer == 1 || (outer <= 8 && L >= (i64{1} << 20))) {
      shape_t os, ost;
      for (int d = 0; d < ax; ++d) { os.push_back(src.shape()[d]); ost.push_back(src.strides()[d]); }
      const nd_map<1> m = make_map<1>(os, {ost});
      // Host-side offsets of the few rows (C order over the outer axes).
      for (i64 row = 0; row < outer; ++row) {
        i64 off = 0, rem = row;
        for (int d = m.ndim - 1; d >= 0; --d) {
          off += (rem % m.shape[d]) * m.stride[0][d];
          rem /= m.shape[d];
        }
        const char* rb = base + off;
        A* ro = out + row * L;
        // Contiguous input of the accumulator's own dtype: typed pointers (float32 sums over pairs of
        // elements, the rest CUB over the typed pointer); anything else through the runtime-dtype loader.
        const bool typed = src.dtype() == acc_dtype<A>() && ax_stride == static_cast<i64>(sizeof(A)) &&
                           reinterpret_cast<std::uintptr_t>(rb) % alignof(A) == 0;
        if constexpr (std::is_same_v<A, float> && !Prod) {
          if (typed && L >= 2 && reinterpret_cast<std::uintptr_t>(rb) % 8 == 0 &&
              reinterpret_cast<std::uintptr_t>(ro) % 8 == 0) {
            pair_scan<Nan>(reinterpret_cast<const float*>(rb), ro, L, stream);
            continue;
          }
        }
        if (typed) {
          cub_scan_typed<A, Prod, Nan>(reinterpret_cast<const A*>(rb), ro, L, stream);
          continue;
        }
        cub_scan<A, Prod, Nan>(rb, ax_stride, src.dtype(), L, ro, stream);
      }
      return;
    }
    shape_t os, ost;
    for (int d = 0; d < ax; ++d) { os.push_back(src.shape()[d]); ost.push_back(src.strides()[d]); }
    const nd_map<1> m = make_map<1>(os, {ost});
    const unsigned blocks = static_cast<unsigned>(std::min<i64>(outer, static_cast<i64>(sm_count()) * 16));
    scan_rows<A, Prod, Nan><<<blocks, block_threads, 0, stream>>>(base, src.dtype(), m, ax_stride, L, outer, out);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  // Strided axis: columns = (outer, inner) in C order.
  shape_t cs, cst;
  for (int d = 0; d < nd; ++d) {
    if (d == ax) continue;
    cs.push_back(src.shape()[d]);
    cst.push_back(src.strides()[d]);
  }
  col_args g{};
  g.base = base;
  g.dt = src.dtype();
  g.cols = make_map<1>(cs, {cst});
  g.ax_stride = ax_stride;
  g.L = L;
  g.inner = inner;
  g.n_cols = outer * inner;
  // The 16-byte path: VC adjacent columns contiguous (last axis of unit stride and a multiple of VC
  // long) with every other stride and the base 16-byte aligned; the output (C order) follows.
  bool vec = false;
  if constexpr (fast_cols<A, Nan>()) {
    constexpr int VC = 16 / static_cast<int>(sizeof(A));
    vec = src.dtype() == dtype_of<A> && src.strides()[nd - 1] == static_cast<i64>(sizeof(A)) &&
          src.shape()[nd - 1] % VC == 0 && aligned16(base) && aligned16(out) && ax_stride % 16 == 0;
    for (int d = 0; vec && d < nd - 1; ++d) vec = src.strides()[d] % 16 == 0;
  }
  auto launch = [&](auto vc_tag) {
    constexpr int VC = decltype(vc_tag)::value;
    using cfg = col_cfg<A, VC>;
    g.n_tiles = ceil_div(g.n_cols / VC, cfg::threads);
    g.n_chunks = ceil_div(L, cfg::rows);
    g.out = out;
    CUSCI_EXPECTS(g.n_tiles * g.n_chunks <= 0x7fffffffLL, value_error, "cusci::cumsum: array too large");
    memory_ptr state;
    if (g.n_chunks > 1) {
      lookback_state ls = alloc_lookback(static_cast<std::size_t>(g.n_chunks * g.n_tiles),
                                         static_cast<std::size_t>(g.n_chunks * g.n_cols), sizeof(A), stream);
      state = std::move(ls.mem);
      g.ticket = ls.ticket;
      g.flags = ls.flags;
      g.agg = ls.agg;
      g.incl = ls.incl;
    }
    const unsigned blocks = static_cast<unsigned>(g.n_tiles * g.n_chunks);
    scan_cols<A, Prod, Nan, VC><<<blocks, cfg::threads, 0, stream>>>(g);
    CUSCI_CHECK_LAUNCH();
  };
  if constexpr (fast_cols<A, Nan>()) {
    if (vec) {
      launch(std::integral_constant<int, 16 / static_cast<int>(sizeof(A))>{});
      return;
    }
  }
  launch(std::integral_constant<int, 1>{});
}

/// The accumulator dtype of a scan with result dtype r.
dtype scan_acc(dtype r) {
  if (r == dtype::bool_ || is_signed_integer(r)) return dtype::int64;
  if (is_unsigned_integer(r)) return dtype::uint64;
  if (r == dtype::float16 || r == dtype::float32) return dtype::float32;
  if (r == dtype::float64) return dtype::float64;
  return dtype::complex128;
}

ndarray scan(const char* fn, bool prod, bool nan, const ndarray& a, std::optional<int> axis,
             std::optional<dtype> dt) {
  const dtype d = a.dtype();
  const dtype r = dt ? *dt : default_sum_dtype(d);
  nan = nan && is_inexact(d);
  ndarray src = a;
  const bool direct = (promote_types(d, r) == r) || (is_integer(r) && (is_integer(d) || d == dtype::bool_));
  if (!direct) src = a.astype(r);
  int ax = 0;
  if (!axis) {
    if (!detail::cm::dense_c(src)) src = src.copy(order::C);
    if (src.ndim() != 1) src = src.reshape(shape_t{src.size()});
  } else {
    const int nd = a.ndim();
    if (*axis < -nd || *axis >= nd)
      throw index_error(std::string(fn) + ": axis " + std::to_string(*axis) + " is out of bounds for array of dimension " +
                        std::to_string(nd));
    ax = *axis < 0 ? *axis + nd : *axis;
  }
  ndarray out = empty(src.shape(), r);
  if (out.size() == 0) return out;
  const dtype acc = scan_acc(r);
  // Scan straight into the output when its dtype is the accumulator's, else into a temporary.
  ndarray acc_buf;
  if (acc != r) acc_buf = empty(src.shape(), acc);
  ndarray& target = (acc == r) ? out : acc_buf;
  auto go = [&](auto tag) {
    using A = typename decltype(tag)::type;
    A* o = static_cast<A*>(target.data());
    if (prod) {
      if (nan) scan_into<A, true, true>(src, ax, o);
      else scan_into<A, true, false>(src, ax, o);
    } else {
      if (nan) scan_into<A, false, true>(src, ax, o);
      else scan_into<A, false, false>(src, ax, o);
    }
  };
  using detail::type_tag;
  if (acc == dtype::float32) go(type_tag<float>{});
  else if (acc == dtype::float64) go(type_tag<double>{});
  else if (acc == dtype::complex128) go(type_tag<c128>{});
  else if (acc == dtype::uint64) go(type_tag<std::uint64_t>{});
  else go(type_tag<std::int64_t>{});
  if (acc != r) detail::copy_cast(target, out);
  return out;
}

/// `b` broadcast or checked against `a`'s shape with length 1 (0-d) or its own length along `ax`.
ndarray fit_piece(const ndarray& a, const ndarray& b, int ax, const char* which) {
  if (b.ndim() == 0) {
    shape_t s = a.shape();
    s[ax] = 1;
    return b.broadcast_to(s);
  }
  bool ok = b.ndim() == a.ndim();
  for (int d = 0; ok && d < a.ndim(); ++d) ok = d == ax || b.shape()[d] == a.shape()[d];
  if (!ok)
    throw value_error(std::string("cusci::diff: ") + which + " must match a's shape " +
                      detail::shape_str(a.shape()) + " except along axis " + std::to_string(ax) + ", got " +
                      detail::shape_str(b.shape()));
  return b;
}

}  // namespace

ndarray cumsum(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::cumsum", false, false, a, axis, dtype);
}
ndarray cumprod(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::cumprod", true, false, a, axis, dtype);
}
ndarray nancumsum(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::nancumsum", false, true, a, axis, dtype);
}
ndarray nancumprod(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::nancumprod", true, true, a, axis, dtype);
}

ndarray diff(const ndarray& a, int n, int axis, const diff_options& opts) {
  if (n < 0) throw value_error("cusci::diff: order must be non-negative but got " + std::to_string(n));
  const int nd = a.ndim();
  if (nd == 0) throw value_error("cusci::diff: diff requires input that is at least one dimensional");
  if (axis < -nd || axis >= nd)
    throw index_error("cusci::diff: axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                      std::to_string(nd));
  const int ax = axis < 0 ? axis + nd : axis;
  if (n == 0) return a;
  ndarray x = a;
  if (opts.prepend || opts.append) {
    std::vector<ndarray> parts;
    if (opts.prepend) parts.push_back(fit_piece(a, *opts.prepend, ax, "prepend"));
    parts.push_back(a);
    if (opts.append) parts.push_back(fit_piece(a, *opts.append, ax, "append"));
    dtype rt = parts[0].dtype();
    shape_t s = a.shape();
    s[ax] = 0;
    for (const auto& p : parts) {
      rt = promote_types(rt, p.dtype());
      s[ax] += p.shape()[ax];
    }
    x = empty(s, rt);
    std::int64_t at = 0;
    for (const auto& p : parts) {
      std::vector<index_spec> idx(static_cast<std::size_t>(nd), slice{});
      idx[ax] = slice{at, at + p.shape()[ax], 1};
      ndarray dst = x[idx];
      if (p.size() > 0) detail::copy_cast(p, dst);
      at += p.shape()[ax];
    }
  }
  for (int k = 0; k < n; ++k) {
    const std::int64_t len = x.shape()[ax];
    std::vector<index_spec> hi(static_cast<std::size_t>(nd), slice{}), lo(static_cast<std::size_t>(nd), slice{});
    hi[ax] = slice{std::min<std::int64_t>(1, len), {}, 1};
    lo[ax] = slice{{}, std::max<std::int64_t>(len - 1, 0), 1};
    x = x.dtype() == dtype::bool_ ? not_equal(x[hi], x[lo]) : subtract(x[hi], x[lo]);
  }
  return x;
}

}  // namespace cusci

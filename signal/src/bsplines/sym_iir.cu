// The symmetric IIR engine of the bsplines family (interface and equations: sym_iir.hpp).
//
// Each direction of the filter is a constant-coefficient recursion of order D <= 2 over every line
// of a C-contiguous [outer, N, inner] array. Lines are cut into C chunks of L samples so that long
// lines stay parallel (blocked linear-recurrence scan, as the filtering family's engine):
//   pass A  each chunk from a zero state (chunk 0 from SciPy's initial values) -> its final state
//   carry   E_c = P E_{c-1} + e_c (P = A^L, A the one-step matrix), in two levels: per group of G
//           chunks a fold, a sequential scan over the groups (with A^(L G)), and an expansion that
//           gives every chunk its initial state
//   pass C  each chunk from its initial state -> the output
// A thread owns a chunk. Along the contiguous axis (inner == 1) a warp owns 32 chunks and moves
// them through a 32 x 33 shared tile so that global accesses are coalesced; along any other axis
// consecutive threads own the same chunk of consecutive lines (consecutive addresses). The
// backward direction is the same recursion with positions m = N-1-n. The engine works in place
// (x == y): every pass reads a sample before the same thread writes it, and the initial values of
// both directions that read the input are formed before the forward pass writes.
// All arithmetic is in the data's type, as SciPy's (float32 data: float32 recursions).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "bsplines/sym_iir.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cusci::signal::detail {

namespace {

using cusci::detail::device_type_t;

template <class T>
__device__ __forceinline__ T shfl_xor(T v, int o) {
  if constexpr (cusci::detail::is_complex_v<T>) {
    return T(__shfl_xor_sync(0xffffffffu, v.real(), o), __shfl_xor_sync(0xffffffffu, v.imag(), o));
  } else {
    return __shfl_xor_sync(0xffffffffu, v, o);
  }
}

__device__ __forceinline__ std::int64_t warp_max(std::int64_t v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <class T>
struct coefs {
  T g, a1, a2;
};

template <class T, int D>
struct mat {
  T p[D * D];
};

// One warp per line: ic[b*D + d] = sum_{k < K_d} w_d[k] * x[line b, back ? N-1-k : k].
template <class T, int D>
__global__ __launch_bounds__(256) void ic_kernel(const T* x, T* __restrict__ ic, const T* __restrict__ w,
                                                 std::int64_t K0, std::int64_t K1, bool back, std::int64_t lines,
                                                 std::int64_t N, std::int64_t inner) {
  const std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  if (b >= lines) return;  // uniform over the warp
  const std::int64_t o = b / inner, i = b - o * inner;
  const T* base = x + o * N * inner + i;
#pragma unroll
  for (int d = 0; d < D; ++d) {
    const std::int64_t K = d == 0 ? K0 : K1;
    const T* wd = d == 0 ? w : w + K0;
    T acc = T(0);
    for (std::int64_t k = lane; k < K; k += 32) acc += wd[k] * base[(back ? N - 1 - k : k) * inner];
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) acc += shfl_xor(acc, s);
    if (lane == 0) ic[b * D + d] = acc;
  }
}

template <class T, int D>
__device__ __forceinline__ T step(const coefs<T>& cf, T xv, T& s0, T& s1) {
  T v = cf.g * xv + cf.a1 * s0;
  if constexpr (D == 2) v += cf.a2 * s1;
  s1 = s0;
  s0 = v;
  return v;
}

// The chunks of one direction along a non-contiguous axis (inner > 1, or any layout): one thread per
// chunk, item = ((o * C) + c) * inner + i, so consecutive threads read consecutive addresses.
template <class T, int D, bool Final>
__global__ __launch_bounds__(256) void chunk_strided(const T* x, T* y, const coefs<T> cf, const T* __restrict__ ic,
                                                     const T* __restrict__ init, T* __restrict__ ends, std::int64_t N,
                                                     std::int64_t inner, std::int64_t L, std::int64_t C,
                                                     std::int64_t items, bool rev) {
  const std::int64_t item = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (item >= items) return;
  const std::int64_t i = item % inner, t = item / inner;
  const std::int64_t c = t % C, o = t / C;
  if (!Final && c == C - 1) return;  // the last chunk's final state is never needed
  const std::int64_t b = o * inner + i;
  const std::int64_t m0 = c * L, m1 = min(m0 + L, N);
  const T* xb = x + o * N * inner + i;
  T* yb = y + o * N * inner + i;
  T s0 = T(0), s1 = T(0);
  if (Final && c > 0) {
    s0 = init[(b * C + c) * D];
    if constexpr (D == 2) s1 = init[(b * C + c) * D + 1];
  }
  std::int64_t m = m0;
  if (c == 0) {
    for (; m < min(static_cast<std::int64_t>(D), m1); ++m) {
      const T v = ic[b * D + m];
      s1 = s0;
      s0 = v;
      if (Final) yb[(rev ? N - 1 - m : m) * inner] = v;
    }
  }
  // Eight loads in flight ahead of the dependent recursion (the same thread reads each sample
  // before it writes it, so this holds in place too).
  constexpr int U = 8;
  for (; m + U <= m1; m += U) {
    T xv[U];
#pragma unroll
    for (int u = 0; u < U; ++u) xv[u] = xb[(rev ? N - 1 - (m + u) : m + u) * inner];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const T v = step<T, D>(cf, xv[u], s0, s1);
      if (Final) yb[(rev ? N - 1 - (m + u) : m + u) * inner] = v;
    }
  }
  for (; m < m1; ++m) {
    const std::int64_t off = (rev ? N - 1 - m : m) * inner;
    const T v = step<T, D>(cf, xb[off], s0, s1);
    if (Final) yb[off] = v;
  }
  if (!Final) {
    ends[(b * (C - 1) + c) * D] = s0;
    if constexpr (D == 2) ends[(b * (C - 1) + c) * D + 1] = s1;
  }
}

template <class T>
inline constexpr int tile_warps = sizeof(T) >= 16 ? 2 : 4;

// The chunks of one direction along the contiguous axis (inner == 1): a warp owns 32 chunks
// (item = o * C + c) and moves them through a shared 32 x 33 tile, 32 samples at a time.
template <class T, int D, bool Final>
__global__ __launch_bounds__(32 * tile_warps<T>) void chunk_tiled(const T* x, T* y, const coefs<T> cf,
                                                                  const T* __restrict__ ic, const T* __restrict__ init,
                                                                  T* __restrict__ ends, std::int64_t N, std::int64_t L,
                                                                  std::int64_t C, std::int64_t items, bool rev) {
  constexpr int W = tile_warps<T>;
  __shared__ alignas(16) unsigned char raw[W * 32 * 33 * sizeof(T)];
  __shared__ std::int64_t row_start[W][32], row_len[W][32];
  const int warp = static_cast<int>(threadIdx.x >> 5), lane = static_cast<int>(threadIdx.x & 31);
  T(*tile)[33] = reinterpret_cast<T(*)[33]>(raw + static_cast<std::size_t>(warp) * 32 * 33 * sizeof(T));
  const std::int64_t w0 = (static_cast<std::int64_t>(blockIdx.x) * W + warp) * 32;
  if (w0 >= items) return;  // uniform over the warp
  const std::int64_t item = w0 + lane;
  std::int64_t c = 0, o = 0, len = 0;
  if (item < items) {
    c = item % C;
    o = item / C;
    len = min(L, N - c * L);
    if (!Final && c == C - 1) len = 0;
  }
  const std::int64_t lbase = o * N, m0 = c * L, b = o;
  const std::int64_t maxlen = warp_max(len);
  // Sample t of row r's chunk is at row_start[r] + t (forward) or row_start[r] - t (backward).
  const std::int64_t step_dir = rev ? -1 : 1;
  row_start[warp][lane] = lbase + (rev ? N - 1 - m0 : m0);
  row_len[warp][lane] = len;
  __syncwarp();
  T s0 = T(0), s1 = T(0);
  if (Final && c > 0 && len > 0) {
    s0 = init[(b * C + c) * D];
    if constexpr (D == 2) s1 = init[(b * C + c) * D + 1];
  }
  for (std::int64_t t0 = 0; t0 < maxlen; t0 += 32) {
    for (int r = 0; r < 32; ++r) {
      if (t0 + lane < row_len[warp][r]) tile[r][lane] = x[row_start[warp][r] + step_dir * (t0 + lane)];
    }
    __syncwarp();
    const std::int64_t n = min(std::int64_t{32}, len - t0);
    for (int t = 0; t < n; ++t) {
      const std::int64_t m = m0 + t0 + t;
      T v;
      if (c == 0 && m < D) {
        v = ic[b * D + m];
        s1 = s0;
        s0 = v;
      } else {
        v = step<T, D>(cf, tile[lane][t], s0, s1);
      }
      if (Final) tile[lane][t] = v;
    }
    __syncwarp();
    if (Final) {
      for (int r = 0; r < 32; ++r) {
        if (t0 + lane < row_len[warp][r]) y[row_start[warp][r] + step_dir * (t0 + lane)] = tile[r][lane];
      }
      __syncwarp();
    }
  }
  if (!Final && len > 0) {
    ends[(b * (C - 1) + c) * D] = s0;
    if constexpr (D == 2) ends[(b * (C - 1) + c) * D + 1] = s1;
  }
}

template <class T, int D>
__device__ __forceinline__ void mat_step(const mat<T, D>& P, T (&s)[D], const T* e) {
  if constexpr (D == 1) {
    s[0] = P.p[0] * s[0] + e[0];
  } else {
    const T u = P.p[0] * s[0] + P.p[1] * s[1] + e[0];
    const T v = P.p[2] * s[0] + P.p[3] * s[1] + e[1];
    s[0] = u;
    s[1] = v;
  }
}

// Per (line b, group g) of G chunk end states (n_items = C - 1 of them per line):
// Expand == false: fold[q] = the group's states combined from zero;
// Expand == true:  from ginit[q], init[b][c + 1] = true final state of chunk c for c in the group.
template <class T, int D, bool Expand>
__global__ __launch_bounds__(256) void carry_groups(const mat<T, D> P, const T* __restrict__ ends,
                                                    T* __restrict__ out, const T* __restrict__ ginit,
                                                    std::int64_t lines, std::int64_t C, std::int64_t G,
                                                    std::int64_t ng) {
  const std::int64_t q = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= lines * ng) return;
  const std::int64_t b = q / ng, g = q - b * ng, n_items = C - 1;
  T s[D];
#pragma unroll
  for (int d = 0; d < D; ++d) s[d] = Expand ? ginit[q * D + d] : T(0);
  const std::int64_t j1 = min(g * G + G, n_items);
  const T* eb = ends + b * n_items * D;
  constexpr int U = 8;  // loads in flight ahead of the dependent steps
  std::int64_t j = g * G;
  for (; j + U <= j1; j += U) {
    T e[U * D];
#pragma unroll
    for (int u = 0; u < U * D; ++u) e[u] = eb[j * D + u];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      mat_step<T, D>(P, s, e + u * D);
      if (Expand) {
#pragma unroll
        for (int d = 0; d < D; ++d) out[(b * C + j + u + 1) * D + d] = s[d];
      }
    }
  }
  for (; j < j1; ++j) {
    mat_step<T, D>(P, s, eb + j * D);
    if (Expand) {
#pragma unroll
      for (int d = 0; d < D; ++d) out[(b * C + j + 1) * D + d] = s[d];
    }
  }
  if (!Expand) {
#pragma unroll
    for (int d = 0; d < D; ++d) out[q * D + d] = s[d];
  }
}

// Per line: ginit[b][g] = state entering group g; S_g = PG S_{g-1} + fold[b][g-1].
template <class T, int D>
__global__ __launch_bounds__(256) void carry_scan(const mat<T, D> PG, const T* __restrict__ fold,
                                                  T* __restrict__ ginit, std::int64_t lines, std::int64_t ng) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= lines) return;
  T s[D];
#pragma unroll
  for (int d = 0; d < D; ++d) s[d] = T(0);
  const T* fb = fold + b * ng * D;
  T* gb = ginit + b * ng * D;
  constexpr int U = 8;  // loads in flight ahead of the dependent steps
  std::int64_t g = 0;
  for (; g + U <= ng; g += U) {
    T e[U * D];
#pragma unroll
    for (int u = 0; u < U * D; ++u) e[u] = fb[g * D + u];
#pragma unroll
    for (int u = 0; u < U; ++u) {
#pragma unroll
      for (int d = 0; d < D; ++d) gb[(g + u) * D + d] = s[d];
      mat_step<T, D>(PG, s, e + u * D);
    }
  }
  for (; g < ng; ++g) {
#pragma unroll
    for (int d = 0; d < D; ++d) gb[g * D + d] = s[d];
    mat_step<T, D>(PG, s, fb + g * D);
  }
}

// --- host side ---------------------------------------------------------------------------------

unsigned blocks_for(std::int64_t n, std::int64_t per) { return static_cast<unsigned>((n + per - 1) / per); }

// A^n for the one-step matrix A = [[a1, a2], [1, 0]] (D == 2) or a1 (D == 1), in complex double.
std::vector<std::complex<double>> step_power(int D, std::complex<double> a1, std::complex<double> a2, std::int64_t n) {
  using M = std::vector<std::complex<double>>;
  auto mul = [D](const M& A, const M& B) {
    M R(static_cast<std::size_t>(D * D));
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) {
        std::complex<double> s = 0;
        for (int k = 0; k < D; ++k) s += A[static_cast<std::size_t>(i * D + k)] * B[static_cast<std::size_t>(k * D + j)];
        R[static_cast<std::size_t>(i * D + j)] = s;
      }
    return R;
  };
  M base = D == 1 ? M{a1} : M{a1, a2, 1.0, 0.0};
  M r = D == 1 ? M{1.0} : M{1.0, 0.0, 0.0, 1.0};
  while (n > 0) {
    if (n & 1) r = mul(r, base);
    base = mul(base, base);
    n >>= 1;
  }
  return r;
}

template <class H>
H from_cd(std::complex<double> v) {
  if constexpr (std::is_same_v<H, float> || std::is_same_v<H, double>) return static_cast<H>(v.real());
  else return H(static_cast<typename H::value_type>(v.real()), static_cast<typename H::value_type>(v.imag()));
}

template <class H>
std::complex<double> to_cd(H v) {
  if constexpr (std::is_same_v<H, float> || std::is_same_v<H, double>) return {static_cast<double>(v), 0.0};
  else return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
}

template <class H, int D>
mat<device_type_t<H>, D> to_mat(const std::vector<std::complex<double>>& m) {
  mat<device_type_t<H>, D> r{};
  for (int i = 0; i < D * D; ++i) {
    const H h = from_cd<H>(m[static_cast<std::size_t>(i)]);
    std::memcpy(static_cast<void*>(&r.p[i]), &h, sizeof(H));
  }
  return r;
}

template <class H>
device_type_t<H> dev(H v) {
  static_assert(sizeof(H) == sizeof(device_type_t<H>), "host and device element types differ in size");
  device_type_t<H> d;
  std::memcpy(static_cast<void*>(&d), &v, sizeof(H));
  return d;
}

template <class H>
device_buffer<device_type_t<H>> upload(const std::vector<H>& a, const std::vector<H>& b, cudaStream_t stream) {
  std::vector<H> all(a);
  all.insert(all.end(), b.begin(), b.end());
  if (all.empty()) all.push_back(H(0));
  device_buffer<device_type_t<H>> d(all.size(), stream);
  // Pageable source: staged before cudaMemcpyAsync returns, so `all` may go out of scope.
  CUSCI_CUDA_TRY(cudaMemcpyAsync(d.data(), all.data(), all.size() * sizeof(H), cudaMemcpyHostToDevice, stream));
  return d;
}

struct chunking {
  std::int64_t C, L;
};

// Enough chunks to fill the GPU (about 2^17 threads), each at least 32 samples long (a multiple of
// 32 along the contiguous axis, where the tiles move 32 samples at a time).
chunking choose_chunks(std::int64_t lines, std::int64_t N) {
  constexpr std::int64_t target = std::int64_t{1} << 17;
  std::int64_t C = std::max<std::int64_t>(1, std::min<std::int64_t>((N + 31) / 32, (target + lines - 1) / lines));
  std::int64_t L = (N + C - 1) / C;
  L = (L + 31) / 32 * 32;
  C = (N + L - 1) / L;
  return {C, L};
}

template <class H, int D>
void run_direction(const sym_filter<H>& f, const device_type_t<H>* x, device_type_t<H>* y,
                   const device_type_t<H>* ic, bool rev, std::int64_t outer, std::int64_t N, std::int64_t inner,
                   cudaStream_t stream) {
  using T = device_type_t<H>;
  const std::int64_t lines = outer * inner;
  const chunking ch = choose_chunks(lines, N);
  const std::int64_t C = ch.C, L = ch.L, items = lines * C;
  const coefs<T> cf{dev(rev ? f.g_b : f.g_f), dev(f.a1), dev(f.a2)};
  const bool tiled = inner == 1;
  auto pass = [&](auto final_tag, const T* init, T* ends) {
    constexpr bool Final = decltype(final_tag)::value;
    if (tiled) {
      constexpr int per = 32 * tile_warps<T>;
      chunk_tiled<T, D, Final><<<blocks_for(items, per), per, 0, stream>>>(x, y, cf, ic, init, ends, N, L, C, items, rev);
    } else {
      chunk_strided<T, D, Final><<<blocks_for(items, 256), 256, 0, stream>>>(x, y, cf, ic, init, ends, N, inner, L, C,
                                                                            items, rev);
    }
    CUSCI_CHECK_LAUNCH();
  };
  if (C == 1) {
    pass(std::true_type{}, nullptr, nullptr);
    return;
  }
  const std::int64_t n_items = C - 1;
  const std::int64_t G = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(n_items))));
  const std::int64_t ng = (n_items + G - 1) / G;
  device_buffer<T> ends(static_cast<std::size_t>(lines * n_items * D), stream);
  device_buffer<T> init(static_cast<std::size_t>(lines * C * D), stream);
  device_buffer<T> fold(static_cast<std::size_t>(lines * ng * D), stream);
  device_buffer<T> ginit(static_cast<std::size_t>(lines * ng * D), stream);
  pass(std::false_type{}, nullptr, ends.data());
  const auto P = to_mat<H, D>(step_power(D, to_cd(f.a1), to_cd(f.a2), L));
  const auto PG = to_mat<H, D>(step_power(D, to_cd(f.a1), to_cd(f.a2), L * G));
  carry_groups<T, D, false><<<blocks_for(lines * ng, 256), 256, 0, stream>>>(P, ends.data(), fold.data(), nullptr,
                                                                            lines, C, G, ng);
  CUSCI_CHECK_LAUNCH();
  carry_scan<T, D><<<blocks_for(lines, 256), 256, 0, stream>>>(PG, fold.data(), ginit.data(), lines, ng);
  CUSCI_CHECK_LAUNCH();
  carry_groups<T, D, true><<<blocks_for(lines * ng, 256), 256, 0, stream>>>(P, ends.data(), init.data(), ginit.data(),
                                                                           lines, C, G, ng);
  CUSCI_CHECK_LAUNCH();
  pass(std::true_type{}, init.data(), nullptr);
}

template <class H, int D>
void run_order(const sym_filter<H>& f, const H* xh, H* yh, std::int64_t outer, std::int64_t N, std::int64_t inner,
               cudaStream_t stream) {
  using T = device_type_t<H>;
  const T* x = reinterpret_cast<const T*>(xh);
  T* y = reinterpret_cast<T*>(yh);
  const std::int64_t lines = outer * inner;
  auto wf = upload<H>(f.wf[0], D == 2 ? f.wf[1] : std::vector<H>{}, stream);
  device_buffer<T> icf(static_cast<std::size_t>(lines * D), stream), icb(static_cast<std::size_t>(lines * D), stream);
  const unsigned ic_blocks = blocks_for(lines * 32, 256);
  ic_kernel<T, D><<<ic_blocks, 256, 0, stream>>>(x, icf.data(), wf.data(), static_cast<std::int64_t>(f.wf[0].size()),
                                                 D == 2 ? static_cast<std::int64_t>(f.wf[1].size()) : 0, false, lines,
                                                 N, inner);
  CUSCI_CHECK_LAUNCH();
  if constexpr (D == 2) {
    auto wb = upload<H>(f.wb[0], f.wb[1], stream);
    ic_kernel<T, 2><<<ic_blocks, 256, 0, stream>>>(x, icb.data(), wb.data(), static_cast<std::int64_t>(f.wb[0].size()),
                                                   static_cast<std::int64_t>(f.wb[1].size()), true, lines, N, inner);
    CUSCI_CHECK_LAUNCH();
    run_direction<H, 2>(f, x, y, icf.data(), false, outer, N, inner, stream);
    run_direction<H, 2>(f, y, y, icb.data(), true, outer, N, inner, stream);
  } else {
    run_direction<H, 1>(f, x, y, icf.data(), false, outer, N, inner, stream);
    auto q = upload<H>(std::vector<H>{f.q}, std::vector<H>{}, stream);
    ic_kernel<T, 1><<<ic_blocks, 256, 0, stream>>>(y, icb.data(), q.data(), 1, 0, true, lines, N, inner);
    CUSCI_CHECK_LAUNCH();
    run_direction<H, 1>(f, y, y, icb.data(), true, outer, N, inner, stream);
  }
}

}  // namespace

template <class H>
void run_sym_filter(const sym_filter<H>& f, const H* x, H* y, std::int64_t outer, std::int64_t N, std::int64_t inner,
                    cudaStream_t stream) {
  if (outer <= 0 || inner <= 0 || N <= 0) return;
  CUSCI_EXPECTS(f.D == 1 || f.D == 2, value_error, "cusci::signal: symmetric IIR of order 1 or 2 only");
  if (f.D == 1) {
    run_order<H, 1>(f, x, y, outer, N, inner, stream);
  } else {
    if constexpr (std::is_same_v<H, float> || std::is_same_v<H, double>) run_order<H, 2>(f, x, y, outer, N, inner, stream);
    else CUSCI_EXPECTS(false, value_error, "cusci::signal: complex second-order symmetric IIR is not built");
  }
}

template void run_sym_filter<float>(const sym_filter<float>&, const float*, float*, std::int64_t, std::int64_t,
                                    std::int64_t, cudaStream_t);
template void run_sym_filter<double>(const sym_filter<double>&, const double*, double*, std::int64_t, std::int64_t,
                                     std::int64_t, cudaStream_t);
template void run_sym_filter<std::complex<float>>(const sym_filter<std::complex<float>>&, const std::complex<float>*,
                                                  std::complex<float>*, std::int64_t, std::int64_t, std::int64_t,
                                                  cudaStream_t);
template void run_sym_filter<std::complex<double>>(const sym_filter<std::complex<double>>&,
                                                   const std::complex<double>*, std::complex<double>*, std::int64_t,
                                                   std::int64_t, std::int64_t, cudaStream_t);

}  // namespace cusci::signal::detail

#pragma once
// (internal; nvcc only) Chunked parallel evaluation of a linear recurrence along the last axis of a
// C-contiguous [nb, N] array, shared by lfilter (direct form II transposed) and sosfilt (cascaded
// biquads). See filtering.hpp for the algorithm; the three phases are:
//   pass A  chunk_kernel<P, false>: each chunk from a zero state -> its final state (float64)
//   carry   carry_kernel: S_{j+1} = A^L S_j + s_j, in one or two levels -> each chunk's initial state
//   pass C  chunk_kernel<P, true>: each chunk from its initial state -> output, and the final state zf
// The chunk length comes from recurrence_plan.hpp (an a-priori bound on the filter: chunks whose carry
// is a contraction, or one sequential thread per signal).
// A policy P provides: value_type (the data's device type), compute_type (double, or
// cuda::std::complex<double>: every filter computes in float64 whatever its data type), params (by
// value, read with compile-time indices), the state in registers, zero(), load(const double*, D) /
// store(double*, D) of the first D real state components (a complex entry is two), store_out(value_type*,
// D) of the state in the data's type, and step(compute_type x) -> y. Optionally input_type, the type x is
// read as when it differs from value_type (float32 data filtered into a float64 result, without a
// converted copy of the input); value_type when absent.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <complex>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/memory.hpp"
#include "filtering/recurrence_plan.hpp"

namespace cusci::signal::detail {

using cusci::detail::is_complex_t;
using cplx = std::complex<double>;
using coeffs = std::vector<cplx>;  // filter coefficients on the host (real ones with zero imaginary parts)

/// Calls f(type_tag<T>, type_tag<CT>) for the filters' result dtypes: the data's device type T and the
/// type every filter computes in, CT (float64, or complex128 for complex data).
template <class F>
void dispatch_filter(dtype dt, F&& f) {
  using cusci::detail::type_tag;
  switch (dt) {
    case dtype::float32: f(type_tag<float>{}, type_tag<double>{}); break;
    case dtype::float64: f(type_tag<double>{}, type_tag<double>{}); break;
    case dtype::complex64:
      f(type_tag<cuda::std::complex<float>>{}, type_tag<cuda::std::complex<double>>{});
      break;
    case dtype::complex128:
      f(type_tag<cuda::std::complex<double>>{}, type_tag<cuda::std::complex<double>>{});
      break;
    default: throw not_implemented_error("cusci::signal: unsupported filter dtype " + std::string(dtype_name(dt)));
  }
}

/// A state entry in CT from its real components (one double, or two for a complex entry).
template <class CT>
__device__ __forceinline__ CT load_state(const double* s) {
  if constexpr (is_complex_t<CT>::value) return CT(s[0], s[1]);
  else return s[0];
}
template <class CT>
__device__ __forceinline__ void store_state(double* s, const CT& v) {
  if constexpr (is_complex_t<CT>::value) {
    s[0] = v.real();
    s[1] = v.imag();
  } else {
    s[0] = v;
  }
}
/// A host coefficient as the compute type.
template <class CT>
inline CT to_compute(const cplx& v) {
  if constexpr (is_complex_t<CT>::value) return CT(v.real(), v.imag());
  else return v.real();
}
/// The host type of the compute type (double or std::complex<double>), for uploads through asarray.
template <class CT>
using host_compute_t = std::conditional_t<is_complex_t<CT>::value, cplx, double>;

/// The real (width * K)^2 transition matrix of a complex K x K one (width 2: entries interleaved as
/// (re, im), each complex entry a 2 x 2 rotation-scaling block; width 1: the real parts).
inline matrix real_transition(const std::vector<cplx>& Ac, int K, bool complex) {
  if (!complex) {
    matrix A(static_cast<std::size_t>(K) * K);
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = Ac[i].real();
    return A;
  }
  const int D = 2 * K;
  matrix A(static_cast<std::size_t>(D) * D, 0.0);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      const cplx v = Ac[static_cast<std::size_t>(i) * K + j];
      A[static_cast<std::size_t>(2 * i) * D + 2 * j] = v.real();
      A[static_cast<std::size_t>(2 * i) * D + 2 * j + 1] = -v.imag();
      A[static_cast<std::size_t>(2 * i + 1) * D + 2 * j] = v.imag();
      A[static_cast<std::size_t>(2 * i + 1) * D + 2 * j + 1] = v.real();
    }
  return A;
}

/// The type a policy reads its input as: Policy::input_type when it declares one, else value_type.
template <class P, class = void>
struct policy_input {
  using type = typename P::value_type;
};
template <class P>
struct policy_input<P, std::void_t<typename P::input_type>> {
  using type = typename P::input_type;
};
template <class P>
using input_t = typename policy_input<P>::type;

inline constexpr int max_state = 32;  // largest state dimension (real components) of the chunked path

// 4 warps per block (2 for 16-byte data, to keep the tiles within 48 KB of shared memory); each warp
// owns 32 chunks and one 32 x 32 tile.
template <class T>
inline constexpr int chunk_warps = sizeof(T) >= 16 ? 2 : 4;

__device__ __forceinline__ std::int64_t warp_max(std::int64_t v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <class Policy, bool Final>
__global__ __launch_bounds__(32 * chunk_warps<typename Policy::value_type>) void chunk_kernel(
    const __grid_constant__ typename Policy::params prm, const input_t<Policy>* __restrict__ x,
    typename Policy::value_type* __restrict__ y, std::int64_t nb, std::int64_t N, std::int64_t L, std::int64_t C,
    int D, const double* __restrict__ init, std::int64_t init_bstride, double* __restrict__ states,
    typename Policy::value_type* __restrict__ zf, std::int64_t zf_ld) {
  using T = typename Policy::value_type;
  using CT = typename Policy::compute_type;
  constexpr int W = chunk_warps<T>;
  __shared__ T tiles[W][32][33];
  const int warp = static_cast<int>(threadIdx.x >> 5), lane = static_cast<int>(threadIdx.x & 31);
  T(*tile)[33] = tiles[warp];
  const std::int64_t total = nb * C;
  const std::int64_t w0 = (static_cast<std::int64_t>(blockIdx.x) * W + warp) * 32;
  if (w0 >= total) return;  // uniform over the warp
  const std::int64_t item = w0 + lane;
  std::int64_t b = 0, c = 0, base = 0, len = 0;
  if (item < total) {
    b = item / C;
    c = item - b * C;
    base = b * N + c * L;
    len = min(L, N - c * L);
    if (!Final && c == C - 1) len = 0;  // the last chunk's zero-state result is never needed
  }
  const std::int64_t maxlen = warp_max(len);
  Policy f;
  f.zero();
  if (Final && item < total && init != nullptr) f.load(init + b * init_bstride + c * D, D);
  for (std::int64_t t0 = 0; t0 < maxlen; t0 += 32) {
    for (int r = 0; r < 32; ++r) {
      const std::int64_t br = __shfl_sync(0xffffffffu, base, r);
      const std::int64_t lr = __shfl_sync(0xffffffffu, len, r);
      if (t0 + lane < lr) tile[r][lane] = static_cast<T>(x[br + t0 + lane]);
    }
    __syncwarp();
    const std::int64_t n = min(std::int64_t{32}, len - t0);
    if (n == 32) {
#pragma unroll 4
      for (int t = 0; t < 32; ++t) {
        const CT v = f.step(static_cast<CT>(tile[lane][t]), prm);
        if (Final) tile[lane][t] = static_cast<T>(v);
      }
    } else {
      for (int t = 0; t < n; ++t) {
        const CT v = f.step(static_cast<CT>(tile[lane][t]), prm);
        if (Final) tile[lane][t] = static_cast<T>(v);
      }
    }
    __syncwarp();
    if (Final) {
      for (int r = 0; r < 32; ++r) {
        const std::int64_t br = __shfl_sync(0xffffffffu, base, r);
        const std::int64_t lr = __shfl_sync(0xffffffffu, len, r);
        if (t0 + lane < lr) y[br + t0 + lane] = tile[r][lane];
      }
      __syncwarp();
    }
  }
  if (!Final) {
    if (len > 0) f.store(states + (b * (C - 1) + c) * D, D);
  } else if (zf != nullptr && item < total && c == C - 1) {
    f.store_out(zf + b * zf_ld, D);
  }
}

struct carry_matrix {
  double p[max_state * max_state];  // row-major D x D
};

// One warp per sequence (o, g) over items [g*G, min((g+1)*G, n_items)): cur = init (or 0); for each
// item j: out_excl[o][j] = cur; cur = P cur + s[o][j]. The last group also writes out_excl[o][n_items];
// fold[o][g] = cur at the end. Lane r holds state entry r.
static __global__ __launch_bounds__(128) void carry_kernel(const __grid_constant__ carry_matrix P, int D,
                                                    std::int64_t n_outer, std::int64_t n_items, std::int64_t G,
                                                    std::int64_t n_groups, const double* __restrict__ s,
                                                    const double* __restrict__ init, std::int64_t init_ostride,
                                                    double* __restrict__ out_excl, double* __restrict__ fold) {
  __shared__ double Ps[max_state][max_state + 1];
  for (int i = static_cast<int>(threadIdx.x); i < max_state * max_state; i += static_cast<int>(blockDim.x)) {
    const int r = i / max_state, c = i % max_state;
    Ps[r][c] = (r < D && c < D) ? P.p[r * D + c] : 0.0;
  }
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t q = static_cast<std::int64_t>(blockIdx.x) * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (q >= n_outer * n_groups) return;  // uniform over the warp
  const std::int64_t o = q / n_groups, g = q - o * n_groups;
  const bool active = lane < D;
  double cur = (active && init != nullptr) ? init[o * init_ostride + g * D + lane] : 0.0;
  const std::int64_t j0 = g * G, j1 = min(j0 + G, n_items);
  for (std::int64_t j = j0; j < j1; ++j) {
    if (out_excl != nullptr && active) out_excl[(o * (n_items + 1) + j) * D + lane] = cur;
    double acc0 = active ? s[(o * n_items + j) * D + lane] : 0.0, acc1 = 0.0;
    int c = 0;
    for (; c + 1 < D; c += 2) {
      acc0 = fma(Ps[lane][c], __shfl_sync(0xffffffffu, cur, c), acc0);
      acc1 = fma(Ps[lane][c + 1], __shfl_sync(0xffffffffu, cur, c + 1), acc1);
    }
    if (c < D) acc0 = fma(Ps[lane][c], __shfl_sync(0xffffffffu, cur, c), acc0);
    cur = active ? acc0 + acc1 : 0.0;
  }
  if (out_excl != nullptr && active && g == n_groups - 1) out_excl[(o * (n_items + 1) + n_items) * D + lane] = cur;
  if (fold != nullptr && active) fold[q * D + lane] = cur;
}

// --- host side ---------------------------------------------------------------------------------

inline carry_matrix to_carry(const matrix& m, int D) {
  carry_matrix c{};
  for (int i = 0; i < D * D; ++i) c.p[i] = m[static_cast<std::size_t>(i)];
  return c;
}

inline int device_sm_count() {
  int dev = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms > 0 ? sms : 1;
}

/// Runs the recurrence of `Policy` (state dimension D <= 32, one-step transition matrix A for a zero
/// input, row-major) over x [nb, N] (C-contiguous) into y [nb, N]. zi: initial states, row b at
/// zi + b * zi_ld (nullptr: zero); zf: final states, row b at zf + b * zf_ld (nullptr: not wanted).
/// Asynchronous on `stream`; temporaries come from the pool.
template <class Policy>
void run_recurrence(const typename Policy::params& prm, int D, const matrix& A, const input_t<Policy>* x,
                    typename Policy::value_type* y, std::int64_t nb, std::int64_t N, const double* zi,
                    std::int64_t zi_ld, typename Policy::value_type* zf, std::int64_t zf_ld, cudaStream_t stream) {
  if (nb <= 0 || N <= 0) return;
  using T = typename Policy::value_type;
  constexpr int per_block = 32 * chunk_warps<T>;
  const chunk_plan plan = plan_chunks(A, D, nb, N, static_cast<std::int64_t>(device_sm_count()) * 1024);
  const std::int64_t C = plan.C, L = plan.L;
  auto blocks_for = [](std::int64_t items, int per) { return static_cast<unsigned>((items + per - 1) / per); };
  const std::int64_t items = nb * C;
  if (C == 1) {
    chunk_kernel<Policy, true><<<blocks_for(items, per_block), per_block, 0, stream>>>(
        prm, x, y, nb, N, L, C, D, zi, zi_ld, nullptr, zf, zf_ld);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  const std::int64_t n_items = C - 1;  // full chunks whose final state is carried
  device_buffer<double> states(static_cast<std::size_t>(nb * n_items * D), stream);
  device_buffer<double> init(static_cast<std::size_t>(nb * C * D), stream);
  chunk_kernel<Policy, false><<<blocks_for(items, per_block), per_block, 0, stream>>>(
      prm, x, nullptr, nb, N, L, C, D, nullptr, 0, states.data(), nullptr, 0);
  CUSCI_CHECK_LAUNCH();
  const matrix& PL = plan.PL;
  constexpr int warps_per_block = 4;
  if (n_items <= 64) {
    carry_kernel<<<blocks_for(nb, warps_per_block), 32 * warps_per_block, 0, stream>>>(
        to_carry(PL, D), D, nb, n_items, n_items, 1, states.data(), zi, zi_ld, init.data(), nullptr);
    CUSCI_CHECK_LAUNCH();
  } else {
    const std::int64_t G = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(n_items))));
    const std::int64_t ng = (n_items + G - 1) / G;
    device_buffer<double> fold(static_cast<std::size_t>(nb * ng * D), stream);
    device_buffer<double> ginit(static_cast<std::size_t>(nb * (ng + 1) * D), stream);
    const carry_matrix cPL = to_carry(PL, D);
    carry_kernel<<<blocks_for(nb * ng, warps_per_block), 32 * warps_per_block, 0, stream>>>(
        cPL, D, nb, n_items, G, ng, states.data(), nullptr, 0, nullptr, fold.data());
    CUSCI_CHECK_LAUNCH();
    carry_kernel<<<blocks_for(nb, warps_per_block), 32 * warps_per_block, 0, stream>>>(
        to_carry(mat_pow(PL, G, D), D), D, nb, ng, ng, 1, fold.data(), zi, zi_ld, ginit.data(), nullptr);
    CUSCI_CHECK_LAUNCH();
    carry_kernel<<<blocks_for(nb * ng, warps_per_block), 32 * warps_per_block, 0, stream>>>(
        cPL, D, nb, n_items, G, ng, states.data(), ginit.data(), (ng + 1) * D, init.data(), nullptr);
    CUSCI_CHECK_LAUNCH();
  }
  chunk_kernel<Policy, true><<<blocks_for(items, per_block), per_block, 0, stream>>>(
      prm, x, y, nb, N, L, C, D, init.data(), C * D, nullptr, zf, zf_ld);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail

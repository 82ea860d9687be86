// The state-space simulation engine behind lsim / dlsim (see lti_sim.hpp): x[k+1] = A x[k] + B u[k],
// y[k] = C x[k] + D u[k], over [nb, N, m] inputs, chunked along time with the filtering family's plan
// (recurrence_plan.hpp) and carry (recurrence.cuh's carry_kernel).
//
// Two chunk passes:
//  - SISO without a state trajectory: the filtering engine's own run_recurrence with ss_siso_policy
//    (one input sample in, one output out per step: exactly its scalar interface, with its coalesced
//    shared-memory tiles);
//  - everything else (m inputs, p outputs, the trajectory): ss_chunk_kernel below, one thread per chunk
//    reading its chunk's [len, m] slab of u and writing [len, p] / [len, n] slabs (rows of the state
//    space of one sample are contiguous, so a thread's accesses are sequential in memory).
// Both keep the state in registers, padded to NS in {4, 8, 16, 32}; padded entries are never updated,
// so they stay exactly zero even when the real ones overflow. States beyond 32 run one thread per signal
// with the state in global scratch (ss_sequential_kernel).
//
// The lookahead input B1 (x[k+1] += B1 u[k+1], lsim's first-order hold) is folded away exactly:
// with z[k] = x[k] - B1 u[k],
//   z[k+1] = A z[k] + (B + A B1) u[k],  y[k] = C z[k] + (D + C B1) u[k],  x[k] = z[k] + B1 u[k],
//   z[0] = x0 - B1 u[0],
// so the engine simulates z and adds B1 u[k] to each stored state.
//
// Operation order per step is SciPy dlsim's: dot(C, x) and dot(D, u) summed separately then added, and
// likewise dot(A, x) + dot(B, u).

#include <algorithm>
#include <limits>
#include <string>

#include "cusci/stream.hpp"
#include "filtering/filter_common.hpp"
#include "filtering/recurrence.cuh"
#include "lti_sim/lti_sim.hpp"

namespace cusci::signal::detail {
namespace {

// --- SISO policy for the filtering engine's run_recurrence --------------------------------------------

template <int NS>
struct ss_siso_policy {
  using value_type = double;
  using compute_type = double;
  struct params {
    double A[NS * NS];  // row-major, padded with zeros
    double B[NS];
    double C[NS];
    double D;
    int n;
  };
  double z[NS];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < NS; ++i) z[i] = 0.0;
  }
  __device__ __forceinline__ void load(const double* s, int D) {
#pragma unroll
    for (int i = 0; i < NS; ++i)
      if (i < D) z[i] = s[i];
  }
  __device__ __forceinline__ void store(double* s, int D) const {
#pragma unroll
    for (int i = 0; i < NS; ++i)
      if (i < D) s[i] = z[i];
  }
  __device__ __forceinline__ void store_out(double* s, int D) const { store(s, D); }
  __device__ __forceinline__ double step(double u, const params& p) {
    double cz = 0.0;
#pragma unroll
    for (int i = 0; i < NS; ++i) cz += p.C[i] * z[i];
    const double y = cz + p.D * u;
    double zn[NS];
#pragma unroll
    for (int i = 0; i < NS; ++i) {
      zn[i] = 0.0;
      if (i < p.n) {
        double acc = 0.0;
#pragma unroll
        for (int j = 0; j < NS; ++j) acc += p.A[i * NS + j] * z[j];
        zn[i] = acc + p.B[i] * u;
      }
    }
#pragma unroll
    for (int i = 0; i < NS; ++i) z[i] = zn[i];
    return y;
  }
};

// --- general (MIMO / trajectory) chunk pass -----------------------------------------------------------

// Device-side matrices of the general kernels, packed into one float64 buffer (offsets in doubles):
// Bt [m, NS] (B transposed, padded), C [p, NS], D [p, m], F [m, NS] (B1 transposed; absent when !has_f).
template <int NS>
struct ss_gen_params {
  double A[NS * NS];
  const double* Bt;
  const double* C;
  const double* D;
  const double* F;
  int n, m, p;
};

template <int NS, bool Final>
__global__ __launch_bounds__(128) void ss_chunk_kernel(const __grid_constant__ ss_gen_params<NS> prm,
                                                       const double* __restrict__ u, double* __restrict__ y,
                                                       double* __restrict__ xs, std::int64_t nb, std::int64_t N,
                                                       std::int64_t L, std::int64_t Cn,
                                                       const double* __restrict__ init, std::int64_t init_bstride,
                                                       double* __restrict__ states) {
  const std::int64_t item = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (item >= nb * Cn) return;
  const std::int64_t b = item / Cn, c = item - b * Cn;
  if (!Final && c == Cn - 1) return;  // the last chunk's zero-state result is never needed
  const std::int64_t s0 = c * L, len = min(L, N - s0);
  const int n = prm.n, m = prm.m, p = prm.p;
  double z[NS];
#pragma unroll
  for (int i = 0; i < NS; ++i) z[i] = 0.0;
  if (Final && init != nullptr) {
    const double* ip = init + b * init_bstride + c * n;
#pragma unroll
    for (int i = 0; i < NS; ++i)
      if (i < n) z[i] = ip[i];
  }
  const double* uk = u + (b * N + s0) * m;
  double* yk = Final ? y + (b * N + s0) * p : nullptr;
  double* xk = (Final && xs != nullptr) ? xs + (b * N + s0) * n : nullptr;
  for (std::int64_t k = 0; k < len; ++k, uk += m) {
    if (Final) {
      for (int r = 0; r < p; ++r) {
        const double* cr = prm.C + r * NS;
        double cz = 0.0;
#pragma unroll
        for (int i = 0; i < NS; ++i) cz += cr[i] * z[i];
        const double* dr = prm.D + r * m;
        double du = 0.0;
        for (int i = 0; i < m; ++i) du += dr[i] * uk[i];
        yk[r] = cz + du;
      }
      yk += p;
      if (xk != nullptr) {
        if (prm.F != nullptr) {
          double fu[NS];
#pragma unroll
          for (int s = 0; s < NS; ++s) fu[s] = 0.0;
          for (int i = 0; i < m; ++i) {
            const double ui = uk[i];
            const double* fi = prm.F + i * NS;
#pragma unroll
            for (int s = 0; s < NS; ++s) fu[s] += fi[s] * ui;
          }
#pragma unroll
          for (int s = 0; s < NS; ++s)
            if (s < n) xk[s] = z[s] + fu[s];
        } else {
#pragma unroll
          for (int s = 0; s < NS; ++s)
            if (s < n) xk[s] = z[s];
        }
        xk += n;
      }
    }
    double zn[NS];  // first dot(B, u), then dot(A, z) + dot(B, u) (two arrays of NS: no spills at 32)
#pragma unroll
    for (int s = 0; s < NS; ++s) zn[s] = 0.0;
    for (int i = 0; i < m; ++i) {
      const double ui = uk[i];
      const double* bi = prm.Bt + i * NS;
#pragma unroll
      for (int s = 0; s < NS; ++s)
        if (s < n) zn[s] += bi[s] * ui;
    }
#pragma unroll
    for (int s = 0; s < NS; ++s) {
      if (s < n) {
        double acc = 0.0;
#pragma unroll
        for (int j = 0; j < NS; ++j) acc += prm.A[s * NS + j] * z[j];
        zn[s] = acc + zn[s];
      }
    }
#pragma unroll
    for (int s = 0; s < NS; ++s) z[s] = zn[s];
  }
  if (!Final) {
    double* sp = states + (b * (Cn - 1) + c) * n;
#pragma unroll
    for (int s = 0; s < NS; ++s)
      if (s < n) sp[s] = z[s];
  }
}

// States beyond the register path: one thread per signal, SciPy's loop literally, unpadded matrices
// (A [n, n], Bt [m, n], C [p, n], D [p, m], F [m, n] or null) and the state in scratch [nb, 2n].
__global__ void ss_sequential_kernel(const double* __restrict__ A, const double* __restrict__ Bt,
                                     const double* __restrict__ C, const double* __restrict__ D,
                                     const double* __restrict__ F, int n, int m, int p,
                                     const double* __restrict__ u, double* __restrict__ y, double* __restrict__ xs,
                                     std::int64_t nb, std::int64_t N, const double* __restrict__ init,
                                     std::int64_t init_bstride, double* __restrict__ scratch) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  double* z = scratch + b * 2 * n;
  double* zn = z + n;
  for (int s = 0; s < n; ++s) z[s] = init != nullptr ? init[b * init_bstride + s] : 0.0;
  for (std::int64_t k = 0; k < N; ++k) {
    const double* uk = u + (b * N + k) * m;
    for (int r = 0; r < p; ++r) {
      double cz = 0.0, du = 0.0;
      for (int s = 0; s < n; ++s) cz += C[r * n + s] * z[s];
      for (int i = 0; i < m; ++i) du += D[r * m + i] * uk[i];
      y[(b * N + k) * p + r] = cz + du;
    }
    if (xs != nullptr)
      for (int s = 0; s < n; ++s) {
        double fu = 0.0;
        if (F != nullptr)
          for (int i = 0; i < m; ++i) fu += F[i * n + s] * uk[i];
        xs[(b * N + k) * n + s] = z[s] + fu;
      }
    for (int s = 0; s < n; ++s) {
      double acc = 0.0, bu = 0.0;
      for (int j = 0; j < n; ++j) acc += A[s * n + j] * z[j];
      for (int i = 0; i < m; ++i) bu += Bt[i * n + s] * uk[i];
      zn[s] = acc + bu;
    }
    for (int s = 0; s < n; ++s) z[s] = zn[s];
  }
}

// z0[b] = x0[b] - B1 u[b, 0] (x0 rows x0_ld apart; x0 null: zero). One thread per (b, s).
__global__ void fold_x0_kernel(const double* __restrict__ x0, std::int64_t x0_ld, const double* __restrict__ B1,
                               const double* __restrict__ u, std::int64_t nb, std::int64_t N, int n, int m,
                               double* __restrict__ z0) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= nb * n) return;
  const std::int64_t b = t / n;
  const int s = static_cast<int>(t - b * n);
  double bu = 0.0;
  for (int i = 0; i < m; ++i) bu += B1[s * m + i] * u[b * N * m + i];
  z0[t] = (x0 != nullptr ? x0[b * x0_ld + s] : 0.0) - bu;
}

// Many systems of the same sizes, one thread per system over its whole signal (SciPy's loop), for many
// short simulations where per-system plans and launches would cost more than the work. System b's
// matrices are packed at mats + b * per, padded to NS: A [NS, NS], Bt [m, NS], C [p, NS], D [p, m] and,
// when has_f, F [m, NS] (the lookahead B1 transposed; the system is already folded, z0 = x0 - B1 u[0]).
template <int NS>
__global__ __launch_bounds__(128) void ss_many_kernel(const double* __restrict__ mats, std::int64_t per, int n, int m,
                                                      int p, bool has_f, const double* __restrict__ u,
                                                      double* __restrict__ y, double* __restrict__ xs, std::int64_t S,
                                                      std::int64_t N, const double* __restrict__ x0,
                                                      std::int64_t x0_ld) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= S) return;
  const double* A = mats + b * per;
  const double* Bt = A + NS * NS;
  const double* C = Bt + m * NS;
  const double* D = C + p * NS;
  const double* F = has_f ? D + p * m : nullptr;
  const double* uk = u + b * N * m;
  double z[NS];
#pragma unroll
  for (int s = 0; s < NS; ++s) z[s] = (s < n && x0 != nullptr) ? x0[b * x0_ld + s] : 0.0;
  if (F != nullptr) {
    double fu[NS];
#pragma unroll
    for (int s = 0; s < NS; ++s) fu[s] = 0.0;
    for (int i = 0; i < m; ++i)
#pragma unroll
      for (int s = 0; s < NS; ++s)
        if (s < n) fu[s] += F[i * NS + s] * uk[i];
#pragma unroll
    for (int s = 0; s < NS; ++s)
      if (s < n) z[s] = z[s] - fu[s];
  }
  double* yk = y + b * N * p;
  double* xk = xs != nullptr ? xs + b * N * n : nullptr;
  for (std::int64_t k = 0; k < N; ++k, uk += m) {
    for (int r = 0; r < p; ++r) {
      double cz = 0.0, du = 0.0;
#pragma unroll
      for (int i = 0; i < NS; ++i) cz += C[r * NS + i] * z[i];
      for (int i = 0; i < m; ++i) du += D[r * m + i] * uk[i];
      yk[r] = cz + du;
    }
    yk += p;
    if (xk != nullptr) {
      double fu[NS];
#pragma unroll
      for (int s = 0; s < NS; ++s) fu[s] = 0.0;
      if (F != nullptr)
        for (int i = 0; i < m; ++i)
#pragma unroll
          for (int s = 0; s < NS; ++s)
            if (s < n) fu[s] += F[i * NS + s] * uk[i];
#pragma unroll
      for (int s = 0; s < NS; ++s)
        if (s < n) xk[s] = F != nullptr ? z[s] + fu[s] : z[s];
      xk += n;
    }
    double zn[NS];
#pragma unroll
    for (int s = 0; s < NS; ++s) zn[s] = 0.0;
    for (int i = 0; i < m; ++i) {
      const double ui = uk[i];
#pragma unroll
      for (int s = 0; s < NS; ++s)
        if (s < n) zn[s] += Bt[i * NS + s] * ui;
    }
#pragma unroll
    for (int s = 0; s < NS; ++s) {
      if (s < n) {
        double acc = 0.0;
#pragma unroll
        for (int j = 0; j < NS; ++j) acc += A[s * NS + j] * z[j];
        zn[s] = acc + zn[s];
      }
    }
#pragma unroll
    for (int s = 0; s < NS; ++s) z[s] = zn[s];
  }
}

unsigned blocks_for(std::int64_t items, int per) { return static_cast<unsigned>((items + per - 1) / per); }

/// The packed device matrices of the general kernels, padded to NS columns (NS = n: unpadded).
std::vector<double> pack_general(const ss_system& s, int NS, std::int64_t& off_C, std::int64_t& off_D,
                                 std::int64_t& off_F) {
  const int n = s.n, m = s.m, p = s.p;
  std::vector<double> h(static_cast<std::size_t>(m) * NS + static_cast<std::size_t>(p) * NS +
                            static_cast<std::size_t>(p) * m + (s.B1.empty() ? 0 : static_cast<std::size_t>(m) * NS),
                        0.0);
  for (int i = 0; i < m; ++i)
    for (int r = 0; r < n; ++r) h[static_cast<std::size_t>(i) * NS + r] = s.B[static_cast<std::size_t>(r) * m + i];
  off_C = static_cast<std::int64_t>(m) * NS;
  for (int r = 0; r < p; ++r)
    for (int j = 0; j < n; ++j)
      h[off_C + static_cast<std::size_t>(r) * NS + j] = s.C[static_cast<std::size_t>(r) * n + j];
  off_D = off_C + static_cast<std::int64_t>(p) * NS;
  std::copy(s.D.begin(), s.D.end(), h.begin() + off_D);
  off_F = -1;
  if (!s.B1.empty()) {
    off_F = off_D + static_cast<std::int64_t>(p) * m;
    for (int i = 0; i < m; ++i)
      for (int r = 0; r < n; ++r)
        h[off_F + static_cast<std::size_t>(i) * NS + r] = s.B1[static_cast<std::size_t>(r) * m + i];
  }
  return h;
}

/// Chunk states' carry, as run_recurrence does it: pass A's `states` [nb, C-1, n] -> each chunk's
/// initial state `init` [nb, C, n], from the signals' initial states zi (rows zi_ld apart; null: zero).
void carry_states(const chunk_plan& plan, int n, std::int64_t nb, const double* states, const double* zi,
                  std::int64_t zi_ld, double* init, cudaStream_t stream) {
  const std::int64_t n_items = plan.C - 1;
  constexpr int wpb = 4;
  if (n_items <= 64) {
    carry_kernel<<<blocks_for(nb, wpb), 32 * wpb, 0, stream>>>(to_carry(plan.PL, n), n, nb, n_items, n_items, 1,
                                                               states, zi, zi_ld, init, nullptr);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  const std::int64_t G = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(n_items))));
  const std::int64_t ng = (n_items + G - 1) / G;
  device_buffer<double> fold(static_cast<std::size_t>(nb * ng * n), stream);
  device_buffer<double> ginit(static_cast<std::size_t>(nb * (ng + 1) * n), stream);
  const carry_matrix cPL = to_carry(plan.PL, n);
  carry_kernel<<<blocks_for(nb * ng, wpb), 32 * wpb, 0, stream>>>(cPL, n, nb, n_items, G, ng, states, nullptr, 0,
                                                                  nullptr, fold.data());
  CUSCI_CHECK_LAUNCH();
  carry_kernel<<<blocks_for(nb, wpb), 32 * wpb, 0, stream>>>(to_carry(mat_pow(plan.PL, G, n), n), n, nb, ng, ng, 1,
                                                             fold.data(), zi, zi_ld, ginit.data(), nullptr);
  CUSCI_CHECK_LAUNCH();
  carry_kernel<<<blocks_for(nb * ng, wpb), 32 * wpb, 0, stream>>>(cPL, n, nb, n_items, G, ng, states, ginit.data(),
                                                                  (ng + 1) * n, init, nullptr);
  CUSCI_CHECK_LAUNCH();
}

/// A system with the lookahead folded in: A, B + A B1, C, D + C B1 (B1 kept as F).
ss_system folded(const ss_system& s) {
  if (s.B1.empty()) return s;
  ss_system t = s;
  const int n = s.n, m = s.m, p = s.p;
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < m; ++i) {
      double acc = 0.0;
      for (int j = 0; j < n; ++j)
        acc += s.A[static_cast<std::size_t>(r) * n + j] * s.B1[static_cast<std::size_t>(j) * m + i];
      t.B[static_cast<std::size_t>(r) * m + i] += acc;
    }
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < m; ++i) {
      double acc = 0.0;
      for (int j = 0; j < n; ++j)
        acc += s.C[static_cast<std::size_t>(r) * n + j] * s.B1[static_cast<std::size_t>(j) * m + i];
      t.D[static_cast<std::size_t>(r) * m + i] += acc;
    }
  return t;
}

template <int NS>
void run_siso(const ss_system& s, const double* u, double* y, std::int64_t nb, std::int64_t N, const double* zi,
              std::int64_t zi_ld, cudaStream_t stream) {
  typename ss_siso_policy<NS>::params prm{};
  for (int i = 0; i < s.n; ++i) {
    for (int j = 0; j < s.n; ++j) prm.A[i * NS + j] = s.A[static_cast<std::size_t>(i) * s.n + j];
    prm.B[i] = s.B[static_cast<std::size_t>(i)];
    prm.C[i] = s.C[static_cast<std::size_t>(i)];
  }
  prm.D = s.D[0];
  prm.n = s.n;
  run_recurrence<ss_siso_policy<NS>>(prm, s.n, s.A, u, y, nb, N, zi, zi_ld, nullptr, 0, stream);
}

template <int NS>
void run_general(const ss_system& s, const double* dmat, std::int64_t off_C, std::int64_t off_D, std::int64_t off_F,
                 const double* u, double* y, double* xs, std::int64_t nb, std::int64_t N, const double* zi,
                 std::int64_t zi_ld, cudaStream_t stream) {
  ss_gen_params<NS> prm{};
  for (int i = 0; i < s.n; ++i)
    for (int j = 0; j < s.n; ++j) prm.A[i * NS + j] = s.A[static_cast<std::size_t>(i) * s.n + j];
  prm.Bt = dmat;
  prm.C = dmat + off_C;
  prm.D = dmat + off_D;
  prm.F = off_F >= 0 ? dmat + off_F : nullptr;
  prm.n = s.n;
  prm.m = s.m;
  prm.p = s.p;
  const chunk_plan plan = plan_chunks(s.A, s.n, nb, N, static_cast<std::int64_t>(device_sm_count()) * 1024);
  constexpr int per = 128;
  if (plan.C == 1) {
    ss_chunk_kernel<NS, true><<<blocks_for(nb, per), per, 0, stream>>>(prm, u, y, xs, nb, N, N, 1, zi, zi_ld,
                                                                      nullptr);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  const std::int64_t items = nb * plan.C;
  device_buffer<double> states(static_cast<std::size_t>(nb * (plan.C - 1) * s.n), stream);
  device_buffer<double> init(static_cast<std::size_t>(items * s.n), stream);
  ss_chunk_kernel<NS, false><<<blocks_for(items, per), per, 0, stream>>>(prm, u, nullptr, nullptr, nb, N, plan.L,
                                                                        plan.C, nullptr, 0, states.data());
  CUSCI_CHECK_LAUNCH();
  carry_states(plan, s.n, nb, states.data(), zi, zi_ld, init.data(), stream);
  ss_chunk_kernel<NS, true><<<blocks_for(items, per), per, 0, stream>>>(prm, u, y, xs, nb, N, plan.L, plan.C,
                                                                       init.data(), plan.C * s.n, nullptr);
  CUSCI_CHECK_LAUNCH();
}

/// A system without states (n == 0): y = D u, every sample independent, so the samples are cut into
/// chunks freely and ss_chunk_kernel's final pass runs from the (empty) zero state.
void run_static(const ss_system& s, const double* u, double* y, std::int64_t nb, std::int64_t N,
                cudaStream_t stream) {
  std::int64_t off_C = 0, off_D = 0, off_F = -1;
  const std::vector<double> h = pack_general(s, 4, off_C, off_D, off_F);
  const ndarray dmat = cusci::asarray(h, {static_cast<std::int64_t>(h.size())});
  ss_gen_params<4> prm{};
  prm.Bt = dmat.data_as<double>();
  prm.C = prm.Bt + off_C;
  prm.D = prm.Bt + off_D;
  prm.F = nullptr;
  prm.n = 0;
  prm.m = s.m;
  prm.p = s.p;
  const std::int64_t target = static_cast<std::int64_t>(device_sm_count()) * 1024;
  const std::int64_t want = std::max<std::int64_t>(1, target / nb);
  const std::int64_t L = std::max<std::int64_t>(256, (N + want - 1) / want);
  const std::int64_t Cn = (N + L - 1) / L;
  ss_chunk_kernel<4, true><<<blocks_for(nb * Cn, 128), 128, 0, stream>>>(prm, u, y, nullptr, nb, N, L, Cn, nullptr,
                                                                        0, nullptr);
  CUSCI_CHECK_LAUNCH();
}

/// One system over nb signals u [nb, N, m] (C-contiguous float64, N >= 1, nb >= 1) into y [nb, N, p]
/// and xs [nb, N, n] (null: not wanted). x0: rows x0_ld apart (0: shared), null: zero.
void run_system(const ss_system& s0, const double* u, double* y, double* xs, std::int64_t nb, std::int64_t N,
                const double* x0, std::int64_t x0_ld, cudaStream_t stream) {
  if (s0.n == 0) {
    run_static(s0, u, y, nb, N, stream);
    return;
  }
  const ss_system s = folded(s0);
  const int n = s.n;
  const double* zi = x0;
  std::int64_t zi_ld = x0_ld;
  ndarray z0;
  ndarray b1d;
  if (!s.B1.empty()) {
    b1d = cusci::asarray(s.B1, {static_cast<std::int64_t>(s.B1.size())});
    z0 = cusci::empty({nb, n}, dtype::float64);
    fold_x0_kernel<<<blocks_for(nb * n, 128), 128, 0, stream>>>(x0, x0_ld, b1d.data_as<double>(), u, nb, N, n, s.m,
                                                                z0.data_as<double>());
    CUSCI_CHECK_LAUNCH();
    zi = z0.data_as<double>();
    zi_ld = n;
  }
  const int NS = n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : n <= max_state ? 32 : 0;
  if (s.m == 1 && s.p == 1 && xs == nullptr && NS > 0) {
    switch (NS) {
      case 4: run_siso<4>(s, u, y, nb, N, zi, zi_ld, stream); break;
      case 8: run_siso<8>(s, u, y, nb, N, zi, zi_ld, stream); break;
      case 16: run_siso<16>(s, u, y, nb, N, zi, zi_ld, stream); break;
      default: run_siso<32>(s, u, y, nb, N, zi, zi_ld, stream); break;
    }
    return;
  }
  std::int64_t off_C = 0, off_D = 0, off_F = -1;
  const std::vector<double> h = pack_general(s, NS > 0 ? NS : n, off_C, off_D, off_F);
  const ndarray dmat = cusci::asarray(h, {static_cast<std::int64_t>(h.size())});
  const double* dm = dmat.data_as<double>();
  switch (NS) {
    case 4: run_general<4>(s, dm, off_C, off_D, off_F, u, y, xs, nb, N, zi, zi_ld, stream); break;
    case 8: run_general<8>(s, dm, off_C, off_D, off_F, u, y, xs, nb, N, zi, zi_ld, stream); break;
    case 16: run_general<16>(s, dm, off_C, off_D, off_F, u, y, xs, nb, N, zi, zi_ld, stream); break;
    case 32: run_general<32>(s, dm, off_C, off_D, off_F, u, y, xs, nb, N, zi, zi_ld, stream); break;
    default: {
      const ndarray ad = cusci::asarray(s.A, {static_cast<std::int64_t>(s.A.size())});
      device_buffer<double> scratch(static_cast<std::size_t>(nb * 2 * n), stream);
      ss_sequential_kernel<<<blocks_for(nb, 128), 128, 0, stream>>>(
          ad.data_as<double>(), dm, dm + off_C, dm + off_D, off_F >= 0 ? dm + off_F : nullptr, n, s.m, s.p, u, y, xs,
          nb, N, zi, zi_ld, scratch.data());
      CUSCI_CHECK_LAUNCH();
    }
  }
}

/// All systems (same n in 1..32, m, p) in one ss_many_kernel launch.
void run_many_sequential(const std::vector<ss_system>& systems, const double* u, double* y, double* xs,
                         std::int64_t S, std::int64_t N, const double* x0, std::int64_t x0_ld, cudaStream_t stream) {
  const int n = systems.front().n, m = systems.front().m, p = systems.front().p;
  const int NS = n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : 32;
  bool has_f = false;
  for (const ss_system& s : systems) has_f = has_f || !s.B1.empty();
  const std::int64_t per = static_cast<std::int64_t>(NS) * NS + static_cast<std::int64_t>(m) * NS +
                           static_cast<std::int64_t>(p) * NS + static_cast<std::int64_t>(p) * m +
                           (has_f ? static_cast<std::int64_t>(m) * NS : 0);
  std::vector<double> h(static_cast<std::size_t>(per * S), 0.0);
  for (std::int64_t b = 0; b < S; ++b) {
    const ss_system t = folded(systems[static_cast<std::size_t>(b)]);
    double* A = h.data() + b * per;
    double* Bt = A + NS * NS;
    double* C = Bt + m * NS;
    double* D = C + p * NS;
    double* F = D + p * m;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A[i * NS + j] = t.A[static_cast<std::size_t>(i) * n + j];
    for (int i = 0; i < m; ++i)
      for (int r = 0; r < n; ++r) Bt[i * NS + r] = t.B[static_cast<std::size_t>(r) * m + i];
    for (int r = 0; r < p; ++r)
      for (int j = 0; j < n; ++j) C[r * NS + j] = t.C[static_cast<std::size_t>(r) * n + j];
    std::copy(t.D.begin(), t.D.end(), D);
    if (has_f && !t.B1.empty())
      for (int i = 0; i < m; ++i)
        for (int r = 0; r < n; ++r) F[i * NS + r] = t.B1[static_cast<std::size_t>(r) * m + i];
  }
  const ndarray mats = cusci::asarray(h, {static_cast<std::int64_t>(h.size())});
  const double* mp = mats.data_as<double>();
  const unsigned grid = blocks_for(S, 128);
  switch (NS) {
    case 4: ss_many_kernel<4><<<grid, 128, 0, stream>>>(mp, per, n, m, p, has_f, u, y, xs, S, N, x0, x0_ld); break;
    case 8: ss_many_kernel<8><<<grid, 128, 0, stream>>>(mp, per, n, m, p, has_f, u, y, xs, S, N, x0, x0_ld); break;
    case 16: ss_many_kernel<16><<<grid, 128, 0, stream>>>(mp, per, n, m, p, has_f, u, y, xs, S, N, x0, x0_ld); break;
    default: ss_many_kernel<32><<<grid, 128, 0, stream>>>(mp, per, n, m, p, has_f, u, y, xs, S, N, x0, x0_ld); break;
  }
  CUSCI_CHECK_LAUNCH();
}

// --- argument handling ------------------------------------------------------------------------------

std::string dims(const ss_system& s) {
  return "n=" + std::to_string(s.n) + ", m=" + std::to_string(s.m) + ", p=" + std::to_string(s.p);
}

void check_system(const ss_system& s, const std::string& F) {
  CUSCI_EXPECTS(s.n >= 0 && s.m >= 0 && s.p >= 0, value_error,
                F + ": the state-space system must have n, m, p >= 0, got " + dims(s));
  const auto sz = [](int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); };
  CUSCI_EXPECTS(s.A.size() == sz(s.n, s.n), value_error,
                F + ": A must have n*n entries (" + dims(s) + "), got " + std::to_string(s.A.size()));
  CUSCI_EXPECTS(s.B.size() == sz(s.n, s.m), value_error,
                F + ": B must have n*m entries (" + dims(s) + "), got " + std::to_string(s.B.size()));
  CUSCI_EXPECTS(s.C.size() == sz(s.p, s.n), value_error,
                F + ": C must have p*n entries (" + dims(s) + "), got " + std::to_string(s.C.size()));
  CUSCI_EXPECTS(s.D.size() == sz(s.p, s.m), value_error,
                F + ": D must have p*m entries (" + dims(s) + "), got " + std::to_string(s.D.size()));
  CUSCI_EXPECTS(s.B1.empty() || s.B1.size() == sz(s.n, s.m), value_error,
                F + ": B1 must be empty or have n*m entries (" + dims(s) + "), got " + std::to_string(s.B1.size()));
}

/// nb * N * k as int64, or value_error when it overflows.
std::int64_t checked_elems(std::int64_t nb, std::int64_t N, std::int64_t k, const std::string& F) {
  const std::int64_t lim = std::numeric_limits<std::int64_t>::max() / 8;  // bytes must fit in int64 too
  CUSCI_EXPECTS(N == 0 || nb <= lim / N, value_error, F + ": the input is too long to simulate");
  const std::int64_t t = nb * N;
  CUSCI_EXPECTS(k == 0 || t <= lim / k, value_error,
                F + ": the result of " + std::to_string(t) + " samples x " + std::to_string(k) +
                    " values is too large to allocate");
  return t * k;
}

/// u checked and viewed as [nb, N, m] (u given [N] when m == 1, [N, m] or [nb, N, m]; with
/// `batched`, [nb, N] when m == 1 or [nb, N, m]).
ndarray canonical_u(const ndarray& u, int m, bool batched, const std::string& F, bool& was3d) {
  CUSCI_EXPECTS(!is_complex(u.dtype()), type_error,
                F + ": u must be real (the state-space simulation runs in float64), got " +
                    std::string(dtype_name(u.dtype())));
  ndarray v = u;
  const int base = batched ? 1 : 0;
  was3d = false;
  if (v.ndim() == base + 1 && m == 1) {
    v = v.expand_dims(v.ndim());
  }
  CUSCI_EXPECTS(v.ndim() == base + 2 || (!batched && v.ndim() == 3), value_error,
                F + ": u must be " +
                    (batched ? "[S, N, m] (or [S, N] for one input)" : "[N, m] or [nb, N, m] ([N] for one input)") +
                    ", got shape " + shape_str(u.shape()));
  CUSCI_EXPECTS(v.shape().back() == m, value_error,
                F + ": u must have m=" + std::to_string(m) + " columns (one per system input), got shape " +
                    shape_str(u.shape()));
  if (v.ndim() == 2) v = v.expand_dims(0);
  else was3d = true;
  return v;  // a view; converted once every argument is checked
}

/// x0 checked and viewed (the caller converts it) with its row stride: [n] (size 1 broadcast to n) -> ld 0;
/// [nb, n] -> ld n.
ndarray canonical_x0(const ndarray& x0, int n, std::int64_t nb, bool allow_rows, const std::string& F,
                     std::int64_t& ld) {
  CUSCI_EXPECTS(!is_complex(x0.dtype()), type_error,
                F + ": x0 must be real, got " + std::string(dtype_name(x0.dtype())));
  ld = 0;
  // One state vector for every signal: [n], or any shape of n entries with unit leading axes, or a single
  // value broadcast to n entries (NumPy's assignment xout[0, :] = x0 allows all of these).
  bool unit_lead = true;
  for (int d = 0; d + 1 < x0.ndim(); ++d) unit_lead = unit_lead && x0.shape()[static_cast<std::size_t>(d)] == 1;
  if ((unit_lead && x0.size() == n) || x0.size() == 1) {
    ndarray v = x0.reshape({x0.size()});
    if (x0.size() != n) v = v.broadcast_to({static_cast<std::int64_t>(n)});
    return v;
  }
  CUSCI_EXPECTS(allow_rows && x0.ndim() == 2 && x0.shape()[0] == nb && x0.shape()[1] == n, value_error,
                F + ": x0 must have shape [" + std::to_string(n) + "]" +
                    (allow_rows ? " or [" + std::to_string(nb) + ", " + std::to_string(n) + "]" : std::string()) +
                    ", got " + shape_str(x0.shape()));
  ld = n;
  return x0;
}

struct sim_io {
  ndarray uc, x0c;  // u [nb, N, m] and x0 as contiguous float64
  std::int64_t x0_ld = 0;
  ss_sim_result r;  // y [nb, N, p] and (want_x) x [nb, N, n], float64
};

/// What both simulate_ss forms do before running: x0 checked against the batch, the result sizes
/// checked, u and x0 made contiguous float64, the results allocated.
sim_io prepare_io(const ndarray& uv, const std::optional<ndarray>& x0, std::int64_t n, std::int64_t p, bool x0_rows,
                  bool want_x, const std::string& F) {
  const std::int64_t nb = uv.shape()[0], N = uv.shape()[1];
  sim_io io;
  if (x0) io.x0c = canonical_x0(*x0, n, nb, x0_rows, F, io.x0_ld);
  checked_elems(nb, N, p, F);
  if (want_x) checked_elems(nb, N, n, F);
  io.uc = contiguous_as(uv, dtype::float64);
  if (x0) io.x0c = contiguous_as(io.x0c, dtype::float64);
  io.r.y = cusci::empty({nb, N, p}, dtype::float64);
  if (want_x) io.r.x = cusci::empty({nb, N, n}, dtype::float64);
  return io;
}

}  // namespace

ss_sim_result simulate_ss(const ss_system& sys, const ndarray& u, const std::optional<ndarray>& x0, bool want_x,
                          const char* fn) {
  const std::string F = fn != nullptr ? fn : "cusci::signal::dlsim";
  check_system(sys, F);
  bool was3d = false;
  const ndarray uv = canonical_u(u, sys.m, false, F, was3d);
  const std::int64_t nb = uv.shape()[0], N = uv.shape()[1];
  sim_io io = prepare_io(uv, x0, sys.n, sys.p, was3d, want_x, F);
  ss_sim_result& r = io.r;
  if (nb > 0 && N > 0)
    run_system(sys, io.uc.data_as<double>(), r.y.data_as<double>(), want_x ? r.x.data_as<double>() : nullptr, nb, N,
               x0 ? io.x0c.data_as<double>() : nullptr, io.x0_ld, get_current_stream());
  if (!was3d) {
    r.y = r.y.reshape({N, sys.p});
    if (want_x) r.x = r.x.reshape({N, sys.n});
  }
  return r;
}

ss_sim_result simulate_ss_many(const std::vector<ss_system>& systems, const ndarray& u,
                               const std::optional<ndarray>& x0, bool want_x, const char* fn) {
  const std::string F = fn != nullptr ? fn : "cusci::signal::dlsim";
  CUSCI_EXPECTS(!systems.empty(), value_error, F + ": at least one system is needed");
  const ss_system& s0 = systems.front();
  for (const ss_system& s : systems) {
    check_system(s, F);
    CUSCI_EXPECTS(s.n == s0.n && s.m == s0.m && s.p == s0.p, value_error,
                  F + ": every system must have the same sizes, got " + dims(s0) + " and " + dims(s));
  }
  bool was3d = false;
  const ndarray uv = canonical_u(u, s0.m, true, F, was3d);
  const std::int64_t S = uv.shape()[0], N = uv.shape()[1];
  CUSCI_EXPECTS(S == static_cast<std::int64_t>(systems.size()), value_error,
                F + ": u must have one signal per system (" + std::to_string(systems.size()) + "), got shape " +
                    shape_str(u.shape()));
  sim_io io = prepare_io(uv, x0, s0.n, s0.p, true, want_x, F);
  ss_sim_result& r = io.r;
  const ndarray& uc = io.uc;
  const ndarray& x0c = io.x0c;
  const std::int64_t x0_ld = io.x0_ld;
  if (N == 0) return r;
  cudaStream_t stream = get_current_stream();
  const double* ub = uc.data_as<double>();
  double* yb = r.y.data_as<double>();
  double* xb = want_x ? r.x.data_as<double>() : nullptr;
  const double* xp = x0 ? x0c.data_as<double>() : nullptr;
  // Many short signals: one launch, one thread per system (per-system plans and launches cost ~50 us each,
  // a sequential sample ~10-20 ns).
  if (s0.n >= 1 && s0.n <= max_state && N <= S * 2048) {
    run_many_sequential(systems, ub, yb, xb, S, N, xp, x0_ld, stream);
    return r;
  }
  for (std::int64_t k = 0; k < S; ++k)
    run_system(systems[static_cast<std::size_t>(k)], ub + k * N * s0.m, yb + k * N * s0.p,
               xb != nullptr ? xb + k * N * s0.n : nullptr, 1, N, xp != nullptr ? xp + k * x0_ld : nullptr, 0,
               stream);
  return r;
}

}  // namespace cusci::signal::detail

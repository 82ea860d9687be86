#pragma once
// The rank-local vector work of the distributed Krylov solvers (krylov_kernels.cu): fused vector
// updates whose dot products and norms are summed over this rank's block in float64, the partial sums
// written to a small device area of scalars that the solver then all-reduces over the communicator
// (one all-reduce of a few values per fused pass). Host declarations only (compiles with g++).
//
// Conventions shared by every entry point:
//   - t is the vector dtype, float32 or float64; pointers are device addresses of n elements of t
//     (this rank's block; n may be 0, the sums are then 0).
//   - s is the solver's area of float64 scalars on the device (the slot layouts below). A pass reads
//     the scalars it needs (already all-reduced) at its start and writes its local sums into slots;
//     the caller all-reduces those slots before any pass reads them.
//   - The vector updates round each product and sum on its own (no fused multiply-add), as NumPy
//     computes SciPy's expressions; the sums are deterministic for a given grid (blocks' partials
//     added in a fixed order by the last block).
//   - mode: how the preconditioner is applied, 0 identity, 1 diagonal d (Jacobi, fused into the
//     passes), 2 an operator applied by the caller (z, phat, shat given).
//   - Asynchronous on st.

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cusci/dtype.hpp"
#include "cusci/memory.hpp"

namespace cusci::distributed::solver_detail {

/// The most float64 values one pass sums (the Gram-Schmidt passes: 32 coefficients and a norm).
inline constexpr int kMaxSums = 33;
/// Rows of the Krylov basis one Gram-Schmidt launch projects on (longer bases: several launches).
inline constexpr int kGsChunk = 32;

/// Device scratch of the grid-wide sums of one solve: per-block partials and the last-block counter.
struct sum_workspace {
  device_buffer<double> partials;
  device_buffer<unsigned> counter;
  unsigned grid = 1;     ///< blocks of the elementwise passes
  unsigned gs_grid = 1;  ///< blocks of the Gram-Schmidt passes (more registers a thread)
  sum_workspace() = default;
  /// For vectors of n elements; allocated from the pool on st, the counter zeroed.
  sum_workspace(std::int64_t n, cudaStream_t st);
};

// ---- slot layouts of the scalar areas -----------------------------------------------------------
/// cg: BB, RR and RHO are contiguous (one all-reduce at the start), RR and RHO too (one at the end of
/// an iteration: norm(r)^2 and, with M none or Jacobi, the next r.z).
enum cg_slot : int { CG_BB = 0, CG_RR = 1, CG_RHO = 2, CG_RHO_PREV = 3, CG_PQ = 4, CG_SLOTS = 8 };
/// bicgstab: FLAG (0, a breakdown code < 0, or kEarly), the scalars of SciPy's iteration, and the
/// sums each pass all-reduces (BB RR RHO; RR RHO; RV; SS; TT TS).
enum bicgstab_slot : int {
  BS_FLAG = 0,
  BS_SS = 1,
  BS_BB = 2,
  BS_RR = 3,
  BS_RHO = 4,
  BS_RHO_PREV = 5,
  BS_ALPHA = 6,
  BS_OMEGA = 7,
  BS_RV = 8,
  BS_TT = 9,
  BS_TS = 10,
  BS_SLOTS = 16
};
/// bicgstab's flag for "converged on norm(s) in the middle of an iteration" (SciPy's early return).
inline constexpr int kEarly = 1;

// ---- generic passes -------------------------------------------------------------------------------
/// s[dst] = sum a_i b_i over the block; with shift_to >= 0, s[shift_to] = s[dst] first (the old value
/// kept: rho_prev = rho).
void dot(dtype t, std::int64_t n, const void* a, const void* b, double* s, int dst, int shift_to, sum_workspace& ws,
         cudaStream_t st);
/// dst[j] = sum_i v[j][i]^2 for j < nv (1 <= nv <= 4).
void sumsq(dtype t, std::int64_t n, int nv, const void* const* v, double* dst, sum_workspace& ws, cudaStream_t st);
/// y = a x with a = (t) alpha (x == y allowed).
void scale(dtype t, std::int64_t n, double alpha, const void* x, void* y, cudaStream_t st);
/// y = d x elementwise.
void diag_mul(dtype t, std::int64_t n, const void* d, const void* x, void* y, cudaStream_t st);
/// dinv = 1 / d; *first_zero = the least i with d_i == 0 (left unchanged when there is none; the caller
/// presets it to a value >= n).
void reciprocal(dtype t, std::int64_t n, const void* d, void* dinv, unsigned long long* first_zero, cudaStream_t st);

// ---- cg (SciPy's iteration; see cg.cpp) ---------------------------------------------------------------
/// r = b - ax (ax null: r = b); s[CG_BB] = b.b, s[CG_RR] = r.r, s[CG_RHO] = r.z (mode 0/1).
void cg_start(dtype t, int mode, std::int64_t n, const void* b, const void* ax, void* r, const void* d, double* s,
              sum_workspace& ws, cudaStream_t st);
/// p = z (first) or p beta + z with beta = s[CG_RHO] / s[CG_RHO_PREV]; z = r, d r or z by mode.
void cg_update_p(dtype t, int mode, std::int64_t n, bool first, void* p, const void* r, const void* d, const void* z,
                 const double* s, cudaStream_t st);
/// alpha = s[CG_RHO] / s[CG_PQ]; x += alpha p; r -= alpha q; s[CG_RR] = r.r and (mode 0/1)
/// s[CG_RHO_PREV] = s[CG_RHO], s[CG_RHO] = r.z.
void cg_update_xr(dtype t, int mode, std::int64_t n, void* x, void* r, const void* p, const void* q, const void* d,
                  double* s, sum_workspace& ws, cudaStream_t st);

// ---- bicgstab (SciPy's iteration; see bicgstab.cpp). Each pass does nothing once s[BS_FLAG] != 0
// (bicgstab_x: unless it is kEarly), so that x keeps its value from before the failed iteration.
/// r = b - ax (or b), rt = r; s[BS_BB] = b.b, s[BS_RR] = s[BS_RHO] = r.r (r~ = r).
void bicgstab_start(dtype t, std::int64_t n, const void* b, const void* ax, void* r, void* rt, double* s,
                    sum_workspace& ws, cudaStream_t st);
/// Breakdown tests (|rho| < rhotol: -10; |omega| < omegatol after the first iteration: -11), then
/// p = r (first) or (p - omega v) beta + r with beta = (rho / rho_prev)(alpha / omega); mode 1:
/// phat = d p.
void bicgstab_p(dtype t, int mode, std::int64_t n, bool first, void* p, const void* r, const void* v, const void* d,
                void* phat, double* s, double rhotol, double omegatol, cudaStream_t st);
/// s[BS_RV] = r~.v.
void bicgstab_rv(dtype t, std::int64_t n, const void* rt, const void* v, double* s, sum_workspace& ws,
                 cudaStream_t st);
/// rv == 0: -11; alpha = rho / rv (kept in s[BS_ALPHA]); r = r - alpha v (SciPy's s, kept in r);
/// mode 1: shat = d r; s[BS_SS] = r.r.
void bicgstab_s(dtype t, int mode, std::int64_t n, void* r, const void* v, const void* d, void* shat, double* s,
                sum_workspace& ws, cudaStream_t st);
/// sqrt(s[BS_SS]) < atol: flag kEarly; else s[BS_TT] = t.t, s[BS_TS] = t.r.
void bicgstab_omega(dtype t, std::int64_t n, const void* tv, const void* r, double* s, double atol, sum_workspace& ws,
                    cudaStream_t st);
/// kEarly: x += alpha phat. Else omega = ts / tt (kept in s[BS_OMEGA]), x = (x + alpha phat) + omega
/// shat, r = r - omega t; s[BS_RR] = r.r, s[BS_RHO_PREV] = s[BS_RHO], s[BS_RHO] = r~.r. Mode 0: phat is
/// p and shat is r (pass them).
void bicgstab_x(dtype t, int mode, std::int64_t n, void* x, void* r, const void* phat, const void* shat,
                const void* tv, const void* rt, double* s, sum_workspace& ws, cudaStream_t st);

// ---- gmres: the Gram-Schmidt passes over the local rows of the basis V [rows, ldv] (row-major).
/// dst[j] = V[j].w for j < k, dst[k] = w.w.
void gs_project(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const void* w, double* dst,
                sum_workspace& ws, cudaStream_t st);
/// w -= sum_{j < k} c[j] V[j] (c on the device; accumulated in float64, rounded once to t); then with
/// `project` dst[j] = V[j].w for j < k and dst[k] = w.w, without it dst[0] = w.w.
void gs_update(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const double* c, void* w,
               bool project, double* dst, sum_workspace& ws, cudaStream_t st);
/// x += sum_{j < k} y[j] V[j] (y on the device; the sum in float64, rounded to t, then added).
void gmres_add_basis(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const double* y, void* x,
                     cudaStream_t st);
/// r = b - ax; mode 1: z = d r; dst[0] = r.r, dst[1] = z.z (mode 0: r.r; mode 2: not written).
void gmres_residual(dtype t, int mode, std::int64_t n, const void* b, const void* ax, void* r, const void* d, void* z,
                    double* dst, sum_workspace& ws, cudaStream_t st);

}  // namespace cusci::distributed::solver_detail

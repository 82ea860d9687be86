#pragma once
// (internal; host-compilable) The GPU engine that simulates discrete-time state-space systems over long
// inputs, for the public lsim / dlsim / step wrappers. Semantics are SciPy dlsim's loop, in float64:
//
//   x[0] = x0,   x[k+1] = A x[k] + B u[k],   y[k] = C x[k] + D u[k],   k = 0 .. N-1
//
// (the returned state trajectory is x[0 .. N-1], as SciPy's xout; the state after the last sample is not
// returned). An optional lookahead input matrix B1 adds B1 u[k+1] to x[k+1] (lsim's first-order hold:
// x[k+1] = Ad x[k] + Bd0 u[k] + Bd1 u[k+1]); the engine folds it away internally (see lti_sim.cu).
//
// Algorithm: the chunked parallel recurrence of signal/src/filtering (recurrence_plan.hpp picks the chunk
// length L from an a-priori bound, ||A^L||_inf <= 1/2, or one sequential thread per signal when there is
// none; carry_kernel of recurrence.cuh carries the chunk states). The chunk passes are lti_sim.cu's own
// state-space kernels (m inputs, p outputs and the state trajectory per step; the filtering engine's
// chunk_kernel is scalar-in / scalar-out); SISO systems without a state trajectory go through the
// filtering engine's run_recurrence itself with a state-space policy. States of up to 32 entries live in
// registers; larger ones run one thread per signal, sequentially (SciPy's loop).
//
// Everything is asynchronous on cusci::get_current_stream(); the results are float64 device arrays.

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal::detail {

/// A real discrete state-space system, row-major: A [n, n], B [n, m], C [p, n], D [p, m]; optional
/// B1 [n, m] (empty: none), the lookahead input matrix (x[k+1] += B1 u[k+1]).
/// n, m, p >= 0 (n == 0: a static gain, y = D u, and an empty [N, 0] state trajectory, as SciPy's
/// StateSpace with empty A).
struct ss_system {
  int n = 0, m = 0, p = 0;
  std::vector<double> A, B, C, D;
  std::vector<double> B1;
};

struct ss_sim_result {
  ndarray y;  ///< [N, p] (or [nb, N, p]) float64, C-contiguous, on the device
  ndarray x;  ///< [N, n] (or [nb, N, n]) float64 when want_x, else empty (default-constructed)
};

/// Simulates one system over one or several input signals.
/// @param sys     the system (matrix sizes checked against n, m, p; finite entries not required: NaN
///                and inf propagate as in SciPy's loop, such systems run sequentially).
/// @param u       [N, m] or [nb, N, m] on the device (a [N] array is accepted when m == 1), any real
///                dtype (float16/float32/float64, integers, bool: converted to float64), any layout or
///                strides; N may be 0 (empty results; SciPy's dlsim raises IndexError there, which is
///                the wrapper's to raise).
/// @param x0      [n] (same for every signal; also any shape of n entries with unit leading axes, or one
///                value broadcast, as NumPy's xout[0, :] = x0 allows) or [nb, n] for a 3-D u; empty: zero.
/// @param want_x  also return the state trajectory.
/// @param fn      the public function's name for error messages (e.g. "cusci::signal::dlsim").
/// @throws cusci::value_error for inconsistent sizes (u's last axis != m, x0's shape, matrix sizes),
///         cusci::type_error for complex u or x0 (SciPy's dlsim would silently drop imaginary parts into
///         float64 outputs; we refuse), cusci::value_error when the results would not fit in memory
///         (checked before allocating).
ss_sim_result simulate_ss(const ss_system& sys, const ndarray& u, const std::optional<ndarray>& x0, bool want_x,
                          const char* fn);

/// Convenience form with separate matrices (B1 none).
inline ss_sim_result simulate_ss(const std::vector<double>& A, const std::vector<double>& B,
                                 const std::vector<double>& C, const std::vector<double>& D, int n, int m, int p,
                                 const ndarray& u, const std::optional<ndarray>& x0, bool want_x, const char* fn) {
  ss_system s;
  s.n = n;
  s.m = m;
  s.p = p;
  s.A = A;
  s.B = B;
  s.C = C;
  s.D = D;
  return simulate_ss(s, u, x0, want_x, fn);
}

/// Many systems, each with its own input: systems[s] over u[s] ([S, N, m], S == systems.size(); every
/// system the same n, m, p), x0 [n] (shared) or [S, n] or empty. Results [S, N, p] and [S, N, n]. Short
/// signals (N <= 2048 S) run in one launch, one thread per system; longer ones get one chunk plan and one
/// chunked simulation per system, queued on the current stream one system after another.
/// @throws as simulate_ss; cusci::value_error when the systems differ in n, m or p.
ss_sim_result simulate_ss_many(const std::vector<ss_system>& systems, const ndarray& u,
                               const std::optional<ndarray>& x0, bool want_x, const char* fn);

}  // namespace cusci::signal::detail

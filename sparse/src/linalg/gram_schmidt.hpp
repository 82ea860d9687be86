#pragma once
// The fused Gram-Schmidt step of the Arnoldi solvers (gram_schmidt.cu): orthogonalises a vector w
// against the first k rows of an orthonormal basis V and normalises it, with no host wait. Host
// declarations only (compiles with g++); used by krylov_gmres.cpp.
//
// One step is four kernels on the current stream:
//   1. c = V^H w and ||w||^2 in one pass over V and w;
//   2. w -= V c, and in the same pass s = V^H w and ||w||^2 of the updated w (the projections a
//      second pass would need, computed from the V values already in registers);
//   3. where ||w|| fell below 1/sqrt(2) of its value before (the DGKS criterion of Daniel, Gragg,
//      Kaufman and Stewart, Math. Comp. 30, 1976), the second pass w -= V s and its norm; the
//      decision is taken on the device, so no host round trip decides it;
//   4. w *= 1 / h1 unless h1 <= eps h0 (an invariant subspace: SciPy's gmres leaves w unscaled).
// The sums run in float64 (complex128 for complex types) whatever the vector dtype, each block's
// partial sums added by the last block in a fixed order, so a step is deterministic.

#include <cstdint>

#include <cuda_runtime.h>

#include "cusci/dtype.hpp"
#include "cusci/memory.hpp"

namespace cusci::sparse::linalg::gs_detail {

/// The most basis rows (k) the fused step takes for dtype t: 32 for float32 / float64, 16 for the
/// complex types (register budget). Larger k goes through the two-gemv path of krylov_gmres.cpp.
std::int64_t fused_max_rows(dtype t);

/// Device scratch of the fused step for vectors of length n: per-block partial sums, the grid
/// counter and the coefficient area. Allocated from the pool on the stream.
struct workspace {
  device_buffer<double> partials;
  device_buffer<unsigned> counter;
  device_buffer<double> area;  ///< c, s, the norms and the result (see result_offset)
  unsigned grid_project = 0, grid_update = 0, grid_correct = 0, grid_scale = 0;
  unsigned grid_project_s[2] = {0, 0}, grid_update_s[2] = {0, 0}, grid_correct_s[2] = {0, 0};
  std::int64_t max_rows = 0;
  workspace() = default;
  workspace(dtype t, std::int64_t n, cudaStream_t st);
};

/// The result of a step in ws.area (float64): h[0..k) (the Hessenberg column above the diagonal;
/// complex entries as (re, im) pairs), then h0 = ||w|| before, h1 = ||w|| after, and 1.0 where the
/// second pass ran (0.0 else). result_doubles(t, k) values from result_offset(t).
std::int64_t result_offset(dtype t);
std::int64_t result_doubles(dtype t, std::int64_t k);

/// Orthogonalises w [n] (device, dtype t) against the rows V[0..k) (row-major, row stride n) and
/// scales it by 1 / h1 as described above; 1 <= k <= fused_max_rows(t). Asynchronous on st; the
/// result lies in ws.area from result_offset(t) once the stream reaches it.
void orthogonalize(dtype t, const void* V, std::int64_t n, std::int64_t k, void* w, double eps, workspace& ws,
                   cudaStream_t st);

}  // namespace cusci::sparse::linalg::gs_detail

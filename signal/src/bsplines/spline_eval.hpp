#pragma once
// (internal) Evaluation kernels of cspline1d_eval / qspline1d_eval (spline_eval.cu).
#include "cusci/ndarray.hpp"

namespace cusci::signal::detail {

/// out[i] = sum_j cj[clip(j)] * B((newx[i] - x0) / dx - j) after folding the position into
/// [0, N-1] by mirror symmetry; B the cubic (cubic = true) or quadratic B-spline. cj: [N] float64 or
/// complex128, C-contiguous; newx: float32 or float64, C-contiguous (positions computed in its type);
/// out: float64 (real cj) or complex128, C-contiguous, newx's size. Asynchronous on the current stream.
void spline_eval_run(bool cubic, const ndarray& cj, const ndarray& newx, const ndarray& out, double dx, double x0);

}  // namespace cusci::signal::detail

// The weighted-sum pass of the footprint engine (correlate, convolve): picks the kernel variant and
// instantiates it. Three variants only, to keep compile time down: float32 -> float32 (staged as
// float32) and float64 -> float64 on the blocked kernel (typed loads and stores, fused multiply-adds
// in double), and every other case with run-time input / output dtypes and SciPy's exact operation order
// (any_in / any_out: one switch per staged value and per store, both warp-uniform). Plans on the strip
// kernel (2-D 3 x 3 and 5 x 5, 3-D 3 x 3 x 3 boxes) take the same three variants, the run-time-dtype one
// switching once per kernel on the input dtype to a typed copy of its body.

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>

#include "cusci/detail/copy.hpp"
#include "cusci/ndarray.hpp"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"

namespace cusci::ndimage::detail {

void weighted_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval) {
  if (out.size() == 0) return;
  const weighted_plan plan = make_weighted_plan(in, out, f);
  if (plan.n_taps == 0) {  // every weight skipped: SciPy's sum stays 0.0
    ndarray o = out;
    cusci::detail::fill(o, 0);
    return;
  }
  const dtype it = in.dtype(), ot = out.dtype();
  // The float32 kernel stages float32 values, the constant value included: only where that value is
  // a float32 too (or no axis uses it); else the run-time-dtype kernel, which stages doubles.
  bool uses_cval = false;
  for (int d = 0; d < plan.ndim; ++d) uses_cval = uses_cval || plan.mode[d] == static_cast<int>(ext::constant);
  const bool cval_is_float = !uses_cval || std::isnan(cval) ||
                             (std::fabs(cval) <= static_cast<double>(FLT_MAX) &&
                              static_cast<double>(static_cast<float>(cval)) == cval) ||
                             std::isinf(cval);
  // The strip kernel reads the constant as a double in every variant.
  if (plan.blocked && it == dtype::float32 && ot == dtype::float32 && (plan.strip || cval_is_float))
    return weighted_launch<float, float, true>(in, out, plan, cval);
  if (plan.blocked && it == dtype::float64 && ot == dtype::float64)
    return weighted_launch<double, double, true>(in, out, plan, cval);
  weighted_launch<any_in, any_out, false>(in, out, plan, cval);
}

}  // namespace cusci::ndimage::detail

#pragma once
// Grey morphology with a non-flat structuring element on the footprint engine (host interface):
// SciPy's NI_MinOrMaxFilter with structure values. Host C++ only.

#include "cusci/ndarray.hpp"
#include "engine/footprint_engine.hpp"

namespace cusci::ndimage::detail {

/// out[i] = min (`minimum`) or max over the footprint's elements k, in SciPy's C order, of
/// double(ext(in)[i + k - shift]) - w[k] (minimum) or + w[k] (maximum), where w = f.weights (one per
/// footprint element, C order, required) and ext(in) takes `cval` converted to the input dtype with a
/// C cast for the constant mode. The comparison is in double (a later value replaces the current one
/// only when strictly smaller / larger, so a NaN first value is the result and a later NaN is never
/// taken); the winner is stored into out's dtype with x86-64's C conversion (engine/cast.cuh).
/// in: bool, int8..int64, uint8..uint64, float32 or float64; out: any of these; same shape, no
/// overlap, any strides. Enqueues on the current stream (tap lists beyond fp_param_taps entries and
/// their weights are copied to the device first).
void grey_structure_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval, bool minimum);

}  // namespace cusci::ndimage::detail

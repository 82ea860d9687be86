#pragma once
/// @file host_arithmetic.hpp
/// Arithmetic between a host_array and a device ndarray, for code such as SciPy's
/// `lfilter(b, a, x, zi=lfilter_zi(b, a) * x[0])`, where host-designed coefficients meet device data.
/// The rule (docs/architecture.md, "Host and device results"): functions that compute small results on
/// the host (filter designs, windows, LTI conversions) return host_array; host_array has no arithmetic
/// of its own; an operator between a host_array and an ndarray uploads the host array (asynchronously,
/// on the current stream, as `cusci::asarray`) and computes on the device, returning an ndarray. The
/// throws are those of the ufunc (value_error when the shapes do not broadcast, type_error, out_of_memory).
/// Included by cusci/core.hpp.

#include "cusci/elementwise.hpp"
#include "cusci/ndarray.hpp"

namespace cusci {

#define CUSCI_HOST_DEVICE_OP_(op, fn)                                                                      \
  inline ndarray operator op(const host_array& a, const ndarray& b) { return fn(asarray(a), b); }        \
  inline ndarray operator op(const ndarray& a, const host_array& b) { return fn(a, asarray(b)); }
CUSCI_HOST_DEVICE_OP_(+, add)
CUSCI_HOST_DEVICE_OP_(-, subtract)
CUSCI_HOST_DEVICE_OP_(*, multiply)
CUSCI_HOST_DEVICE_OP_(/, divide)
#undef CUSCI_HOST_DEVICE_OP_

}  // namespace cusci

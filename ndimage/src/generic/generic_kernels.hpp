#pragma once
// The precompiled kernels of the generic filters (generic_kernels.cu): the padded copy of the input
// (converted to float64, or bytes kept as they are) and the x86-64 C cast of float64 results into an
// output of any dtype and layout. Host C++ only.

#include <cstdint>

#include "cusci/dtype.hpp"
#include "cusci/ndimage/detail/generic_plan.hpp"

namespace cusci::ndimage::detail {

/// The padded copy: element p (C order over `shape`) copies input element j with j_d = p_d - before_d,
/// mapped into [0, len_d) by the boundary mode (constant: cval).
struct pad_geometry {
  int ndim = 0;
  int mode = 0;  // ext code (engine/boundary.hpp)
  std::int64_t shape[generic_max_dims] = {};   // padded shape
  std::int64_t len[generic_max_dims] = {};     // input shape
  std::int64_t before[generic_max_dims] = {};  // elements added before the input
  std::int64_t stride[generic_max_dims] = {};  // input strides, bytes
};

/// Writes `count` doubles into `out` from the input at `in` (element 0) of dtype `dt` (bool, integer,
/// float32/64); `cval` for the constant mode. Enqueues on the current stream.
void pad_to_double(const void* in, dtype dt, double* out, std::int64_t count, const pad_geometry& g, double cval);

/// The same for any dtype, the elements copied as `itemsize` bytes; `cval_bytes` the constant's bytes
/// in the input's type. Enqueues on the current stream.
void pad_bytes(const void* in, std::size_t itemsize, void* out, std::int64_t count, const pad_geometry& g,
               const unsigned char* cval_bytes);

/// The cast: element i (C order over `shape`) of `src` into `dst` + sum_d i_d * stride_d (bytes).
struct cast_geometry {
  int ndim = 0;
  std::int64_t shape[generic_max_dims] = {};
  std::int64_t stride[generic_max_dims] = {};
};

/// Converts `count` doubles into `dst` of dtype `dt` (bool, integer, float32/64) with SciPy's x86-64
/// C cast (engine/cast.cuh); bool stores the byte of C's unsigned char conversion, or with
/// `numpy_bool` NumPy's `v != 0` (NaN true). Enqueues on the current stream.
void cast_from_double(const double* src, void* dst, dtype dt, std::int64_t count, const cast_geometry& g,
                      bool numpy_bool = false);

}  // namespace cusci::ndimage::detail

// The resampling kernels of cusci::ndimage for float64 inputs: the generic kernel
// (resample_common.cuh) and the specialised 2-D / 3-D kernels of orders 0, 1 and 3 (resample_fast.cuh).
// One file per input type keeps each translation unit's ptxas time short.

#include "interpolation/resample_fast.cuh"

namespace cusci::ndimage::detail::interp {

template void launch_generic<double>(const resample_params& p, cudaStream_t stream);
template void launch_fast2<double>(fast_kind kind, int order, bool out_f32, const fast_params<2>& p, cudaStream_t stream);
template void launch_fast3<double>(fast_kind kind, int order, bool out_f32, const fast_params<3>& p, cudaStream_t stream);

}  // namespace cusci::ndimage::detail::interp

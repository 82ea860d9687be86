/// @file sorting_argsort_k4.cu
/// Stable argsorts of 4-byte keys (int32, uint32, float32): explicit instantiations of argsort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray argsort_bits<std::uint32_t>(const rows_view&, key_mode);

}  // namespace cusci::detail::srt

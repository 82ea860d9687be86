/// @file sorting_argsort_k12.cu
/// Stable argsorts of 1- and 2-byte keys (bool, int8, uint8, int16, uint16, float16): explicit instantiations of argsort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray argsort_bits<std::uint8_t>(const rows_view&, key_mode);
template ndarray argsort_bits<std::uint16_t>(const rows_view&, key_mode);

}  // namespace cusci::detail::srt

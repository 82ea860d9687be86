/// @file sorting_sort_k12.cu
/// Keys-only sorts of 1- and 2-byte keys (bool, int8, uint8, int16, uint16, float16): explicit instantiations of sort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray sort_bits<std::uint8_t>(const rows_view&, dtype, key_mode);
template ndarray sort_bits<std::uint16_t>(const rows_view&, dtype, key_mode);

}  // namespace cusci::detail::srt

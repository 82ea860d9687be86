/// @file sorting_sort_k4.cu
/// Keys-only sorts of 4-byte keys (int32, uint32, float32): explicit instantiations of sort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray sort_bits<std::uint32_t>(const rows_view&, dtype, key_mode);

}  // namespace cusci::detail::srt

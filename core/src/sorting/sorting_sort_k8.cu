/// @file sorting_sort_k8.cu
/// Keys-only sorts of 8-byte keys (int64, uint64, float64): explicit instantiations of sort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray sort_bits<std::uint64_t>(const rows_view&, dtype, key_mode);

}  // namespace cusci::detail::srt

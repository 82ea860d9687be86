/// @file sorting_argsort_k8.cu
/// Stable argsorts of 8-byte keys (int64, uint64, float64): explicit instantiations of argsort_bits.

#include "sorting/sorting_sort_impl.cuh"

namespace cusci::detail::srt {

template ndarray argsort_bits<std::uint64_t>(const rows_view&, key_mode);

}  // namespace cusci::detail::srt

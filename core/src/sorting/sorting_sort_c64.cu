/// @file sorting_sort_c64.cu
/// argsort and sort of complex64: explicit instantiations of argsort_complex / sort_complex.

#include "sorting/sorting_sort_complex.cuh"

namespace cusci::detail::srt {

template ndarray argsort_complex<float>(const rows_view&);
template ndarray sort_complex<float>(const rows_view&, dtype);

}  // namespace cusci::detail::srt

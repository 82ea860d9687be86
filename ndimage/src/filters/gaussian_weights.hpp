#pragma once
// gaussian_filter1d's correlation weights with SciPy's argument checks, shared by the separable
// filters (filters.cpp) and the Gaussian derivative filters (derivatives.cpp). Host C++ only.

#include <cstdint>
#include <optional>
#include <vector>

namespace cusci::ndimage::detail {

/// gaussian_filter1d's weights for correlation (the kernel reversed), after SciPy's checks in
/// SciPy's order: lw = int(truncate * sigma + 0.5) (computed even when `radius` replaces it), the
/// radius (at most 2^28), the order, then sigma**2 > 0 and finite. A negative sigma gives the kernel
/// of |sigma| (the kernel depends on sigma**2 only), with the radius from truncate * sigma as SciPy.
/// `fn` is the public function named in messages.
/// @throws cusci::value_error for each failed check.
std::vector<double> gaussian_weights(const char* fn, double sigma, int order, double truncate,
                                     std::optional<std::int64_t> radius);

}  // namespace cusci::ndimage::detail

#pragma once
// Device entry points of cusci::ndimage's distance transforms (distance_kernels.cu), called by the
// host wrappers (distance.cpp) after every argument check. Plain C++: raw device pointers, element
// strides and shapes; every function enqueues on the current stream.

#include <cstdint>
#include <vector>

namespace cusci::ndimage::detail {

/// Most axes the distance kernels handle.
inline constexpr int distance_max_axes = 32;

/// A strided destination: element pointer and element strides (int32, uint32 or float64 elements).
struct strided_target {
  void* ptr = nullptr;                 // nullptr: not written
  std::vector<std::int64_t> strides;   // in elements; the indices' first stride is the component's
  /// Indices only, cdt and bf: SciPy's in-place form. When set (a C-contiguous copy of the caller's
  /// array as it was, ndim x size int32), component k of each element is gathered from this copy at
  /// the flat index of the element's feature instead of being that feature's coordinate.
  const std::int32_t* gather_from = nullptr;
};

/// Euclidean feature transform and distances (SciPy's NI_EuclideanFeatureTransform followed by
/// distance_transform_edt's distance computation). `mask`: uint8 C-contiguous, 1 for foreground.
/// `sampling`: empty or one per axis. `indices` (shape (ndim,) + shape, pre-filled: zeros for a new
/// array) and `distances` (float64) are written through their strides when their ptr is set.
void edt_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, const std::vector<double>& sampling,
             const strided_target& distances, const strided_target& indices);

/// Chamfer distance transform (SciPy's two NI_DistanceTransformOnePass passes). `structure`: 3^ndim
/// booleans in C order. `distances` int32, `indices` int32 (ndim,) + shape.
void cdt_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, const std::vector<std::uint8_t>& structure,
             const strided_target& distances, const strided_target& indices);

/// Brute-force transform (SciPy's NI_DistanceTransformBruteForce). metric: 1 euclidean (float64
/// distances), 2 taxicab, 3 chessboard (uint32 distances). `sampling`: empty or one per axis.
void bf_run(const std::uint8_t* mask, const std::vector<std::int64_t>& shape, int metric,
            const std::vector<double>& sampling, const strided_target& distances, const strided_target& indices);

}  // namespace cusci::ndimage::detail

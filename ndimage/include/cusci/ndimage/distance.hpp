#pragma once
/// @file distance.hpp
/// Distance transforms of cusci::ndimage with scipy.ndimage's semantics (SciPy 1.18.1):
/// distance_transform_edt (exact Euclidean), distance_transform_cdt (chamfer: chessboard, taxicab or
/// a structure) and distance_transform_bf (brute force: euclidean, taxicab, chessboard).
///
/// Common rules:
/// - Foreground is every non-zero element of the input (any dtype and layout: bool, integers,
///   floats, complex; NaN counts as non-zero), background every zero element. Each foreground element
///   receives its distance to the nearest background element; background elements receive 0.
/// - The result (SciPy returns one array, a tuple, or None) is a distance_transform_result: its
///   `distances` holds the distance array when SciPy's tuple holds one (return_distances and no
///   preallocated `distances`), its `indices` the index array when SciPy's holds one (return_indices
///   and no preallocated `indices`). `auto [dt, ft] = distance_transform_edt(x, {.return_indices =
///   true});` reads as SciPy's `dt, ft = distance_transform_edt(x, return_indices=True)`; a
///   preallocated array is filled instead and its field stays empty, as SciPy's result leaves it out.
/// - Indices (the feature transform) are int32 arrays of shape (input.ndim,) + input.shape: indices[k]
///   holds coordinate k of the background element each element is assigned to (its own coordinates
///   for background elements), as SciPy's. New arrays are C-contiguous; preallocated arrays may have
///   any layout (no zero strides on axes longer than 1); the input is read into a mask first, so they
///   may even share its memory, as in SciPy.
/// - A preallocated `indices` array of distance_transform_cdt / _bf is filled as SciPy fills it: each
///   component k receives the array's own former contents of component k, gathered at the flat (C
///   order) index of each element's feature (`indices[k] = indices[k].ravel()[ft]`), so a zero-filled
///   array stays zero and only an array holding np.indices receives the coordinates. New arrays, and
///   preallocated arrays of distance_transform_edt, receive the coordinates.
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.
/// - SciPy's RuntimeError is cusci::runtime_error, its ValueError cusci::value_error, its TypeError
///   cusci::type_error. All argument checks happen before any device work (SciPy checks a
///   preallocated `indices` of distance_transform_cdt / _bf, and `distances` of _edt, after the
///   transform, when an other preallocated array may already hold its result; cusci raises the same
///   exception without touching either array). Inputs with 2^31 or more elements raise
///   cusci::value_error (the indices are int32, as SciPy's). Allocation failures raise
///   cusci::out_of_memory.

#include <optional>
#include <string>
#include <variant>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"

namespace cusci::ndimage {

/// What a distance transform returns: SciPy's result (an array, the tuple (distances, indices), or
/// None) as two optional arrays. `distances` is present when return_distances is true and no
/// `distances` array was supplied; `indices` when return_indices is true and no `indices` array was
/// supplied. Structured bindings give SciPy's tuple: `auto [dt, ft] = ...;`.
struct distance_transform_result {
  std::optional<ndarray> distances{};
  std::optional<ndarray> indices{};
};

/// Keyword arguments of distance_transform_edt (SciPy's names and defaults).
struct edt_options {
  /// Spacing of the elements along each axis: one value for all axes or one per axis (exactly
  /// input.ndim() values, after a 0-d input becomes 1-d). Not given: 1 along every axis. Any double
  /// (negative spacings act through their squares, as SciPy's).
  std::optional<per_axis<double>> sampling{};
  bool return_distances = true;
  bool return_indices = false;
  /// Preallocated float64 array of the input's shape (any layout) that receives the distances.
  std::optional<ndarray> distances{};
  /// Preallocated int32 array of shape (input.ndim,) + input.shape that receives the indices.
  std::optional<ndarray> indices{};
};

/// Exact Euclidean distance transform: for each foreground element, the distance
/// sqrt(sum_k ((f_k - x_k) sampling_k)^2) to the nearest background element f, and (return_indices)
/// that element's coordinates.
/// @param input [any shape; a 0-d input is treated as shape (1,), as SciPy's np.atleast_1d] any dtype
///        and layout.
/// @param opts  sampling, return_distances, return_indices, distances, indices.
/// @return distances: float64, input.shape (shape (1,) for a 0-d input), C-contiguous; indices:
///         int32, (ndim,) + shape, C-contiguous. Values equal SciPy's bit for bit: the feature
///         transform runs Maurer et al.'s separable algorithm (SciPy's NI_EuclideanFeatureTransform)
///         along axis 0, then 1, ..., with SciPy's floating-point expressions, so the nearest
///         background element chosen on ties is SciPy's: along each axis the candidate with the lower
///         coordinate wins, the last axis deciding first (without sampling: the tied element with the
///         lexicographically smallest (x_{n-1}, ..., x_1, x_0)). An input without background gives
///         SciPy's result: indices[0] = -1 everywhere, indices[k > 0] = 0 (a preallocated `indices`
///         keeps its values in k > 0), and distances computed from those indices.
/// Asynchronous on the current stream. Temporaries: a uint8 mask of the input and, unless the
/// indices go to a new or C-contiguous preallocated array, an int32 array of the indices' size.
/// @throws cusci::runtime_error (SciPy's RuntimeError) when return_distances and return_indices are
///         both false ("at least one of return_distances/return_indices must be True"), when a
///         `distances` / `indices` array is supplied with its return_ flag false, for a sampling
///         sequence whose length is not the rank, for an `indices` array of another shape ("indices
///         array has wrong shape") or dtype ("indices array must be int32"), for a `distances` array of
///         another shape ("distances array has wrong shape") or dtype ("distances array must be
///         float64"); cusci::value_error for a preallocated array on another device or with a zero
///         stride on an axis longer than 1, for inputs of 2^31 elements or more and for more than 32
///         axes.
/// SciPy: `scipy.ndimage.distance_transform_edt(input, sampling=None, return_distances=True,
/// return_indices=False, distances=None, indices=None)`.
distance_transform_result distance_transform_edt(const ndarray& input, const edt_options& opts = {});

/// The metric of distance_transform_cdt: "chessboard", "taxicab" (also "cityblock", "manhattan";
/// case-sensitive, as SciPy's), or a structure of shape (3,) * input.ndim given as a device array or a
/// host array (elements != 0 are part of it).
using cdt_metric = std::variant<std::string, ndarray, host_array>;

/// Keyword arguments of distance_transform_cdt (SciPy's names and defaults).
struct cdt_options {
  cdt_metric metric = std::string("chessboard");
  bool return_distances = true;
  bool return_indices = false;
  /// Preallocated int32 array of the input's shape (any layout) that receives the distances.
  std::optional<ndarray> distances{};
  /// Preallocated int32 array of shape (input.ndim,) + input.shape that receives the indices.
  std::optional<ndarray> indices{};
};

/// Chamfer distance transform: the number of steps of the structure (chessboard: generate_binary_
/// structure(ndim, ndim); taxicab: generate_binary_structure(ndim, 1); or the given structure) from
/// each foreground element to the background, computed as SciPy's two raster passes
/// (NI_DistanceTransformOnePass): a forward pass in C order using the structure's elements before its
/// centre, then the same on the array reversed along every axis. For chessboard and taxicab that is the
/// exact chessboard / taxicab distance; for other structures it is SciPy's two-pass value (also where
/// that is not the shortest path). Elements no pass reaches (no background) are -1, with indices
/// pointing at themselves.
/// @param input [any shape, ndim >= 1] any dtype and layout.
/// @param opts  metric, return_distances, return_indices, distances, indices.
/// @return distances: int32, input.shape; indices: int32, (ndim,) + shape; C-contiguous. Values and
///         the tie-breaking of the indices equal SciPy's (the earliest structure element in C order wins
///         a tie within a pass; the value a pass found is kept unless a later one is strictly smaller).
/// Asynchronous on the current stream. Temporaries: the flat feature indices (int32, input size).
/// Performance note: the raster passes run one row (the last axis) at a time in one thread block
/// with a parallel min-plus scan along the row, so time grows with the number of rows.
/// @throws cusci::runtime_error (SciPy's RuntimeError) for the return_ flag combinations as
///         distance_transform_edt; cusci::value_error (SciPy's ValueError) for an unknown metric name
///         ("invalid metric provided"), a structure with a size other than 3 ("metric sizes must be
///         equal to 3"), a `distances` array not int32 ("distances must be of int32 type") or of
///         another shape ("distances has wrong shape"), an `indices` array not int32 ("indices array
///         must be int32") or of another shape ("indices array has wrong shape"); cusci::type_error for
///         a 0-d input (SciPy's TypeError); cusci::value_error for a structure whose rank is not the
///         input's (SciPy does not check and reads past it), for preallocated arrays as
///         distance_transform_edt and for inputs of 2^31 elements or more.
/// SciPy: `scipy.ndimage.distance_transform_cdt(input, metric='chessboard', return_distances=True,
/// return_indices=False, distances=None, indices=None)`. Deviation: a structure of another dtype than
/// bool is read as `structure != 0` (SciPy reinterprets its bytes as booleans).
distance_transform_result distance_transform_cdt(const ndarray& input, const cdt_options& opts = {});

/// Keyword arguments of distance_transform_bf (SciPy's names and defaults).
struct bf_options {
  /// "euclidean", "taxicab" (also "cityblock", "manhattan") or "chessboard", any letter case.
  std::string metric = "euclidean";
  /// Spacing along each axis (euclidean only; ignored by the other metrics, as SciPy's): one value or
  /// one per axis.
  std::optional<per_axis<double>> sampling{};
  bool return_distances = true;
  bool return_indices = false;
  /// Preallocated array of the input's shape (any layout): float64 for euclidean, uint32 otherwise.
  std::optional<ndarray> distances{};
  /// Preallocated int32 array of shape (input.ndim,) + input.shape.
  std::optional<ndarray> indices{};
};

/// Brute-force distance transform (SciPy's NI_DistanceTransformBruteForce): every foreground element
/// is compared with every background element that touches the foreground (3^ndim neighbourhood).
/// Euclidean: sqrt(sum_k ((x_k - b_k) sampling_k)^2); taxicab: sum_k |x_k - b_k|; chessboard:
/// max_k |x_k - b_k|.
/// @param input [any shape] any dtype and layout (a 0-d input gives SciPy's 0-d distances and an
///        indices array of shape (0,)).
/// @param opts  metric, sampling, return_distances, return_indices, distances, indices.
/// @return distances: float64 (euclidean) or uint32 (taxicab, chessboard), input.shape; indices:
///         int32, (ndim,) + shape; C-contiguous. Ties go to the background element with the largest
///         flat index, as SciPy's. Without background: sqrt(DBL_MAX) (euclidean) or 4294967295, and
///         indices of the element 0, as SciPy's.
/// Asynchronous on the current stream. Time: O(foreground x border elements), as SciPy's.
/// @throws cusci::runtime_error (SciPy's RuntimeError) for the return_ flag combinations as
///         distance_transform_edt, an unknown metric ("distance metric not supported"), a sampling
///         sequence of another length than the rank, a `distances` array of another shape
///         ("distances array has wrong shape") or dtype ("distances array must be float64" /
///         "must be uint32"), an `indices` array not int32 ("indices array must be int32") or of
///         another shape ("indices array has wrong shape"); cusci::value_error for preallocated arrays
///         as distance_transform_edt and for inputs of 2^31 elements or more.
/// SciPy: `scipy.ndimage.distance_transform_bf(input, metric='euclidean', sampling=None,
/// return_distances=True, return_indices=False, distances=None, indices=None)`. Deviation: with a
/// non-finite sampling SciPy assigns an element whose distances are all non-finite the index of the
/// element processed before it; cusci assigns index 0.
distance_transform_result distance_transform_bf(const ndarray& input, const bf_options& opts = {});

}  // namespace cusci::ndimage

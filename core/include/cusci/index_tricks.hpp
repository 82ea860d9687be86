#pragma once
/// @file index_tricks.hpp
/// NumPy's index helpers: unravel_index, ravel_multi_index, indices and meshgrid. cusci core mirrors
/// NumPy/CuPy (not SciPy).
///
/// Stream behaviour: asynchronous on the current stream, except unravel_index and
/// ravel_multi_index in mode raise: NumPy raises ValueError for an index (coordinate) out of range, so
/// these check every value on the device and read one status word back after the kernel (one
/// synchronization) to throw. ravel_multi_index with only wrap/clip modes never synchronizes.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/indexing.hpp"
#include "cusci/ndarray.hpp"

namespace cusci {

/// Options of unravel_index.
struct unravel_index_options {
  cusci::order order = order::C;  ///< row-major (C) or column-major (F) index
};
/// Coordinate arrays of flat indices into an array of shape `shape`.
/// @param indices  [any shape, 0-d included], bool or integer dtype, any layout.
/// @param shape    the array's shape (every dimension >= 0).
/// @param opts     order.
/// @return shape.size() int64 arrays of indices' shape, C-contiguous.
/// Synchronizes once (the range check reads a status word back).
/// Algorithm: one kernel, one thread per index, divisions by the dimensions (64-bit).
/// @throws cusci::type_error for a float or complex `indices` ("only int indices permitted");
///         cusci::value_error for an index outside [0, prod(shape)) ("index 100 is out of bounds for
///         array with size 27", the first bad one in C order), for a negative dimension (as NumPy, the
///         same message with the negative product), for an empty `shape` with a non-0-d `indices`
///         ("multiple indices are not supported for 0d arrays"), for a product of the dimensions
///         beyond int64 ("dimensions are too large; arrays and shapes with a total size greater than
///         'intp' are not supported."); cusci::out_of_memory.
/// NumPy: `np.unravel_index(indices, shape, order)` (the tuple becomes a vector). Deviation: uint64
/// indices above 2^63 - 1 are reported through their int64 value.
std::vector<ndarray> unravel_index(const ndarray& indices, const shape_t& shape, unravel_index_options opts = {});

/// Options of ravel_multi_index (NumPy's keyword arguments, in its order).
struct ravel_multi_index_options {
  /// One mode for every dimension, or one per dimension (raise / wrap / clip, see clip_mode).
  std::vector<clip_mode> mode{clip_mode::raise};
  cusci::order order = order::C;  ///< row-major (C) or column-major (F) index
};
/// Flat indices of coordinate arrays into an array of shape `dims`.
/// @param multi_index  dims.size() arrays (broadcast together), bool or integer dtypes, any layouts.
/// @param dims         the array's shape (every dimension >= 0).
/// @param opts         mode (one or per dimension), order.
/// @return int64 of the broadcast shape, C-contiguous.
/// Synchronizes once when any dimension's mode is raise (status word read back); never otherwise.
/// Algorithm: one kernel, one thread per output element.
/// @throws cusci::value_error for a multi_index of another length ("parameter multi_index must be a
///         sequence of length 2"), a mode list of another length ("list of clipmodes has wrong length
///         (3 instead of 2)"), a coordinate out of range in raise mode or a negative dimension
///         ("invalid entry in coordinates array"), a zero dimension in wrap/clip mode ("cannot unravel
///         if shape has zero entries (is empty)."), a product of dims beyond int64 ("invalid dims:
///         array size defined by dims is larger than the maximum possible size."), arrays that do not
///         broadcast; cusci::type_error for float or complex coordinates ("only int indices
///         permitted"); cusci::out_of_memory.
/// NumPy: `np.ravel_multi_index(multi_index, dims, mode, order)`.
ndarray ravel_multi_index(const std::vector<ndarray>& multi_index, const shape_t& dims,
                          ravel_multi_index_options opts = {});

/// Options of indices (NumPy's keyword arguments, in its order).
struct indices_options {
  cusci::dtype dtype = dtype::int64;  ///< NumPy's default `int` (int64)
  bool sparse = false;                ///< return one broadcastable array per dimension
};
/// The grid indices: dense or sparse, as asked.
struct indices_result {
  /// sparse=false: [N, *dimensions] with grid[i] the indices along dimension i; empty otherwise.
  std::optional<ndarray> grid;
  /// sparse=true: N arrays, the i-th of shape (1, ..., dimensions[i], ..., 1); empty otherwise.
  std::vector<ndarray> sparse;
};
/// An array (or arrays) representing the indices of a grid of shape `dimensions`.
/// @param dimensions  N >= 0 non-negative lengths.
/// @param opts        dtype (any cusci dtype; values cast from int64 as NumPy's arange would give
///                    them), sparse.
/// @return see indices_result; `indices(())` is an int64 (dtype) array of shape (0,).
/// Asynchronous.
/// Algorithm: arange per dimension, reshaped, broadcast and stacked.
/// @throws cusci::value_error for a negative dimension ("negative dimensions are not allowed");
///         cusci::type_error for dtype bool with a dimension above 2 (NumPy's "arange() is only
///         supported for booleans when the result has at most length 2."); cusci::out_of_memory.
/// NumPy: `np.indices(dimensions, dtype, sparse)` (the tuple of the sparse form becomes a vector).
indices_result indices(const shape_t& dimensions, indices_options opts = {});

/// meshgrid's output indexing (NumPy's `indexing=`): Cartesian (xy, the first two output axes
/// swapped) or matrix (ij).
enum class meshgrid_indexing { xy, ij };
/// Parses "xy" / "ij". @throws cusci::value_error ("Valid values for `indexing` are 'xy' and 'ij'.").
meshgrid_indexing parse_meshgrid_indexing(std::string_view s);

/// Options of meshgrid (NumPy's keyword arguments, in its order).
struct meshgrid_options {
  /// true: each output is a new C-contiguous array; false: broadcast views of the inputs (zero
  /// strides; treat them as read-only).
  bool copy = true;
  /// true: outputs of shape (1, ..., n_i, ..., 1) instead of the full grid.
  bool sparse = false;
  meshgrid_indexing indexing = meshgrid_indexing::xy;
};
/// Coordinate matrices from coordinate vectors.
/// @param xi    N arrays (each flattened), any dtypes and layouts.
/// @param opts  copy, sparse, indexing.
/// @return N arrays, each of the input's dtype; ij: shape (n_0, ..., n_{N-1}); xy: the same with the
///         first two lengths swapped (N >= 2). An empty list gives an empty vector.
/// Asynchronous (copies only with copy=true).
/// @throws cusci::out_of_memory.
/// NumPy: `np.meshgrid(*xi, copy, sparse, indexing)`.
std::vector<ndarray> meshgrid(const std::vector<ndarray>& xi, meshgrid_options opts = {});

}  // namespace cusci

#pragma once
/// @file segmentation.hpp
/// scipy.ndimage's segmentation: watershed_ift (watershed from markers by the image foresting
/// transform). Plain C++ (no CUDA types).

#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of watershed_ift (SciPy's names and defaults).
struct watershed_options {
  /// The connectivity: an array of any dtype read as bool (non-zero = neighbour), of the input's
  /// rank, every dimension 3 (device array; it is read to the host). Its element at index k (C order)
  /// is the neighbour at offset k - 1 per axis. Not given: `generate_binary_structure(ndim, 1)` (faces
  /// only). Asymmetric structures are accepted, as SciPy accepts them: element e then passes its label
  /// to e + offset only (a directed neighbourhood).
  std::optional<ndarray> structure{};
  /// `output=`: nothing or a dtype (SciPy ignores a dtype and uses the markers' dtype), or an existing
  /// device array of a signed integer dtype and the input's shape (any layout) that receives the
  /// labels and is returned.
  output_arg output{};
  /// cusci's extension (SciPy has no such argument): false (default) floods on the GPU and breaks
  /// ties between equal-cost labels as documented at watershed_ift; true runs SciPy's own queue order
  /// on the host (copies in and out, synchronizes, sequential: SciPy's speed, not the GPU's), which
  /// gives SciPy's array bit for bit, ties and SciPy's queue quirk included.
  bool scipy_order = false;
};

/// Keyword arguments of the host form of watershed_ift.
struct watershed_host_options {
  /// As watershed_options::structure, on the host.
  std::optional<host_array> structure{};
  /// The dtype of SciPy's `output=` array (signed integer): the labels are computed as that dtype
  /// holds them and returned in it. Not given: the markers' dtype.
  std::optional<cusci::dtype> output{};
};

/// Watershed from markers by the image foresting transform with the max-arc path cost (Falcão,
/// Stolfi and Lotufo, "The image foresting transform: theory, algorithms, and applications",
/// IEEE TPAMI 26(1), 2004), as scipy.ndimage.watershed_ift computes it.
///
/// Each element takes the label of a marker joined to it by a path of least cost, where a path's
/// cost is the largest absolute difference |input[a] - input[b]| between consecutive elements of the
/// path. Markers are the non-zero elements of `markers`; negative markers are background markers,
/// which SciPy's queue processes after the object markers of the same cost. Elements no marker
/// reaches keep 0.
///
/// @param input   [any shape, at most 7 axes] uint8 or uint16, any layout (C, F, strided, reversed,
///                zero strides).
/// @param markers the input's shape; int8, int16, int32 or int64; any layout. As in SciPy's C loop,
///                a marker value is read as a C int (int64 values are truncated to 32 bits) and
///                written to the output dtype; an element is a marker when that int is non-zero; the
///                sign that decides background priority is the sign of the label in the output dtype.
/// @param opts    structure and output (watershed_options).
/// @returns the labels, of the markers' dtype (or the output array's), C-contiguous when new.
///
/// Neighbourhood: as SciPy, neighbours are taken in the flat C-order index space: the neighbour of
/// flat index e at structure offset o is e + (o's flat stride offset) whenever that lies in
/// [0, size), so a neighbour across the end of a row (the last element of one row and the first of
/// the next, with a structure holding that offset) is a neighbour. This reproduces SciPy's results.
///
/// Result and tie-breaking: every element gets a label whose path cost is minimal, so the result
/// equals SciPy's wherever that label is unique (the usual case away from watershed lines). Where
/// several labels reach an element at the same minimal cost, SciPy's answer depends on its queue order
/// (object markers last-in-first-out, background markers first-in-first-out within a cost, and a
/// queue quirk); cusci decides deterministically instead: costs are flooded level by level
/// (c = 0, then the next smallest cost that reaches an unlabelled element, ...). Where the structure
/// links only elements at most one row apart (flat offsets |o| <= w + 1, w the last axis's length;
/// 1-D inputs: w = 32; at most 8 offsets: every 2-D structure), the flat index space is viewed as rows
/// of w elements cut into tiles of 1024 (32 x 32), and each flooding step floods every tile to local
/// convergence in breadth-first sub-waves: the first sub-wave sees every neighbour labelled before
/// the step, later ones only in-tile neighbours labelled in an earlier sub-wave, so labels spread
/// breadth-first inside a tile and by one tile per step across tiles (tie boundaries can follow tile
/// borders). Other structures flood in breadth-first waves of one element over the whole array. In
/// each (sub-)wave an element reached by several labelled neighbours takes the label of a neighbour
/// with a non-negative label before one with a negative label, and among those the neighbour whose
/// structure element comes first in C order. Each step reads only the state before it (a tile
/// ignores what other tiles label during the same step), so the result does not depend on thread
/// scheduling.
///
/// Streams: enqueued on the current stream; synchronizes once per 32 flooding steps to read the
/// "finished" flag (the steps themselves are launched without host round trips).
/// @throws type_error input not uint8 / uint16 ("only 8 and 16 unsigned inputs are supported").
/// @throws runtime_error structure of another rank ("structure and input must have equal rank"),
///         structure dimensions other than 3 ("structure dimensions must be equal to 3"), markers of
///         another shape ("input and markers must have equal shape"), markers not of a signed integer
///         dtype ("marker should be of integer type"), an output array not of a signed integer dtype
///         ("output should be of integer type") or of another shape ("output shape not correct"),
///         more than 7 axes ("too many dimensions"), all as SciPy's RuntimeError.
/// @throws value_error an output array or markers on another device.
/// @throws not_implemented_error inputs of 2**31 elements or more.
/// SciPy's own result is not always a least-cost labelling: its queue does not unlink an element that
/// is alone in its cost bucket when the element moves to a lower bucket, and a background label
/// appended to that bucket later splices the two lists, so some elements are settled before their
/// least cost is known (only with negative labels; seen on 107 of 120,521 elements of the reference
/// cases). There cusci's default path gives the least-cost label; `scipy_order = true` gives SciPy's.
/// SciPy: `scipy.ndimage.watershed_ift(input, markers, structure=None, output=None)`. Deviation (default
/// path only): the label chosen among equal-cost labels, and the least-cost label where SciPy's queue
/// quirk settles an element early (above).
ndarray watershed_ift(const ndarray& input, const ndarray& markers, const watershed_options& opts = {});

/// watershed_ift on host arrays with SciPy's queue order (the algorithm of
/// `watershed_options::scipy_order`): SciPy's result bit for bit. Same arguments and exceptions as
/// the device form (an output dtype that is not a signed integer: runtime_error "output should be of
/// integer type"). Sequential, on the calling thread; no device work.
/// SciPy: `scipy.ndimage.watershed_ift`. No deviation.
host_array watershed_ift(const host_array& input, const host_array& markers, const watershed_host_options& opts = {});

}  // namespace cusci::ndimage

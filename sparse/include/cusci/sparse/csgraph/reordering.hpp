#pragma once
/// @file reordering.hpp
/// cusci::sparse::csgraph::reverse_cuthill_mckee (SciPy's `scipy.sparse.csgraph.reverse_cuthill_mckee`).
/// structural_rank, also in SciPy's reordering module, is declared in flow.hpp with the matchings.

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// Keyword arguments of reverse_cuthill_mckee (SciPy's names and defaults).
struct reverse_cuthill_mckee_options {
  /// false: the ordering is computed on the pattern of A + A^T (entries where the sum is 0 dropped, as
  /// SciPy's sparse addition); true: the input's compressed arrays are used as they are (the caller
  /// guarantees a symmetric pattern; for a CSC input its column structure is used, as SciPy does).
  bool symmetric_mode = false;
};

/// The Reverse Cuthill-McKee permutation of a sparse matrix (the bandwidth-reducing node order).
///
/// @param graph (N, N) csr_matrix or csc_matrix (any value dtype, int32/int64 indices), N >= 1.
/// @return ndarray int32 [N]: the permutation (SciPy's `order[::-1]`).
///
/// SciPy's algorithm, reproduced exactly: degree(i) = stored entries of row i (+1 when the diagonal is
/// stored); components are started from their node of lowest degree, in the order of an argsort of the
/// degrees; from a node, its unvisited neighbours are appended in storage order, then sorted stably by
/// degree (SciPy's insertion sort); the final order is reversed.
/// Deviation: SciPy's argsort of the degrees is NumPy's default (unstable) quicksort, so among nodes of
/// equal lowest degree the start node SciPy picks depends on NumPy's sorting kernel (its SIMD variant);
/// cusci breaks those ties by the lowest node index (a stable argsort). Graphs whose start nodes are
/// unambiguous get SciPy's permutation exactly.
///
/// The neighbour order is that of the arrays the search reads, as in SciPy: for symmetric_mode=false
/// those of SciPy's A + A^T, whose rows are sorted when the input has canonical format, and otherwise
/// (duplicates or unsorted indices: SciPy's general addition) in reverse order of first appearance
/// of each index in (the input's row i as stored, then the rows holding i, ascending); cusci
/// reproduces that order.
///
/// Where it runs (GPU): A + A^T by cusci's sparse addition (for a non-canonical input, its rows are
/// then put into SciPy's order on the host, over a copy of the input's and the sum's index arrays,
/// in linear time); the degrees and their stable argsort
/// (CUB radix sort); then one persistent block of 1024 threads runs the Cuthill-McKee BFS level by
/// level without returning to the host: the nodes of a level offer themselves to their neighbours,
/// the first parent in the order (then the first offset in its row) winning; each parent counts its
/// children, a block scan gives their offsets, and each parent places its children sorted by
/// (degree, offset in its row), SciPy's insertion sort. Nodes of degree 0 are placed in bulk.
/// Three forms:
///   - a row longer than 2048 entries (checked first: both device forms place a parent's children
///     with a sort quadratic in its row's length): on the host over a copy of the pattern (the same
///     algorithm, sequential);
///   - else N <= 2^19 (when the visited bitmap fits in a block's shared memory beside the claim table
///     and the levels: always on sm_90): the levels, the visited nodes and the claims (a hash table)
///     in shared memory. It gives up, and the next form runs, when a level has more than 4096 nodes
///     or claims more than 4096;
///   - else: the claims as 64-bit atomicMin keys ((position + 1) << 32 | offset in the row) in global
///     memory, a group of lanes per parent (sized by the mean row length).
/// Stream: synchronizes (the addition, the canonical-format check, the longest row, the outcome of the
/// one-block search, the result).
/// @throws cusci::type_error "Input must be in CSC or CSR sparse format." for other formats (SciPy's
///         TypeError); cusci::value_error when the matrix is not square, or empty (N == 0: SciPy fails
///         inside np.max with a ValueError); messages prefixed
///         "cusci::sparse::csgraph::reverse_cuthill_mckee: ".
/// SciPy: `reverse_cuthill_mckee(graph, symmetric_mode=False)`.
ndarray reverse_cuthill_mckee(const spmatrix& graph, const reverse_cuthill_mckee_options& options = {});

}  // namespace cusci::sparse::csgraph

#pragma once
// The one-block Cuthill-McKee search of the traversal family's kernels (traversal_kernels.cu), for
// reverse_cuthill_mckee on small graphs. Host declaration only.

#include <cstdint>

#include <cuda_runtime_api.h>

namespace cusci::sparse::csgraph::detail {

/// SciPy's Cuthill-McKee order (not yet reversed) of the symmetric pattern (indptr [n + 1] int64,
/// indices int32) in one thread block: order [n]. degree [n]: SciPy's _node_degrees (row length, +1
/// where the diagonal is stored); seeds [n]: the nodes by ascending degree (a stable argsort), the
/// start nodes in SciPy's order. Returns false, with `order` undefined, when the graph does not fit the
/// block: more than 2^19 nodes, a visited bitmap beyond the device's shared memory, a level of more
/// than 4096 nodes or claiming more than 4096; the caller
/// then runs its general kernel. Synchronizes (reads the outcome).
bool rcm_block_device(const std::int64_t* indptr, const std::int32_t* indices, const std::int32_t* degree,
                      const std::int32_t* seeds, std::int32_t n, std::int32_t* order, cudaStream_t s);

}  // namespace cusci::sparse::csgraph::detail

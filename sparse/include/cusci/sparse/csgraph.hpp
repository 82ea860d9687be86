#pragma once
/// @file csgraph.hpp
/// cusci::sparse::csgraph: SciPy's `scipy.sparse.csgraph` (graph algorithms on sparse and dense
/// matrices). Every family's header; see docs/sparse-csgraph.md for the conventions (the graph
/// argument, directed/undirected, explicit zeros, null values) and where each algorithm runs.

#include "cusci/sparse/csgraph/flow.hpp"
#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/csgraph/laplacian.hpp"
#include "cusci/sparse/csgraph/predecessors.hpp"
#include "cusci/sparse/csgraph/reordering.hpp"
#include "cusci/sparse/csgraph/shortest_path.hpp"
#include "cusci/sparse/csgraph/spanning_tree.hpp"
#include "cusci/sparse/csgraph/tools.hpp"
#include "cusci/sparse/csgraph/traversal.hpp"

# Tests of the traversal family of cusci::sparse::csgraph (references:
# tests/golden/gen_sparse_csgraph_traversal.py). The host test also runs the family's host algorithms
# (strong components, depth-first order, reference BFS, tree building) through its internal header.
cusci_add_test(test_sparse_csgraph_traversal_host LABEL host SOURCES csgraph/traversal/test_traversal_host.cpp
               LINK cusci::sparse)
target_include_directories(test_sparse_csgraph_traversal_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
cusci_add_test(test_sparse_csgraph_traversal_gpu LABEL gpu SOURCES csgraph/traversal/test_traversal_gpu.cpp
               LINK cusci::sparse)
target_include_directories(test_sparse_csgraph_traversal_gpu PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)

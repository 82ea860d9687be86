# Tests of the flow family of cusci::sparse::csgraph (minimum_spanning_tree, reverse_cuthill_mckee,
# matchings, structural_rank, maximum_flow; references: tests/golden/gen_sparse_csgraph_flow.py). The
# host test runs the family's host algorithms (Cuthill-McKee, Hopcroft-Karp, the assignment, the
# flows) through its internal header.
cusci_add_test(test_sparse_csgraph_flow_host LABEL host SOURCES csgraph/flow/test_flow_host.cpp LINK cusci::sparse)
target_include_directories(test_sparse_csgraph_flow_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
cusci_add_test(test_sparse_csgraph_flow_gpu LABEL gpu SOURCES csgraph/flow/test_flow_gpu.cpp LINK cusci::sparse)
target_include_directories(test_sparse_csgraph_flow_gpu PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)

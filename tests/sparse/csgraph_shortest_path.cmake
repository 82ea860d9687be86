# Tests of the shortest_path family of cusci::sparse::csgraph (references:
# tests/golden/gen_sparse_csgraph_shortest_path.py). The host test also runs the host algorithms (Yen,
# potentials, the 'auto' rule, indices handling) through the family's internal header.
cusci_add_test(test_sparse_csgraph_shortest_path_host LABEL host
               SOURCES csgraph/shortest_path/test_shortest_path_host.cpp LINK cusci::sparse)
target_include_directories(test_sparse_csgraph_shortest_path_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
cusci_add_test(test_sparse_csgraph_shortest_path_gpu LABEL gpu
               SOURCES csgraph/shortest_path/test_shortest_path_gpu.cpp LINK cusci::sparse)

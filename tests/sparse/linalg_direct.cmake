# Tests of the direct solvers of cusci::sparse::linalg (spsolve, splu, spilu, factorized,
# spsolve_triangular, is_sptriangular, spbandwidth, inv, use_solver; references:
# tests/golden/gen_sparse_linalg_direct.py). The host test runs the host SuperLU factorization
# through the internal header (sparse/src/linalg/direct_detail.hpp); the GPU test everything else.
cusci_add_test(test_sparse_linalg_direct_host LABEL host SOURCES linalg/direct/test_direct_host.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_direct_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
cusci_add_test(test_sparse_linalg_direct_gpu LABEL gpu SOURCES linalg/direct/test_direct_gpu.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_direct_gpu PRIVATE ${PROJECT_SOURCE_DIR}/linalg/include)

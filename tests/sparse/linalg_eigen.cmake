# Tests of cusci::sparse::linalg's eigensolvers, eigsh and svds (references:
# tests/golden/gen_sparse_linalg_eigen.py). The host test checks the options and every argument error
# (raised before any device work); the GPU test compares eigenvalues, eigenvectors (up to sign /
# phase), singular triplets, operator product counts and ARPACK's exceptions with SciPy's.
cusci_add_test(test_sparse_linalg_eigen_host LABEL host SOURCES linalg/eigen/test_eigen_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_linalg_eigen_gpu LABEL gpu SOURCES linalg/eigen/test_eigen_gpu.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_eigen_gpu PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/linalg/eigen)
target_include_directories(test_sparse_linalg_eigen_host PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/linalg/eigen)

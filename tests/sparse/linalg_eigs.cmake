# Tests of eigs and lobpcg (cusci/sparse/linalg/eigs.hpp, lobpcg.hpp; references:
# tests/golden/gen_sparse_linalg_eigs.py). The host test runs the ARPACK iteration of eigs
# (sparse/src/linalg/eigs_arpack.hpp) with a dense host Arnoldi, and the argument checks.
cusci_add_test(test_sparse_linalg_eigs_host LABEL host SOURCES linalg/eigs/test_eigs_host.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_eigs_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src ${PROJECT_SOURCE_DIR}/core/internal)
cusci_add_test(test_sparse_linalg_eigs_gpu LABEL gpu SOURCES linalg/eigs/test_eigs_gpu.cpp linalg/eigs/test_lobpcg_gpu.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_eigs_gpu PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)

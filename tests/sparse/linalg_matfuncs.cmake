# Tests of cusci::sparse::linalg's matrix functions (expm_multiply, onenormest, funm_multiply_krylov)
# and LaplacianNd (references: tests/golden/gen_sparse_linalg_matfuncs.py). The host test checks the
# argument validation (before any device work), the options' defaults and LaplacianNd's host side.
cusci_add_test(test_sparse_linalg_matfuncs_host LABEL host SOURCES linalg/matfuncs/test_matfuncs_host.cpp
               LINK cusci::sparse)
cusci_add_test(test_sparse_linalg_matfuncs_gpu LABEL gpu SOURCES linalg/matfuncs/test_matfuncs_gpu.cpp
               LINK cusci::sparse)

# Tests of the long-recurrence Krylov solvers of cusci::sparse::linalg (gmres, lgmres, gcrotmk, minres;
# references: tests/golden/gen_sparse_linalg_gmres.py). The host test checks the argument checks (data-less
# arrays, no device work), the option parsers and the Hessenberg least-squares helpers through the
# family's internal header.
cusci_add_test(test_sparse_linalg_gmres_host LABEL host SOURCES linalg/gmres/test_gmres_host.cpp LINK cusci::sparse)
target_include_directories(test_sparse_linalg_gmres_host PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
cusci_add_test(test_sparse_linalg_gmres_gpu LABEL gpu SOURCES linalg/gmres/test_gmres_gpu.cpp LINK cusci::sparse)

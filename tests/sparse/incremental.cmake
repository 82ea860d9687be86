# Tests of the incremental family of cusci::sparse (dok_matrix, lil_matrix).
cusci_add_test(test_sparse_incremental_host LABEL host SOURCES incremental/incremental_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_incremental_gpu LABEL gpu SOURCES incremental/incremental_gpu.cpp LINK cusci::sparse)

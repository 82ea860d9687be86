# Tests of the construct family of cusci::sparse (constructors, arithmetic, comparisons).
cusci_add_test(test_sparse_construct_host LABEL host SOURCES construct/construct_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_construct_gpu LABEL gpu SOURCES construct/construct_gpu.cpp LINK cusci::sparse)

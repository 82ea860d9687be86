# Tests of the formats family of cusci::sparse.
cusci_add_test(test_sparse_formats_host LABEL host SOURCES formats/formats_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_formats_gpu LABEL gpu SOURCES formats/formats_gpu.cpp LINK cusci::sparse)

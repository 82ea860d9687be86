# Tests of the coo_nd family of cusci::sparse (n-dimensional coo_array): argument checks (host) and
# SciPy references (gpu).
cusci_add_test(test_sparse_coo_nd_host LABEL host SOURCES coo_nd/coo_nd_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_coo_nd_gpu LABEL gpu SOURCES coo_nd/coo_nd_gpu.cpp LINK cusci::sparse)

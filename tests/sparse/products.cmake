# Tests of the products family of cusci::sparse.
cusci_add_test(test_sparse_products_host LABEL host SOURCES products/products_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_products_gpu LABEL gpu SOURCES products/products_gpu.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_dense_sparse_host LABEL host SOURCES products/dense_sparse_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_dense_sparse_gpu LABEL gpu SOURCES products/dense_sparse_gpu.cpp LINK cusci::sparse)

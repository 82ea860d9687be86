# Tests of the products family of cusci::core.
cusci_add_test(test_core_products_host LABEL host SOURCES products/test_products_host.cpp)
cusci_add_test(test_core_products_gpu LABEL gpu SOURCES products/test_products_gpu.cpp)

# Sources of the products family of cusci::sparse.
target_sources(cusci_sparse PRIVATE ${CMAKE_CURRENT_LIST_DIR}/products_kernels.cu)
target_sources(cusci_sparse PRIVATE ${CMAKE_CURRENT_LIST_DIR}/products_spgemm.cpp)
target_sources(cusci_sparse PRIVATE ${CMAKE_CURRENT_LIST_DIR}/products_reduce.cpp)

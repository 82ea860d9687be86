# Sources of the formats family of cusci::sparse.
target_sources(cusci_sparse PRIVATE ${CMAKE_CURRENT_LIST_DIR}/formats_kernels.cu ${CMAKE_CURRENT_LIST_DIR}/formats_transpose.cu
                             ${CMAKE_CURRENT_LIST_DIR}/formats_host.cpp)

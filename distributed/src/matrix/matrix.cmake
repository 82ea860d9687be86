# Sources of the matrix family of cusci::distributed: distributed vectors (their all-gather, dot product
# and norm) and the row-partitioned CSR matrix (its three construction paths, the streaming Matrix
# Market reader, the product with the halo exchange overlapped), with their kernels.
target_sources(cusci_distributed PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/vector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix_market.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix_kernels.cu
)
# zlib (found by cmake/cusci_dependencies.cmake): the Matrix Market reader reads .mtx.gz files too.
target_link_libraries(cusci_distributed PRIVATE ZLIB::ZLIB)

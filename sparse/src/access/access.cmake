# Sources of the access family of cusci::sparse: indexing, assignment, reshape/resize.
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/access_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/access_kernels.cu
)

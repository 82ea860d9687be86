# Sources of the formats family of cusci::sparse: the format classes (coo, csr, csc, dia, bsr) on the
# host, their conversions and index maintenance on the device, CSR <-> CSC transposition.
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/matrix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/formats_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/convert.cu
  ${CMAKE_CURRENT_LIST_DIR}/formats_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/formats_transpose.cu
)

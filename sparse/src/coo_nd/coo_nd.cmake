# Sources of the coo_nd family of cusci::sparse: n-dimensional COO arrays (coo_array.hpp). The host
# side composes core's array functions, the formats family's sorts and scatters and the products
# family's SpGEMM/SpMM; the one kernel of its own remaps coordinates (reshape, transpose, 2-D views).
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/coo_array.cpp
  ${CMAKE_CURRENT_LIST_DIR}/coo_nd_kernels.cu
)

# Sources shared by the linalg families: status and info read-back (common.cpp), and the strided
# batch gathers with the cuSOLVER LU / Cholesky calls used by both solve and cholesky (dense.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense.cu)

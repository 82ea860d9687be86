# Sources of the solve family of cusci::linalg: solve's host driver (solve.cpp) and its fused register
# kernels for orders up to 32 (small_lu.cu, small_chol_solve.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/small_chol_solve.cu)

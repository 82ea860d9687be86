# Sources of the factor family of cusci::linalg: cholesky's host driver (cholesky.cpp) and its fused
# register kernel for orders up to 32 (small_cholesky.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_cholesky.cu)

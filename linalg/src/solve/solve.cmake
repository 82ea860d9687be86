# Sources of the solve family of cusci::linalg: solve's host driver (solve.cpp: shapes, structures, the
# SciPy error list, warnings), its fused register kernels for orders up to 32 (small_lu.cu,
# small_chol_solve.cu; small_lu.cu also computes the condition estimate, small_cond.cuh), the fused
# kernel with the estimate for orders 33..64 (medium_lu.cu, on common/medium.cuh) and the per-slice
# condition estimate of the other cases (solve_cond.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/medium_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/small_chol_solve.cu
  ${CMAKE_CURRENT_LIST_DIR}/solve_cond.cu)

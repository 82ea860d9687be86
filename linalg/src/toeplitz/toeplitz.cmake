# Sources of the toeplitz family of cusci::linalg (solve_toeplitz, matmul_toeplitz, solve_circulant): the
# host drivers (toeplitz.cpp: SciPy's checks and batching; matmul_toeplitz and solve_circulant through
# core's cuFFT transforms) and the Levinson-Durbin kernel, one block per system (toeplitz_kernels.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/toeplitz.cpp
  ${CMAKE_CURRENT_LIST_DIR}/toeplitz_kernels.cu)

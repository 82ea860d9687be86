# Sources of the lu family of cusci::linalg (lu, lu_factor, lu_solve, inv, det): the host drivers
# (lu.cpp) and the kernels in one translation unit (lu_kernels.cu): the register LU kernel for matrices
# up to 32 x 32, the batched engine (cuBLAS getrf/getri/getrsBatched, cuSOLVER Xgetrf/Xgetrs, unpacking,
# determinants) and the medium engine's kernels for orders 33..64 (common/medium.cuh: factors, inverses,
# determinants).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lu_kernels.cu)

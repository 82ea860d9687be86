# Sources of the lu family of cusci::linalg (lu, lu_factor, lu_solve, inv, det): the host drivers
# (lu.cpp), the register LU kernel for matrices up to 32 x 32 (lu_small.cu) and the batched engine
# (lu_engine.cu: cuBLAS getrf/getri/getrsBatched, cuSOLVER Xgetrf/Xgetrs, unpacking, determinants) with
# its block-per-matrix kernels for orders 33..64 (lu_medium.cu: inverses and determinants).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lu_small.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu_medium.cu)

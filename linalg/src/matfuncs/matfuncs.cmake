# Sources of the matfuncs family of cusci::linalg (expm, cosm, sinm, tanm, coshm, sinhm, tanhm,
# expm_frechet, expm_cond): the host drivers (matfuncs.cpp) and the kernels and cuBLAS/cuSOLVER calls in
# one translation unit (matfuncs_kernels.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/matfuncs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matfuncs_kernels.cu)

# Sources of the eigen family of cusci::linalg (eigh, eigvalsh, eig, eigvals, eig_banded, eigvals_banded,
# eigh_tridiagonal, eigvalsh_tridiagonal, pinvh): the host drivers (eigen.cpp) and, in one translation unit,
# the cuSOLVER / cuBLAS calls and the kernels around them (eigen.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eigen.cu)

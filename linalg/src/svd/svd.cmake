# Sources of the svd family of cusci::linalg (svd, svdvals, diagsvd, orth, null_space, subspace_angles,
# orthogonal_procrustes, polar, pinv, lstsq): the host drivers (svd.cpp) and the device work in one
# translation unit (svd_kernels.cu: the one-block-a-matrix Jacobi SVD kernel, the cuSOLVER Xgesvdp /
# Xgesvd path, relayout and diagonal kernels).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/svd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svd_kernels.cu)

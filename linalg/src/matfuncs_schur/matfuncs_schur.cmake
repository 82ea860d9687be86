# Sources of the matfuncs_schur family of cusci::linalg (sqrtm, logm, funm, signm,
# fractional_matrix_power): the host drivers (matfuncs_schur.cpp) and the host triangular kernels
# (tri_host.cpp). No device code of its own (Schur forms through the schur family, products through core).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/matfuncs_schur.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tri_host.cpp)

# Sources of the triangular family of cusci::linalg: the host drivers (triangular.cpp) of
# solve_triangular, cho_factor, cho_solve, the banded solvers and the structure queries, and their
# kernels in one translation unit (triangular_kernels.cu: triangular substitution, band LU / band
# Cholesky, bandwidth and symmetry tests).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/triangular.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangular_kernels.cu)

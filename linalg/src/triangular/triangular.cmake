# Sources of the triangular family of cusci::linalg: the host drivers (triangular.cpp) of
# solve_triangular, cho_factor, cho_solve, the banded solvers and the structure queries, and their
# kernels: triangular substitution (tri_solve.cu), band LU / band Cholesky (banded.cu), bandwidth and
# symmetry tests (structure.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/triangular.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tri_solve.cu
  ${CMAKE_CURRENT_LIST_DIR}/banded.cu
  ${CMAKE_CURRENT_LIST_DIR}/structure.cu)

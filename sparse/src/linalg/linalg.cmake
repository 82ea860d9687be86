# Sources of the linalg family of cusci::sparse (scipy.sparse.linalg): linear operators, the Jacobi
# preconditioner, cg (whose CSR-stream and CSR-vector kernels spmv.cpp also uses).
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/linear_operator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cg.cu
)

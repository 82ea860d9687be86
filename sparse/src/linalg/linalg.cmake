# Sources of the linalg family of cusci::sparse (scipy.sparse.linalg): linear operators, the Jacobi
# preconditioner, cg (whose CSR-stream and CSR-vector kernels spmv.cpp also uses), and the solver
# families, one or more sources each (krylov_*.cpp/.cu, lsq_*.cpp, ...): every source in this folder.
file(GLOB _cusci_sparse_linalg_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.cu)
target_sources(cusci_sparse PRIVATE ${_cusci_sparse_linalg_sources})
include(${CMAKE_CURRENT_LIST_DIR}/direct.cmake)

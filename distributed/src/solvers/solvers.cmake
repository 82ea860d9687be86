# The distributed Krylov solvers (cg, bicgstab, gmres) and their preconditioners (Jacobi, block Jacobi
# ILU(0)): SciPy's iterations as the one-GPU solvers of cusci::sparse::linalg, with the ranks' partial
# dot products all-reduced. krylov_kernels.cu holds the rank-local fused vector passes; the solvers' host
# logic is in one .cpp each.
target_sources(cusci_distributed PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/krylov_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preconditioners.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bicgstab.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gmres.cpp)

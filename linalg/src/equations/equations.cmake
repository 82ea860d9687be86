# Sources of the equations family of cusci::linalg (solve_sylvester, solve_continuous_lyapunov /
# solve_lyapunov, solve_discrete_lyapunov): the host drivers (equations.cpp) and the helpers shared with
# the matfuncs_schur family (eq_host.cpp: dtype rules, host staging, LAPACK ?trsyl). No device code of
# its own: Schur forms through the schur family, products through core, LAPACK linked by
# linalg/src/schur/schur.cmake.
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/equations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eq_host.cpp)

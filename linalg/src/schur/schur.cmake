# Sources of the schur family of cusci::linalg (schur, rsf2csf, hessenberg, matrix_balance, qz, ordqz,
# cdf2rdf): the host drivers (schur.cpp), the LAPACK calls per matrix on host threads (schur_lapack.cpp)
# and, in one translation unit, the rsf2csf / cdf2rdf kernels (schur.cu).
# Reference LAPACK (found in linalg/CMakeLists.txt) runs the sequential Schur / QZ iterations and
# reorderings.
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/schur.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schur_lapack.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schur.cu)
target_link_libraries(cusci_linalg PRIVATE LAPACK::LAPACK Threads::Threads)

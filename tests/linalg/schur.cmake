# Tests of the schur family of cusci::linalg (schur, rsf2csf, hessenberg, matrix_balance, qz, ordqz, cdf2rdf):
# SciPy's defaults, the argument checks that throw before any device work, and the host LAPACK part
# (schur_lapack.cpp compiled in, called directly) on the references (host); every case of
# tests/golden/gen_linalg_schur.py through the public functions (gpu).
find_package(LAPACK REQUIRED)
cusci_add_test(test_linalg_schur_host LABEL host
  SOURCES schur/test_schur_host.cpp ${PROJECT_SOURCE_DIR}/linalg/src/schur/schur_lapack.cpp
  LINK cusci::linalg LAPACK::LAPACK)
target_include_directories(test_linalg_schur_host PRIVATE ${PROJECT_SOURCE_DIR}/linalg/src)
cusci_add_test(test_linalg_schur_gpu LABEL gpu SOURCES schur/test_schur_gpu.cpp LINK cusci::linalg)

# Tests of the matfuncs_schur family of cusci::linalg (sqrtm, logm, funm, signm, fractional_matrix_power):
# argument checks that throw before any device work (host), and every case of
# tests/golden/gen_linalg_matfuncs_schur.py with the round trips sqrtm(A)^2 = A and expm(logm(A)) = A (gpu).
cusci_add_test(test_linalg_matfuncs_schur_host LABEL host SOURCES matfuncs_schur/test_matfuncs_schur_host.cpp
               LINK cusci::linalg)
cusci_add_test(test_linalg_matfuncs_schur_gpu LABEL gpu SOURCES matfuncs_schur/test_matfuncs_schur_gpu.cpp
               LINK cusci::linalg)

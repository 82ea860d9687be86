# Tests of the matfuncs family of cusci::linalg (expm, cosm, sinm, tanm, coshm, sinhm, tanhm, expm_frechet,
# expm_cond): argument checks that throw before any device work (host), and every case of
# tests/golden/gen_linalg_matfuncs.py (gpu).
cusci_add_test(test_linalg_matfuncs_host LABEL host SOURCES matfuncs/test_matfuncs_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_matfuncs_gpu LABEL gpu SOURCES matfuncs/test_matfuncs_gpu.cpp LINK cusci::linalg)

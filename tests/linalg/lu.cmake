# Tests of the lu family of cusci::linalg (lu, lu_factor, lu_solve, inv, det): argument checks that throw
# before any device work (host), and every case of tests/golden/gen_linalg_lu.py (gpu).
cusci_add_test(test_linalg_lu_host LABEL host SOURCES lu/test_lu_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_lu_gpu LABEL gpu SOURCES lu/test_lu_gpu.cpp LINK cusci::linalg)

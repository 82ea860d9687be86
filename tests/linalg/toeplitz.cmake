# Tests of the toeplitz family of cusci::linalg (solve_toeplitz, matmul_toeplitz, solve_circulant): option
# defaults and argument checks that throw before any device work (host), and every case of
# tests/golden/gen_linalg_toeplitz.py against scipy.linalg 1.18 (gpu).
cusci_add_test(test_linalg_toeplitz_host LABEL host SOURCES toeplitz/test_toeplitz_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_toeplitz_gpu LABEL gpu SOURCES toeplitz/test_toeplitz_gpu.cpp LINK cusci::linalg)

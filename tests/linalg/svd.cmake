# Tests of the svd family of cusci::linalg: argument checks that throw before any device work (host), and
# every case of tests/golden/gen_linalg_svd.py (gpu).
cusci_add_test(test_linalg_svd_host LABEL host SOURCES svd/test_svd_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_svd_gpu LABEL gpu SOURCES svd/test_svd_gpu.cpp LINK cusci::linalg)

# Tests of the ldl family of cusci::linalg (scipy.linalg.ldl): argument checks that throw before any device
# work (host), and every case of tests/golden/gen_linalg_ldl.py (gpu).
cusci_add_test(test_linalg_ldl_host LABEL host SOURCES ldl/test_ldl_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_ldl_gpu LABEL gpu SOURCES ldl/test_ldl_gpu.cpp LINK cusci::linalg)

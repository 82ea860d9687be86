# Tests of cusci::linalg's special matrices: argument checks that need no device (host), and every case
# of tests/golden/gen_linalg_special.py against scipy.linalg 1.18 (gpu).
cusci_add_test(test_linalg_special_host LABEL host SOURCES special/test_special_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_special_gpu LABEL gpu SOURCES special/test_special_gpu.cpp LINK cusci::linalg)

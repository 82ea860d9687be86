# Tests of the cossin family of cusci::linalg (scipy.linalg.cossin, host LAPACK): argument checks that throw
# before any transfer (host), and every case of tests/golden/gen_linalg_cossin.py (gpu: the inputs and
# results live on the device).
cusci_add_test(test_linalg_cossin_host LABEL host SOURCES cossin/test_cossin_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_cossin_gpu LABEL gpu SOURCES cossin/test_cossin_gpu.cpp LINK cusci::linalg)

# Tests of the qr family of cusci::linalg (qr, rq, qr_multiply): argument checks that throw before any
# device work (host), and every case of tests/golden/gen_linalg_qr.py (gpu).
cusci_add_test(test_linalg_qr_host LABEL host SOURCES qr/test_qr_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_qr_gpu LABEL gpu SOURCES qr/test_qr_gpu.cpp LINK cusci::linalg)

# Tests of the norm family of cusci::linalg (norm with check_finite, clarkson_woodruff_transform,
# cwt_matrix): argument checks that throw before any device work (host), and every case of
# tests/golden/gen_linalg_norm.py against scipy.linalg 1.18 plus the sketches' distributional
# properties (gpu).
cusci_add_test(test_linalg_norm_host LABEL host SOURCES norm/test_norm_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_norm_gpu LABEL gpu SOURCES norm/test_norm_gpu.cpp LINK cusci::linalg)

# Tests of the indexing family of cusci::core: argument parsing and validation that throws before any
# device work (host), and the NumPy goldens of tests/golden/gen_core_indexing.py (gpu).
cusci_add_test(test_core_indexing_host LABEL host SOURCES indexing/test_indexing_host.cpp)
cusci_add_test(test_core_indexing_gpu LABEL gpu SOURCES indexing/test_indexing_gpu.cpp)

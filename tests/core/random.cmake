# Tests of the random family of cusci::core.
cusci_add_test(test_core_random_host LABEL host SOURCES random/test_random_host.cpp)
cusci_add_test(test_core_random_gpu LABEL gpu SOURCES random/test_random_gpu.cpp)

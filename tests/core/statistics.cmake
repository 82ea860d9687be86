# Tests of the statistics family of cusci::core.
cusci_add_test(test_core_statistics_host LABEL host SOURCES statistics/test_statistics_host.cpp)
cusci_add_test(test_core_statistics_gpu LABEL gpu SOURCES statistics/test_statistics_gpu.cpp)

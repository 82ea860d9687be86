# Tests of the numeric family of cusci::core.
cusci_add_test(test_core_numeric_host LABEL host SOURCES numeric/test_numeric_host.cpp)
cusci_add_test(test_core_numeric_gpu LABEL gpu SOURCES numeric/test_numeric_gpu.cpp)

# Tests of the sorting family of cusci::core.
cusci_add_test(test_core_sorting_host LABEL host SOURCES sorting/test_sorting_host.cpp)
cusci_add_test(test_core_sorting_gpu LABEL gpu SOURCES sorting/test_sorting_gpu.cpp)

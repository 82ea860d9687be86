# Tests of the testing family of cusci::core (numpy.testing assertions, cupyx.profiler).
cusci_add_test(test_core_testing_host LABEL host SOURCES testing/test_testing_host.cpp)
cusci_add_test(test_core_testing_gpu LABEL gpu SOURCES testing/test_testing_gpu.cpp)

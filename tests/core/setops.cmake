# Tests of the setops family of cusci::core (setops.hpp, index_tricks.hpp).
cusci_add_test(test_core_setops_host LABEL host SOURCES setops/test_setops_host.cpp)
cusci_add_test(test_core_setops_gpu LABEL gpu SOURCES setops/test_setops_gpu.cpp)

# Tests of the reduction family of cusci::core (goldens: tests/golden/gen_core_reduction.py).
cusci_add_test(test_core_reduction_host LABEL host SOURCES reduction/test_reduction_host.cpp)
cusci_add_test(test_core_reduction_gpu LABEL gpu SOURCES reduction/test_reduction_gpu.cpp)

# Tests of the printing family of cusci::core: NumPy's str/repr/array2string strings compared exactly
# (host: host_array, print options, parsers, errors; gpu: the same cases on device arrays in C, F and
# strided layouts, summarised arrays copied by their corners).
cusci_add_test(test_core_printing_host LABEL host SOURCES printing/test_printing_host.cpp)
cusci_add_test(test_core_printing_gpu LABEL gpu SOURCES printing/test_printing_gpu.cpp)

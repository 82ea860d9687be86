# Tests of the elementwise family of cusci::core: ufuncs against NumPy goldens (gpu).
cusci_add_test(test_core_elementwise_gpu LABEL gpu SOURCES elementwise/test_ufunc_gpu.cpp)

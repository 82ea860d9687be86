# Tests of sparse printing: repr/str of every format against SciPy's strings (gpu: the matrices live on
# the device).
cusci_add_test(test_sparse_printing_gpu LABEL gpu SOURCES printing/test_printing_gpu.cpp LINK cusci::sparse)

# correlate / convolve (N-D weights) against SciPy (tests/golden/gen_ndimage_correlate.py).
cusci_add_test(test_ndimage_correlate_gpu LABEL gpu SOURCES correlate/correlate_gpu.cpp LINK cusci::ndimage)

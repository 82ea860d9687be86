# Tests of cusci::ndimage's grey morphology (grey_erosion, grey_dilation, grey_opening, grey_closing,
# morphological_gradient, morphological_laplace, white_tophat, black_tophat) against SciPy 1.18.1
# (tests/golden/gen_ndimage_grey.py): the GPU cases, and the argument errors (raised before any
# device work) as a host test.
cusci_add_test(test_ndimage_grey_gpu LABEL gpu SOURCES grey/grey_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_grey_host LABEL host SOURCES grey/grey_host.cpp LINK cusci::ndimage)

# Tests of cusci::ndimage's structuring elements and binary morphology against SciPy 1.18.1
# (tests/golden/gen_ndimage_morphology.py): the structures and the argument errors (raised before any
# device work) on the host, every binary case on the GPU.
cusci_add_test(test_ndimage_binary_morphology_host LABEL host SOURCES morphology/binary_host.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_binary_morphology_gpu LABEL gpu SOURCES morphology/binary_gpu.cpp LINK cusci::ndimage)

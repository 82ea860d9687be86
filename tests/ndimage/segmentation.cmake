# Tests of cusci::ndimage's segmentation (watershed_ift) against SciPy 1.18.1
# (tests/golden/gen_ndimage_watershed.py): the host form (SciPy's queue order, every case bit for bit)
# and SciPy's argument errors on the host; the GPU flooding and the scipy_order path on the GPU.
cusci_add_test(test_ndimage_watershed_host LABEL host SOURCES segmentation/watershed_host.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_watershed_gpu LABEL gpu SOURCES segmentation/watershed_gpu.cpp LINK cusci::ndimage)

# Tests of cusci::ndimage's distance transforms (distance_transform_edt, distance_transform_cdt,
# distance_transform_bf) against SciPy 1.18.1 (tests/golden/gen_ndimage_distance.py): every case on
# the GPU, and the argument errors (raised before any device work) as a host test.
cusci_add_test(test_ndimage_distance_gpu LABEL gpu SOURCES distance/distance_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_distance_host LABEL host SOURCES distance/distance_host.cpp LINK cusci::ndimage)

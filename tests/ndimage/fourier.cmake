# Tests of the fourier family of cusci::ndimage (fourier_gaussian, fourier_uniform, fourier_ellipsoid,
# fourier_shift) against tests/golden/gen_ndimage_fourier.py: the argument errors on the host (no
# device work before them), every case on the GPU.
cusci_add_test(test_ndimage_fourier_host LABEL host SOURCES fourier/fourier_host.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_fourier_gpu LABEL gpu SOURCES fourier/fourier_gpu.cpp LINK cusci::ndimage)

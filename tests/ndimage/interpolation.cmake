# Interpolation family (spline_filter1d, spline_filter, map_coordinates, affine_transform, shift,
# zoom, rotate): references from tests/golden/gen_ndimage_interpolation.py.
cusci_add_test(test_ndimage_interpolation_gpu LABEL gpu SOURCES interpolation/interpolation_gpu.cpp LINK cusci::ndimage)

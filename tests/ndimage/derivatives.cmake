# Tests of the derivative filters (prewitt, sobel, laplace, gaussian_laplace,
# gaussian_gradient_magnitude, generic_laplace, generic_gradient_magnitude) against the references of
# tests/golden/gen_ndimage_derivatives.py.
cusci_add_test(test_ndimage_derivatives_gpu LABEL gpu SOURCES derivatives/derivatives_gpu.cpp LINK cusci::ndimage)

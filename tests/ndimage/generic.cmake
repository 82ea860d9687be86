# Tests of cusci::ndimage's filters with a user function (generic_filter, generic_filter1d,
# vectorized_filter) against SciPy 1.18.1 (tests/golden/gen_ndimage_generic.py): the run-time-compiled
# form and the nvcc functor form on the GPU, and the argument errors (raised before any device work)
# as a host test.
cusci_add_test(test_ndimage_generic_gpu LABEL gpu SOURCES generic/generic_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_generic_nvcc_gpu LABEL gpu SOURCES generic/generic_nvcc_gpu.cu LINK cusci::ndimage)
cusci_add_test(test_ndimage_generic_host LABEL host SOURCES generic/generic_host.cpp LINK cusci::ndimage)
target_compile_options(test_ndimage_generic_nvcc_gpu PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)

# Tests of cusci::ndimage's labelling and measurements against SciPy 1.18.1
# (tests/golden/gen_ndimage_measurements.py): every case on the GPU (labeled_comprehension in its
# run-time-compiled form), the functor form of labeled_comprehension (nvcc), and the argument errors
# raised before any device work as a host test.
cusci_add_test(test_ndimage_measurements_gpu LABEL gpu SOURCES measurements/measurements_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_measurements_nvcc_gpu LABEL gpu SOURCES measurements/measurements_nvcc_gpu.cu
               LINK cusci::ndimage)
cusci_add_test(test_ndimage_measurements_host LABEL host SOURCES measurements/measurements_host.cpp LINK cusci::ndimage)
target_compile_options(test_ndimage_measurements_nvcc_gpu PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)

# Interpolation family (spline_filter1d, spline_filter, map_coordinates, affine_transform, shift,
# zoom, rotate): references from tests/golden/gen_ndimage_interpolation.py.
cusci_add_test(test_ndimage_interpolation_gpu LABEL gpu SOURCES interpolation/interpolation_gpu.cpp LINK cusci::ndimage)
# geometric_transform, references from tests/golden/gen_ndimage_geometric.py: the run-time-compiled
# form (NVRTC) from a plain C++ test, the functor form (nvcc/geometric_transform.cuh) from a CUDA test
# compiled without fused multiply-adds (so the mappings round as SciPy's), and a host test of the
# chunking and of the generated NVRTC source.
cusci_add_test(test_ndimage_geometric_gpu LABEL gpu SOURCES interpolation/geometric_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_geometric_nvcc_gpu LABEL gpu SOURCES interpolation/geometric_nvcc_gpu.cu LINK cusci::ndimage)
set_source_files_properties(interpolation/geometric_nvcc_gpu.cu PROPERTIES COMPILE_OPTIONS
                            "--fmad=false;--extended-lambda")
cusci_add_test(test_ndimage_geometric_host LABEL host SOURCES interpolation/geometric_host.cpp LINK cusci::ndimage)

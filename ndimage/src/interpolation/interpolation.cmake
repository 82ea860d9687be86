# Sources of the interpolation family of cusci::ndimage: the host wrappers with SciPy's argument
# handling (interpolation.cpp: spline_filter1d, spline_filter, map_coordinates, affine_transform,
# shift, zoom, rotate; geometric_transform.cpp: geometric_transform, its chunking and its
# NVRTC-compiled mapping kernel), the B-spline prefilter's kernels (spline_filter.cu) and the resampling
# kernels (resample.cu: host entry and the any-dtype generic kernel; resample_f32.cu /
# resample_f64.cu: the generic and specialised kernels per input type). The kernels reproduce
# ni_splines.c / ni_interpolation.c operation by operation, so they are compiled without fused
# multiply-adds.
set(_interp_kernels
    ${CMAKE_CURRENT_LIST_DIR}/spline_filter.cu ${CMAKE_CURRENT_LIST_DIR}/resample.cu
    ${CMAKE_CURRENT_LIST_DIR}/resample_f32.cu ${CMAKE_CURRENT_LIST_DIR}/resample_f64.cu)
target_sources(cusci_ndimage PRIVATE ${CMAKE_CURRENT_LIST_DIR}/interpolation.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/geometric_transform.cpp ${_interp_kernels})
set_source_files_properties(${_interp_kernels} PROPERTIES COMPILE_OPTIONS
                            "$<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>")

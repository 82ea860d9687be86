# Sources of the distance family of cusci::ndimage: distance_transform_edt, distance_transform_cdt and
# distance_transform_bf. distance.cpp: SciPy's argument handling (return flags, metric, sampling,
# preallocated arrays); distance_kernels.cu: the feature transforms (separable exact Euclidean, the
# chamfer raster passes, brute force) and the output kernels, compiled without fused multiply-adds so
# that SciPy's double expressions (and so its choices on ties) are reproduced exactly.
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/distance.cpp
  ${CMAKE_CURRENT_LIST_DIR}/distance_kernels.cu)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/distance_kernels.cu PROPERTIES COMPILE_OPTIONS
                            "$<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>")

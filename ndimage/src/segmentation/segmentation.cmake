# Sources of the segmentation family of cusci::ndimage: watershed_ift. watershed.cpp: SciPy's
# argument handling; watershed_kernels.cu: the level-by-level flooding on the GPU;
# watershed_queue.cpp: SciPy's queue order on the host (the scipy_order path and the host form).
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/watershed.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watershed_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watershed_kernels.cu)

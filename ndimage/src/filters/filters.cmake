# Sources of the filters family of cusci::ndimage: the host wrappers with SciPy's argument handling
# (filters.cpp, filter_common.cpp, mode.cpp, gaussian_kernel.cpp) and one .cu per policy family:
# correlate1d.cu (weights: correlate1d, convolve1d, the Gaussian filters), uniform.cu (running mean:
# uniform_filter1d, uniform_filter), min_max.cu (minimum / maximum on both engines).
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gaussian_kernel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/filter_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/filters.cpp
  ${CMAKE_CURRENT_LIST_DIR}/uniform_filter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/min_max_filter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/correlate1d.cu
  ${CMAKE_CURRENT_LIST_DIR}/uniform.cu
  ${CMAKE_CURRENT_LIST_DIR}/min_max.cu)

# Sources of the filters family of cusci::ndimage: the host wrappers with SciPy's argument handling
# (filters.cpp, filter_common.cpp, mode.cpp, gaussian_kernel.cpp, one .cpp per group of filters) and
# one .cu per policy family (correlate1d.cu: weights; uniform.cu: running mean; min_max.cu: minimum /
# maximum on both engines; ...). Every .cpp and .cu file of this folder is a source.
file(GLOB _filters_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.cu)
target_sources(cusci_ndimage PRIVATE ${_filters_sources})

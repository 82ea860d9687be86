# Sources of the generic family of cusci::ndimage: generic_filter, generic_filter1d and
# vectorized_filter with a user function. generic_plan.cpp: SciPy's argument handling and the host
# preparation shared by both forms (public detail/generic_plan.hpp); generic_kernels.cu: the padded
# copy and the x86-64 cast of the results; generic_rtc.cpp: the kernel source generated around a
# device_function and its compilation through cusci::rtc. The functor form lives in the public
# nvcc/generic_filters.cuh.
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/generic_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generic_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/generic_rtc.cpp)

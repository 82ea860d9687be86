# Sources of the measurements family of cusci::ndimage: label, find_objects, value_indices and the
# measurements over labelled regions. label.cpp / measurements.cpp: SciPy's argument handling;
# comprehension_rtc.cpp: labeled_comprehension's generated kernel (the functor form is the public
# nvcc/measurements.cuh); label_kernels.cu: union-find labelling and bounding boxes;
# measure_kernels.cu: per-element passes (sums, moments, extremes, positions, histograms);
# measure_sort.cu: the CUB radix sorts (median, labeled_comprehension, value_indices).
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/label.cpp
  ${CMAKE_CURRENT_LIST_DIR}/measurements.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comprehension_rtc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/label_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/measure_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/measure_sort.cu)

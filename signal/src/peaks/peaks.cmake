# Sources of the peaks family of cusci::signal: find_peaks, peak_prominences, peak_widths,
# argrelmin/argrelmax/argrelextrema, find_peaks_cwt. Host orchestration and checks in peaks.cpp
# (find_peaks_cwt on the host in peaks_cwt.cpp); kernels: the tile pass, plateaus, pointwise
# conditions and distance rounds in peaks_find.cu, the pyramid walks in peaks_walk.cu, the relative
# extrema mask in argrelextrema.cu.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/peaks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/peaks_cwt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/peaks_find.cu
  ${CMAKE_CURRENT_LIST_DIR}/peaks_walk.cu
  ${CMAKE_CURRENT_LIST_DIR}/argrelextrema.cu)

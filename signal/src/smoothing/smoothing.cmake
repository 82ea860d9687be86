# Sources of the smoothing family of cusci::signal: medfilt / medfilt2d / order_filter (ndimage's rank
# filters, and the 1-D median kernel), wiener, savgol_coeffs / savgol_filter (the interp edge kernel)
# and whittaker_henderson (host band solver with the REML search).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/median.cpp
  ${CMAKE_CURRENT_LIST_DIR}/median1d.cu
  ${CMAKE_CURRENT_LIST_DIR}/savgol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/savgol_edges.cu
  ${CMAKE_CURRENT_LIST_DIR}/smoothing_math.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whittaker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wiener.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wiener_kernels.cu)

# Sources of the reduction family of cusci::core (reduction.cu itself is listed in core/CMakeLists.txt).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduction_minmax.cu
  ${CMAKE_CURRENT_LIST_DIR}/reduction_stats.cu
  ${CMAKE_CURRENT_LIST_DIR}/scan.cu)

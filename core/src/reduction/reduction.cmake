# Sources of the reduction family of cusci::core: the engine's host side with sum/prod/mean/any/all
# (reduction.cu), min/max/arg* (reduction_minmax.cu), var/std (reduction_stats.cu), scans and diff (scan.cu).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduction.cu
  ${CMAKE_CURRENT_LIST_DIR}/reduction_minmax.cu
  ${CMAKE_CURRENT_LIST_DIR}/reduction_stats.cu
  ${CMAKE_CURRENT_LIST_DIR}/scan.cu)

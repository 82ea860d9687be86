# Sources of the statistics family of cusci::core: median / percentile / quantile (and nan-variants),
# average, cov, corrcoef composed from existing operations (statistics.cpp) and one small kernel, the
# quantile positions (statistics.cu).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/statistics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/statistics.cu)

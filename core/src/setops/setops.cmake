# Sources of the setops family of cusci::core: isin, setdiff1d, intersect1d, union1d, lexsort, digitize
# (setops.cpp) and unravel_index, ravel_multi_index, indices, meshgrid (index_tricks.cpp), composed from
# existing operations; the family's one .cu holds digitize's monotonicity check and the index arithmetic.
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/setops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/index_tricks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/setops_kernels.cu)

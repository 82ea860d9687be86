# Sources of the sorting family of cusci::core: sort/argsort/partition (sorting_sort.cu),
# searchsorted and unique (sorting_search.cu), nonzero/bincount/histogram (sorting_count.cu).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_search.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_count.cu)

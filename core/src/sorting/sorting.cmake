# Sources of the sorting family of cusci::core. sort/argsort are split by key width so that no
# translation unit instantiates more than a few CUB sorts: public functions (sorting_sort.cu), keys-only
# sorts (sorting_sort_k12/k4/k8.cu), argsorts (sorting_argsort_k12/k4/k8.cu), complex
# (sorting_sort_c64/c128.cu); searchsorted and unique (sorting_search.cu); nonzero/argwhere/flatnonzero
# (sorting_nonzero.cu), bincount (sorting_bincount.cu), histogram (sorting_histogram.cu).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort_k12.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort_k4.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort_k8.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_argsort_k12.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_argsort_k4.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_argsort_k8.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort_c64.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_sort_c128.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_search.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_nonzero.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_bincount.cu
  ${CMAKE_CURRENT_LIST_DIR}/sorting_histogram.cu)

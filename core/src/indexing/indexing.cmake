# Sources of the indexing family of cusci::core: advanced indexing, take/put/compress/extract/place/
# putmask, diagonal/diag/tril/triu (indexing.cu); concatenate, roll, pad, ascontiguousarray kernels
# (manipulation.cu); view-level manipulation functions (manipulation.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/indexing.cu
  ${CMAKE_CURRENT_LIST_DIR}/manipulation.cu
  ${CMAKE_CURRENT_LIST_DIR}/manipulation.cpp)

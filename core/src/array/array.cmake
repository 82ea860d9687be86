# Sources of the array family of cusci::core: dtypes and promotion (dtype.cpp), the exception types
# (error.cpp), ndarray with its views and basic indexing (ndarray.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dtype.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ndarray.cpp)

# Sources of the filtering family of cusci::signal: lfilter and sosfilt, both on the blocked linear
# recurrence engine (recurrence.cuh), with their shared argument handling (filter_common.cpp, which also
# holds array_like's transfers).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/filter_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recurrence_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lfilter.cu
  ${CMAKE_CURRENT_LIST_DIR}/sosfilt.cu)

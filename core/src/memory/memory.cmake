# Sources of the memory family of cusci::core: the caching pool, allocators, hooks and statistics
# (memory.cpp), devices and peer access (device.cpp), streams (stream.cpp), the cached library handles
# and cuFFT plans (libraries.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stream.cpp
  ${CMAKE_CURRENT_LIST_DIR}/libraries.cpp)

# Sources of the io family of cusci::core: host_array (host_array.cpp), transfers between host and
# device (transfer.cpp), NumPy .npy files (npy.cpp, with npy_internal.hpp shared with interop/npz.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/host_array.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transfer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npy.cpp)

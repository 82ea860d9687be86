# Sources of the interop family of cusci::core: DLPack exchange, NumPy .npz archives, CUDA graph
# capture and copies between devices. (Memory hooks and pool statistics live in memory/memory.cpp; peer
# access in memory/device.cpp; npz.cpp shares io/npy_internal.hpp with the .npy reader.)
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dlpack.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npz.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interop_peer.cpp)
# dlpack.h is needed only to build dlpack.cpp (the public header forward-declares its structs).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/dlpack.cpp PROPERTIES
  COMPILE_DEFINITIONS "CUSCI_DLPACK_HEADER=\"${CUSCI_DLPACK_HEADER}\"")
# zlib for .npz (cusciConfig.cmake finds it again for consumers of the installed package).
target_link_libraries(cusci_core PRIVATE ZLIB::ZLIB)

# Tests of the interop family of cusci::core: .npz archives, DLPack argument checks and export,
# memory hooks (host); DLPack round trips, graph capture, pool statistics, device copies (gpu).
cusci_add_test(test_core_interop_host LABEL host SOURCES
  interop/test_npz_host.cpp interop/test_dlpack_host.cpp interop/test_hooks_host.cpp)
cusci_add_test(test_core_interop_gpu LABEL gpu SOURCES
  interop/test_dlpack_gpu.cpp interop/test_graph_gpu.cpp interop/test_memory_stats_gpu.cpp
  interop/test_devices_gpu.cpp)
# The tests build and read DLPack structs themselves, and walk zip archives with zlib.
foreach(_t test_core_interop_host test_core_interop_gpu)
  target_compile_definitions(${_t} PRIVATE CUSCI_DLPACK_HEADER="${CUSCI_DLPACK_HEADER}")
  target_link_libraries(${_t} PRIVATE ZLIB::ZLIB)
endforeach()

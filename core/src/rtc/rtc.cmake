# Sources of the rtc family of cusci::core: runtime compilation through NVRTC.
# The driver API is reached through cudaGetDriverEntryPointByVersion (no link against libcuda, so that
# programs linking cusci_core still start on machines without a GPU driver); NVRTC is loaded on first use
# (dlopen, cusci/detail/lazy_libs.hpp), not linked.
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/rtc_codegen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rtc_runtime.cpp)
# NVRTC's default include path: the toolkit's include directories found at build time ('|'-separated);
# CUSCI_CUDA_PATH overrides it at run time.
string(REPLACE ";" "|" _cusci_rtc_inc "${CUDAToolkit_INCLUDE_DIRS}")
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/rtc_runtime.cpp PROPERTIES
  COMPILE_DEFINITIONS "CUSCI_RTC_CUDA_INCLUDE_DIRS=\"${_cusci_rtc_inc}\"")

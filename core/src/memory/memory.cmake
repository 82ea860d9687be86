# Sources of the memory family of cusci::core: the caching pool, allocators, hooks and statistics
# (memory.cpp), devices and peer access (device.cpp), streams (stream.cpp), the cached library handles
# and cuFFT plans (libraries.cpp), the CUDA libraries loaded on first use (lazy_libs.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stream.cpp
  ${CMAKE_CURRENT_LIST_DIR}/libraries.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lazy_libs.cpp)
# No cusci library links cuBLAS, cuSPARSE, cuSOLVER, cuFFT or NVRTC: lazy_libs.cpp dlopens each on first
# use by the soname of this toolkit's file (its SONAME, read with objdump; else lib<name>.so.<major> from
# the versioned file name; else lazy_libs.cpp's fallback from the headers' major version).
set(_cusci_lazy_defs)
set(_cusci_lazy_names)
foreach(_lib cublas cublasLt cusparse cusolver cufft nvrtc)
  set(_soname "")
  if(TARGET CUDA::${_lib})
    get_target_property(_loc CUDA::${_lib} IMPORTED_LOCATION)
    if(_loc)
      file(REAL_PATH "${_loc}" _real)
      if(CMAKE_OBJDUMP)
        execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${_real}" OUTPUT_VARIABLE _dump ERROR_QUIET
                        RESULT_VARIABLE _rc)
        if(_rc EQUAL 0 AND _dump MATCHES "SONAME[ \t]+([^ \t\r\n]+)")
          set(_soname "${CMAKE_MATCH_1}")
        endif()
      endif()
      get_filename_component(_name "${_real}" NAME)
      if(NOT _soname AND _name MATCHES "^(lib${_lib}\\.so\\.[0-9]+)")
        set(_soname "${CMAKE_MATCH_1}")
      endif()
    endif()
  endif()
  if(_soname)
    string(TOUPPER ${_lib} _up)
    list(APPEND _cusci_lazy_defs "CUSCI_SONAME_${_up}=\"${_soname}\"")
    list(APPEND _cusci_lazy_names ${_soname})
  endif()
endforeach()
list(JOIN _cusci_lazy_names " " _cusci_lazy_names)
message(STATUS "cusci: CUDA libraries loaded on first use: ${_cusci_lazy_names}")
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/lazy_libs.cpp PROPERTIES
  COMPILE_DEFINITIONS "${_cusci_lazy_defs}")

# cusci_add_module(<name> SOURCES ... [LINK ...])
# Declares the library target cusci_<name> with alias cusci::<name>, its public include directory
# <name>/include, the internal device-helper headers of core, and the common compile options.
function(cusci_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  set(tgt cusci_${name})
  add_library(${tgt} ${ARG_SOURCES})
  add_library(cusci::${name} ALIAS ${tgt})
  set_target_properties(${tgt} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME cusci_${name}
    CUDA_SEPARABLE_COMPILATION OFF
    CUDA_RUNTIME_LIBRARY Shared)
  target_include_directories(${tgt} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${tgt} PRIVATE $<BUILD_INTERFACE:cusci_internal> ${ARG_LINK})
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  # With CUSCI_PCH (scripts/test.sh turns it on where no GPU is visible) the headers most library .cpp
  # files include are precompiled once a module: parsing them was a third of those files' compile time.
  # Other builds do without, so that every source keeps including what it uses.
  if(CUSCI_PCH)
    set(_pch)
    foreach(_h <algorithm> <cmath> <complex> <cstdint> <cstring> <limits> <string> <vector> <cusci/error.hpp>
               <cusci/ndarray.hpp> <cusci/elementwise.hpp> <cusci/detail/shape.hpp>)
      list(APPEND _pch "$<$<COMPILE_LANGUAGE:CXX>:${_h}>")
    endforeach()
    target_precompile_headers(${tgt} PRIVATE ${_pch})
  endif()
  set_property(GLOBAL APPEND PROPERTY CUSCI_MODULE_TARGETS ${tgt})
endfunction()

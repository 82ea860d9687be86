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
  set_property(GLOBAL APPEND PROPERTY CUSCI_MODULE_TARGETS ${tgt})
endfunction()

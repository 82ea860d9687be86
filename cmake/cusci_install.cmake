include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_cusci_targets GLOBAL PROPERTY CUSCI_MODULE_TARGETS)
install(TARGETS ${_cusci_targets} cusci EXPORT cusciTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(_m core sparse ndimage signal linalg distributed)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_m}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
endforeach()
install(EXPORT cusciTargets NAMESPACE cusci:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusci)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cusciConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cusciConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusci)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cusciConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cusciConfig.cmake ${PROJECT_BINARY_DIR}/cusciConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cusci)

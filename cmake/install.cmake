# Install the headers and an exported target, so `find_package(gpucalc)` gives gpucalc::gpucalc.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/gpucalc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gpucalc EXPORT gpucalcTargets)
install(EXPORT gpucalcTargets
  NAMESPACE gpucalc::
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/gpucalc)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpucalcConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpucalcConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/gpucalc)
# Header-only, so the installed package fits any architecture.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gpucalcConfigVersion.cmake
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
# The MIT license must travel with every copy.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gpucalc)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/gpucalcConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/gpucalcConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/gpucalc)

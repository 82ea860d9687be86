# The direct solvers of cusci::sparse::linalg (direct.hpp): their sources (direct*.cpp / .cu) are
# globbed into cusci_sparse by linalg.cmake; this fragment adds SuperLU (cmake/cusci_superlu.cmake)
# and the header of cusci::linalg's LinAlgError, which spsolve_triangular throws (header only).
include(${PROJECT_SOURCE_DIR}/cmake/cusci_superlu.cmake)
if(CUSCI_SUPERLU_FOUND)
  # Only the host factorization includes SuperLU's headers; the definition switches it on.
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/direct_superlu.cpp PROPERTIES
                              COMPILE_DEFINITIONS CUSCI_HAVE_SUPERLU=1
                              INCLUDE_DIRECTORIES "${CUSCI_SUPERLU_INCLUDE_DIR}")
  target_link_libraries(cusci_sparse PRIVATE ${CUSCI_SUPERLU_LINK})
endif()
target_include_directories(cusci_sparse PRIVATE ${PROJECT_SOURCE_DIR}/linalg/include)

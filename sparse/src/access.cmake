# Sources of the access family of cusci::sparse: indexing, assignment, reshape/resize, .npz files.
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/access_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/access_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/npz_sparse.cpp
)
# zlib (found by cmake/cusci_dependencies.cmake) for the deflated members of SciPy's .npz files.
target_link_libraries(cusci_sparse PRIVATE ZLIB::ZLIB)

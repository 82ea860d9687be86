# Sources of the io family of cusci::sparse: Matrix Market files (scipy.io's mmread/mmwrite/mminfo)
# and SciPy's sparse .npz files (save_npz/load_npz).
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mmio.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npz_sparse.cpp
)
# zlib (found by cmake/cusci_dependencies.cmake) for the deflated members of SciPy's .npz files.
target_link_libraries(cusci_sparse PRIVATE ZLIB::ZLIB)

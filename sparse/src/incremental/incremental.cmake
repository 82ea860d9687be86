# Sources of the incremental family of cusci::sparse: dok_matrix and lil_matrix, SciPy's
# incremental-construction formats, held on the host; conversions to the device formats.
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/incremental_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dok.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lil.cpp
)

# Sources of the special family of cusci::linalg (scipy.linalg's special matrices): the host drivers with
# SciPy's checks, dtypes and batch shapes (special.cpp), and the one index kernel that forms every
# element (b, i, j) from the inputs or a closed formula (index_kernel.cu, instantiated per item size).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/special.cpp
  ${CMAKE_CURRENT_LIST_DIR}/index_kernel.cu)

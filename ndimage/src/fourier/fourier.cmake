# Sources of the fourier family of cusci::ndimage: the Fourier-domain filters fourier_gaussian,
# fourier_uniform, fourier_ellipsoid and fourier_shift. fourier.cpp: SciPy's argument handling
# (output dtypes, per-axis parameters, errors); fourier.cu: the per-axis tables built on the device and
# the one elementwise kernel per filter family (product of tables, ellipsoid, shift).
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fourier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fourier.cu)

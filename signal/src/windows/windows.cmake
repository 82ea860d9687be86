# Sources of the windows family of cusci::signal: the 26 windows of scipy.signal.windows and get_window,
# on the host in double precision (firwin, resample_poly and resample draw their windows through them).
# windows_spectral.cpp (chebwin, dpss) uses core's host FFT and tridiagonal eigensolver.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/windows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/windows_spectral.cpp)

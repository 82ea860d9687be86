# Sources of the fourier family of cusci::signal: hilbert, hilbert2, envelope, detrend, czt, zoom_fft,
# CZT, ZoomFFT, czt_points. Host logic (checks, plans, chirps) in fourier_host.cpp, the cuFFT calls in
# fourier_fft.cpp, one small .cu of kernels per function group.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fourier_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fourier_fft.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hilbert.cu
  ${CMAKE_CURRENT_LIST_DIR}/envelope.cu
  ${CMAKE_CURRENT_LIST_DIR}/czt.cu
  ${CMAKE_CURRENT_LIST_DIR}/detrend.cu)

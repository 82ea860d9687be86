# Sources of the convolution family of cusci::signal: convolve / correlate / fftconvolve / oaconvolve /
# convolve2d / correlate2d / choose_conv_method / correlation_lags / deconvolve. Host logic in
# convolution.cpp; the direct kernels (N-D and tiled 2-D) in direct.cu; the overlap-save engine in fftconv.cu.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/convolution.cpp
  ${CMAKE_CURRENT_LIST_DIR}/direct.cu
  ${CMAKE_CURRENT_LIST_DIR}/fftconv.cu)

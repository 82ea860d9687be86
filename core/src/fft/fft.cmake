# Sources of the fft family of cusci::core: scipy.fft's transforms on cuFFT and the fast Hankel
# transform (fftlog.cpp, its coefficient and power-law kernels in fftlog_kernels.cu) on them (the plan
# cache itself lives in memory/libraries.cpp).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fft.cu
  ${CMAKE_CURRENT_LIST_DIR}/fft_dct.cu
  ${CMAKE_CURRENT_LIST_DIR}/fft_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fftlog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fftlog_kernels.cu)

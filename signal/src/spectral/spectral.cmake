# Sources of the spectral family of cusci::signal: the short-time Fourier engine (framing.cu, also used by
# short_time_fft), the kernels after the FFT (spectral.cu), SciPy's parameter resolution and the host
# checks (spectral_host.cpp) and the public functions (spectral.cpp).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/framing.cu
  ${CMAKE_CURRENT_LIST_DIR}/spectral.cu
  ${CMAKE_CURRENT_LIST_DIR}/spectral_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spectral.cpp)

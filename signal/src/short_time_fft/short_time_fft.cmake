# Sources of the ShortTimeFFT family of cusci::signal (ShortTimeFFT, closest_STFT_dual_window): host
# construction and properties in short_time_fft.cpp, the transforms' orchestration (spectral engine,
# core FFTs) in sft_transform.cpp, the per-bin transpose kernels in sft_kernels.cu.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/short_time_fft.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sft_transform.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sft_kernels.cu)

# Sources of the zero_phase family of cusci::signal: filtfilt (pad and Gustafsson's methods),
# sosfiltfilt and lfiltic (zero_phase.cpp: argument handling, initial states, Gustafsson's host
# matrices) on the extension / state kernels of zero_phase_kernels.cu and the public lfilter / sosfilt.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/zero_phase.cpp
  ${CMAKE_CURRENT_LIST_DIR}/zero_phase_kernels.cu)

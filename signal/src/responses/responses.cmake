# Sources of the responses family of cusci::signal: freqz, freqz_sos / sosfreqz, freqz_zpk, freqs,
# freqs_zpk, group_delay, findfreqs. The host path and the shape/dtype plans in responses.cpp, the
# device overloads in responses_device.cpp, their kernels in responses.cu.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/responses.cpp
  ${CMAKE_CURRENT_LIST_DIR}/responses_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/responses.cu)

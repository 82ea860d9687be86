# Sources of the multirate family of cusci::signal: upfirdn, resample_poly, resample and decimate
# (host logic in multirate.cpp / decimate.cpp, the polyphase kernels in upfirdn_kernels.cu, resample's
# spectrum kernels in resample_kernels.cu).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/multirate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/decimate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/upfirdn_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/resample_kernels.cu)

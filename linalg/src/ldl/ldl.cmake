# Sources of the ldl family of cusci::linalg (scipy.linalg.ldl): the host driver (ldl.cpp, with LAPACK's
# ?hetrf for complex Hermitian input on the host) and the device work in one translation unit
# (ldl_kernels.cu: cuSOLVER ?sytrf, SciPy's pivot post-processing).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ldl.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ldl_kernels.cu)
target_link_libraries(cusci_linalg PRIVATE LAPACK::LAPACK)

# Sources of the norm family of cusci::linalg: scipy.linalg.norm (check_finite over core's norm) and
# clarkson_woodruff_transform (norm.cpp: SciPy's checks, the sketch drawn with core's random generator,
# its row form with core's argsort / searchsorted), and the sketch product kernel (norm_kernels.cu).
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/norm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/norm_kernels.cu)

# Sources of the elementwise family of cusci::core: the ufunc front end and its scalar/weak-integer rules
# (elementwise.cu), the math ufuncs (elementwise_math.cu), binary ufuncs and the other unary ufuncs, all on
# one engine (elementwise_engine.cuh), split so that no translation unit takes long to compile; strided
# copies and casts (copy.cu).
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/elementwise.cu
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_math.cu
  ${CMAKE_CURRENT_LIST_DIR}/copy.cu
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_binary.cu
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_unary.cu)

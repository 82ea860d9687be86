# Sources of the elementwise family of cusci::core (elementwise.cu, elementwise_math.cu and copy.cu are
# listed in core/CMakeLists.txt): binary ufuncs, and the other unary ufuncs, on one engine
# (elementwise_engine.cuh), split so that no translation unit takes long to compile.
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_binary.cu
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_unary.cu)

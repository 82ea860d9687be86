# Sources of the construct family of cusci::sparse: constructors (eye, diags, random, kron, stacks,
# tril/triu, find) and arithmetic/comparisons (arith_*).
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/construct_build.cpp
  ${CMAKE_CURRENT_LIST_DIR}/arith_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/arith_binop.cu)

# Sources of the numeric family of cusci::core: interp, gradient, trapezoid, isclose, allclose,
# array_equal, nan_to_num, cross (cusci/numeric.hpp) and linalg::norm. One .cu file (interp's and the
# fused isclose's kernels); the rest composes existing operations and calls cuBLAS / cuSOLVER.
target_sources(cusci_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/numeric.cpp ${CMAKE_CURRENT_LIST_DIR}/numeric.cu)

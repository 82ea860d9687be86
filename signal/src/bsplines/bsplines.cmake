# Sources of the bsplines family of cusci::signal: the symmetric IIR engine (sym_iir.cu, its host
# plans sym_iir_plan.cpp), the spline evaluation kernels (spline_eval.cu) and the public functions
# (bsplines.cpp: cspline1d/2d, qspline1d/2d, *_eval, spline_filter, gauss_spline, sepfir2d,
# symiirorder1/2).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bsplines.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sym_iir_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sym_iir.cu
  ${CMAKE_CURRENT_LIST_DIR}/spline_eval.cu)

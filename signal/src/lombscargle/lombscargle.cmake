# Sources of the lombscargle family of cusci::signal: lombscargle and vectorstrength. Host logic
# (checks, dtype rules, the launch plan) in lombscargle.cpp; the tiled trigonometric-sum kernel, its
# finalizers and the moments kernel in lombscargle.cu (float64 only: SciPy computes in float64).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lombscargle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lombscargle.cu)

# Sources of the design family of cusci::signal: host filter design in double precision (firwin,
# zpk2tf, zpk2sos, lfilter_zi, sosfilt_zi and the option parsers in filter_design.cpp; the IIR designs:
# iirfilter / butter / ellip / bessel, Chebyshev, elliptic and Bessel prototypes, order selection and
# iirdesign, notch / peak / comb / gammatone, and the special functions and optimizers they use).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/filter_design.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chebyshev.cpp
  ${CMAKE_CURRENT_LIST_DIR}/zpk_transforms.cpp
  ${CMAKE_CURRENT_LIST_DIR}/iirfilter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ellip.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bessel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/iir_order.cpp
  ${CMAKE_CURRENT_LIST_DIR}/iir_notch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/iir_special.cpp)

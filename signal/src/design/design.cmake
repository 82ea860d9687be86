# Sources of the design family of cusci::signal: host filter design in double precision (firwin, butter,
# iirfilter, zpk2tf, zpk2sos, lfilter_zi, sosfilt_zi and the option parsers).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/filter_design.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chebyshev.cpp
  ${CMAKE_CURRENT_LIST_DIR}/zpk_transforms.cpp)

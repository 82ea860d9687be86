# Sources of the fir family of cusci::signal: host FIR design in double precision (kaiserord, firwin2,
# firls, remez, minimum_phase, firwin_2d; firwin itself is in design/). Public header:
# cusci/signal/fir_design.hpp.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fir_design.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remez.cpp)

# Sources of the lti family of cusci::signal: analysis, discretisation, pole placement and simulation of
# the LTI systems of lti.hpp (cont2discrete, place_poles, freqresp/bode/dfreqresp/dbode, impulse/step/
# dimpulse/dstep, lsim/dlsim on the host; the device lsim/dlsim hand the recurrence to the lti_sim engine).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lti_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cont2discrete.cpp
  ${CMAKE_CURRENT_LIST_DIR}/place_poles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lti_response.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lti_sim_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lti_sim_device.cpp)

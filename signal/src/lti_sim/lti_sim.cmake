# Sources of the state-space simulation engine of cusci::signal (lsim / dlsim over long inputs on the
# GPU, through the filtering family's chunked recurrence): internal API in lti_sim.hpp.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lti_sim.cu)

# Tests of the state-space simulation engine of cusci::signal (lsim / dlsim on the GPU), through its
# internal API (references: tests/golden/gen_signal_lti_sim.py).
cusci_add_test(test_signal_lti_sim_gpu LABEL gpu SOURCES lti_sim/test_lti_sim_gpu.cpp LINK cusci::signal)
target_include_directories(test_signal_lti_sim_gpu PRIVATE ${PROJECT_SOURCE_DIR}/signal/src)

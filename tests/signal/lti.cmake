# Tests of the lti family of cusci::signal (cont2discrete, place_poles, responses and simulations of LTI
# systems); references from tests/golden/gen_signal_lti.py.
cusci_add_test(test_signal_lti_host LABEL host SOURCES lti/test_lti_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_lti_gpu LABEL gpu SOURCES lti/test_lti_gpu.cpp LINK cusci::signal)

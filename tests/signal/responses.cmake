# Tests of the responses family of cusci::signal (references: tests/golden/gen_signal_responses.py).
cusci_add_test(test_signal_responses_host LABEL host SOURCES responses/test_responses_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_responses_gpu LABEL gpu SOURCES responses/test_responses_gpu.cpp LINK cusci::signal)

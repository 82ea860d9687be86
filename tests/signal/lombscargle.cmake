# Tests of the lombscargle family of cusci::signal (references: tests/golden/gen_signal_lombscargle.py).
cusci_add_test(test_signal_lombscargle_host LABEL host SOURCES lombscargle/test_lombscargle_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_lombscargle_gpu LABEL gpu SOURCES lombscargle/test_lombscargle_gpu.cpp LINK cusci::signal)
# The host test checks the internal launch plan.
target_include_directories(test_signal_lombscargle_host PRIVATE ${PROJECT_SOURCE_DIR}/signal/src)

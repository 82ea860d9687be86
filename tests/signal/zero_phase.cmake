# Tests of the zero_phase family (filtfilt, sosfiltfilt, lfiltic); references from
# tests/golden/gen_signal_zero_phase.py.
cusci_add_test(test_signal_zero_phase_host LABEL host SOURCES zero_phase/test_zero_phase_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_zero_phase_gpu LABEL gpu SOURCES zero_phase/test_zero_phase_gpu.cpp LINK cusci::signal)

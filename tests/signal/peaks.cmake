# Tests of the peaks family of cusci::signal (references: tests/golden/gen_signal_peaks.py). The host
# test also runs find_peaks_cwt's host algorithm through the family's internal header.
cusci_add_test(test_signal_peaks_host LABEL host SOURCES peaks/test_peaks_host.cpp LINK cusci::signal)
target_include_directories(test_signal_peaks_host PRIVATE ${PROJECT_SOURCE_DIR}/signal/src)
cusci_add_test(test_signal_peaks_gpu LABEL gpu SOURCES peaks/test_peaks_gpu.cpp LINK cusci::signal)

# Tests of the waveforms family of cusci::signal (references: tests/golden/gen_signal_waveforms.py).
cusci_add_test(test_signal_waveforms_host LABEL host SOURCES waveforms/test_waveforms_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_waveforms_gpu LABEL gpu SOURCES waveforms/test_waveforms_gpu.cpp LINK cusci::signal)
# The host test drives the family's internal host functions (the shift register, chirp's constants).
target_include_directories(test_signal_waveforms_host PRIVATE ${PROJECT_SOURCE_DIR}/signal/src)

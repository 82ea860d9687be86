# Tests of the spectral family of cusci::signal (references: tests/golden/gen_signal_spectral.py).
cusci_add_test(test_signal_spectral_host LABEL host SOURCES spectral/test_spectral_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_spectral_gpu LABEL gpu SOURCES spectral/test_spectral_gpu.cpp LINK cusci::signal)

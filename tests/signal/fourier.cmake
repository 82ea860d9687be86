# Tests of the fourier family of cusci::signal (references: tests/golden/gen_signal_fourier.py).
cusci_add_test(test_signal_fourier_host LABEL host SOURCES fourier/test_fourier_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_fourier_gpu LABEL gpu SOURCES fourier/test_fourier_gpu.cpp LINK cusci::signal)

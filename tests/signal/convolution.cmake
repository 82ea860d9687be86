# Tests of signal's convolution family (references: tests/golden/gen_signal_convolution.py).
cusci_add_test(test_signal_convolution_host LABEL host SOURCES convolution/test_convolution_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_convolution_gpu LABEL gpu SOURCES convolution/test_convolution_gpu.cpp LINK cusci::signal)

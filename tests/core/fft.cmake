# Tests of the fft family of cusci::core (goldens: tests/golden/gen_core_fft.py).
cusci_add_test(test_core_fft_host LABEL host SOURCES fft/test_fft_host.cpp)
cusci_add_test(test_core_fft_gpu LABEL gpu SOURCES fft/test_fft_gpu.cpp)

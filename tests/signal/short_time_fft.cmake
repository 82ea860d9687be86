# Tests of the ShortTimeFFT family of cusci::signal (references: tests/golden/gen_signal_short_time_fft.py).
cusci_add_test(test_signal_short_time_fft_host LABEL host SOURCES short_time_fft/test_short_time_fft_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_short_time_fft_gpu LABEL gpu SOURCES short_time_fft/test_short_time_fft_gpu.cpp LINK cusci::signal)

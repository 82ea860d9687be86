# signal smoothing family: medfilt / medfilt2d / order_filter / wiener / savgol_filter /
# whittaker_henderson on the GPU, savgol_coeffs and the argument checks on the host (references:
# tests/golden/gen_signal_smoothing.py).
cusci_add_test(test_signal_smoothing_gpu LABEL gpu SOURCES smoothing/test_smoothing_gpu.cpp LINK cusci::signal)
cusci_add_test(test_signal_smoothing_host LABEL host SOURCES smoothing/test_smoothing_host.cpp LINK cusci::signal)

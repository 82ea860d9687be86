# signal windows family: the windows of cusci::signal::windows, dpss and get_window, on the host
# (references: tests/golden/gen_signal_windows.py).
cusci_add_test(test_signal_windows_host LABEL host SOURCES windows/test_windows_host.cpp LINK cusci::signal)

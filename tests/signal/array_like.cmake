# Tests of the array_like parameters of the signal module's host functions: scalars, braced lists,
# std::vector and host arrays give the same results, and options overloads are still chosen (host); device
# arrays are copied to the host and give the same results (gpu). No reference data.
cusci_add_test(test_signal_array_like_host LABEL host SOURCES test_array_like_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_array_like_gpu LABEL gpu SOURCES test_array_like_gpu.cpp LINK cusci::signal)

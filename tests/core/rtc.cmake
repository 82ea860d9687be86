# Tests of the rtc family of cusci::core (runtime compilation through NVRTC).
cusci_add_test(test_core_rtc_host LABEL host SOURCES rtc/test_rtc_host.cpp)
cusci_add_test(test_core_rtc_gpu LABEL gpu SOURCES rtc/test_rtc_gpu.cpp)

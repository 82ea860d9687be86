// The source of cusci_test_pch, the executable (never run, never installed; doctest's main comes from
// cusci_test_main_host) whose precompiled header every C++ test source reuses (tests/CMakeLists.txt). An
// executable, so that its header is compiled as position-independent executable code exactly as the test
// executables' sources are.

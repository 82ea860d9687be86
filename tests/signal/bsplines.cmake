# Tests of the bsplines family of cusci::signal; references from tests/golden/gen_signal_bsplines.py.
cusci_add_test(test_signal_bsplines_host LABEL host SOURCES bsplines/test_bsplines_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_bsplines_gpu LABEL gpu SOURCES bsplines/test_bsplines_gpu.cpp LINK cusci::signal)

# Tests of the multirate family of cusci::signal (upfirdn, resample_poly, resample, decimate, and the
# Chebyshev designs decimate uses); references from tests/golden/gen_signal_multirate.py.
cusci_add_test(test_signal_multirate_host LABEL host SOURCES multirate/test_multirate_host.cpp LINK cusci::signal)
cusci_add_test(test_signal_multirate_gpu LABEL gpu SOURCES multirate/test_multirate_gpu.cpp LINK cusci::signal)

# Tests of the conversions family (tf / zpk / sos / ss conversions, normalize, bilinear and frequency
# transformations, partial fractions, LTI classes); references from tests/golden/gen_signal_conversions.py.
cusci_add_test(test_signal_conversions_host LABEL host SOURCES conversions/test_conversions_host.cpp LINK cusci::signal)

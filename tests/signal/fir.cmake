# Tests of the fir family (kaiserord, firwin2, firls, remez, minimum_phase, firwin_2d); references from
# tests/golden/gen_signal_fir.py.
cusci_add_test(test_signal_fir_host LABEL host SOURCES fir/test_fir_host.cpp LINK cusci::signal)

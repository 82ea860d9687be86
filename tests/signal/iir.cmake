# Tests of the IIR design family of cusci::signal (iirfilter, butter / cheby1 / cheby2 / ellip / bessel,
# the prototypes, order selection, iirdesign, notch / peak / comb / gammatone); references from
# tests/golden/gen_signal_iir.py.
cusci_add_test(test_signal_iir_host LABEL host SOURCES iir/test_iir_host.cpp LINK cusci::signal)
# The special functions ellipap computes itself (design/iir_internal.hpp) are checked against scipy.special.
target_include_directories(test_signal_iir_host PRIVATE ${PROJECT_SOURCE_DIR}/signal/src)

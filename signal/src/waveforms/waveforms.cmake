# Sources of the waveforms family of cusci::signal: chirp, gausspulse, sawtooth, square, sweep_poly,
# unit_impulse, max_len_seq. Host logic (checks, SciPy's constants, dtype rules, the LFSR) in
# waveforms.cpp; the elementwise kernels, instantiated for float32 and float64 time arrays, in
# waveforms.cu.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/waveforms.cpp
  ${CMAKE_CURRENT_LIST_DIR}/waveforms.cu)

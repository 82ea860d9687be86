# Tests of the fft family of cusci::core.

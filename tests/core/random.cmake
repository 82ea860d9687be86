# Tests of the random family of cusci::core.

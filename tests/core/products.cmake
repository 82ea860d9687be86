# Tests of the products family of cusci::core.

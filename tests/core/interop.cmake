# Tests of the interop family of cusci::core.

# Sources of the interop family of cusci::core.

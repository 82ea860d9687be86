# Sources of the random family of cusci::core.

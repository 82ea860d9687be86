# Sources of the sorting family of cusci::core.

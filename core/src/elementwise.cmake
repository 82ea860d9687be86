# Sources of the elementwise family of cusci::core.

# Sources of the products family of cusci::core.

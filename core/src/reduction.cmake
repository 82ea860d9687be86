# Sources of the reduction family of cusci::core.

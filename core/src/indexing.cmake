# Sources of the indexing family of cusci::core.

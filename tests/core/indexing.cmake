# Tests of the indexing family of cusci::core.

# Tests of the formats family of cusci::sparse.

# Tests of the construct family of cusci::sparse.

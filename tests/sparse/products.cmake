# Tests of the products family of cusci::sparse.

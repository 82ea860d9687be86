# Sources of the products family of cusci::sparse.

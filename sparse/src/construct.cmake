# Sources of the construct family of cusci::sparse.

# Sources of the access family of cusci::sparse.

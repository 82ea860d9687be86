# Tests of cusci::ndimage's rank filters (rank_filter, median_filter, percentile_filter) against
# SciPy 1.18.1 (tests/golden/gen_ndimage_rank.py): the GPU cases, and the argument errors (raised
# before any device work) as a host test.
cusci_add_test(test_ndimage_rank_gpu LABEL gpu SOURCES rank/rank_gpu.cpp LINK cusci::ndimage)
cusci_add_test(test_ndimage_rank_host LABEL host SOURCES rank/rank_host.cpp LINK cusci::ndimage)

# Tests of the access family of cusci::sparse: indexing, assignment, reshape/resize, Matrix Market
# and .npz files (host: parsers, writers and argument checks; gpu: everything on the device).
cusci_add_test(test_sparse_access_host LABEL host SOURCES access/access_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_access_gpu LABEL gpu SOURCES access/access_gpu.cpp LINK cusci::sparse)
# 2-D boolean masks and the SparseEfficiencyWarnings (gen_sparse_mask.py references).
cusci_add_test(test_sparse_mask_host LABEL host SOURCES access/mask_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_mask_gpu LABEL gpu SOURCES access/mask_gpu.cpp LINK cusci::sparse)

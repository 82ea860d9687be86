# Tests of cusci::sparse::csgraph's representation conversions (references:
# tests/golden/gen_sparse_csgraph_tools.py).
cusci_add_test(test_sparse_csgraph_tools_gpu LABEL gpu SOURCES csgraph/tools/test_tools_gpu.cpp LINK cusci::sparse)

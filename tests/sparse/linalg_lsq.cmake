# Tests of the least-squares solvers of cusci::sparse::linalg (lsqr, lsmr; references:
# tests/golden/gen_sparse_linalg_lsq.py). The host test checks the options and every argument check
# (they throw before any device work); the gpu test solves SciPy's cases.
cusci_add_test(test_sparse_linalg_lsq_host LABEL host SOURCES linalg/lsq/test_lsq_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_linalg_lsq_gpu LABEL gpu SOURCES linalg/lsq/test_lsq_gpu.cpp LINK cusci::sparse)

# Tests of the eigen family of cusci::linalg (eigh, eigvalsh, eig, eigvals, eig_banded, eigvals_banded,
# eigh_tridiagonal, eigvalsh_tridiagonal, pinvh): SciPy's defaults and the argument checks that throw before
# any device work (host), and every case of tests/golden/gen_linalg_eigen.py (gpu).
cusci_add_test(test_linalg_eigen_host LABEL host SOURCES eigen/test_eigen_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_eigen_gpu LABEL gpu SOURCES eigen/test_eigen_gpu.cpp LINK cusci::linalg)

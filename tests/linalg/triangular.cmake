# Tests of the triangular family of cusci::linalg (solve_triangular, cho_factor, cho_solve, the banded
# solvers, bandwidth, issymmetric, ishermitian): argument checks and trans parsing (host), SciPy
# references from tests/golden/gen_linalg_triangular.py (gpu).
cusci_add_test(test_linalg_triangular_host LABEL host SOURCES triangular/test_triangular_host.cpp
               LINK cusci::linalg)
cusci_add_test(test_linalg_triangular_gpu LABEL gpu SOURCES triangular/test_triangular_gpu.cpp
               LINK cusci::linalg)

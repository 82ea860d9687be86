# Tests of the equations family of cusci::linalg (solve_sylvester, solve_continuous_lyapunov,
# solve_lyapunov, solve_discrete_lyapunov): argument checks that throw before any device work (host), and
# every case of tests/golden/gen_linalg_equations.py with residual checks (gpu).
cusci_add_test(test_linalg_equations_host LABEL host SOURCES equations/test_equations_host.cpp LINK cusci::linalg)
cusci_add_test(test_linalg_equations_gpu LABEL gpu SOURCES equations/test_equations_gpu.cpp LINK cusci::linalg)

# Tests of the nonsymmetric short-recurrence Krylov solvers of cusci::sparse::linalg (bicg, bicgstab,
# cgs, qmr, tfqmr; references: tests/golden/gen_sparse_linalg_nonsymmetric.py). The host test checks
# arguments and options without a GPU; the gpu test compares solutions, info codes and iteration
# counts with SciPy's on convection-diffusion problems, orsirr_1, west0479, young1c and breakdown cases.
cusci_add_test(test_sparse_linalg_nonsymmetric_host LABEL host
               SOURCES linalg/nonsymmetric/test_nonsymmetric_host.cpp LINK cusci::sparse)
cusci_add_test(test_sparse_linalg_nonsymmetric_gpu LABEL gpu
               SOURCES linalg/nonsymmetric/test_nonsymmetric_gpu.cpp LINK cusci::sparse)

# Tests of scipy.sparse.linalg's LinearOperator algebra (aslinearoperator, H, T, sums, products,
# scalar multiples, powers) and the ILU(0) / IC(0) preconditioners (references:
# tests/golden/gen_sparse_linalg_operator.py). The host test checks dtype rules, shapes, the order of
# the operands' products and argument errors without device work.
cusci_add_test(test_sparse_linalg_operator_host LABEL host SOURCES linalg/operator/test_operator_host.cpp
               LINK cusci::sparse)
cusci_add_test(test_sparse_linalg_operator_gpu LABEL gpu SOURCES linalg/operator/test_operator_gpu.cpp
               LINK cusci::sparse)

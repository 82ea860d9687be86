"""CuPy's equivalents of benchmarks/bench_sparse_dense_products.cu: X @ B with B the 2-D Poisson
matrix 2048^2 (float64) as a cupyx csr_matrix (DS1*) and csc_matrix (DS2*), X float64 [8, n] or
[1, n] (C order; DS1f: F order), x [n]. DS1c (cusci's cold call) is compared with the same product."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.sparse as csp

    k = 2048
    one = csp.diags([-cp.ones(k - 1), 4 * cp.ones(k), -cp.ones(k - 1)], [-1, 0, 1], format="csr")
    off = csp.diags([-cp.ones(k - 1), cp.zeros(k), -cp.ones(k - 1)], [-1, 0, 1], format="csr")
    eye = csp.identity(k, format="csr")
    # 4 on the diagonal, -1 at the four neighbours (the 5-point stencil).
    B = (csp.kron(eye, one) + csp.kron(off, eye)).tocsr()
    B.eliminate_zeros()
    B.sum_duplicates()
    n = B.shape[0]
    rng = cp.random.default_rng(1)
    X8 = rng.standard_normal((8, n))
    X1 = X8[:1].copy()
    x = X8[0].copy()
    X8f = cp.asfortranarray(X8)
    out = {}
    out["DS1"] = gpu_ms(lambda: X8 @ B)
    out["DS1v"] = gpu_ms(lambda: X1 @ B)
    out["DS1x"] = gpu_ms(lambda: x @ B)
    out["DS1f"] = gpu_ms(lambda: X8f @ B)
    out["DS1c"] = out["DS1"]
    C = B.tocsc()
    out["DS2"] = gpu_ms(lambda: X8 @ C)
    out["DS2v"] = gpu_ms(lambda: X1 @ C)
    return out

"""CuPy's equivalents of bench_sparse_construct.cu (ids SC1..SC3) on the same matrices."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.sparse as csp

    def lap1(n):
        return csp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")

    out = {}
    T = lap1(2048)
    A = csp.kronsum(T, T, format="csr")
    B = A.copy()
    out["SC1"] = gpu_ms(lambda: A + B, n_repeat=20, n_warmup=3)
    T3 = lap1(128)

    def build():
        A2 = csp.kronsum(T3, T3, format="csr")
        return csp.kronsum(A2, T3, format="csr")

    out["SC2"] = gpu_ms(build, n_repeat=10, n_warmup=2)
    out["SC3"] = gpu_ms(lambda: A.T.tocsr(), n_repeat=20, n_warmup=3)
    return out

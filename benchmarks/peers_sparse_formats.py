"""CuPy's equivalents of bench_sparse_formats.cu (ids SF1..SF4), on inputs of the same size, dtype and
structure: SF1 COO -> CSR of 2^27 float64 entries on a 2^24 x 2^24 grid with 25% duplicates in random
order; SF2 CSR -> CSC of the 2-D Poisson 2048^2 matrix; SF3 toarray of 1138_bus; SF4 dense 4096^2
with 1% nonzeros -> CSR."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.sparse as csp

    out = {}
    rs = cp.random.RandomState(1)
    n = 1 << 27
    u = n - n // 4
    ids = cp.concatenate([cp.arange(u, dtype=cp.int64), rs.randint(0, u, n - u, dtype=cp.int64)])
    # distinct positions for the distinct ids (an odd multiplier is a bijection modulo 2^48)
    lin = (cp.arange(u, dtype=cp.int64) * 0x9E3779B1) % (1 << 48)
    lin = lin[ids]
    perm = rs.permutation(n)
    row = (lin >> 24).astype(cp.int32)[perm]
    col = (lin & ((1 << 24) - 1)).astype(cp.int32)[perm]
    val = (1.0 + (cp.arange(n) & 7)).astype(cp.float64)
    A = csp.coo_matrix((val, (row, col)), shape=(1 << 24, 1 << 24))
    out["SF1"] = gpu_ms(lambda: A.tocsr(), n_repeat=5, n_warmup=1)
    del A, row, col, val, ids, lin, perm

    k = 2048
    N = k * k
    d = cp.full((5, N), -1.0)
    d[2] = 4.0
    j = cp.arange(N)
    d[3][j % k == 0] = 0.0
    d[1][(j + 1) % k == 0] = 0.0
    P = csp.dia_matrix((d, cp.array([-k, -1, 0, 1, k])), shape=(N, N)).tocsr()
    P.eliminate_zeros()
    out["SF2"] = gpu_ms(lambda: P.tocsc())
    del P, d

    import os
    path = os.path.join(data, "1138_bus.mtx")
    if os.path.exists(path):
        import scipy.io
        B = csp.csr_matrix(scipy.io.mmread(path, spmatrix=True).tocsr())
        out["SF3"] = gpu_ms(lambda: B.toarray())
    x = rs.random_sample((4096, 4096))
    D = cp.where(x < 0.01, x, 0.0)
    out["SF4"] = gpu_ms(lambda: csp.csr_matrix(D))
    return out

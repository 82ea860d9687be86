"""CuPy's equivalents of bench_setops.cu (ids SO1..SO5), on inputs of the same size, dtype and
distribution (int64 uniform in [0, 2^21), [0, 2^25), [0, 1024) or [0, 2^27); float32 uniform in [0, 1)).
The times of these sorts and searches depend on the value distribution, not on the exact values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    out = {}
    rs = cp.random.RandomState(1)
    n24, n20, n26 = 1 << 24, 1 << 20, 1 << 26
    e = rs.randint(0, 1 << 21, size=n24, dtype=cp.int64)
    t = rs.randint(0, 1 << 21, size=n20, dtype=cp.int64)
    out["SO1"] = gpu_ms(lambda: cp.isin(e, t))
    del e, t
    a = rs.randint(0, 1 << 25, size=n24, dtype=cp.int64)
    b = rs.randint(0, 1 << 25, size=n24, dtype=cp.int64)
    out["SO2"] = gpu_ms(lambda: cp.intersect1d(a, b), n_repeat=20, n_warmup=3)
    del a, b
    keys = cp.stack([rs.randint(0, 1024, size=n24, dtype=cp.int64) for _ in range(3)])
    out["SO3"] = gpu_ms(lambda: cp.lexsort(keys), n_repeat=20, n_warmup=3)
    del keys
    x = rs.random_sample(n26, dtype=cp.float32)
    bins = cp.linspace(0.0, 1.0, 1024, dtype=cp.float32)
    out["SO4"] = gpu_ms(lambda: cp.digitize(x, bins))
    del x, bins
    idx = rs.randint(0, 1 << 27, size=n24, dtype=cp.int64)
    out["SO5"] = gpu_ms(lambda: cp.unravel_index(idx, (512, 512, 512)))
    return out

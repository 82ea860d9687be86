"""CuPy's equivalents of bench_sorting.cu (ids T1..T11), on inputs of the same size, dtype and
distribution (uniform float32 / float64 in [0, 1), full-range int64, int32 in [0, 2^20), bool 50%
true, int64 in [0, 1024) or [0, 65536)). Sorting times depend on the key distribution, not on the exact values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    out = {}
    rs = cp.random.RandomState(1)
    n28, n27, n26, n24 = 1 << 28, 1 << 27, 1 << 26, 1 << 24
    x = rs.random_sample(n28, dtype=cp.float32)
    out["T1"] = gpu_ms(lambda: cp.sort(x), n_repeat=20, n_warmup=3)
    out["T2"] = gpu_ms(lambda: cp.argsort(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.randint(-(1 << 62), 1 << 62, size=n27, dtype=cp.int64)
    out["T3"] = gpu_ms(lambda: cp.sort(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.randint(0, 1 << 20, size=n26, dtype=cp.int32)
    out["T4"] = gpu_ms(lambda: cp.unique(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.random_sample((1 << 14, 1 << 14), dtype=cp.float32)
    out["T5"] = gpu_ms(lambda: cp.sort(x, axis=-1), n_repeat=20, n_warmup=3)
    del x
    a = cp.sort(rs.random_sample(n24, dtype=cp.float32))
    v = rs.random_sample(n24, dtype=cp.float32)
    out["T6"] = gpu_ms(lambda: cp.searchsorted(a, v))
    del a, v
    x = rs.randint(0, 2, size=n28, dtype=cp.int8).astype(cp.bool_)
    out["T7"] = gpu_ms(lambda: cp.nonzero(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.randint(0, 1024, size=n28, dtype=cp.int64)
    out["T8"] = gpu_ms(lambda: cp.bincount(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.random_sample(n26, dtype=cp.float32)
    out["T9"] = gpu_ms(lambda: cp.histogram(x, 1000))
    del x
    x = rs.random_sample(n27, dtype=cp.float64)
    out["T10"] = gpu_ms(lambda: cp.sort(x), n_repeat=20, n_warmup=3)
    del x
    x = rs.randint(0, 1 << 16, size=n28, dtype=cp.int64)
    out["T11"] = gpu_ms(lambda: cp.bincount(x), n_repeat=20, n_warmup=3)
    return out

"""CuPy's equivalents of bench_statistics.cu (ids ST1..ST4), on inputs of the same size, dtype and
distribution (uniform float32 in [0.5, 1.5); float64 from uniform float32 for cov). Selection and sort
times depend on the value distribution, not on the exact values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    out = {}
    rs = cp.random.RandomState(1)
    n26 = 1 << 26
    x = rs.random_sample(n26, dtype=cp.float32) + cp.float32(0.5)
    out["ST1"] = gpu_ms(lambda: cp.median(x), n_repeat=20, n_warmup=3)
    out["ST2"] = gpu_ms(lambda: cp.percentile(x, cp.array([5.0, 50.0, 95.0])), n_repeat=20, n_warmup=3)
    del x
    x = rs.random_sample((4096, 4096), dtype=cp.float32) + cp.float32(0.5)
    out["ST3"] = gpu_ms(lambda: cp.median(x, axis=-1), n_repeat=20, n_warmup=3)
    del x
    x = (rs.random_sample((256, 1 << 16), dtype=cp.float32) + cp.float32(0.5)).astype(cp.float64)
    out["ST4"] = gpu_ms(lambda: cp.cov(x), n_repeat=20, n_warmup=3)
    return out

"""CuPy's equivalents of benchmarks/bench_reduction.cu (same shapes and dtypes; values from CuPy's own
generator in [0.5, 1.5), one NaN in 1024 for R7: the timed operations take no data-dependent path)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    rng = cp.random.default_rng(0)
    out = {}
    n = 1 << 28
    a = rng.random(n, dtype=cp.float32) + 0.5
    out["R1"] = gpu_ms(lambda: cp.sum(a))
    out["R2"] = gpu_ms(lambda: cp.argmax(a))
    out["R3"] = gpu_ms(lambda: cp.cumsum(a))
    out["R6"] = gpu_ms(lambda: cp.var(a))
    a[7::1024] = cp.nan
    out["R7"] = gpu_ms(lambda: cp.nansum(a))
    del a
    m = rng.random((16384, 16384), dtype=cp.float32) + 0.5
    out["R4"] = gpu_ms(lambda: cp.sum(m, axis=0))
    out["R5"] = gpu_ms(lambda: cp.sum(m, axis=1))
    out["R8"] = gpu_ms(lambda: cp.cumsum(m, axis=0))
    return out

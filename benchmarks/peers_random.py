"""CuPy's equivalents of benchmarks/bench_random.cu: cupy.random.default_rng on the same sizes."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    g = cp.random.default_rng(0)
    out = {}
    n28, n27 = 1 << 28, 1 << 27
    out["Q1"] = gpu_ms(lambda: g.standard_normal(n28, dtype=cp.float32))
    out["Q2"] = gpu_ms(lambda: g.random(n28, dtype=cp.float32))
    out["Q3"] = gpu_ms(lambda: g.integers(0, 1000, n27, dtype=cp.int64))
    return out

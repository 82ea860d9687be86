"""CuPy's equivalents of benchmarks/bench_numeric.cu (same shapes and dtypes; values from CuPy's own
generator in [0.5, 1.5); interp's sample points a cumulative sum of such steps, x spanning them)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    rng = cp.random.default_rng(0)
    out = {}
    n, m = 1 << 24, 1 << 16
    xp = cp.cumsum(rng.random(m, dtype=cp.float64) + 0.5)
    fp = rng.random(m, dtype=cp.float64) + 0.5
    x = rng.random(n, dtype=cp.float64) * m
    out["NU1"] = gpu_ms(lambda: cp.interp(x, xp, fp))
    del x
    f = rng.random((4096, 4096), dtype=cp.float32) + 0.5
    out["NU2"] = gpu_ms(lambda: cp.gradient(f))
    del f
    y = rng.random(1 << 26, dtype=cp.float64) + 0.5
    out["NU3"] = gpu_ms(lambda: cp.trapezoid(y) if hasattr(cp, "trapezoid") else cp.trapz(y))
    del y
    a = rng.random(1 << 26, dtype=cp.float32) + 0.5
    b = a + cp.float32(1e-6)
    out["NU4"] = gpu_ms(lambda: cp.isclose(a, b))
    out["NU5"] = gpu_ms(lambda: cp.linalg.norm(a))
    del a, b
    mat = rng.random((1024, 1024), dtype=cp.float64) + 0.5
    out["NU6"] = gpu_ms(lambda: cp.linalg.norm(mat, 2))
    return out

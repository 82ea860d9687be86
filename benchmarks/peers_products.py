"""CuPy's equivalents of benchmarks/bench_products.cu (same shapes and dtypes; values from CuPy's own
generator: GEMM and dot times do not depend on the values)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp

    rng = cp.random.default_rng(0)
    out = {}
    n = 8192
    a = rng.random((n, n), dtype=cp.float32) + 0.5
    b = rng.random((n, n), dtype=cp.float32) + 0.5
    out["P1"] = gpu_ms(lambda: a @ b, n_repeat=10, n_warmup=2)
    a64, b64 = a.astype(cp.float64), b.astype(cp.float64)
    out["P2"] = gpu_ms(lambda: a64 @ b64, n_repeat=10, n_warmup=2)
    del a, b, a64, b64
    a = rng.random((4096, 64, 64), dtype=cp.float32)
    b = rng.random((4096, 64, 64), dtype=cp.float32)
    out["P3"] = gpu_ms(lambda: cp.matmul(a, b))
    x = rng.random(1 << 26, dtype=cp.float32)
    y = rng.random(1 << 26, dtype=cp.float32)
    out["P4"] = gpu_ms(lambda: cp.dot(x, y))
    a = rng.random((512, 256, 256), dtype=cp.float32)
    b = rng.random((512, 256, 256), dtype=cp.float32)
    out["P5"] = gpu_ms(lambda: cp.einsum("bij,bjk->bik", a, b))
    del a, b
    n = 4096
    a = (rng.random((n, n)) + 1j * rng.random((n, n))).astype(cp.complex64)
    b = (rng.random((n, n)) + 1j * rng.random((n, n))).astype(cp.complex64)
    out["P6"] = gpu_ms(lambda: a @ b, n_repeat=10, n_warmup=2)
    return out

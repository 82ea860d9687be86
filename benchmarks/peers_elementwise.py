"""CuPy's equivalents of benchmarks/bench_elementwise.cu (same shapes, dtypes and input pattern)."""


def cupy_cases(gpu_ms, data):
    import time

    import cupy as cp

    def pattern(shape, seed):
        n = 1
        for d in shape:
            n *= d
        r = cp.arange(n, dtype=cp.float32)
        return (cp.sin(r * cp.float32(0.001 * seed)) + cp.float32(1.5)).reshape(shape)

    out = {}
    n = 1 << 28
    x, y = pattern((n,), 1), pattern((n,), 2)
    out["E1"] = gpu_ms(lambda: x * 2.0 + y)
    out["E1e"] = gpu_ms(lambda: cp.exp(x))
    del x, y
    m = 16384
    a, c = pattern((m, m), 3), pattern((m, 1), 4)
    out["E1b"] = gpu_ms(lambda: a + c)
    b = pattern((m, m), 5)
    out["E1t"] = gpu_ms(lambda: a.T + b.T)
    del a, b, c
    one = cp.ones(1, dtype=cp.float32)
    for _ in range(100):
        one + 1
    cp.cuda.Device().synchronize()
    calls = 10000
    t0 = time.perf_counter()
    for _ in range(calls):
        one + 1
    cp.cuda.Device().synchronize()
    out["E4"] = (time.perf_counter() - t0) * 1e3 / calls
    t0 = time.perf_counter()
    for _ in range(calls):
        one + one
    cp.cuda.Device().synchronize()
    out["E4aa"] = (time.perf_counter() - t0) * 1e3 / calls
    for _ in range(100):
        one.sum()
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        one.sum()
    cp.cuda.Device().synchronize()
    out["E4sum"] = (time.perf_counter() - t0) * 1e3 / calls
    small_ops = {
        "E4exp": lambda: cp.exp(one),
        "E4max": lambda: cp.max(one),
        "E4mean": lambda: cp.mean(one),
        "E4var": lambda: cp.var(one),
        "E4argmax": lambda: cp.argmax(one),
        "E4cumsum": lambda: cp.cumsum(one),
        "E4sort": lambda: cp.sort(one),
    }
    for key, fn in small_ops.items():
        for _ in range(100):
            fn()
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        cp.cuda.Device().synchronize()
        out[key] = (time.perf_counter() - t0) * 1e3 / calls
    return out

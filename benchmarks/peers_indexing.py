"""CuPy's equivalents of bench_indexing.cu's cases, on the same inputs (same shapes, dtypes and index
patterns)."""


def cupy_cases(gpu_ms, data):
    import numpy as np
    import cupy as cp

    out = {}
    n = 1 << 26
    a = cp.arange(n, dtype=cp.float32)
    idx = cp.asarray((np.arange(n, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(n)).astype(cp.int64)
    # cupy.take has no `mode` and never checks bounds (indices wrap): the peer of cusci's wrap mode.
    # cusci's raise mode (I1r, one bounds read-back) has no CuPy counterpart.
    out["I1"] = gpu_ms(lambda: cp.take(a, idx, axis=0))
    del a, idx

    n = 1 << 28
    a = cp.arange(n, dtype=cp.float32)
    # The C++ side uses a xorshift bit stream (serial on the host); an independent 50% Bernoulli mask
    # has the same density and the same cost profile.
    bits = np.random.default_rng(0).random(n) < 0.5
    m = cp.asarray(bits)
    out["I2"] = gpu_ms(lambda: a[m])
    del a, m, bits

    n = 1 << 25
    parts = [cp.arange(n, dtype=cp.float32) for _ in range(8)]
    out["I3"] = gpu_ms(lambda: cp.concatenate(parts, axis=0))
    del parts

    a = cp.arange(8192 * 8192, dtype=cp.float32).reshape(8192, 8192)
    out["I4"] = gpu_ms(lambda: cp.pad(a, 16, mode="reflect"))
    del a

    a = cp.arange(16384 * 16384, dtype=cp.float32).reshape(16384, 16384)
    out["I5"] = gpu_ms(lambda: cp.ascontiguousarray(a.T))
    out["I7"] = gpu_ms(lambda: cp.tril(a))
    del a

    a = cp.arange(1 << 28, dtype=cp.float32)
    out["I6"] = gpu_ms(lambda: cp.roll(a, 12345))
    return out

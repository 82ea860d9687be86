"""CuPy's equivalents of bench_signal_bsplines.cu (ids G10, G10b, G10s, G10f): cupyx.scipy.signal's
cspline1d, cspline2d, symiirorder2 and sepfir2d on inputs of the same shapes, dtypes and values
(the same sin/cos pattern; the recursions' cost does not depend on the values)."""
import numpy as np


def _pattern(shape):
    n = int(np.prod(shape))
    i = np.arange(n)
    v = np.sin(np.float32(0.001) * (i % 100003).astype(np.float32)) + np.float32(0.25) * np.cos(
        np.float32(0.37) * (i % 977).astype(np.float32))
    return v.astype(np.float32).reshape(shape)


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    x1 = cp.asarray(_pattern((1 << 24,)))
    out["G10"] = gpu_ms(lambda: csig.cspline1d(x1), n_repeat=10)
    del x1
    img = cp.asarray(_pattern((4096, 4096)))
    out["G10b"] = gpu_ms(lambda: csig.cspline2d(img), n_repeat=10)
    rows = cp.asarray(_pattern((256, 1 << 16)))
    out["G10s"] = gpu_ms(lambda: csig.symiirorder2(rows, 0.5, 0.7853981633974483), n_repeat=10)
    del rows
    h7 = cp.asarray(np.array([0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05], np.float32))
    out["G10f"] = gpu_ms(lambda: csig.sepfir2d(img, h7, h7))
    return out

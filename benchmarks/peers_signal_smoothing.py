"""CuPy's equivalents of bench_signal_smoothing.cu (ids G8, G8m, G9, G9b, G9w): cupyx.scipy.signal's
savgol_filter, medfilt, medfilt2d and wiener on inputs of the same shapes, dtypes and distribution
(uniform float32 in [0, 1)). The times of these filters do not depend on the values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(1)
    x = rs.random_sample((1 << 26,), dtype=cp.float32)
    out["G8"] = gpu_ms(lambda: csig.savgol_filter(x, 31, 3))
    out["G8m"] = gpu_ms(lambda: csig.savgol_filter(x, 31, 3, mode="mirror"))
    del x
    x = rs.random_sample((1 << 24,), dtype=cp.float32)
    out["G9"] = gpu_ms(lambda: csig.medfilt(x, 11))
    del x
    img = rs.random_sample((4096, 4096), dtype=cp.float32)
    out["G9b"] = gpu_ms(lambda: csig.medfilt2d(img, 5))
    out["G9w"] = gpu_ms(lambda: csig.wiener(img, 5))
    return out

"""CuPy's equivalents of bench_signal_convolution.cu (ids G1, G1o, G1a, G1c of the CuPy H200 baseline):
cupyx.scipy.signal.fftconvolve / oaconvolve / convolve (method auto) of a (2^26,) float32 signal with 4096
float32 taps in mode same, and convolve2d of a 4096^2 float32 image with a 15x15 kernel (same, fill and
symm), on inputs made by the same formulas as the C++ program."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    n, m = 1 << 26, 4096
    x = cp.sin(cp.arange(n, dtype=cp.float32) * cp.float32(0.001)).astype(cp.float32)
    h = (cp.cos(cp.arange(m, dtype=cp.float32) * cp.float32(0.01)) / m).astype(cp.float32)
    out["G1"] = gpu_ms(lambda: csig.fftconvolve(x, h, mode="same"))
    out["G1o"] = gpu_ms(lambda: csig.oaconvolve(x, h, mode="same"))
    out["G1a"] = gpu_ms(lambda: csig.convolve(x, h, mode="same"))
    del x, h
    img = cp.sin(cp.arange(4096 * 4096, dtype=cp.float32) * cp.float32(0.37)).astype(cp.float32).reshape(4096, 4096)
    k = (cp.cos(cp.arange(225, dtype=cp.float32) * cp.float32(0.3)) / 225.0).astype(cp.float32).reshape(15, 15)
    out["G1c"] = gpu_ms(lambda: csig.convolve2d(img, k, mode="same"))
    out["G1c.symm"] = gpu_ms(lambda: csig.convolve2d(img, k, mode="same", boundary="symm"))
    return out

"""CuPy's equivalents of bench_signal_fourier.cu (ids G7, G7f, G7c, G7co, G7d): cupyx.scipy.signal's
hilbert, czt, CZT and detrend on inputs of the same shape and dtype (uniform float32 in [0, 1); the
czt input cast to complex64), and for G7f the bare cupy.fft calls cusci's hilbert makes (rfft of the
real signal and irfft of a half spectrum)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(1)
    n = 1 << 26
    x = rs.random_sample(n, dtype=cp.float32)
    out["G7"] = gpu_ms(lambda: csig.hilbert(x), n_repeat=20)
    spec = cp.zeros(n // 2 + 1, dtype=cp.complex64)
    out["G7f"] = gpu_ms(lambda: (cp.fft.rfft(x), cp.fft.irfft(spec, n)), n_repeat=20)
    del x, spec
    nc = 1 << 20
    xc = rs.random_sample(nc, dtype=cp.float32).astype(cp.complex64)
    out["G7c"] = gpu_ms(lambda: csig.czt(xc))
    t = csig.CZT(nc)
    out["G7co"] = gpu_ms(lambda: t(xc))
    del xc
    xd = rs.random_sample((256, 1 << 18), dtype=cp.float32)
    out["G7d"] = gpu_ms(lambda: csig.detrend(xd), n_repeat=10)
    return out

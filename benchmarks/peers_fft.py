"""CuPy's equivalents of benchmarks/bench_fft.cu (same shapes and dtypes; values from CuPy's own
generator: FFT times do not depend on the values). CuPy's plan cache is warm after the warm-up runs,
as cusci's is. F1raw / F3raw are cusci-only reference rows (raw cuFFT)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.fft as cfft

    rng = cp.random.default_rng(0)
    out = {}
    n = 1 << 26

    def crand(shape, dtype):
        return (rng.random(shape, dtype=cp.float32) - 0.5 + 1j * (rng.random(shape, dtype=cp.float32) - 0.5)).astype(dtype)

    x = crand(n, cp.complex64)
    out["F1"] = gpu_ms(lambda: cfft.fft(x))
    del x
    x = rng.random(n, dtype=cp.float32) - 0.5
    out["F2"] = gpu_ms(lambda: cfft.rfft(x))
    del x
    x = crand((4096, 4096), cp.complex64)
    out["F3"] = gpu_ms(lambda: cfft.fft2(x))
    out["F4"] = gpu_ms(lambda: cfft.fft(x, axis=-1))
    del x
    x = crand((4096, 2049), cp.complex64)
    out["F5"] = gpu_ms(lambda: cfft.irfft2(x, s=(4096, 4096)))
    del x
    x = rng.random((4096, 4096), dtype=cp.float32) - 0.5
    out["F6"] = gpu_ms(lambda: cfft.dct(x, type=2, axis=-1))
    del x
    x = crand(n, cp.complex128)
    out["F7"] = gpu_ms(lambda: cfft.fft(x))
    del x
    return out

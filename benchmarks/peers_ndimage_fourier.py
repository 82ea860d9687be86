"""CuPy's equivalents of bench_ndimage_fourier.cu (ids NF*): cupyx.scipy.ndimage's Fourier filters on a
4096 x 4096 complex64 array (complex-FFT layout), on the 4096 x 2049 real-FFT layout (n = 4096 along
the last axis), and fourier_shift on complex128. Values are uniform random; no path depends on them."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.ndimage as cnd

    out = {}
    rng = cp.random.default_rng(1)

    def c64(shape):
        return (rng.random(shape, dtype=cp.float32) - 0.5 + 1j * (rng.random(shape, dtype=cp.float32) - 0.5)).astype(
            cp.complex64)

    a = c64((4096, 4096))
    out["NF1"] = gpu_ms(lambda: cnd.fourier_gaussian(a, 4.0))
    out["NF2"] = gpu_ms(lambda: cnd.fourier_uniform(a, 20.0))
    out["NF3"] = gpu_ms(lambda: cnd.fourier_ellipsoid(a, 20.0))
    out["NF4"] = gpu_ms(lambda: cnd.fourier_shift(a, 200.0))
    d = a.astype(cp.complex128)
    out["NF4d"] = gpu_ms(lambda: cnd.fourier_shift(d, 200.0))
    del a, d
    r = c64((4096, 2049))
    out["NF1r"] = gpu_ms(lambda: cnd.fourier_gaussian(r, 4.0, n=4096))
    out["NF2r"] = gpu_ms(lambda: cnd.fourier_uniform(r, 20.0, n=4096))
    out["NF3r"] = gpu_ms(lambda: cnd.fourier_ellipsoid(r, 20.0, n=4096))
    out["NF4r"] = gpu_ms(lambda: cnd.fourier_shift(r, 200.0, n=4096))
    return out

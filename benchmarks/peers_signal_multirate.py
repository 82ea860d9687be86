"""CuPy's equivalents of bench_signal_multirate.cu (ids G4, G4u, G4r, G4d): cupyx.scipy.signal's
resample_poly, upfirdn (with the same 64-tap filter resample_poly builds: firwin(61, 1/3, kaiser 5.0) in
float32, times 2, three zeros in front), resample (FFT method) and decimate (iir, zero_phase), on
standard-normal float32 inputs of the same sizes."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig
    import numpy as np
    import scipy.signal as ss

    out = {}
    rs = cp.random.RandomState(1)
    n = 2 ** 26
    x = rs.standard_normal(n, dtype=cp.float32)
    out["G4"] = gpu_ms(lambda: csig.resample_poly(x, 2, 3))
    h = (ss.firwin(61, 1.0 / 3, window=("kaiser", 5.0)).astype(np.float32) * np.float32(2)).astype(np.float32)
    h = cp.asarray(np.concatenate([np.zeros(3, np.float32), h]))
    out["G4u"] = gpu_ms(lambda: csig.upfirdn(h, x, 2, 3))
    out["G4r"] = gpu_ms(lambda: csig.resample(x, n * 2 // 3), n_repeat=10)
    xd = rs.standard_normal(2 ** 24, dtype=cp.float32)
    out["G4d"] = gpu_ms(lambda: csig.decimate(xd, 4), n_repeat=10)
    del x, xd
    return out

"""CuPy's equivalents of bench_signal_zero_phase.cu (ids G11, G11s, G11g): cupyx.scipy.signal.filtfilt
and sosfiltfilt on inputs of the same shape, dtype and distribution (uniform float32 in [0.5, 1.5)), with
the same filters (butter(4, 0.2) as float32 b, a; butter(16, 0.2) as a float32 sos; butter(4, 0.2) in
float64 for Gustafsson's method). The filters' arithmetic does not depend on the values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig
    import scipy.signal as ss

    out = {}
    rs = cp.random.RandomState(1)
    x = rs.random_sample((256, 1 << 18), dtype=cp.float32) + cp.float32(0.5)
    b, a = ss.butter(4, 0.2)
    b32, a32 = cp.asarray(b, dtype=cp.float32), cp.asarray(a, dtype=cp.float32)
    sos32 = cp.asarray(ss.butter(16, 0.2, output="sos"), dtype=cp.float32)
    out["G11"] = gpu_ms(lambda: csig.filtfilt(b32, a32, x), n_repeat=10, n_warmup=2)
    out["G11s"] = gpu_ms(lambda: csig.sosfiltfilt(sos32, x), n_repeat=10, n_warmup=2)
    del x
    xg = rs.random_sample((16, 1 << 16), dtype=cp.float32).astype(cp.float64) + 0.5
    b64, a64 = cp.asarray(b), cp.asarray(a)
    out["G11g"] = gpu_ms(lambda: csig.filtfilt(b64, a64, xg, method="gust"), n_repeat=5, n_warmup=1)
    return out

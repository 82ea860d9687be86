"""CuPy's equivalents of bench_signal_spectral.cu (ids G5, G5b, G5s, G5g): cupyx.scipy.signal's welch,
stft and spectrogram on inputs of the same shape and dtype (uniform float32 in [0, 1)) and parameters
(nperseg 4096, every other parameter at its default). CuPy's default windows 'hann' and ('tukey', .25)
are drawn with fftbins=True, i.e. the periodic windows SciPy 1.18 names 'hann_periodic' and
'tukey_periodic': the same values as cusci's defaults."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(1)
    n = 1 << 26
    x = rs.random_sample(n, dtype=cp.float32)
    out["G5"] = gpu_ms(lambda: csig.welch(x, nperseg=4096), n_repeat=20)
    out["G5s"] = gpu_ms(lambda: csig.stft(x, nperseg=4096), n_repeat=20)
    out["G5g"] = gpu_ms(lambda: csig.spectrogram(x, nperseg=4096), n_repeat=20)
    del x
    xb = rs.random_sample((256, 1 << 18), dtype=cp.float32)
    out["G5b"] = gpu_ms(lambda: csig.welch(xb, nperseg=4096), n_repeat=20)
    return out

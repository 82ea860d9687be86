"""CuPy's equivalents of bench_signal_short_time_fft.cu (ids G5sft, G5sfs). CuPy has no ShortTimeFFT
(neither cupyx.scipy.signal.ShortTimeFFT nor closest_STFT_dual_window exist), so the peers are the legacy
functions with the same geometry: cupyx.scipy.signal.stft and cupyx.scipy.signal.spectrogram of one
(2^26,) float32 signal (uniform in [0, 1)), Hann window of 4096 points, noverlap 2048 (hop 2048),
complex64 / float32 results as cusci's (spectrogram without its default detrend, as
ShortTimeFFT.spectrogram; CuPy's default 'psd' scaling costs it one extra elementwise pass)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(1)
    n = 1 << 26
    x = rs.random_sample(n, dtype=cp.float32)
    out["G5sft"] = gpu_ms(lambda: csig.stft(x, nperseg=4096, noverlap=2048), n_repeat=20)
    out["G5sfs"] = gpu_ms(lambda: csig.spectrogram(x, window="hann", nperseg=4096, noverlap=2048,
                                                   detrend=False), n_repeat=20)
    return out

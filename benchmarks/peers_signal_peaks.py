"""CuPy's equivalents of bench_signal_peaks.cu (ids G6, G6n, G6h, G6a, G6s, G6hs): cupyx.scipy.signal's
find_peaks and argrelmax on the same 2^24 float64 samples (three sines of periods 2000, 317 and 53.3
samples plus 0.5 * (u - 0.5), u the splitmix64 hash of the sample index as a double in [0, 1),
computed with NumPy's wrapping uint64 arithmetic exactly as the C++ program does).

CuPy's _select_by_peak_distance walks the peaks in a Python loop that reads device scalars for every
peak: at 2^24 samples (about 5.6 million local maxima) one call takes minutes. G6s / G6hs time it on
the first 2^16 samples (the same prefix the C++ program times); G6 / G6h are those times scaled by
2^24 / 2^16, the loop's cost being linear in the number of peaks (an extrapolation, said so here and
in docs/signal-peaks.md)."""


def real_like(n):
    import numpy as np
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = i + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    u = (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    t = np.arange(n, dtype=np.float64)
    tau = 6.283185307179586
    return (np.sin(tau * t / 2000.0) + 0.5 * np.sin(tau * t / 317.0) + 0.3 * np.sin(tau * t / 53.3)
            + 0.5 * (u - 0.5))


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    x = cp.asarray(real_like(1 << 24))
    xs = x[: 1 << 16]
    out["G6s"] = gpu_ms(lambda: csig.find_peaks(xs, distance=100, prominence=1.0), n_repeat=3, n_warmup=1)
    out["G6hs"] = gpu_ms(lambda: csig.find_peaks(xs, height=0.5, threshold=0.01, distance=100, prominence=1.0,
                                                 width=5), n_repeat=3, n_warmup=1)
    out["G6"] = out["G6s"] * (1 << 8)  # extrapolated (see the docstring)
    out["G6h"] = out["G6hs"] * (1 << 8)
    out["G6n"] = gpu_ms(lambda: csig.find_peaks(x), n_repeat=10)
    out["G6a"] = gpu_ms(lambda: csig.argrelmax(x), n_repeat=10)
    return out

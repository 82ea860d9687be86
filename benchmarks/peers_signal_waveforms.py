"""CuPy's equivalents of bench_signal_waveforms.cu (ids LS1, LS1u, LS1f, VS1, WF1, WF1l, WF2, WF3):
cupyx.scipy.signal's lombscargle, vectorstrength, chirp, square and sawtooth on inputs of the same
shape and dtype, made the same way (sorted uniform sample times in [0, 1000), sin(0.7 x) plus unit
normal noise, linspace / sorted uniform frequency grids).

CuPy's lombscargle keeps SciPy's older signature lombscargle(x, y, freqs, precenter=False,
normalize=False) (no weights, no floating_mean): LS1 and LS1u call it with the defaults, which compute
the same periodogram as SciPy 1.18's defaults (the zero-mean model, power units). It has no
floating-mean model, so LS1f is timed against the same default call (the closest work CuPy can do)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(7)
    n, nf = 100000, 10000
    x = cp.sort(rs.uniform(0.0, 1000.0, n))
    y = cp.sin(0.7 * x) + rs.normal(0.0, 1.0, n)
    f = cp.linspace(0.01, 10.0, nf)
    fu = cp.sort(rs.uniform(0.01, 10.0, nf))
    out["LS1"] = gpu_ms(lambda: csig.lombscargle(x, y, f), n_repeat=10, n_warmup=2)
    out["LS1u"] = gpu_ms(lambda: csig.lombscargle(x, y, fu), n_repeat=10, n_warmup=2)
    out["LS1f"] = out["LS1"]
    periods = cp.linspace(1.0, 20.0, nf)
    out["VS1"] = gpu_ms(lambda: csig.vectorstrength(x, periods), n_repeat=5, n_warmup=1)
    del x, y, f, fu, periods
    m = 1 << 26
    t = cp.linspace(0.0, 10.0, m)
    out["WF1"] = gpu_ms(lambda: csig.chirp(t, 6.0, 10.0, 1.0), n_repeat=20)
    out["WF1l"] = gpu_ms(lambda: csig.chirp(t, 1.0, 10.0, 60.0, method="logarithmic"), n_repeat=20)
    del t
    t32 = cp.linspace(-100.0, 100.0, m, dtype=cp.float32)
    # CuPy's square/sawtooth kernels need the duty/width in t's dtype (a Python float is float64 there).
    # CuPy 14.2's square kernel does not compile for float32 t (fmod(float, double) is ambiguous in its
    # source); a case CuPy cannot run is reported as missing, not timed on other work.
    for key, fn in (("WF2", lambda: csig.square(t32, cp.float32(0.3))),
                    ("WF3", lambda: csig.sawtooth(t32, cp.float32(0.5)))):
        try:
            out[key] = gpu_ms(fn, n_repeat=20)
        except Exception as e:  # noqa: BLE001 - CuPy's compile error; the case stays without a peer
            print(f"# {key}: CuPy failed: {str(e).splitlines()[0][:120]}")
    return out

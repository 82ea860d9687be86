"""Reference data for cusci::signal's spectral family (periodogram, welch, csd, coherence, spectrogram,
stft, istft, check_COLA, check_NOLA), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_spectral/.

Cases (func, then its parameters; arrays are named <case>_<what>; a parameter absent or null is "not
given"):
  the input:  x (array) and, for csd / coherence, y; layout (C | F | strided: the array holds the parent,
              the input is parent[..., ::2]); or data (a file of examples/data, read by the test) with
              data_col (a column of a 2-D recording, null: all) and data_len (the first samples only).
  the window: window (a name, or [name, p1, ...] for SciPy's tuple) or window_array (an array, passed
              as a host array, or on the device with window_device true).
  welch / csd:  fs, nperseg, noverlap, nfft, detrend ("constant" | "linear" | "none"), return_onesided,
              scaling ("density" | "spectrum"), axis, average ("mean" | "median"); expected f, P.
  periodogram: fs, nfft, detrend, return_onesided, scaling, axis; f, P.
  coherence:  fs, nperseg, noverlap, nfft, detrend, axis; f, P.
  spectrogram: as welch without average, with mode; f, t, P. angle / phase results are compared as
              (cos, sin) (the sign of a zero imaginary part is not portable across FFT libraries).
  stft:       fs, nperseg, noverlap, nfft, detrend, return_onesided, boundary ("zeros" | "even" | "odd"
              | "constant" | "none"), padded, axis, scaling; f, t, P.
  istft:      Z (array: the input), fs, nperseg, noverlap, nfft, input_onesided, boundary (bool),
              time_axis, freq_axis, scaling; t, P.
  roundtrip:  stft parameters (stft_*) and istft parameters; the test calls cusci's stft then istft
              and compares with SciPy's istft of SciPy's stft (expected t, P).
  check_COLA / check_NOLA: window, nperseg, noverlap, tol; expected (bool). Host only.
  warns: the number of warnings SciPy issued (0 when absent).
Errors (error = the cusci exception): the same parameters with `dtype` and `shape` giving the input (a
data-less array on the host).
Tolerances: relative to the result's maximum; float32 results 2e-4 (SciPy computes these in float64
with a float64 window and rounds; cusci computes in float32 on cuFFT), float64 1e-10.
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite, tol

s = Suite("signal_spectral")
rng = s.rng(20261219)


def make_input(shape, dtype, layout="C"):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    elif dt.kind == "i":
        a = rng.integers(-20, 20, size=shape)
    else:
        # a tone plus a trend plus noise: detrending and windows matter
        a = rng.standard_normal(shape)
        if len(shape) >= 1 and shape[-1] > 1:
            n = shape[-1]
            t = np.arange(n)
            a = a + 3.0 * np.sin(2 * np.pi * 0.11 * t) + 0.02 * t + 1.5
    a = a.astype(dt)
    if layout == "strided":
        ps = tuple(shape[:-1]) + (2 * shape[-1],)
        parent = np.zeros(ps, dtype=dt)
        parent[..., ::2] = a
        return parent, parent[..., ::2]
    return a, a


def tolerance(r, f32=2e-4, f64=1e-10):
    r = np.asarray(r)
    scale = float(np.nanmax(np.abs(r))) if r.size else 1.0
    return tol(r.dtype, scale=scale, rtol32=f32, rtol64=f64)


def win_arg(w):
    """SciPy's window from the JSON form."""
    if isinstance(w, list):
        return tuple(w)
    return w


def call_warn(f):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        r = f()
    return r, len([w for w in rec if issubclass(w.category, UserWarning)])


def store_inputs(name, params, x=None, xp=None, y=None, yp=None, window_array=None):
    if x is not None:
        params["x"] = s.array(f"{name}_x", xp if xp is not None else x)
    if y is not None:
        params["y"] = s.array(f"{name}_y", yp if yp is not None else y)
    if window_array is not None:
        params["window_array"] = s.array(f"{name}_w", window_array)


def add(func, name, outs, warns, single_input=False, **params):
    """outs: dict of expected arrays (f, t, P). single_input: an input is float32 / complex64 while the
    result is double: SciPy then transforms that input in single precision (a float32 y of csd gives
    errors of 1e-7 relative in SciPy's complex128 result), so the single-precision tolerance applies."""
    main = outs["P"]
    rt, at = tolerance(main.astype(np.complex64) if single_input else main)
    for k, v in outs.items():
        params[k] = s.array(f"{name}_{k}", v)
    if warns:
        params["warns"] = warns
    s.case(name, func=func, rtol=rt, atol=at, **params)


def kw_of(params, keys):
    out = {}
    for k in keys:
        if k in params and params[k] is not None:
            v = params[k]
            if k == "window":
                v = win_arg(v)
            if k == "detrend" and v == "none":
                v = False
            if k == "boundary" and v == "none":
                v = None
            out[k] = v
    return out


WELCH_KEYS = ["fs", "window", "nperseg", "noverlap", "nfft", "detrend", "return_onesided", "scaling", "axis",
              "average"]
PERIO_KEYS = ["fs", "window", "nfft", "detrend", "return_onesided", "scaling", "axis"]
COH_KEYS = ["fs", "window", "nperseg", "noverlap", "nfft", "detrend", "axis"]
SPEC_KEYS = ["fs", "window", "nperseg", "noverlap", "nfft", "detrend", "return_onesided", "scaling", "axis", "mode"]
STFT_KEYS = ["fs", "window", "nperseg", "noverlap", "nfft", "detrend", "return_onesided", "boundary", "padded",
             "axis", "scaling"]
ISTFT_KEYS = ["fs", "window", "nperseg", "noverlap", "nfft", "input_onesided", "boundary", "time_axis",
              "freq_axis", "scaling"]


def run(func, name, x, xp, layout, params, y=None, yp=None, window_array=None):
    kw = {}
    keys = {"welch": WELCH_KEYS, "csd": WELCH_KEYS, "periodogram": PERIO_KEYS, "coherence": COH_KEYS,
            "spectrogram": SPEC_KEYS, "stft": STFT_KEYS}[func]
    kw = kw_of(params, keys)
    if window_array is not None:
        kw["window"] = window_array
    if func == "welch":
        (f, P), w = call_warn(lambda: ss.welch(x, **kw))
        outs = {"f": f, "P": P}
    elif func == "periodogram":
        (f, P), w = call_warn(lambda: ss.periodogram(x, **kw))
        outs = {"f": f, "P": P}
    elif func == "csd":
        (f, P), w = call_warn(lambda: ss.csd(x, y, **kw))
        outs = {"f": f, "P": P}
    elif func == "coherence":
        (f, P), w = call_warn(lambda: ss.coherence(x, y, **kw))
        outs = {"f": f, "P": P}
    elif func == "spectrogram":
        (f, t, P), w = call_warn(lambda: ss.spectrogram(x, **kw))
        outs = {"f": f, "t": t, "P": P}
    else:
        (f, t, P), w = call_warn(lambda: ss.stft(x, **kw))
        outs = {"f": f, "t": t, "P": P}
    p = dict(params)
    p["layout"] = layout
    store_inputs(name, p, x=x, xp=xp, y=y, yp=yp, window_array=window_array)
    single = any(a is not None and np.asarray(a).dtype in (np.float32, np.complex64) for a in (x, y))
    add(func, name, outs, w, single_input=single, **p)


# ---------------------------------------------------------------------------------------------- welch
s.group("welch")
i = 0
windows = ["hann_periodic", "hamming", ["tukey", 0.3], "blackman", "boxcar", ["kaiser", 8.6], "flattop",
           ["general_gaussian", 1.5, 7.0]]
for n, nperseg, noverlap, nfft, det in [(1000, 64, None, None, "constant"), (1001, 63, None, None, "linear"),
                                        (777, 100, 0, None, "none"), (512, 32, 31, None, "constant"),
                                        (500, 50, 10, 64, "linear"), (300, 33, 5, 47, "constant"),
                                        (300, None, None, None, "constant"), (100, 256, None, None, "linear"),
                                        (257, 16, -4, None, "constant"), (64, 64, None, None, "constant")]:
    for dt in ("float64", "float32"):
        for scaling in ("density", "spectrum"):
            w = windows[i % len(windows)]
            avg = "median" if i % 3 == 2 else "mean"
            onesided = i % 5 != 4
            xp, x = make_input((n,), dt)
            run("welch", f"welch{i:03d}", x, xp, "C",
                dict(fs=[1.0, 2.5, 1000.0][i % 3], window=w, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                     detrend=det, return_onesided=onesided, scaling=scaling, average=avg))
            i += 1
for shape, axis, dt, layout in [((3, 400), -1, "float64", "C"), ((400, 3), 0, "float32", "C"),
                                ((2, 3, 300), 1, "float64", "C"), ((2, 300, 3), -2, "float64", "F"),
                                ((4, 500), -1, "float32", "strided"), ((5, 200), 1, "int32", "C"),
                                ((3, 256), -1, "complex128", "C"), ((256,), -1, "complex64", "C"),
                                ((2, 128), -1, "float16", "C"), ((3, 0), -1, "float64", "C"),
                                ((0,), -1, "float64", "C"), ((0, 100), -1, "float32", "C")]:
    for avg in ("mean", "median"):
        xp, x = make_input(shape, dt, layout)
        run("welch", f"welch{i:03d}", x, xp, layout,
            dict(nperseg=64, axis=axis, average=avg, detrend="linear" if i % 2 else "constant"))
        i += 1
# array windows: host, device, complex (two-sided)
for wa, dev, onesided in [(ss.get_window("hann", 48), False, True), (ss.get_window(("kaiser", 5.0), 40), True, True),
                          (np.exp(0.3j * np.arange(32)) * ss.get_window("hann", 32), False, False)]:
    xp, x = make_input((600,), "float64")
    run("welch", f"welch{i:03d}", x, xp, "C", dict(window_device=dev, return_onesided=onesided, noverlap=7),
        window_array=wa)
    i += 1

# ---------------------------------------------------------------------------------------------- periodogram
s.group("periodogram")
i = 0
for n, nfft, det, win, dt, onesided, scaling in [
    (256, None, "constant", None, "float64", True, "density"), (255, None, "linear", "hann", "float32", True, "spectrum"),
    (200, 256, "none", "boxcar", "float64", True, "density"), (200, 128, "constant", None, "float64", True, "density"),
    (200, 200, "constant", ["tukey", 0.5], "float64", False, "spectrum"), (129, None, "constant", None, "complex128", True, "density"),
    (1, None, "constant", None, "float64", True, "density"), (2, None, "none", None, "float64", True, "density"),
    (100, 0, "constant", None, "float64", True, "density"),
]:
    xp, x = make_input((n,), dt)
    run("periodogram", f"periodogram{i:03d}", x, xp, "C",
        dict(nfft=nfft, detrend=det, window=win, return_onesided=onesided, scaling=scaling, fs=4.0))
    i += 1
for shape, axis in [((3, 100), -1), ((100, 3), 0), ((2, 50, 2), 1)]:
    xp, x = make_input(shape, "float64")
    run("periodogram", f"periodogram{i:03d}", x, xp, "C", dict(axis=axis))
    i += 1
xp, x = make_input((120,), "float64")
run("periodogram", f"periodogram{i:03d}", x, xp, "C", dict(), window_array=ss.get_window("hamming", 120))
i += 1

# ---------------------------------------------------------------------------------------------- csd / coherence
s.group("csd")
i = 0
for nx, ny, dtx, dty, kw in [
    (500, 500, "float64", "float64", dict(nperseg=64)),
    (500, 500, "float32", "float32", dict(nperseg=50, average="median", detrend="linear")),
    (500, 430, "float64", "float64", dict(nperseg=64, scaling="spectrum")),
    (300, 333, "float64", "float32", dict(nperseg=40, noverlap=10, nfft=64)),
    (300, 300, "complex128", "float64", dict(nperseg=32)),
    (300, 300, "complex64", "complex64", dict(nperseg=32, average="median")),
    (257, 257, "float64", "float64", dict(nperseg=33, return_onesided=False)),
    (100, 100, "float64", "float64", dict(nperseg=256)),
]:
    _, x = make_input((nx,), dtx)
    _, y = make_input((ny,), dty)
    mix = np.resize(x if np.dtype(dty).kind == "c" else np.real(x), ny)
    y = (y + 0.5 * mix).astype(dty)
    run("csd", f"csd{i:03d}", x, None, "C", dict(kw), y=y)
    i += 1
for xs, ys, axis in [((3, 200), (200,), -1), ((3, 1, 200), (4, 200), -1), ((200, 2), (200, 2), 0)]:
    _, x = make_input(xs, "float64")
    _, y = make_input(ys, "float64")
    run("csd", f"csd{i:03d}", x, None, "C", dict(nperseg=32, axis=axis), y=y)
    i += 1
i = 0
for nx, ny, dt, kw in [(600, 600, "float64", dict(nperseg=64)), (600, 600, "float32", dict(nperseg=100, detrend="linear")),
                       (500, 450, "float64", dict(nperseg=50)), (400, 400, "float64", dict(nperseg=31, nfft=40, noverlap=3)),
                       (300, 300, "complex128", dict(nperseg=32))]:
    _, x = make_input((nx,), dt)
    _, y = make_input((ny,), dt)
    y = (y + np.resize(x, ny)).astype(dt)
    run("coherence", f"coherence{i:03d}", x, None, "C", dict(kw, fs=10.0), y=y)
    i += 1
_, x = make_input((2, 3, 256), "float64")
_, y = make_input((2, 3, 256), "float64")
run("coherence", f"coherence{i:03d}", x, None, "C", dict(nperseg=64, axis=-1), y=(x + y))
i += 1

# ---------------------------------------------------------------------------------------------- spectrogram
s.group("spectrogram")
i = 0
for mode in ("psd", "complex", "magnitude", "angle", "phase"):
    for n, nperseg, noverlap, nfft, dt, onesided, scaling, det in [
        (400, 64, None, None, "float64", True, "density", "constant"),
        (401, 33, 7, 40, "float32", True, "spectrum", "linear"),
        (300, 32, 0, None, "float64", False, "density", "none"),
        (300, 31, None, None, "complex128", True, "density", "constant"),
        (100, None, None, None, "float64", True, "density", "constant"),
    ]:
        xp, x = make_input((n,), dt)
        run("spectrogram", f"spectrogram{i:03d}", x, xp, "C",
            dict(mode=mode, nperseg=nperseg, noverlap=noverlap, nfft=nfft, return_onesided=onesided,
                 scaling=scaling, detrend=det, fs=8.0))
        i += 1
for shape, axis, dt, layout, mode in [((3, 300), -1, "float64", "C", "psd"), ((300, 2), 0, "float32", "C", "magnitude"),
                                      ((2, 200, 2), 1, "float64", "F", "psd"), ((2, 300), -1, "float64", "strided", "phase"),
                                      ((2, 200), 1, "int64", "C", "complex")]:
    xp, x = make_input(shape, dt, layout)
    run("spectrogram", f"spectrogram{i:03d}", x, xp, layout, dict(nperseg=40, axis=axis, mode=mode,
                                                                   window="hann"))
    i += 1

# complex windows: SciPy takes the real part of the windowed segments one-sided, a complex scale
cw = np.exp(0.3j * np.arange(32)) * ss.get_window("hann", 32)
for mode, onesided in [("psd", True), ("complex", True), ("magnitude", False), ("psd", False)]:
    xp, x = make_input((300,), "float64")
    run("spectrogram", f"spectrogram{i:03d}", x, xp, "C", dict(mode=mode, return_onesided=onesided), window_array=cw)
    i += 1

# ---------------------------------------------------------------------------------------------- stft
s.group("stft")
i = 0
for boundary in ("zeros", "even", "odd", "constant", "none"):
    for n, nperseg, noverlap, nfft, dt, padded, onesided, det, scaling in [
        (300, 64, None, None, "float64", True, True, "none", "spectrum"),
        (301, 33, 10, 40, "float32", True, True, "constant", "psd"),
        (250, 32, 0, None, "float64", False, False, "linear", "spectrum"),
        (200, 31, -3, None, "complex128", True, True, "none", "spectrum"),
        (100, 256, None, None, "float64", True, True, "none", "psd"),
    ]:
        xp, x = make_input((n,), dt)
        run("stft", f"stft{i:03d}", x, xp, "C",
            dict(boundary=boundary, nperseg=nperseg, noverlap=noverlap, nfft=nfft, padded=padded,
                 return_onesided=onesided, detrend=det, scaling=scaling, fs=5.0,
                 window=["tukey", 0.4] if i % 2 else None))
        i += 1
for shape, axis, dt, layout in [((3, 200), -1, "float64", "C"), ((200, 3), 0, "float32", "C"),
                                ((2, 150, 2), -2, "float64", "strided")]:
    xp, x = make_input(shape, dt, layout)
    run("stft", f"stft{i:03d}", x, xp, layout, dict(nperseg=32, axis=axis))
    i += 1
for onesided in (True, False):
    xp, x = make_input((250,), "float32")
    run("stft", f"stft{i:03d}", x, xp, "C", dict(nperseg=32, return_onesided=onesided, scaling="psd"),
        window_array=cw)
    i += 1

# ---------------------------------------------------------------------------------------------- istft
s.group("istft")
i = 0
for n, nperseg, noverlap, nfft, win, onesided, boundary, padded, scaling, dt in [
    (300, 64, None, None, None, True, True, True, "spectrum", "float64"),
    (301, 33, 20, None, "hann", True, True, True, "psd", "float64"),
    (256, 32, 24, 48, ["tukey", 0.5], True, True, True, "spectrum", "float32"),
    (250, 40, 30, None, "boxcar", False, True, True, "spectrum", "float64"),
    (250, 40, 20, None, "hann", True, False, False, "spectrum", "float64"),
    (200, 16, 8, None, "hann_periodic", False, True, True, "spectrum", "complex128"),
    (200, 16, 0, None, "boxcar", True, True, True, "spectrum", "float64"),
    (200, 16, 2, None, "hann", True, True, True, "spectrum", "float64"),  # NOLA fails at the edges
    (200, 1, 0, None, "boxcar", False, True, True, "spectrum", "float64"),
]:
    xp, x = make_input((n,), dt)
    skw = dict(nperseg=nperseg, noverlap=noverlap, nfft=nfft, return_onesided=onesided,
               boundary="zeros" if boundary else None, padded=padded, scaling=scaling)
    if win is not None:
        skw["window"] = win_arg(win)
    f, t, Z = ss.stft(x, **skw)
    ikw = dict(nperseg=nperseg, noverlap=noverlap, nfft=nfft, input_onesided=onesided and not np.iscomplexobj(x),
               boundary=boundary, scaling=scaling, fs=2.0)
    if win is not None:
        ikw["window"] = win_arg(win)
    (tt, xr), w = call_warn(lambda: ss.istft(Z, **ikw))
    p = dict(ikw, window=win)
    p["Z"] = s.array(f"istft{i:03d}_Z", Z)
    add("istft", f"istft{i:03d}", {"t": tt, "P": xr}, w, **p)
    # the round trip through cusci's stft
    rp = {f"stft_{k}": v for k, v in dict(skw, window=win, boundary=skw["boundary"] or "none").items()}
    rp.update(p)
    del rp["Z"]
    rp["x"] = s.array(f"roundtrip{i:03d}_x", x)
    add("roundtrip", f"roundtrip{i:03d}", {"t": tt, "P": xr}, w, **rp)
    i += 1
# axes of a 3-D STFT
xp, x = make_input((2, 200), "float64")
f, t, Z = ss.stft(x, nperseg=32)
for ta, fa in [(-1, -2), (-1, 1), (0, 1), (1, 0), (2, 0)]:
    Zt = np.moveaxis(Z, [1, 2], [fa % 3, ta % 3]) if (fa % 3, ta % 3) != (1, 2) else Z
    (tt, xr), w = call_warn(lambda: ss.istft(Zt, nperseg=32, time_axis=ta, freq_axis=fa))
    p = dict(nperseg=32, time_axis=ta, freq_axis=fa)
    p["Z"] = s.array(f"istft{i:03d}_Z", Zt)
    add("istft", f"istft{i:03d}", {"t": tt, "P": xr}, w, **p)
    i += 1

# no segments: SciPy's output is noverlap zeros (cut away by the boundary), with the NOLA warning
for boundary in (True, False):
    Z0 = np.zeros((9, 0), dtype=complex)
    (tt, xr), w = call_warn(lambda: ss.istft(Z0, nperseg=16, noverlap=8, boundary=boundary))
    p = dict(nperseg=16, noverlap=8, boundary=boundary)
    p["Z"] = s.array(f"istft{i:03d}_Z", Z0)
    add("istft", f"istft{i:03d}", {"t": tt, "P": xr}, w, **p)
    i += 1

# ---------------------------------------------------------------------------------------------- COLA / NOLA
i = 0
for win, nperseg, noverlap in [("hann", 256, 128), ("hann_periodic", 256, 128), ("boxcar", 100, 0), ("boxcar", 100, 33),
                               (["tukey", 0.5], 64, 32), ("hamming", 64, 48), ("bartlett", 51, 25), ("blackman", 90, 60),
                               ("hann", 8, 7), ("hann", 9, 4)]:
    for func, f in (("check_COLA", ss.check_COLA), ("check_NOLA", ss.check_NOLA)):
        r = bool(f(win_arg(win), nperseg, noverlap))
        s.case(f"{func}{i:03d}", func=func, window=win, nperseg=nperseg, noverlap=noverlap, expected=r)
        i += 1
r = bool(ss.check_NOLA(np.zeros(16), 16, 8))
s.case(f"check_NOLA{i:03d}", func="check_NOLA", window_array=s.array("nola_zero_w", np.zeros(16)), nperseg=16,
       noverlap=8, expected=r)
i += 1
r = bool(ss.check_COLA(np.ones(16), 16, 4, tol=1e-3))
s.case(f"check_COLA{i:03d}", func="check_COLA", window_array=s.array("cola_ones_w", np.ones(16)), nperseg=16,
       noverlap=4, tol=1e-3, expected=r)

# ---------------------------------------------------------------------------------------------- recordings
s.group("recordings")
ecg = np.load(s.data("ecg_mitdb208_360hz_mV.npy"))
audio = np.load(s.data("freedesktop_complete_44100hz_f32.npy"))
sst = np.load(s.data("sst_nino3_monthly_degC.npy"))
sun = np.load(s.data("sunspots_yearly_1700_2008.npy"))


def run_data(func, name, data, x, params):
    p = dict(params)
    p.update(data)
    keys = {"welch": WELCH_KEYS, "periodogram": PERIO_KEYS, "spectrogram": SPEC_KEYS, "stft": STFT_KEYS}[func]
    kw = kw_of(p, keys)
    fnc = {"welch": ss.welch, "periodogram": ss.periodogram, "spectrogram": ss.spectrogram, "stft": ss.stft}[func]
    r, w = call_warn(lambda: fnc(x, **kw))
    outs = {"f": r[0], "P": r[-1]} if len(r) == 2 else {"f": r[0], "t": r[1], "P": r[2]}
    add(func, name, outs, w, **p)


E = dict(data="ecg_mitdb208_360hz_mV.npy")
run_data("welch", "ecg_welch", E, ecg, dict(fs=360.0, nperseg=1024))
run_data("welch", "ecg_welch_median", E, ecg, dict(fs=360.0, nperseg=2048, average="median", detrend="linear"))
run_data("spectrogram", "ecg_spectrogram", dict(E, data_len=36000), ecg[:36000], dict(fs=360.0, nperseg=360))
A = dict(data="freedesktop_complete_44100hz_f32.npy")
run_data("welch", "audio_welch", A, audio, dict(fs=44100.0, nperseg=2048, axis=0))
run_data("spectrogram", "audio_spectrogram", dict(A, data_col=0), audio[:, 0],
         dict(fs=44100.0, nperseg=1024, noverlap=512, window="hann"))
run_data("stft", "audio_stft", dict(A, data_col=1, data_len=8192), audio[:8192, 1], dict(fs=44100.0, nperseg=512))
S = dict(data="sst_nino3_monthly_degC.npy")
run_data("periodogram", "enso_periodogram", S, sst, dict(fs=12.0, detrend="linear"))
run_data("welch", "enso_welch", S, sst, dict(fs=12.0, nperseg=120, detrend="linear", scaling="spectrum"))
run_data("stft", "enso_stft", S, sst, dict(fs=12.0, nperseg=48, noverlap=36))
run_data("periodogram", "sunspots_periodogram", dict(data="sunspots_yearly_1700_2008.npy"), sun,
         dict(scaling="spectrum", window="hann"))

# ---------------------------------------------------------------------------------------------- errors
errors = [
    # func, exception, parameters (dtype, shape: the input; shape_y for csd/coherence), the SciPy call
    ("welch", "value_error", dict(nperseg=0), lambda x: ss.welch(x, nperseg=0)),
    ("welch", "value_error", dict(nperseg=16, noverlap=16), lambda x: ss.welch(x, nperseg=16, noverlap=16)),
    ("welch", "value_error", dict(nperseg=16, noverlap=20), lambda x: ss.welch(x, nperseg=16, noverlap=20)),
    ("welch", "value_error", dict(nperseg=16, nfft=8), lambda x: ss.welch(x, nperseg=16, nfft=8)),
    ("welch", "value_error", dict(window_len=16, nperseg=12), lambda x: ss.welch(x, window=np.ones(16), nperseg=12)),
    ("welch", "value_error", dict(window_len=200), lambda x: ss.welch(x, window=np.ones(200))),
    ("welch", "index_error", dict(axis=1), lambda x: ss.welch(x, axis=1)),
    ("csd", "value_error", dict(shape_y=[3, 100], shape=[2, 100], nperseg=16),
     lambda x: ss.csd(x, np.zeros((3, 100)), nperseg=16)),
    ("csd", "value_error", dict(dtype_y="complex128", nperseg=16), lambda x: ss.csd(x, x + 1j, nperseg=16)),
    ("coherence", "value_error", dict(nperseg=16, noverlap=16), lambda x: ss.coherence(x, x + 1, nperseg=16, noverlap=16)),
    ("periodogram", "value_error", dict(window_len=50), lambda x: ss.periodogram(x, window=np.ones(50))),
    ("spectrogram", "value_error", dict(nperseg=0), lambda x: ss.spectrogram(x, nperseg=0)),
    ("spectrogram", "value_error", dict(nperseg=16, noverlap=16), lambda x: ss.spectrogram(x, nperseg=16, noverlap=16)),
    ("spectrogram", "value_error", dict(nperseg=16, nfft=15), lambda x: ss.spectrogram(x, nperseg=16, nfft=15)),
    ("spectrogram", "value_error", dict(window_len=200), lambda x: ss.spectrogram(x, window=np.ones(200))),
    ("spectrogram", "value_error", dict(window_len=16, nperseg=15), lambda x: ss.spectrogram(x, window=np.ones(16), nperseg=15)),
    ("spectrogram", "index_error", dict(axis=-2), lambda x: ss.spectrogram(x, axis=-2)),
    ("stft", "value_error", dict(nperseg=16, noverlap=17), lambda x: ss.stft(x, nperseg=16, noverlap=17)),
    ("stft", "value_error", dict(nperseg=-1), lambda x: ss.stft(x, nperseg=-1)),
    ("stft", "value_error", dict(nperseg=16, nfft=10), lambda x: ss.stft(x, nperseg=16, nfft=10)),
    ("stft", "index_error", dict(axis=3), lambda x: ss.stft(x, axis=3)),
    ("istft", "value_error", dict(shape=[33]), lambda x: ss.istft(x)),
    ("istft", "value_error", dict(shape=[33, 9], time_axis=0, freq_axis=0), lambda x: ss.istft(x, time_axis=0, freq_axis=0)),
    ("istft", "value_error", dict(shape=[33, 9], nperseg=0), lambda x: ss.istft(x, nperseg=0)),
    ("istft", "value_error", dict(shape=[33, 9], nperseg=64, nfft=32), lambda x: ss.istft(x, nperseg=64, nfft=32)),
    ("istft", "value_error", dict(shape=[33, 9], noverlap=64), lambda x: ss.istft(x, noverlap=64)),
    ("istft", "value_error", dict(shape=[33, 9], window_len=50), lambda x: ss.istft(x, window=np.ones(50))),
    ("check_COLA", "value_error", dict(nperseg=0, noverlap=0), lambda x: ss.check_COLA("hann", 0, 0)),
    ("check_COLA", "value_error", dict(nperseg=16, noverlap=16), lambda x: ss.check_COLA("hann", 16, 16)),
    ("check_COLA", "value_error", dict(nperseg=16, noverlap=8, window_len=15),
     lambda x: ss.check_COLA(np.ones(15), 16, 8)),
    ("check_NOLA", "value_error", dict(nperseg=16, noverlap=-1), lambda x: ss.check_NOLA("hann", 16, -1)),
    ("check_NOLA", "value_error", dict(nperseg=16, noverlap=16), lambda x: ss.check_NOLA("hann", 16, 16)),
    ("check_NOLA", "value_error", dict(nperseg=0, noverlap=0), lambda x: ss.check_NOLA("hann", 0, 0)),
]
pyexc = {"value_error": (ValueError,), "index_error": (IndexError,), "type_error": (TypeError,)}
for k, (func, exc, params, call) in enumerate(errors):
    params = dict(params)
    params.setdefault("dtype", "float64")
    if func not in ("check_COLA", "check_NOLA"):
        params.setdefault("shape", [2, 100] if func == "csd" else [100])
    x = np.zeros(params.get("shape", [1]), dtype=params["dtype"]) if func not in ("check_COLA", "check_NOLA") else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(x)
            raise AssertionError(f"expected {exc} from case {k}: {func} {params}")
        except pyexc[exc]:
            pass
    if func == "csd" and "shape_y" not in params:
        params["shape_y"] = params["shape"]
    if func == "coherence":
        params["shape_y"] = params["shape"]
    s.case(f"err_{func}{k:02d}", func=func, error=exc, **params)

s.write()

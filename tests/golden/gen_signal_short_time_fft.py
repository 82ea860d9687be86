"""Reference data for cusci::signal's ShortTimeFFT family (ShortTimeFFT, closest_STFT_dual_window), from
SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_short_time_fft/.

Every case names the object in `cfg` (a dict):
  factory   "init" | "from_window" | "from_dual" | "from_win_equals_dual"
  win       array name (init: win; from_dual: dual_win; from_win_equals_dual: desired_win), or for
            from_window win_param: a name or [name, number], with nperseg, noverlap, symmetric_win
  hop, fs, fft_mode, mfft (null: None), dual_win (array name or null; init only), scale_to (null:
  None), phase_shift (null: None), post_scale_to (null or a scale_to call made after construction)
Cases (func):
  props        host: the properties of cfg: props {win, dual_win (array names; dual_win null when not
               invertible), invertible, fac_magnitude, fac_psd, m_num, m_num_mid, k_min, p_min,
               lower_border_end, delta_t, delta_f, f_pts, onesided_fft, f (array), scaling}, and per n of
               `ns`: k_max, p_max, p_num, upper_border_begin, extent (tf, not centred; null where SciPy
               raises), extent_ft_c (ft, centred), t (array name); nearest_k_p over `ks` (left, right);
               t_p (t(n, p0, p1, k_offset) with tp = [n, p0, p1, k_offset]).
  closest_STFT_dual_window  host: win, hop, desired_dual (array or null), scaled; expected, alpha [re, im].
  stft         GPU: cfg, x, layout (C | F | strided | reversed), detr (null, "constant", "linear"), p0, p1,
               k_offset, padding, axis; expected; out_dtype (cusci's dtype: complex64 for single
               precision input; SciPy always gives complex128).
  spectrogram  GPU: as stft, with y (array or null); expected; out_dtype.
  istft        GPU: cfg, S (in (..., f, t) order), move [fa, ta] (the input is moveaxis(S, (-2, -1), move)),
               k0, k1, f_axis, t_axis; expected; out_dtype.
  roundtrip    GPU: cfg, x, axis; expected = SciPy's istft(stft(x), k1=n) along axis; out_dtype.
Errors (error = the cusci exception): func "ShortTimeFFT" (cfg alone), "property" (cfg, prop, n, p0,
p1), "stft" / "istft" (cfg, dtype and shape of a data-less input, and the options), "closest".
Tolerances: relative to the result's scale: 1e-12 in double precision (host and GPU), 1e-5 for results
from single precision input (cuFFT sums in float32; SciPy in float64).
"""
import numpy as np
from scipy.signal import ShortTimeFFT, closest_STFT_dual_window
from scipy.signal.windows import get_window, hann, gaussian, kaiser

from golden import Suite, tol

s = Suite("signal_short_time_fft")
rng = s.rng(20261219)
ERR = {ValueError: "value_error", TypeError: "type_error", IndexError: "index_error"}


def make(cfg):
    """The SciPy object of cfg (arrays given as numpy arrays in cfg['_arrays'])."""
    a = cfg["_arrays"]
    kw = dict(fft_mode=cfg.get("fft_mode", "onesided"), mfft=cfg.get("mfft"), scale_to=cfg.get("scale_to"),
              phase_shift=cfg.get("phase_shift", 0))
    f = cfg["factory"]
    if f == "init":
        o = ShortTimeFFT(a["win"], cfg["hop"], cfg["fs"], dual_win=a.get("dual_win"), **kw)
    elif f == "from_dual":
        o = ShortTimeFFT.from_dual(a["win"], cfg["hop"], cfg["fs"], **kw)
    elif f == "from_win_equals_dual":
        o = ShortTimeFFT.from_win_equals_dual(a["win"], cfg["hop"], cfg["fs"], **kw)
    else:
        wp = cfg["win"] if isinstance(cfg["win"], str) else tuple(cfg["win"])
        o = ShortTimeFFT.from_window(wp, cfg["fs"], cfg["nperseg"], cfg["noverlap"],
                                     symmetric_win=cfg.get("symmetric_win", False), **kw)
    if cfg.get("post_scale_to"):
        o.scale_to(cfg["post_scale_to"])
    return o


def cfg_of(name, factory="init", win=None, dual_win=None, **kw):
    """The JSON cfg of a case (arrays stored under <name>_win / <name>_dual), with the numpy arrays kept
    aside for make()."""
    c = {"factory": factory, "hop": kw.pop("hop", None), "fs": kw.pop("fs", 1.0), "fft_mode": "onesided",
         "mfft": None, "dual_win": None, "scale_to": None, "phase_shift": 0, "post_scale_to": None,
         "_arrays": {}}
    c.update(kw)
    if factory == "from_window":
        c["win"] = win
    else:
        c["win"] = s.array(name + "_win", win)
        c["_arrays"]["win"] = np.asarray(win)
    if dual_win is not None:
        c["dual_win"] = s.array(name + "_dual", dual_win)
        c["_arrays"]["dual_win"] = np.asarray(dual_win)
    return c


def pub(cfg):
    return {k: v for k, v in cfg.items() if k != "_arrays"}


def err_of(fn):
    try:
        fn()
    except tuple(ERR) as e:
        for t, n in ERR.items():
            if isinstance(e, t):
                return n
    return None


# ------------------------------------------------------------------------------------ properties
s.group("props")
W = {
    "hann16": hann(16, sym=False), "hann15": hann(15, sym=False), "gauss11": gaussian(11, 2.0),
    "kaiser64": kaiser(64, 8.0), "box6": np.ones(6), "zeroedge": np.r_[np.zeros(3), hann(10), np.zeros(2)],
    "cplx9": hann(9) * np.exp(0.3j * np.arange(9)), "hann1": np.ones(1), "hann2": hann(2, sym=False) + 0.5,
}
prop_cfgs = []
k = 0
for wname, hops in [("hann16", [1, 4, 8, 16]), ("hann15", [5, 7]), ("gauss11", [3]), ("kaiser64", [16, 33]),
                    ("box6", [6, 2]), ("zeroedge", [2, 4]), ("cplx9", [2]), ("hann1", [1]), ("hann2", [1, 2])]:
    for hop in hops:
        for extra in [{}, {"mfft": len(W[wname]) + 7, "fft_mode": "centered" if wname == "cplx9" else "twosided",
                           "phase_shift": None, "fs": 8000.0},
                      {"scale_to": "psd", "fft_mode": "centered" if wname == "cplx9" else "onesided2X", "fs": 3.5}]:
            if wname == "cplx9" and not extra:
                extra = {"fft_mode": "twosided"}
            prop_cfgs.append(cfg_of(f"p{k}", win=W[wname], hop=hop, **extra))
            k += 1
prop_cfgs += [
    cfg_of("p_fw0", "from_window", win="hann", fs=100.0, nperseg=32, noverlap=24),
    cfg_of("p_fw1", "from_window", win=["kaiser", 6.0], fs=2.0, nperseg=33, noverlap=11, symmetric_win=True,
           mfft=40, scale_to="magnitude", fft_mode="onesided2X"),
    cfg_of("p_fd0", "from_dual", win=hann(16, sym=False) + 0.1, hop=4, fs=1.0, scale_to="magnitude"),
    cfg_of("p_fe0", "from_win_equals_dual", win=gaussian(20, 4.0), hop=5, fs=1.0),
    cfg_of("p_fe1", "from_win_equals_dual", win=hann(24, sym=False) + 0.05, hop=6, fs=4.0, scale_to="unitary",
           fft_mode="centered"),
    cfg_of("p_fe2", "from_win_equals_dual", win=hann(12) * np.exp(0.2j * np.arange(12)), hop=3, fs=1.0,
           scale_to="psd", fft_mode="twosided"),
    cfg_of("p_dw0", win=hann(16, sym=False), dual_win=rng.standard_normal(16), hop=4, fs=1.0, scale_to="magnitude"),
    cfg_of("p_ps0", win=hann(16, sym=False), hop=4, fs=1.0, post_scale_to="psd", phase_shift=-5),
]
for i, cfg in enumerate(prop_cfgs):
    o = make(cfg)
    m = o.m_num
    ns = sorted({m - m // 2, m, 2 * m + 3, 97})
    props = {"win": s.array(f"props{i}_win", o.win), "invertible": bool(o.invertible),
             "fac_magnitude": o.fac_magnitude, "fac_psd": o.fac_psd, "m_num": m, "m_num_mid": o.m_num_mid,
             "k_min": o.k_min, "p_min": o.p_min, "lower_border_end": list(o.lower_border_end),
             "delta_t": o.delta_t, "delta_f": o.delta_f, "f_pts": o.f_pts, "onesided_fft": o.onesided_fft,
             "f": s.array(f"props{i}_f", o.f), "scaling": o.scaling if o.scaling else "None", "T": o.T,
             "mfft": o.mfft, "hop": o.hop}
    props["dual_win"] = s.array(f"props{i}_dual", o.dual_win) if o.invertible else None
    per_n = {"k_max": [], "p_max": [], "p_num": [], "upper_border_begin": [], "extent": [], "extent_ft_c": [],
             "t": []}
    for j, n in enumerate(ns):
        per_n["k_max"].append(o.k_max(n))
        per_n["p_max"].append(o.p_max(n))
        per_n["p_num"].append(o.p_num(n))
        per_n["upper_border_begin"].append(list(o.upper_border_begin(n)))
        try:
            per_n["extent"].append(list(o.extent(n)))
            per_n["extent_ft_c"].append(list(o.extent(n, "ft", True)))
        except ValueError:
            per_n["extent"].append(None)
            per_n["extent_ft_c"].append(None)
        per_n["t"].append(s.array(f"props{i}_t{j}", o.t(n)))
    ks = [-17, -4, -1, 0, 1, 3, 4, 5, 16, 29]
    near = [[o.nearest_k_p(q), o.nearest_k_p(q, left=False)] for q in ks]
    tp = [97, o.p_min + 1, o.p_max(97) - 1, 3]
    s.case(f"props{i}", "props", *tol("float64"), cfg=pub(cfg), props=props, ns=ns, per_n=per_n, ks=ks, near=near,
           tp=tp, t_p=s.array(f"props{i}_tp", o.t(*tp)))

# closest_STFT_dual_window
for i, (win, hop, dd, scaled) in enumerate([
        (hann(16, sym=False), 4, None, True), (hann(16, sym=False), 4, None, False),
        (gaussian(21, 3.0), 5, np.ones(21) * 0.3, True), (kaiser(32, 6.0), 8, rng.standard_normal(32), True),
        (hann(10) * np.exp(0.5j * np.arange(10)), 2, None, True), (hann(12, sym=False) + 0.1, 3,
                                                                   rng.standard_normal(12) + 1j, False)]):
    d, alpha = closest_STFT_dual_window(win, hop, dd, scaled=scaled)
    s.case(f"closest{i}", "closest_STFT_dual_window", *tol("float64", abs(d).max()), win=s.array(f"closest{i}_win", win),
           hop=hop, desired_dual=None if dd is None else s.array(f"closest{i}_dd", dd), scaled=scaled,
           expected=s.array(f"closest{i}_out", d), alpha=[float(np.real(alpha)), float(np.imag(alpha))])

# ------------------------------------------------------------------------------------ errors (host)
e = 0


def err_case(func, fn, **params):
    global e
    err = err_of(fn)
    assert err is not None, (func, params)
    s.case(f"err{e}_{func}", func, error=err, **params)
    e += 1


h16 = hann(16, sym=False)
for cfg in [cfg_of("e0", win=h16, hop=0), cfg_of("e1", win=np.r_[h16[:3], np.inf], hop=2),
            cfg_of("e2", win=h16, hop=4, fs=0.0), cfg_of("e3", win=h16, hop=4, mfft=8),
            cfg_of("e4", win=h16, hop=4, dual_win=np.ones(15)), cfg_of("e5", win=h16, hop=4, dual_win=np.r_[np.ones(15), np.nan]),
            cfg_of("e6", win=h16 * 1j, hop=4), cfg_of("e7", win=h16, hop=4, fft_mode="onesided2X"),
            cfg_of("e8", win=h16, hop=4, phase_shift=16), cfg_of("e9", win=h16, hop=4, phase_shift=-16),
            cfg_of("e10", win=h16, hop=4, scale_to="unitary"), cfg_of("e11", win=h16, hop=4, fft_mode="sideways"),
            cfg_of("e12", "from_window", win="hann", nperseg=16, noverlap=16),
            cfg_of("e13", "from_window", win="nosuchwindow", nperseg=16, noverlap=8),
            cfg_of("e14", "from_dual", win=h16, hop=17), cfg_of("e15", "from_dual", win=np.r_[h16[:8], np.zeros(8)], hop=8),
            cfg_of("e16", "from_win_equals_dual", win=np.arange(16), hop=4),
            cfg_of("e17", "from_win_equals_dual", win=h16, hop=17),
            cfg_of("e18", "from_win_equals_dual", win=np.r_[1.0, 0, 0, 0, 1.0, 0, 0, 0], hop=4),
            cfg_of("e19", "from_win_equals_dual", win=h16, hop=4, mfft=8)]:
    err_case("ShortTimeFFT", lambda: make(cfg), cfg=pub(cfg))

okc = cfg_of("eok", win=h16, hop=4)
ok2 = cfg_of("eok2", win=h16, hop=4, fft_mode="twosided")
nonInv = cfg_of("enoinv", win=np.r_[h16[:8], np.zeros(8)], hop=8)
cdual = cfg_of("ecdual", win=h16, hop=4, dual_win=h16 * (1 + 1j))
for cfg, prop, kw in [(okc, "p_max", dict(n=7)), (okc, "k_max", dict(n=3)), (okc, "upper_border_begin", dict(n=7)),
                      (okc, "t", dict(n=0)), (okc, "p_range", dict(n=50, p0=5, p1=5)),
                      (okc, "p_range", dict(n=50, p0=-10, p1=None)), (okc, "p_range", dict(n=50, p0=None, p1=100)),
                      (ok2, "extent", dict(n=50)), (nonInv, "dual_win", {}),
                      (okc, "scale_to", dict(scaling="unitary")), (okc, "fs", dict(v=-1.0)), (okc, "T", dict(v=0.0)),
                      (okc, "mfft", dict(v=15)), (okc, "phase_shift", dict(v=17)),
                      (okc, "fft_mode", dict(mode="onesided2X"))]:
    def call(cfg=cfg, prop=prop, kw=kw):
        o = make(cfg)
        if prop in ("p_max", "k_max", "upper_border_begin", "t"):
            return getattr(o, prop)(kw["n"])
        if prop == "p_range":
            return o.p_range(kw["n"], kw["p0"], kw["p1"])
        if prop == "extent":
            return o.extent(kw["n"])
        if prop == "dual_win":
            return o.dual_win
        if prop == "scale_to":
            return o.scale_to(kw["scaling"])
        if prop in ("fs", "T", "mfft", "phase_shift"):
            return setattr(o, prop, kw["v"])
        if prop == "fft_mode":
            o.fft_mode = kw["mode"]
    err_case("property", call, cfg=pub(cfg), prop=prop, **kw)

for cfg, dt, shape, kw in [(okc, "complex128", (50,), {}), (okc, "float64", (7,), {}), (okc, "float64", (3, 7), {}),
                           (okc, "float64", (50,), dict(axis=1)), (okc, "float64", (50,), dict(p0=3, p1=3)),
                           (okc, "float64", (50,), dict(p0=-9)), (okc, "float64", (50,), dict(p1=99)),
                           (okc, "float64", (50,), dict(padding="wrap")), (ok2, "float32", (4, 6), dict(axis=-1)),
                           (okc, "float64", (50,), dict(detr="quadratic"))]:
    kw2 = dict(kw)
    detr = kw2.pop("detr", None)
    err_case("stft", lambda: make(cfg).stft_detrend(np.zeros(shape, dt), detr, kw2.pop("p0", None) if False else kw.get("p0"),
                                                    kw.get("p1"), padding=kw.get("padding", "zeros"),
                                                    axis=kw.get("axis", -1)),
             cfg=pub(cfg), dtype=dt, shape=list(shape), detr=detr, p0=kw.get("p0"), p1=kw.get("p1"),
             padding=kw.get("padding", "zeros"), axis=kw.get("axis", -1))

S_shape = (9, 17)  # f_pts of okc is 9; p_num(8) = 4
for cfg, dt, shape, kw in [(okc, "complex128", (8, 17), {}), (okc, "complex128", (9, 3), {}),
                           (okc, "complex128", (9, 17), dict(f_axis=-1, t_axis=-1)),
                           (okc, "complex128", (17,), {}), (okc, "complex128", (9, 17), dict(t_axis=2)),
                           (okc, "complex128", (9, 17), dict(k0=-20)), (okc, "complex128", (9, 17), dict(k0=10, k1=10)),
                           (okc, "complex128", (9, 17), dict(k1=1000)), (okc, "complex128", (9, 17), dict(k0=0, k1=5)),
                           (okc, "complex128", (9, 17), dict(f_axis=0, t_axis=-2)),
                           (nonInv, "complex128", (9, 17), {}), (cdual, "complex128", (9, 17), {})]:
    err_case("istft", lambda: make(cfg).istft(np.zeros(shape, dt), kw.get("k0", 0), kw.get("k1"),
                                              f_axis=kw.get("f_axis", -2), t_axis=kw.get("t_axis", -1)),
             cfg=pub(cfg), dtype=dt, shape=list(shape), k0=kw.get("k0", 0), k1=kw.get("k1"),
             f_axis=kw.get("f_axis", -2), t_axis=kw.get("t_axis", -1))

for i, (win, hop, dd, kw) in enumerate([(h16, 0, None, {}), (h16, 17, None, {}), (h16, 4, np.ones(15), {}),
                                        (np.r_[h16[:3], np.nan], 2, None, {}), (h16, 4, np.r_[np.ones(15), np.inf], {}),
                                        (np.r_[h16[:8], np.zeros(8)], 8, None, {}), (np.arange(16), 4, None, {}),
                                        (h16, 4, np.zeros(16), {})]):
    err_case("closest", lambda: closest_STFT_dual_window(win, hop, dd, **kw), win=s.array(f"cerr{i}_win", win), hop=hop,
             desired_dual=None if dd is None else s.array(f"cerr{i}_dd", dd))

# ------------------------------------------------------------------------------------ GPU cases
s.group("gpu")
g = 0


def x_data(shape, dt):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def laid_out(name, x, layout):
    """The stored parent of the input in `layout` (strided: every other sample along the last axis)."""
    if layout == "strided":
        parent = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        parent[..., ::2] = x
        return s.array(name, parent)
    if layout == "reversed":
        return s.array(name, x[..., ::-1])
    return s.array(name, x)


def single(dt):
    return np.dtype(dt) in (np.float32, np.complex64)


def tol_of(dt, r):
    return tol("float64", abs(r).max() if r.size else 1.0, rtol64=1e-5 if single(dt) else 1e-11)


gpu_cfgs = {
    "a": cfg_of("ga", win=hann(16, sym=False), hop=4, fs=1.0),
    "b": cfg_of("gb", win=hann(15, sym=False), hop=5, fs=2.0, fft_mode="twosided", mfft=20, phase_shift=None),
    "c": cfg_of("gc", win=gaussian(11, 2.0), hop=3, fs=1.0, fft_mode="centered", phase_shift=3),
    "d": cfg_of("gd", win=kaiser(32, 6.0), hop=8, fs=10.0, scale_to="psd", fft_mode="onesided2X", mfft=37),
    "e": cfg_of("ge", win=hann(9) * np.exp(0.3j * np.arange(9)), hop=2, fs=1.0, fft_mode="centered", phase_shift=-2),
    "f": cfg_of("gf", "from_window", win="hamming", fs=1.0, nperseg=24, noverlap=12, scale_to="magnitude",
                fft_mode="onesided2X"),
    "g": cfg_of("gg", "from_win_equals_dual", win=hann(20, sym=False) + 0.05, hop=5, fs=1.0, scale_to="unitary",
                fft_mode="twosided"),
    "h": cfg_of("gh", win=hann(16, sym=False), dual_win=hann(16, sym=False) / 1.5, hop=4, fs=1.0, phase_shift=None),
}
for key, cfg in gpu_cfgs.items():
    o = make(cfg)
    onesided = o.onesided_fft
    dts = ["float64", "float32"] if onesided else ["complex128", "complex64", "float64"]
    for dt in dts:
        for layout, shape, axis in [("C", (61,), -1), ("F", (3, 50), -1), ("strided", (2, 45), -1), ("C", (40, 2), 0),
                                    ("reversed", (2, 33), -1), ("C", (0, 40), -1)]:
            for detr, p0, p1, ko, pad in [(None, None, None, 0, "zeros"), ("linear", 1, 6, 2, "even"),
                                          ("constant", None, None, -3, "odd"), (None, 0, 4, 1, "edge")]:
                if layout != "C" and detr is not None:
                    continue
                if dt != dts[0] and (axis == 0 or detr is not None or layout == "reversed" or shape[0] == 0):
                    continue  # other dtypes: the main layouts only
                if (layout == "reversed" or shape[0] == 0) and (detr is not None or p0 is not None or key not in "ac"):
                    continue
                if p1 is not None:
                    p1 = min(p1, o.p_max(shape[axis]))
                x = x_data(shape, dt)
                xv = np.asfortranarray(x) if layout == "F" else x
                r = o.stft_detrend(xv, detr, p0, p1, k_offset=ko, padding=pad, axis=axis)
                out_dt = "complex64" if single(dt) else "complex128"
                s.case(f"g{g}_stft", "stft", *tol_of(dt, r), cfg=pub(cfg), x=laid_out(f"g{g}_x", x, layout), layout=layout,
                       detr=detr, p0=p0, p1=p1, k_offset=ko, padding=pad, axis=axis,
                       expected=s.array(f"g{g}_out", r), out_dtype=out_dt)
                g += 1
        # spectrograms (power and cross)
        x = x_data((2, 57), dt)
        y = x_data((2, 57), dt)
        for yy, det in [(None, None), (y, "constant")]:
            r = o.spectrogram(x, yy, det, p0=1)
            out_dt = ("float32" if single(dt) else "float64") if yy is None else ("complex64" if single(dt) else "complex128")
            s.case(f"g{g}_spec", "spectrogram", *tol_of(dt, r), cfg=pub(cfg), x=s.array(f"g{g}_x", x), layout="C",
                   y=None if yy is None else s.array(f"g{g}_y", yy), detr=det, p0=1, p1=None, k_offset=0, padding="zeros",
                   axis=-1, expected=s.array(f"g{g}_out", r), out_dtype=out_dt)
            g += 1
        # istft of a given S (also over k0/k1 and moved axes) and round trips
        if o.invertible:
            xs = x_data((2, 70), dt)
            Sx = o.stft(xs)
            if single(dt):  # SciPy returns complex128 whatever x's dtype; a single-precision S is complex64
                Sx = Sx.astype(np.complex64)
            S_name = s.array(f"g{g}_S", Sx)
            for k0, k1, fa, ta in [(0, None, -2, -1), (5, 60, -2, -1), (o.k_min, None, -2, -1), (0, 70, 0, 2),
                                   (2, None, 2, 0)]:
                if dt != dts[0] and (fa, ta) != (-2, -1):
                    continue
                Sin = np.moveaxis(Sx, (-2, -1), (fa, ta))
                r = o.istft(Sin, k0, k1, f_axis=fa, t_axis=ta)
                cd = single(dt)
                out_dt = ("float32" if cd else "float64") if onesided else ("complex64" if cd else "complex128")
                s.case(f"g{g}_istft", "istft", *tol_of(dt, r), cfg=pub(cfg), S=S_name, move=[fa, ta], k0=k0, k1=k1,
                       f_axis=fa, t_axis=ta, expected=s.array(f"g{g}_out", r), out_dtype=out_dt)
                g += 1

# the audio recording: a spectrogram and an STFT round trip of 8192 samples of both channels
s.group("audio")
audio = np.load(s.data("freedesktop_complete_44100hz_f32.npy"))[:8192]  # (8192, 2) float32
acfg = cfg_of("audio", "from_window", win="hann", fs=44100.0, nperseg=512, noverlap=384, scale_to="psd")
o = make(acfg)
xa = s.array("audio_x", audio)
r = o.spectrogram(audio, axis=0)
s.case("audio_spec", "spectrogram", *tol("float64", abs(r).max(), rtol64=1e-5), cfg=pub(acfg), x=xa, layout="C", y=None,
       detr=None, p0=None, p1=None, k_offset=0, padding="zeros", axis=0, expected=s.array("audio_spec_out", r),
       out_dtype="float32")
rt = o.istft(o.stft(audio, axis=0), k1=audio.shape[0], f_axis=0, t_axis=-1)
s.case("audio_roundtrip", "roundtrip", *tol("float64", abs(rt).max(), rtol64=1e-5), cfg=pub(acfg), x=xa, axis=0,
       expected=s.array("audio_rt_out", rt), out_dtype="float32")
for key in ["a", "c", "g"]:
    cfg = gpu_cfgs[key]
    o = make(cfg)
    x = x_data((2, 300), "float64" if o.onesided_fft else "complex128")
    rt = o.istft(o.stft(x), k1=300)
    s.case(f"rt_{key}", "roundtrip", *tol("float64", abs(rt).max(), rtol64=1e-11), cfg=pub(cfg),
           x=s.array(f"rt_{key}_x", x), axis=-1, expected=s.array(f"rt_{key}_out", rt),
           out_dtype="float64" if o.onesided_fft else "complex128")

s.write()

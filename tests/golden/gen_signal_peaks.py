"""Reference data for cusci::signal's peaks family (find_peaks, peak_prominences, peak_widths,
argrelextrema / argrelmin / argrelmax, find_peaks_cwt), from SciPy 1.18.1 (format and shared code:
golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_peaks/.

Cases (func, then its parameters; arrays are named <case>_<what> unless shared):
  find_peaks        x (array, stored in the dtype of the call), layout (C | strided: x holds the
                    parent, the input is x[::2]), height / threshold / prominence / width /
                    plateau_size (null: not given; else [lo, hi] with each entry null, a number or the
                    name of a per-sample float64 array), distance, wlen (null or number), rel_height;
                    props (the keys of SciPy's properties dict, in its order), expected: peaks and
                    <case>_<prop> per key; warns (PeakPropertyWarning messages SciPy issued).
  peak_prominences  x, peaks, wlen; prominences, left_bases, right_bases; warns.
  peak_widths       x, peaks, rel_height, wlen, prominence_data (null or [prom, lbase, rbase] array
                    names); widths, width_heights, left_ips, right_ips; warns.
  argrelextrema     x, comparator ("greater", "less", "greater_equal", "less_equal"), axis, order,
                    mode; ndim and idx0, idx1, ... (np.nonzero's arrays).
  find_peaks_cwt    x, widths [list], max_distances, gap_thresh, min_length, min_snr, noise_perc,
                    window_size; expected.
Errors (error = the cusci exception): stage "host" cases throw before any device work (the host
test runs them on data-less arrays of the dtype and shape given); stage "gpu" cases need the data.
The distance rule among EQUAL heights: SciPy sorts with NumPy's default (unstable) argsort, whose
order among ties depends on the CPU's SIMD sort; cusci follows the stable order. The references of
cases with `distance` are SciPy's own find_peaks with its private _select_by_peak_distance handed
priorities made distinct by a stable ranking of the heights (identical to plain SciPy when the
heights of peaks closer than `distance` differ).
Tolerances: indices exact; float64 properties 1e-12 relative (the arithmetic is SciPy's, rounding
for rounding); find_peaks_cwt exact indices.
"""
import warnings

import numpy as np
import scipy.signal as ss
import scipy.signal._peak_finding as spf

from golden import Suite

s = Suite("signal_peaks")
rng = s.rng(20261219)

_orig_select = spf._select_by_peak_distance
spf._select_by_peak_distance = lambda pk, pr, d: _orig_select(
    pk, np.argsort(np.argsort(pr, kind="stable")).astype(np.float64), d)

RT = 1e-12


def scale_of(a):
    a = np.asarray(a, dtype=np.float64)
    f = a[np.isfinite(a)]
    return float(np.abs(f).max()) if f.size else 1.0


def call_warns(f, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f(*a, **k)
    return r, [str(x.message) for x in w if x.category.__name__ == "PeakPropertyWarning"]


def store_x(name, x, layout):
    if layout == "strided":
        parent = np.zeros(2 * len(x), dtype=x.dtype)
        parent[::2] = x
        return s.array(name, parent)
    return s.array(name, x)


def cond_param(case, key, c, n):
    """A condition as JSON: null, or [lo, hi] with arrays stored under <case>_<key>_lo / _hi."""
    if c is None:
        return None, None
    if isinstance(c, tuple):
        lo, hi = c
    else:
        lo, hi = c, None
    out = []
    for end, v in (("lo", lo), ("hi", hi)):
        if isinstance(v, np.ndarray):
            out.append(s.array(f"{case}_{key}_{end}", v.astype(np.float64)))
        else:
            out.append(v)
    return out, (lo, hi) if isinstance(c, tuple) else c


def add_fp(name, x, layout="C", shared=None, **kw):
    xname = shared if shared else store_x(f"{name}_x", x, layout)
    params = {}
    for key in ("height", "threshold", "prominence", "width", "plateau_size"):
        params[key], _ = cond_param(name, key, kw.get(key), len(x))
    (peaks, props), warns = call_warns(ss.find_peaks, x, **kw)
    exp = {"peaks": s.array(f"{name}_peaks", peaks.astype(np.int64))}
    for k, v in props.items():
        exp[k] = s.array(f"{name}_{k}", v)
    fl = [v for k, v in props.items() if v.dtype.kind == "f"]
    sc = max([scale_of(v) for v in fl] + [1.0])
    s.case(name, func="find_peaks", rtol=RT, atol=RT * sc, x=xname, layout=layout, dtype=str(x.dtype),
           distance=kw.get("distance"), wlen=kw.get("wlen"), rel_height=kw.get("rel_height", 0.5),
           props=list(props.keys()), warns=warns, **params, **exp)


def fp_error(name, error, stage="host", shape=(10,), dtype="float64", **params):
    s.case(name, func="find_peaks", error=error, stage=stage, shape=list(shape), dtype=dtype, **params)


# ------------------------------------------------------------------------------------ find_peaks
s.group("find_peaks_small")
hand = {
    "plateau2": [0, 1, 1, 0], "plateau3": [0, 1, 1, 1, 0], "plateau4": [0, 1, 1, 1, 1, 0],
    "plateau_end": [0, 1, 1], "plateau_start": [1, 1, 0], "flat": [1.0] * 10, "empty": [],
    "one": [1.0], "two": [0, 1], "three": [0, 1, 0], "nan_peak": [0, np.nan, 0],
    "nan_side": [0, 1, np.nan, 1, 0, 2, 0], "nan_in_plateau": [0, 1, 1, np.nan, 1, 0],
    "inf_plateau": [0, np.inf, np.inf, 0, 1, 0], "neg_zero": [0, -0.0, 0.0, -0.0, 0],
    "ramp_plateau": [0, 1, 2, 2, 2, 3, 3, 1], "double": [0, 2, 0, 2, 0, 2, 0, 2, 0],
    "long_plateau": [0] + [5.0] * 300 + [0, 1, 0],
    "long_plateau_up": [0] + [5.0] * 300 + [6, 1, 0],
}
for nm, v in hand.items():
    x = np.asarray(v, dtype=np.float64)
    add_fp(f"fp_{nm}", x)
    add_fp(f"fp_{nm}_all", x, height=(None, None), threshold=(None, None), prominence=(None, None),
           width=(None, None), plateau_size=(None, None))
    add_fp(f"fp_{nm}_dist", x, distance=2, threshold=0)
add_fp("fp_inf_plateau_thr", np.array([0, np.inf, np.inf, 0, 1, 0.]), threshold=(-1, None))
add_fp("fp_plateau_wlen2", np.array([0, 1, 1, 1, 1, 1, 0.]), prominence=0, wlen=2)
add_fp("fp_zero_width", np.array([0, 1, 1, 1, 0.]), width=0, rel_height=0)


def signal_of(kind, n):
    if kind == "ties":
        return rng.integers(0, 4, n).astype(np.float64)
    if kind == "walk":
        return np.cumsum(rng.standard_normal(n))
    if kind == "blocks":
        return np.repeat(rng.integers(0, 5, n // 7 + 1).astype(np.float64), 7)[:n]
    if kind == "sines":
        t = np.arange(n)
        return np.sin(t / 9.0) + 0.4 * np.sin(t / 2.3) + 0.2 * rng.standard_normal(n)
    if kind == "rounded":
        t = np.arange(n)
        return np.round(3 * np.sin(t / 5.0) + 0.5 * rng.standard_normal(n), 1)
    raise ValueError(kind)


def rand_cond(lo, hi, n, arrays=True):
    r = rng.random()
    if r < 0.25:
        return float(rng.uniform(lo, hi))
    a = None if rng.random() < 0.3 else float(rng.uniform(lo, hi))
    b = None if rng.random() < 0.4 else float(rng.uniform(lo, hi) + (a or 0) + (hi - lo))
    if arrays and rng.random() < 0.2:
        a = rng.uniform(lo, hi, n)
    if arrays and rng.random() < 0.1:
        b = rng.uniform(hi, 2 * hi + 1, n)
    return (a, b)


s.group("find_peaks_random")
kinds = ["ties", "walk", "blocks", "sines", "rounded"]
for i in range(150):
    kind = kinds[i % len(kinds)]
    n = int(rng.integers(20, 300))
    x = signal_of(kind, n)
    if rng.random() < 0.2:
        x[rng.integers(0, n, max(1, n // 20))] = np.nan
    kw = {}
    sc = scale_of(x)
    if rng.random() < 0.35: kw["height"] = rand_cond(-sc / 2, sc / 2, n)
    if rng.random() < 0.3: kw["threshold"] = rand_cond(0, sc / 10, n)
    if rng.random() < 0.6: kw["distance"] = float(rng.choice([1, 1.5, 2, 3, 4.2, 7, 20, 50]))
    if rng.random() < 0.5: kw["prominence"] = rand_cond(0, sc / 2, n)
    if rng.random() < 0.4: kw["width"] = rand_cond(0, 4, n)
    if rng.random() < 0.4 and ("prominence" in kw or "width" in kw): kw["wlen"] = float(rng.choice([2, 3, 4, 5.5, 9, 30, 101]))
    if rng.random() < 0.3: kw["rel_height"] = float(rng.choice([0, 0.25, 0.5, 1, 1.5]))
    if rng.random() < 0.3: kw["plateau_size"] = rand_cond(1, 4, n)
    layout = "strided" if i % 7 == 3 else "C"
    add_fp(f"fp_rand{i}_{kind}", x, layout=layout, **kw)

# dtypes (SciPy computes in float64 whatever comes)
s.group("find_peaks_dtypes")
x = signal_of("rounded", 300)
add_fp("fp_f32", x.astype(np.float32), prominence=1, width=1, distance=3)
add_fp("fp_i32", (10 * x).astype(np.int32), prominence=5, distance=4, height=0)
add_fp("fp_i16_plateau", np.repeat(rng.integers(0, 9, 60), 3).astype(np.int16), plateau_size=(2, None),
       threshold=(None, 100))
add_fp("fp_u8", rng.integers(0, 255, 200).astype(np.uint8), distance=5, prominence=(20, 200))
add_fp("fp_bool", rng.random(100) < 0.5, plateau_size=1)
add_fp("fp_dist_nan", x, distance=float("nan"))
add_fp("fp_dist_inf", x, distance=float("inf"))
add_fp("fp_dist_huge_ties", np.tile([0, 1.0], 200), distance=1000)
add_fp("fp_ramp_chain", np.tile([0, 1.0], 300) * np.repeat(np.arange(300.0), 2), distance=3)
add_fp("fp_ramp_chain_down", (np.tile([0, 1.0], 300) * np.repeat(np.arange(300.0), 2))[::-1].copy(), distance=3)

# long walks: a random walk of 2^15 samples (three pyramid levels), bases far away
s.group("find_peaks_walk")
walk = np.cumsum(rng.standard_normal(1 << 15))
wname = s.array("walk_x", walk)
add_fp("fp_walk_prom", walk, shared=wname, prominence=5)
add_fp("fp_walk_width", walk, shared=wname, prominence=20, width=(10, None), rel_height=0.8)
add_fp("fp_walk_wlen", walk, shared=wname, prominence=(1, None), wlen=4001)
add_fp("fp_walk_dist", walk, shared=wname, distance=300, prominence=2, height=(None, 100))
add_fp("fp_walk_all", walk, shared=wname, distance=50, height=-50, threshold=(0, None), prominence=1,
       width=2, wlen=20000, rel_height=1.0, plateau_size=(None, 3))

# the ECG: R peaks by distance (0.3 s), height and prominence
s.group("find_peaks_ecg")
ecg = np.load(s.data("ecg_mitdb208_360hz_mV.npy")).astype(np.float64)[:36000]  # 100 s
ename = s.array("ecg_x", ecg)
add_fp("fp_ecg_r", ecg, shared=ename, distance=108, prominence=0.8)
add_fp("fp_ecg_r_height", ecg, shared=ename, distance=108, height=0.5, prominence=(0.5, None), width=(None, 40))
add_fp("fp_ecg_all", ecg, shared=ename, threshold=0.01, plateau_size=(1, 5), distance=20)
add_fp("fp_ecg_wlen", ecg, shared=ename, prominence=0.3, wlen=360, width=5, rel_height=0.9)

# errors
fp_error("fp_err_2d", "value_error", shape=(3, 4))
fp_error("fp_err_0d", "value_error", shape=())
fp_error("fp_err_distance", "value_error", distance=0.5)
fp_error("fp_err_wlen", "value_error", prominence=[1.0, None], wlen=1)
fp_error("fp_err_wlen_width", "value_error", width=[1.0, None], wlen=0.5)
fp_error("fp_err_rel_height", "value_error", width=[1.0, None], rel_height=-1)
fp_error("fp_err_height_size", "value_error", height=["ARRAY9", None])
fp_error("fp_err_height_hi_size", "value_error", height=[None, "ARRAY11"])
for nm, kw in (("fp_err_distance", dict(distance=0.5)), ("fp_err_wlen", dict(prominence=1.0, wlen=1)),
               ("fp_err_rel_height", dict(width=1.0, rel_height=-1)),
               ("fp_err_height_size", dict(height=np.zeros(9)))):
    try:
        ss.find_peaks(np.zeros(10), **kw)
        raise SystemExit(f"{nm}: SciPy did not raise")
    except ValueError:
        pass

# ------------------------------------------------------------------------------------ prominences, widths
s.group("prominences")
for i in range(40):
    kind = kinds[i % len(kinds)]
    n = int(rng.integers(5, 300))
    x = signal_of(kind, n)
    if i % 4 == 1:
        x[rng.integers(0, n, max(1, n // 15))] = np.nan
    if i % 3 == 0:
        peaks = ss.find_peaks(x)[0]
    else:
        peaks = np.unique(rng.integers(0, n, int(rng.integers(0, 12))))
    wlen = [None, 2, 3, 5.5, 9, 40][i % 6]
    xname = s.array(f"pp{i}_x", x)
    pname = s.array(f"pp{i}_peaks", peaks.astype(np.int64))
    (pr, lb, rb), warns = call_warns(ss.peak_prominences, x, peaks, wlen=wlen)
    s.case(f"pp{i}", func="peak_prominences", rtol=RT, atol=RT * scale_of(pr), x=xname, peaks=pname, wlen=wlen,
           prominences=s.array(f"pp{i}_prom", pr), left_bases=s.array(f"pp{i}_lb", lb.astype(np.int64)),
           right_bases=s.array(f"pp{i}_rb", rb.astype(np.int64)), warns=warns)
    rel = [0.0, 0.5, 1.0, 2.0][i % 4]
    given = i % 2 == 0
    pdata = None
    if given:
        pdata = [s.array(f"pw{i}_prom", pr), s.array(f"pw{i}_lb", lb.astype(np.int64)),
                 s.array(f"pw{i}_rb", rb.astype(np.int64))]
    (w, wh, li, ri), warns = call_warns(ss.peak_widths, x, peaks, rel_height=rel,
                                        prominence_data=(pr, lb, rb) if given else None, wlen=None if given else wlen)
    s.case(f"pw{i}", func="peak_widths", rtol=RT, atol=RT * max(scale_of(wh), scale_of(li), scale_of(ri)),
           x=xname, peaks=pname, rel_height=rel, wlen=None if given else wlen, prominence_data=pdata,
           widths=s.array(f"pw{i}_w", w), width_heights=s.array(f"pw{i}_wh", wh),
           left_ips=s.array(f"pw{i}_li", li), right_ips=s.array(f"pw{i}_ri", ri), warns=warns)
x = np.cumsum(rng.standard_normal(10000))
xname = s.array("pp_walk_x", x)
peaks = ss.find_peaks(x)[0]
pname = s.array("pp_walk_peaks", peaks.astype(np.int64))
pr, lb, rb = ss.peak_prominences(x, peaks)
s.case("pp_walk", func="peak_prominences", rtol=RT, atol=RT * scale_of(pr), x=xname, peaks=pname, wlen=None,
       prominences=s.array("pp_walk_prom", pr), left_bases=s.array("pp_walk_lb", lb.astype(np.int64)),
       right_bases=s.array("pp_walk_rb", rb.astype(np.int64)), warns=[])
w, wh, li, ri = ss.peak_widths(x, peaks, rel_height=1.0)
s.case("pw_walk", func="peak_widths", rtol=RT, atol=RT * max(scale_of(wh), scale_of(ri)), x=xname, peaks=pname,
       rel_height=1.0, wlen=None, prominence_data=None, widths=s.array("pw_walk_w", w),
       width_heights=s.array("pw_walk_wh", wh), left_ips=s.array("pw_walk_li", li),
       right_ips=s.array("pw_walk_ri", ri), warns=[])
# errors: host stage (checks before device work) and gpu stage (need the data)
s.case("pp_err_x2d", func="peak_prominences", error="value_error", stage="host", shape=[2, 5], dtype="float64",
       peaks_shape=[1], peaks_dtype="int64")
s.case("pp_err_peaks2d", func="peak_prominences", error="value_error", stage="host", shape=[5], dtype="float64",
       peaks_shape=[1, 2], peaks_dtype="int64")
s.case("pp_err_peaks_float", func="peak_prominences", error="type_error", stage="host", shape=[5], dtype="float64",
       peaks_shape=[2], peaks_dtype="float64")
s.case("pp_err_peaks_u64", func="peak_prominences", error="type_error", stage="host", shape=[5], dtype="float64",
       peaks_shape=[2], peaks_dtype="uint64")
s.case("pp_err_wlen", func="peak_prominences", error="value_error", stage="host", shape=[5], dtype="float64",
       peaks_shape=[2], peaks_dtype="int64", wlen=1)
s.case("pw_err_wlen", func="peak_widths", error="value_error", stage="host", shape=[5], dtype="float64",
       peaks_shape=[2], peaks_dtype="int64", wlen=0.5)
s.case("pw_err_x2d", func="peak_widths", error="value_error", stage="host", shape=[2, 5], dtype="float64",
       peaks_shape=[2], peaks_dtype="int64")
xe = np.array([0, 2, 0, 3, 0, 1, 0.])
xe_name = s.array("err_x", xe)
for nm, peaks, kw in (("pp_err_index", [1, 7], {}), ("pp_err_negative", [-1], {})):
    try:
        ss.peak_prominences(xe, np.array(peaks), **kw)
        raise SystemExit(f"{nm}: SciPy did not raise")
    except ValueError:
        pass
    s.case(nm, func="peak_prominences", error="value_error", stage="gpu", x=xe_name,
           peaks=s.array(f"{nm}_peaks", np.array(peaks, np.int64)), wlen=None)
for nm, pd, rel in (("pw_err_rel", None, -1.0), ("pw_err_shape", ([1.0], [0, 0], [2, 2]), 0.5),
                    ("pw_err_bases", ([1.0, 1.0], [0, 4], [2, 6]), 0.5)):
    peaks = np.array([1, 3])
    try:
        ss.peak_widths(xe, peaks, rel_height=rel,
                       prominence_data=None if pd is None else (np.array(pd[0], np.float64),
                                                                np.array(pd[1], np.intp), np.array(pd[2], np.intp)))
        raise SystemExit(f"{nm}: SciPy did not raise")
    except ValueError:
        pass
    s.case(nm, func="peak_widths", error="value_error", stage="gpu", x=xe_name,
           peaks=s.array(f"{nm}_peaks", peaks.astype(np.int64)), rel_height=rel, wlen=None,
           prominence_data=None if pd is None else [s.array(f"{nm}_pd0", np.array(pd[0], np.float64)),
                                                    s.array(f"{nm}_pd1", np.array(pd[1], np.int64)),
                                                    s.array(f"{nm}_pd2", np.array(pd[2], np.int64))])

# ------------------------------------------------------------------------------------ argrelextrema
s.group("argrel")
cmps = {"greater": np.greater, "less": np.less, "greater_equal": np.greater_equal, "less_equal": np.less_equal}
shapes = [(1,), (2,), (17,), (200,), (6, 9), (9, 6), (3, 4, 5), (0,), (4, 0)]
for i in range(60):
    shp = shapes[i % len(shapes)]
    dt = [np.float64, np.float32, np.int16, np.uint8, np.int64, np.bool_][i % 6]
    if dt == np.bool_:
        x = rng.random(shp) < 0.5
    else:
        x = rng.integers(0, 6, shp).astype(dt)
    if dt == np.float64 and x.size and i % 4 == 0:
        x.flat[rng.integers(0, x.size)] = np.nan
    axis = int(rng.integers(-len(shp), len(shp)))
    order = [1, 2, 3, 100][i % 4]
    mode = ["clip", "wrap"][i % 2]
    cname = list(cmps)[i % 4]
    res = ss.argrelextrema(x, cmps[cname], axis=axis, order=order, mode=mode)
    params = {f"idx{d}": s.array(f"ar{i}_i{d}", r.astype(np.int64)) for d, r in enumerate(res)}
    s.case(f"ar{i}", func="argrelextrema", x=s.array(f"ar{i}_x", x), comparator=cname, axis=axis, order=order,
           mode=mode, ndim=len(res), **params)
s.case("ar_err_order", func="argrelextrema", error="value_error", stage="host", shape=[5], dtype="float64",
       comparator="greater", axis=0, order=0, mode="clip")
s.case("ar_err_axis", func="argrelextrema", error="index_error", stage="host", shape=[5, 2], dtype="float64",
       comparator="greater", axis=2, order=1, mode="clip")
s.case("ar_err_0d", func="argrelextrema", error="index_error", stage="host", shape=[], dtype="float64",
       comparator="less", axis=0, order=1, mode="clip")
s.case("ar_err_raise", func="argrelextrema", error="index_error", stage="host", shape=[5], dtype="float64",
       comparator="less", axis=0, order=1, mode="raise")
for nm, shp, kw in (("ar_err_order", (5,), dict(order=0)), ("ar_err_axis", (5, 2), dict(axis=2)),
                    ("ar_err_raise", (5,), dict(mode="raise"))):
    try:
        ss.argrelextrema(np.zeros(shp), np.greater, **kw)
        raise SystemExit(f"{nm}: SciPy did not raise")
    except (ValueError, IndexError):
        pass

# ------------------------------------------------------------------------------------ find_peaks_cwt
s.group("cwt")
for i in range(10):
    n = [200, 500, 1000, 333, 800][i % 5]
    t = np.linspace(0, 6 * np.pi, n)
    x = np.sin(t * (1 + i % 3)) + 0.3 * rng.standard_normal(n)
    widths = list(np.arange(1, [10, 20, 8][i % 3], dtype=np.float64))
    kw = {}
    if i % 4 == 1: kw["min_snr"] = 2.0
    if i % 4 == 2: kw["noise_perc"] = 25.0
    if i % 5 == 3: kw["window_size"] = 31.0
    if i % 3 == 2: kw["gap_thresh"] = 3.0
    if i % 3 == 1: kw["min_length"] = 3.0
    if i % 5 == 4: kw["max_distances"] = list(np.array(widths) / 2)
    r = ss.find_peaks_cwt(x, np.array(widths), **kw)
    s.case(f"cwt{i}", func="find_peaks_cwt", x=s.array(f"cwt{i}_x", x), widths=widths,
           max_distances=kw.get("max_distances"), gap_thresh=kw.get("gap_thresh"),
           min_length=kw.get("min_length"), min_snr=kw.get("min_snr", 1.0), noise_perc=kw.get("noise_perc", 10.0),
           window_size=kw.get("window_size"), expected=s.array(f"cwt{i}_exp", np.asarray(r, np.int64)))
s.case("cwt_err_maxd", func="find_peaks_cwt", error="value_error", stage="host", shape=[50], dtype="float64",
       widths=[1.0, 2.0, 3.0], max_distances=[1.0])

s.write()

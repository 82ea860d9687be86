"""Reference data for cusci::signal's lombscargle family (lombscargle, vectorstrength), from SciPy 1.18.1
(format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_lombscargle/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  lombscargle     x, y, freqs, weights (array name or null), floating_mean, normalize ("power",
                  "normalize", "amplitude"), precenter (null or bool), layout (C | strided: the inputs
                  hold the parents of x[::2] etc.); expected.
  vectorstrength  events, period (a number) or period_array; strength, phase.
Real recordings: the yearly sunspot numbers (1700-2008) and the monthly Nino 3 sea surface temperature
(examples/data), made irregular by dropping seeded random samples; synthetic sets large enough for
several frequency blocks (1024 frequencies each) and sample chunks, on evenly and unevenly spaced
frequency grids. Errors (error = the cusci exception): shapes given by x_shape, y_shape, w_shape,
f_shape (the host test builds data-less arrays); weight-value errors carry arrays (GPU test).
Tolerances: rtol 1e-9 and atol 1e-11 x the largest |value| (cusci reduces the shifted sums by the angle
identities and, on even grids, rotations: values small against the peak carry SciPy's own rounding).
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

warnings.simplefilter("ignore", DeprecationWarning)
warnings.simplefilter("ignore", RuntimeWarning)  # the mean of no events
s = Suite("signal_lombscargle")
rng = s.rng(20261219)


def irregular(t, y, keep):
    idx = np.sort(rng.choice(len(t), int(len(t) * keep), replace=False))
    return t[idx], y[idx]


def strided(name, a):
    parent = np.repeat(a, 2)
    parent[1::2] = -777.0
    return s.array(name, parent)


def ls_case(name, x, y, freqs, weights=None, floating_mean=False, normalize="power", precenter=None, layout="C"):
    kw = dict(weights=weights, floating_mean=floating_mean, normalize=normalize)
    if precenter is not None:
        kw["precenter"] = precenter
    r = ss.lombscargle(x, y, freqs, **kw)
    put = strided if layout == "strided" else s.array
    scale = float(np.abs(r).max()) if np.size(r) else 1.0
    s.case(name, func="lombscargle", x=put(name + "_x", x), y=put(name + "_y", y), freqs=s.array(name + "_f", freqs),
           weights=None if weights is None else put(name + "_w", weights), floating_mean=floating_mean,
           normalize=normalize, precenter=precenter, layout=layout, expected=s.array(name + "_out", r), rtol=1e-9,
           atol=1e-11 * scale)


# ------------------------------------------------------------------------------------ lombscargle
s.group("sunspots")
sun = np.load(s.data("sunspots_yearly_1700_2008.npy"))
xs, ys = irregular(np.arange(len(sun), dtype=np.float64) + 1700.0, sun.astype(np.float64), 0.8)
ws = rng.uniform(0.2, 2.0, len(xs))
grids = {"even": np.linspace(0.01, 2.8, 400), "uneven": np.sort(rng.uniform(0.01, 2.8, 300))}  # below pi: integer years
k = 0
for gname, fr in grids.items():
    for w in (None, ws):
        for fm in (False, True):
            for norm in ("power", "normalize", "amplitude"):
                k += 1
                ls_case(f"ls_sun_{k}", xs, ys, fr, w, fm, norm, layout=["C", "strided"][k % 2])

s.group("enso")
sst = np.load(s.data("sst_nino3_monthly_degC.npy"))
xe, ye = irregular(np.arange(len(sst), dtype=np.float64) / 12.0 + 1871.0, sst.astype(np.float64), 0.7)
we = rng.uniform(0.5, 1.5, len(xe))
fe = 2 * np.pi * np.linspace(0.02, 5.5, 2500)  # cycles a year -> rad a year; 3 frequency blocks
for fm in (False, True):
    for norm in ("power", "normalize", "amplitude"):
        k += 1
        ls_case(f"ls_enso_{k}", xe, ye, fe, we if k % 2 else None, fm, norm)
# precenter (deprecated) and the zero frequency without a floating mean
ls_case("ls_precenter_true", xe, ye, fe[:300], precenter=True)
ls_case("ls_precenter_false", xe, ye, fe[:300], precenter=False, normalize="normalize")
ls_case("ls_zero_freq", xs, ys, np.concatenate([[0.0], grids["even"][:50]]))

s.group("synthetic")
n = 3000
xt = np.sort(rng.uniform(0, 500, n))
yt = 1.5 * np.sin(0.7 * xt + 0.3) + 0.8 * np.cos(2.3 * xt) + rng.normal(0, 1.0, n) + 4.0
f_even = np.linspace(0.05, 5.0, 2100)
f_uneven = np.sort(rng.uniform(0.05, 5.0, 1500))
f_mixed = np.concatenate([np.linspace(0.05, 1.0, 1100), np.sort(rng.uniform(1.0, 5.0, 900))])
for i, fr in enumerate((f_even, f_uneven, f_mixed)):
    for fm in (False, True):
        k += 1
        ls_case(f"ls_syn_{k}", xt, yt, fr, rng.uniform(0, 2, n) if i == 1 else None, fm,
                ["power", "normalize", "amplitude"][k % 3])
# dtypes: float32 and integer inputs are converted to float64
k += 1
ls_case(f"ls_f32_{k}", xs.astype(np.float32), ys.astype(np.float32), grids["even"].astype(np.float32))
ls_case("ls_int", np.arange(0, 200, 3, dtype=np.int64), (np.arange(67) % 5).astype(np.int64), grids["uneven"][:40])
# one frequency (SciPy squeezes to 0-d), one sample, zero weights on some samples
ls_case("ls_one_freq", xs, ys, np.array([0.5]))
ls_case("ls_one_freq_amp", xs, ys, np.array([0.5]), normalize="amplitude")
ls_case("ls_one_sample", np.array([3.0]), np.array([2.0]), np.array([0.5, 1.0]))
wz = ws.copy()
wz[::3] = 0.0
ls_case("ls_zero_weights", xs, ys, grids["even"][:100], wz, True)

for name, xsh, ysh, wsh, fsh in [("ls_err_x2d", [4, 2], [4, 2], None, [5]), ("ls_err_empty", [0], [0], None, [5]),
                                 ("ls_err_len", [5], [4], None, [5]), ("ls_err_wlen", [5], [5], [4], [5]),
                                 ("ls_err_f2d", [5], [5], None, [2, 2]), ("ls_err_fempty", [5], [5], None, [0])]:
    try:
        ss.lombscargle(np.ones(xsh), np.ones(ysh), np.ones(fsh), weights=None if wsh is None else np.ones(wsh))
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    s.case(name, func="lombscargle", error="value_error", x_shape=xsh, y_shape=ysh, w_shape=wsh, f_shape=fsh)
for name, w in [("ls_err_wneg", np.array([1.0, -1.0, 1.0])), ("ls_err_wzero", np.zeros(3)),
                ("ls_err_wnan", np.array([1.0, np.nan, 1.0]))]:
    try:
        ss.lombscargle(np.arange(3.0), np.ones(3), np.ones(2), weights=w)
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    s.case(name, func="lombscargle", error="value_error", x=s.array(name + "_x", np.arange(3.0)),
           y=s.array(name + "_y", np.ones(3)), freqs=s.array(name + "_f", np.ones(2)), weights=s.array(name + "_w", w),
           floating_mean=False, normalize="power", precenter=None, layout="C")

# ------------------------------------------------------------------------------------ vectorstrength
s.group("vectorstrength")
ev = np.sort(np.arange(0, 400) * 2.5 + rng.normal(0, 0.3, 400))
periods = np.linspace(1.0, 6.0, 101)
for name, e, p in [("vs_scalar", ev, 2.5), ("vs_scalar_off", ev, 3.7), ("vs_array", ev, periods),
                   ("vs_array_f32", ev, periods.astype(np.float32)), ("vs_events_f32", ev.astype(np.float32), periods),
                   ("vs_array_int", ev, np.arange(1, 9)), ("vs_0d_period", ev, np.array(2.5)),
                   ("vs_0d_event", np.array(1.5), np.array([2.0, 3.0])), ("vs_empty", np.zeros(0), 2.0),
                   ("vs_uneven", ev[:150], np.sort(rng.uniform(0.5, 8.0, 1300)))]:
    st, ph = ss.vectorstrength(e, p)
    params = {"period": float(p)} if isinstance(p, float) else {"period_array": s.array(name + "_p", p)}
    f32 = np.asarray(st).dtype == np.float32
    s.case(name, func="vectorstrength", events=s.array(name + "_e", e), strength=s.array(name + "_s", st),
           phase=s.array(name + "_ph", ph), rtol=1e-4 if f32 else 1e-9, atol=2e-5 if f32 else 1e-11, **params)
for name, esh, p, psh in [("vs_err_events2d", [3, 2], 2.0, None), ("vs_err_period2d", [3], None, [2, 2]),
                          ("vs_err_period_neg", [3], -1.0, None), ("vs_err_period_zero", [3], 0.0, None)]:
    try:
        ss.vectorstrength(np.ones(esh), p if p is not None else np.ones(psh))
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    s.case(name, func="vectorstrength", error="value_error", e_shape=esh, period=p, p_shape=psh)
try:
    ss.vectorstrength(ev, np.array([1.0, 0.0]))
    raise SystemExit("vs_err_period_array: SciPy did not raise")
except ValueError:
    pass
s.case("vs_err_period_array", func="vectorstrength", error="value_error", events=s.array("vs_err_e", ev[:10]),
       period_array=s.array("vs_err_p", np.array([1.0, 0.0])))

s.write()

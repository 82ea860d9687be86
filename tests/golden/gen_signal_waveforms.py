"""Reference data for cusci::signal's waveforms family (chirp, gausspulse, sawtooth, square, sweep_poly,
unit_impulse, max_len_seq), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_waveforms/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  chirp         t, layout (C | F | strided: t holds the parent, the input is t[..., ::2]), f0, t1, f1,
                method (SciPy's string, aliases included), phi, vertex_zero, complex; expected.
  gausspulse    t, layout, fc, bw, bwr, retquad, retenv; expected_I [, expected_Q] [, expected_env].
  gausspulse_cutoff  fc, bw, bwr, tpr, t_string ("cutoff" or another string); value (host).
  sawtooth, square   t, layout, w (a number) or w_array (an array broadcast against t); expected.
  sweep_poly    t, layout, poly [list], phi; expected.
  unit_impulse  shape [list], idx (null, an int, a list, or "mid"/another string), dtype; expected.
  max_len_seq   nbits, state (null or list), length (null or int), taps (null or list); seq, state_out.
Errors (error = the cusci exception): the same parameters, with `dtype` and `shape` giving the input t
(the host test builds a data-less array of that dtype and shape).
Tolerances: float64 results atol 1e-13 x the largest |phase| (cos of a phase carries its rounding);
float32 phases (chirp of float32 t) atol 2e-6 x the largest |phase|: NumPy's float32 pow / log / cos
are not correctly rounded, cusci's are, so the phases differ by an ulp or two; sawtooth / square exact
up to one rounding.
"""
import warnings

import numpy as np
import scipy.signal as ss
from scipy.signal._waveforms import _chirp_phase

from golden import Suite

warnings.simplefilter("ignore", RuntimeWarning)  # log(0) of the hyperbolic sweep's singular point
s = Suite("signal_waveforms")
rng = s.rng(20261219)


def t_input(name, t, layout):
    """Stores the input t for `layout` (strided: the parent of t[..., ::2]); returns the input itself."""
    if layout == "strided":
        parent = np.repeat(t, 2, axis=-1)
        parent[..., 1::2] = 12345.0
        s.array(name, parent)
        return parent[..., ::2]
    s.array(name, t)
    return t


def phase_scale(t, f0, t1, f1, method, vz):
    with np.errstate(all="ignore"):
        p = np.asarray(_chirp_phase(t, f0, t1, f1, method, vz), dtype=np.float64)
    p = p[np.isfinite(p)]
    return max(1.0, float(np.abs(p).max()) if p.size else 1.0)


# ------------------------------------------------------------------------------------ chirp
s.group("chirp")
t64 = np.concatenate([[0.0], np.sort(rng.uniform(-0.5, 2.0, 300))])
t2d = rng.uniform(0.0, 1.5, (6, 35))
sweeps = [(1.0, 1.5, 7.0), (12.0, 2.0, 3.0), (4.0, 1.0, 4.0), (-3.0, 1.0, -0.5)]
k = 0
for method in ["linear", "lin", "li", "quadratic", "quad", "q", "logarithmic", "log", "lo", "hyperbolic", "hyp"]:
    for (f0, t1, f1) in sweeps:
        if method.startswith("lo") and f0 * f1 <= 0:
            continue
        for dt in (np.float64, np.float32):
            for vz in ((True, False) if method.startswith("q") else (True,)):
                for cpx in (False, True):
                    if cpx and dt == np.float32 and method not in ("linear", "quadratic", "logarithmic", "hyperbolic"):
                        continue
                    k += 1
                    layout = ["C", "F", "strided"][k % 3]
                    base = (t2d if layout == "F" else t64).astype(dt)
                    name = f"chirp_{k}"
                    t = t_input(name + "_t", base, layout)
                    phi = [0.0, 30.0, -90.0][k % 3]
                    r = ss.chirp(t, f0, t1, f1, method=method, phi=phi, vertex_zero=vz, complex=cpx)
                    P = phase_scale(t, f0, t1, f1, method, vz)
                    atol = (2e-6 if dt == np.float32 else 1e-13) * P
                    s.case(name, func="chirp", t=name + "_t", layout=layout, f0=f0, t1=t1, f1=f1, method=method,
                           phi=phi, vertex_zero=vz, complex=cpx, expected=s.array(name + "_out", r), rtol=0.0,
                           atol=atol)
# integer t, t = 0 alone, an empty t
for name, t in [("chirp_int", np.arange(-5, 20, dtype=np.int64)), ("chirp_zero", np.zeros(4)),
                ("chirp_empty", np.zeros(0))]:
    for method in ("logarithmic", "hyperbolic", "linear"):
        r = ss.chirp(t, 2.0, 3.0, 5.0, method=method)
        s.case(f"{name}_{method}", func="chirp", t=s.array(f"{name}_{method}_t", t), layout="C", f0=2.0, t1=3.0,
               f1=5.0, method=method, phi=0.0, vertex_zero=True, complex=False,
               expected=s.array(f"{name}_{method}_out", r), rtol=0.0, atol=1e-12)
# the hyperbolic singular point t = sing (log(0) -> an infinite phase -> NaN)
sing = -5.0 * 1.0 / (2.0 - 5.0)
t = np.array([0.0, 0.5, sing, 2.0])
r = ss.chirp(t, 2.0, 1.0, 5.0, method="hyperbolic")
s.case("chirp_singular", func="chirp", t=s.array("chirp_singular_t", t), layout="C", f0=2.0, t1=1.0, f1=5.0,
       method="hyperbolic", phi=0.0, vertex_zero=True, complex=False, expected=s.array("chirp_singular_out", r),
       rtol=0.0, atol=1e-12)

for name, kw in [("chirp_err_log_sign", dict(f0=-1.0, t1=1.0, f1=2.0, method="logarithmic")),
                 ("chirp_err_log_zero", dict(f0=0.0, t1=1.0, f1=2.0, method="log")),
                 ("chirp_err_hyp_zero", dict(f0=1.0, t1=1.0, f1=0.0, method="hyperbolic")),
                 ("chirp_err_lin_t1", dict(f0=1.0, t1=0.0, f1=2.0, method="linear")),
                 ("chirp_err_quad_t1", dict(f0=1.0, t1=0.0, f1=2.0, method="quadratic")),
                 ("chirp_err_method", dict(f0=1.0, t1=1.0, f1=2.0, method="cubic"))]:
    try:
        ss.chirp(np.zeros(3), **kw)
        raise SystemExit(f"{name}: SciPy did not raise")
    except (ValueError, ZeroDivisionError):
        pass
    s.case(name, func="chirp", error="value_error", dtype="float64", shape=[3], phi=0.0, vertex_zero=True,
           complex=False, **kw)

# ------------------------------------------------------------------------------------ gausspulse
s.group("gausspulse")
tg = np.linspace(-0.004, 0.004, 257)
k = 0
for dt in (np.float64, np.float32, np.int64):
    for (fc, bw, bwr) in [(1000.0, 0.5, -6.0), (2500.0, 0.2, -3.0), (0.0, 1.0, -10.0)]:
        for rq, re in [(False, False), (True, False), (False, True), (True, True)]:
            k += 1
            layout = ["C", "strided"][k % 2]
            base = (np.arange(-40, 41) if dt == np.int64 else tg).astype(dt)
            name = f"gp_{k}"
            t = t_input(name + "_t", base, layout)
            r = ss.gausspulse(t, fc=fc, bw=bw, bwr=bwr, retquad=rq, retenv=re)
            r = r if isinstance(r, tuple) else (r,)
            arrs = {"expected_I": s.array(name + "_I", r[0])}
            if rq:
                arrs["expected_Q"] = s.array(name + "_Q", r[1])
            if re:
                arrs["expected_env"] = s.array(name + "_env", r[-1])
            s.case(name, func="gausspulse", t=name + "_t", layout=layout, fc=fc, bw=bw, bwr=bwr, retquad=rq,
                   retenv=re, rtol=0.0, atol=2e-6 if dt == np.float32 else 1e-12, **arrs)
for (fc, bw, bwr, tpr) in [(1000.0, 0.5, -6.0, -60.0), (5.0, 0.3, -3.0, -40.0), (0.0, 0.5, -6.0, -60.0)]:
    v = ss.gausspulse("cutoff", fc=fc, bw=bw, bwr=bwr, tpr=tpr)
    s.case(f"gp_cutoff_{fc}_{tpr}", func="gausspulse_cutoff", fc=fc, bw=bw, bwr=bwr, tpr=tpr, t_string="cutoff",
           value=float(v), rtol=1e-14, atol=0.0)
for name, kw, ts in [("gp_err_fc", dict(fc=-1.0), None), ("gp_err_bw", dict(bw=0.0), None),
                     ("gp_err_bwr", dict(bwr=0.0), None), ("gp_err_tpr", dict(tpr=1.0), "cutoff"),
                     ("gp_err_string", dict(), "cutof"), ("gp_err_fc_cutoff", dict(fc=-2.0), "cutoff")]:
    try:
        ss.gausspulse(np.zeros(3) if ts is None else ts, **kw)
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    full = dict(fc=1000.0, bw=0.5, bwr=-6.0, tpr=-60.0)
    full.update(kw)
    if ts is None:
        s.case(name, func="gausspulse", error="value_error", dtype="float64", shape=[3], retquad=False,
               retenv=False, **full)
    else:
        s.case(name, func="gausspulse_cutoff", error="value_error", t_string=ts, **full)

# ------------------------------------------------------------------------------------ sawtooth, square
s.group("periodic")
tp = np.concatenate([np.linspace(-20, 20, 401), [0.0, 2 * np.pi, -2 * np.pi, np.pi]])
k = 0
for func, fn in (("sawtooth", ss.sawtooth), ("square", ss.square)):
    for dt in (np.float64, np.float32, np.int64):
        for w in (0.0, 0.3, 0.5, 1.0, 1.5, -0.2):
            k += 1
            layout = ["C", "strided"][k % 2]
            base = np.arange(-30, 31) if dt == np.int64 else tp.astype(dt)
            name = f"{func}_{k}"
            t = t_input(name + "_t", base.astype(dt), layout)
            r = fn(t, w)
            s.case(name, func=func, t=name + "_t", layout=layout, w=w, expected=s.array(name + "_out", r),
                   rtol=1e-6 if r.dtype == np.float32 else 1e-12, atol=1e-6 if r.dtype == np.float32 else 1e-12)
    # width / duty as an array, broadcast against t, of float64 and float32
    for wdt, tdt in ((np.float64, np.float32), (np.float32, np.float32), (np.float32, np.float64)):
        k += 1
        t = rng.uniform(-10, 10, (1, 50)).astype(tdt)
        w = np.array([[0.0], [0.25], [0.5], [0.9], [1.0], [1.2]], dtype=wdt)
        r = fn(t, w)
        name = f"{func}_arr_{k}"
        s.case(name, func=func, t=s.array(name + "_t", t), layout="C", w_array=s.array(name + "_w", w),
               expected=s.array(name + "_out", r), rtol=1e-6 if r.dtype == np.float32 else 1e-12,
               atol=1e-6 if r.dtype == np.float32 else 1e-12)
    s.case(f"{func}_err_shape", func=func, error="value_error", dtype="float64", shape=[4], w_shape=[3])

# ------------------------------------------------------------------------------------ sweep_poly
s.group("sweep_poly")
ts = np.linspace(0, 10, 501)
k = 0
for poly in ([0.025, -0.36, 1.25, 2.0], [3.0], [], [1.0, 0.0], [-0.5, 2.0, 0.1, 0.0, 1.0]):
    for dt in (np.float64, np.float32, np.int64):
        k += 1
        layout = ["C", "strided"][k % 2]
        base = np.arange(0, 11) if dt == np.int64 else ts.astype(dt)
        name = f"sweep_poly_{k}"
        t = t_input(name + "_t", base.astype(dt), layout)
        phi = [0.0, 45.0][k % 2]
        r = ss.sweep_poly(t, poly, phi)
        P = max(1.0, float(np.abs(2 * np.pi * np.polyval(np.polyint(poly), t.astype(np.float64))).max()))
        s.case(name, func="sweep_poly", t=name + "_t", layout=layout, poly=[float(v) for v in poly], phi=phi,
               expected=s.array(name + "_out", r), rtol=0.0, atol=1e-13 * P)

# ------------------------------------------------------------------------------------ unit_impulse
s.group("unit_impulse")
for name, shape, idx, dt in [("ui_1", [8], None, "float64"), ("ui_2", [7], 2, "float64"), ("ui_3", [5, 5], None, "int8"),
                             ("ui_4", [5, 5], "mid", "float32"), ("ui_5", [4, 6], [1, 5], "complex64"),
                             ("ui_6", [3, 4], [1], "float64"), ("ui_7", [6], -1, "int32"), ("ui_8", [4, 5, 6], "mid", "bool"),
                             ("ui_10", [9], "mid", "float64")]:
    r = ss.unit_impulse(tuple(shape), idx if not isinstance(idx, list) else tuple(idx), dtype=np.dtype(dt))
    s.case(name, func="unit_impulse", shape=shape, idx=idx, dtype=dt, expected=s.array(name + "_out", r))
for name, shape, idx, err in [("ui_err_range", [3], 5, "index_error"), ("ui_err_neg", [-1], None, "value_error"),
                              ("ui_err_many", [3], [0, 1], "index_error"), ("ui_err_str", [3], "middle", "index_error"),
                              ("ui_err_range2", [3, 4], [0, -5], "index_error"),
                              ("ui_err_empty", [0], None, "index_error")]:
    try:
        ss.unit_impulse(tuple(shape), idx if not isinstance(idx, list) else tuple(idx))
        raise SystemExit(f"{name}: SciPy did not raise")
    except (IndexError, ValueError) as e:
        assert (err == "index_error") == isinstance(e, IndexError), name
    s.case(name, func="unit_impulse", error=err, shape=shape, idx=idx, dtype="float64")

# ------------------------------------------------------------------------------------ max_len_seq
s.group("max_len_seq")
for nbits in range(2, 17):
    seq, st = ss.max_len_seq(nbits)
    s.case(f"mls_{nbits}", func="max_len_seq", nbits=nbits, state=None, length=None, taps=None,
           seq=s.array(f"mls_{nbits}_seq", seq), state_out=s.array(f"mls_{nbits}_state", st))
for nbits in (17, 20, 24, 31, 32):
    seq, st = ss.max_len_seq(nbits, length=3000)
    s.case(f"mls_{nbits}_len", func="max_len_seq", nbits=nbits, state=None, length=3000, taps=None,
           seq=s.array(f"mls_{nbits}_len_seq", seq), state_out=s.array(f"mls_{nbits}_len_state", st))
for name, nbits, state, length, taps in [("mls_state", 8, [1, 0, 0, 1, 0, 1, 1, 0], None, None),
                                         ("mls_state_float", 5, [0.5, 0, 0, 0, 2.0], 40, None),
                                         ("mls_taps", 8, None, None, [7, 6, 1, 6]),
                                         ("mls_taps_nbits", 6, None, 100, [6, 5]),
                                         ("mls_taps_any", 40, None, 500, [39, 38, 21]),
                                         ("mls_len0", 4, None, 0, None),
                                         ("mls_len_long", 4, [0, 1, 0, 0], 50, None)]:
    seq, st = ss.max_len_seq(nbits, state=state, length=length, taps=taps)
    s.case(name, func="max_len_seq", nbits=nbits, state=state, length=length, taps=taps,
           seq=s.array(name + "_seq", seq), state_out=s.array(name + "_stout", st))
for name, nbits, state, length, taps in [("mls_err_nbits1", 1, None, None, None), ("mls_err_nbits33", 33, None, None, None),
                                         ("mls_err_taps_range", 4, None, None, [5]),
                                         ("mls_err_taps_neg", 4, None, None, [-1]),
                                         ("mls_err_taps_empty", 4, None, None, []),
                                         ("mls_err_length", 4, None, -1, None),
                                         ("mls_err_state_size", 4, [1, 0, 1], None, None),
                                         ("mls_err_state_zero", 4, [0, 0, 0, 0], None, None)]:
    try:
        ss.max_len_seq(nbits, state=state, length=length, taps=taps)
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    s.case(name, func="max_len_seq", error="value_error", nbits=nbits, state=state, length=length, taps=taps)

s.write()

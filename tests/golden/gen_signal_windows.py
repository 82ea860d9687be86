"""Reference data for cusci::signal's windows family (the 26 windows of scipy.signal.windows and
get_window), from SciPy 1.18.1 (format and shared code: golden.py). Deterministic (no random input);
run at build time (tests/golden/CMakeLists.txt) into <out>/signal_windows/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  window      window (the name of the scipy.signal.windows function), M, sym (bool), args (list: the parameters after
              M, positionally as SciPy's signature: numbers, null for None, booleans, lists for arrays),
              warns (bool: SciPy issued a UserWarning); expected.
  dpss        M, NW, Kmax (null | int), norm (string: "None", "2", "approximate", "subsample"), sym,
              return_ratios (bool); expected (windows), expected_ratios (with return_ratios).
  get_window  window (string) with args (list, as `window` above), or window_beta (a bare number: a
              Kaiser window), Nx, fftbins (bool); expected.
  firwin      numtaps, window (string), args (list); a lowpass firwin(numtaps, 0.3, window=...):
              every window reaches firwin through the same code; expected.
Every window is swept over the lengths 0, 1, 2, 3, 16, 17, 255, 256, both `sym`, and its parameter
ranges; get_window over every name and alias, the _periodic / _symmetric suffixes, the bare number and
every parameter form. Error cases carry the same parameters (no expected) and `error`, the cusci
exception SciPy's maps to (SciPy is called on them and must raise).
Tolerances: 1e-12 of the result's scale (golden.tol), except
- chebwin 1e-11: its samples cos(order * acos(x)) are ill-conditioned near |x| = 1 (the derivative of
  acos grows like 1/sqrt(1 - x^2), multiplied by order = M - 1), so one-ulp differences between NumPy's
  vectorised cos/acos and the C library's reach about 1.4e-12 at M = 256 (measured);
- dpss 1e-10: its tapers come from an iterative eigensolver (bisection and inverse iteration) whose
  rounding differs from LAPACK's, and its ratios from FFT autocorrelations of another length than
  SciPy's next_fast_len.
dpss with Kmax close to M is not tested: the sums of its high-order symmetric tapers are about 1e-16,
so the sign SciPy picks for them is decided by rounding (cusci follows the same rule, sum < 0 flips).
"""
import warnings

import numpy as np
import scipy.signal as ss
import scipy.signal.windows as sw

from golden import Suite, tol

s = Suite("signal_windows")
LENGTHS = [0, 1, 2, 3, 16, 17, 255, 256]
ERRORS = {ValueError: "value_error", TypeError: "type_error", IndexError: "index_error"}


def call(f):
    """(result, error name, warned) of f()."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            r = f()
        except tuple(ERRORS) as e:
            return None, ERRORS[type(e)], False
    warned = any(issubclass(w.category, UserWarning) and not issubclass(w.category, RuntimeWarning)
                 for w in rec)
    return r, None, warned


def scale_tol(r, rtol64=1e-12):
    """{rtol, atol}: rtol64 relative, and rtol64 of the largest magnitude absolute (golden.tol)."""
    a = np.asarray(r, dtype=np.float64)
    sc = float(np.nanmax(np.abs(a))) if a.size and np.isfinite(a).any() else 1.0
    rtol, atol = tol(np.float64, scale=sc, rtol64=rtol64)
    return dict(rtol=rtol, atol=atol)


def add_window(case, name, M, sym, args, kw_sym=True):
    f = getattr(sw, name)
    r, err, warned = call(lambda: f(M, *args, sym=sym))
    if err:
        s.case(case, func="window", error=err, window=name, M=M, sym=sym, args=list(args))
        return
    r = np.asarray(r, dtype=np.float64)
    s.case(case, func="window", window=name, M=M, sym=sym, args=list(args), warns=warned,
           expected=s.array(case + "_expected", r), **scale_tol(r, 1e-11 if name == "chebwin" else 1e-12))


# Each window with the parameter sets swept over every length and both sym.
WINDOWS = {
    "barthann": [()], "bartlett": [()], "blackman": [()], "blackmanharris": [()], "bohman": [()],
    "boxcar": [()], "cosine": [()], "flattop": [()], "hamming": [()], "hann": [()], "lanczos": [()],
    "nuttall": [()], "parzen": [()], "triang": [()],
    "chebwin": [(50.0,), (100.0,), (200.0,), (30.0,), (-60.0,)],
    "exponential": [(None, 1.0), (None, 3.0), (None, 0.5)],
    "gaussian": [(0.5,), (1.0,), (7.0,), (100.0,), (-3.0,)],
    "general_cosine": [([0.5, 0.5],), ([1.0, 1.942604, 1.340318, 0.440811, 0.043097],), ([1.0],),
                       ([0.3, -0.2, 0.1],)],
    "general_gaussian": [(1.0, 1.0), (1.5, 7.0), (0.5, 20.0), (3.0, 2.0)],
    "general_hamming": [(0.54,), (0.6,), (0.75,), (1.0,), (0.0,)],
    "kaiser": [(0.0,), (0.5,), (5.0,), (8.6,), (14.0,), (40.0,), (-3.0,)],
    "kaiser_bessel_derived": [(0.5,), (4.0,), (10.0,)],
    "taylor": [(), (1,), (3, 25.0), (6, 50.0, False), (10, 80.0, True), (4, 30.0, True)],
    "tukey": [(), (0.0,), (0.25,), (0.5,), (0.99,), (1.0,), (1.5,), (-0.2,)],
}

s.group("windows")
for name, sets in WINDOWS.items():
    for k, args in enumerate(sets):
        for M in LENGTHS:
            for sym in (True, False):
                add_window(f"{name}_{k}_M{M}_{'sym' if sym else 'per'}", name, M, sym, args)

# Further ranges and the errors of the windows themselves.
s.group("windows_extra")
extra = [
    ("exponential", 16, False, (2.0, 3.0)), ("exponential", 17, False, (0.0, 1.0)),
    ("exponential", 255, False, (100.5, 10.0)), ("exponential", 16, True, (2.0, 3.0)),  # error
    ("exponential", 16, True, (None, 3.0)),
    ("taylor", 16, True, (0,)), ("taylor", 1, True, (0,)), ("taylor", 17, True, (-1,)),
    ("taylor", 64, True, (20, 100.0, True)), ("taylor", 65, False, (2, 15.0, False)),
    ("kaiser_bessel_derived", 17, True, (4.0,)), ("kaiser_bessel_derived", 1, True, (4.0,)),
    ("kaiser_bessel_derived", 16, False, (4.0,)), ("kaiser_bessel_derived", -4, True, (4.0,)),
    ("kaiser_bessel_derived", 1024, True, (8.0,)),
    ("chebwin", 1, True, (20.0,)), ("chebwin", 0, True, (20.0,)), ("chebwin", 1000, True, (120.0,)),
    ("chebwin", 1001, True, (120.0,)), ("chebwin", 64, False, (0.0,)),
    ("kaiser", 1001, True, (100.0,)), ("kaiser", 1000, False, (700.0,)),
    ("tukey", 1000, True, (0.1,)), ("gaussian", 1000, False, (150.0,)),
    ("general_gaussian", 1000, True, (10.0, 300.0)),
    ("tukey", 8, True, (float("nan"),)), ("tukey", 1, True, (float("nan"),)), ("tukey", 8, True, (float("inf"),)),
    ("kaiser", 8, True, (float("nan"),)), ("gaussian", 8, True, (float("inf"),)), ("chebwin", 8, True, (float("nan"),)),
    ("taylor", 8, True, (4, float("nan"))),
]
for i, (name, M, sym, args) in enumerate(extra):
    add_window(f"extra_{i}_{name}_M{M}", name, M, sym, args)
for name in ["barthann", "bartlett", "blackman", "bohman", "boxcar", "cosine", "hann", "lanczos",
             "parzen", "triang", "flattop", "nuttall", "blackmanharris", "hamming"]:
    add_window(f"neg_{name}", name, -1, True, ())
for name, args in [("kaiser", (5.0,)), ("gaussian", (2.0,)), ("chebwin", (60.0,)), ("tukey", (0.5,)),
                   ("taylor", ()), ("exponential", ()), ("general_cosine", ([0.5, 0.5],)),
                   ("general_gaussian", (1.0, 2.0)), ("general_hamming", (0.6,))]:
    add_window(f"neg_{name}", name, -3, True, args)

# dpss: every norm, with and without Kmax, ratios, every length and both sym.
s.group("dpss")
NORMS = {"None": None, "2": 2, "approximate": "approximate", "subsample": "subsample"}


def add_dpss(case, M, NW, Kmax, norm, sym, return_ratios):
    r, err, _ = call(lambda: sw.dpss(M, NW, Kmax=Kmax, sym=sym, norm=NORMS[norm], return_ratios=return_ratios))
    p = dict(M=M, NW=NW, Kmax=Kmax, norm=norm, sym=sym, return_ratios=return_ratios)
    if err:
        s.case(case, func="dpss", error=err, **p)
        return
    if return_ratios:
        w, ratios = r
        ratios = np.asarray(ratios, dtype=np.float64)
        p["expected_ratios"] = s.array(case + "_ratios", ratios)
    else:
        w = r
    w = np.asarray(w, dtype=np.float64)
    s.case(case, func="dpss", expected=s.array(case + "_expected", w), **scale_tol(w, 1e-10), **p)


for M in LENGTHS:
    NW = min(2.5, 0.4 * M) if M > 1 else 2.5
    for sym in (True, False):
        for Kmax in (None, 4):
            for norm in NORMS:
                add_dpss(f"dpss_M{M}_{'sym' if sym else 'per'}_K{Kmax}_{norm}", M, NW, Kmax, norm, sym, True)
for M, NW, Kmax in [(256, 1.0, None), (255, 4.0, None), (256, 4.0, 7), (64, 3.5, 20), (17, 0.5, 1),
                    (1000, 4.0, 8), (16, 7.9, 2)]:
    for norm in ("None", "subsample"):
        add_dpss(f"dpss_more_M{M}_NW{NW}_K{Kmax}_{norm}", M, NW, Kmax, norm, True, True)
add_dpss("dpss_noratios", 64, 3.0, 3, "None", False, False)
add_dpss("dpss_noratios_single", 64, 3.0, None, "None", True, False)
for i, (M, NW, Kmax) in enumerate([(16, 8.0, None), (16, 0.0, None), (16, -1.0, None), (16, 2.0, 0),
                                   (16, 2.0, 17), (16, 2.0, -1), (-1, 2.0, None), (1, 5.0, 3), (0, -1.0, None),
                                   (16, float("nan"), None), (16, float("inf"), None)]):
    add_dpss(f"dpss_err_{i}", M, NW, Kmax, "None", True, False)

# get_window: every name and alias, with parameters, both fftbins, the suffixes and the bare number.
s.group("get_window")
ALIASES = {
    "barthann": ["barthann", "brthan", "bth"], "bartlett": ["bartlett", "bart", "brt"],
    "blackman": ["blackman", "black", "blk"], "blackmanharris": ["blackmanharris", "blackharr", "bkh"],
    "bohman": ["bohman", "bman", "bmn"], "boxcar": ["boxcar", "box", "ones", "rect", "rectangular"],
    "chebwin": ["chebwin", "cheb"], "cosine": ["cosine", "halfcosine"], "dpss": ["dpss"],
    "exponential": ["exponential", "poisson"], "flattop": ["flattop", "flat", "flt"],
    "gaussian": ["gaussian", "gauss", "gss"], "general_cosine": ["general cosine", "general_cosine"],
    "general_gaussian": ["general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"],
    "general_hamming": ["general hamming", "general_hamming"], "hamming": ["hamming", "hamm", "ham"],
    "hann": ["hann", "han"], "kaiser": ["kaiser", "ksr"],
    "kaiser_bessel_derived": ["kaiser bessel derived", "kaiser_bessel_derived", "kbd"],
    "lanczos": ["lanczos", "sinc"], "nuttall": ["nuttall", "nutl", "nut"],
    "parzen": ["parzen", "parz", "par"], "taylor": ["taylor", "taylorwin"],
    "triang": ["triangle", "triang", "tri"], "tukey": ["tukey", "tuk"],
}
PARAMS = {"chebwin": [(60.0,)], "dpss": [(2.5,)], "exponential": [(), (None,), (None, 2.0), (3.0, 2.0)],
          "gaussian": [(2.5,)], "general_cosine": [([0.42, 0.5, 0.08],)], "general_gaussian": [(1.5, 3.0)],
          "general_hamming": [(0.6,)], "kaiser": [(8.6,)], "kaiser_bessel_derived": [(4.0,)],
          "taylor": [(), (5,), (5, 35.0), (5, 35.0, False)], "tukey": [(), (0.3,)]}
assert set(ALIASES) == {n for n in WINDOWS} | {"dpss"}
n_gw = 0


def add_gw(case, window, Nx, fftbins):
    global n_gw
    r, err, _ = call(lambda: ss.get_window(window, Nx, fftbins=fftbins))
    if isinstance(window, tuple):
        p = dict(window=window[0], args=list(window[1:]))
    elif isinstance(window, str):
        p = dict(window=window, args=[])
    else:
        p = dict(window_beta=float(window))
    p.update(Nx=Nx, fftbins=fftbins)
    n_gw += 1
    if err:
        s.case(case, func="get_window", error=err, **p)
        return
    r = np.asarray(r, dtype=np.float64)
    rtol = 1e-10 if "dpss" in str(window) else 1e-11 if "cheb" in str(window) else 1e-12
    s.case(case, func="get_window", expected=s.array(case + "_expected", r), **scale_tol(r, rtol), **p)


for canon, names in ALIASES.items():
    for name in names:
        for k, args in enumerate(PARAMS.get(canon, [()])):
            window = (name,) + tuple(args) if args else name
            for Nx in (16, 17):
                for fftbins in (True, False):
                    add_gw(f"gw_{name.replace(' ', '-')}_{k}_N{Nx}_{int(fftbins)}", window, Nx, fftbins)
# A one-element tuple, the suffixes, the bare number, Nx = 1 and 2.
for i, (window, Nx, fftbins) in enumerate([
        (("hann",), 16, True), ("hann_periodic", 16, False), ("hann_symmetric", 16, True),
        (("kaiser_periodic", 5.0), 17, False), (("kaiser_symmetric", 5.0), 17, True),
        ("blackman_periodic", 255, False), (("dpss_symmetric", 3.0), 64, True), ("tukey_periodic", 33, False),
        (8.6, 16, True), (8.6, 16, False), (0.0, 17, True), (-2.0, 5, False), (14.0, 1, True),
        ("hamming", 1, True), ("hamming", 1, False), ("hamming", 2, True), ("hamming", 2, False),
        (("chebwin", 30.0), 16, False), (("taylor", 4, 30.0, 1.0), 32, True), (("taylor", 4.0), 16, True),
        (("exponential", None, 3.0), 256, False), (("general_cosine", [1.0]), 8, True)]):
    add_gw(f"gw_form_{i}", window, Nx, fftbins)
# Errors.
for i, (window, Nx, fftbins) in enumerate([
        ("nosuchwindow", 16, True), ("hann", 0, True), ("hann", -5, True), ("kaiser", 16, True),
        (("hann", 2.0), 16, True), ("dpss", 16, True), (("dpss", 2.0, 3), 16, True), ("chebwin", 16, True),
        ("gaussian", 16, True), ("general_cosine", 16, True), ("general_gaussian", 16, True),
        (("general_gaussian", 1.0), 16, True), (("kaiser", 1.0, 2.0), 16, True),
        (("tukey", 0.5, 1.0), 16, True), (("taylor", 4, 30.0, True, 1.0), 16, True),
        (("exponential", 1.0, 2.0, 3.0), 16, True), (("exponential", 3.0), 16, False),
        (("kbd", 4.0), 16, True), (("kbd", 4.0), 17, False), (("general_cosine", 0.5, 0.5), 16, True),
        (("general_cosine", 0.5), 16, True), (("kaiser", None), 16, True), (("tukey", None), 16, True),
        (("gaussian", None), 16, True), (("taylor", 4.5), 16, True), (("taylor", 0), 16, True),
        ("hann_periodic_x", 16, True), ("Hann", 16, True), (("dpss", 9.0), 16, False), ("kaiser_periodic", 16, True),
        (("lanczos", 1.0), 16, True)]):
    add_gw(f"gw_err_{i}", window, Nx, fftbins)

# firwin draws its window through the same code: every window reaches it (SciPy's firwin passes an
# array namespace to get_window, so general_cosine is refused there).
s.group("firwin")
for i, (numtaps, window) in enumerate([
        (33, ("chebwin", 60.0)), (34, ("chebwin", 80.0)), (33, ("dpss", 3.0)), (64, ("dpss", 2.5)),
        (33, ("taylor", 5, 35.0)), (33, "taylor"), (33, ("exponential", None, 5.0)), (33, ("gaussian", 6.0)),
        (33, ("general_gaussian", 1.5, 8.0)), (34, ("kbd", 5.0)), (33, ("kbd", 5.0)), (33, "lanczos"),
        (33, "barthann"), (33, "bohman"), (33, "parzen"), (33, "hann_periodic"), (33, ("tukey", 0.3)),
        (33, ("general_cosine", [0.5, 0.5])), (33, ("exponential", 3.0, 5.0)), (33, ("taylor", 5.0))]):
    r, err, _ = call(lambda: ss.firwin(numtaps, 0.3, window=window, pass_zero="lowpass"))
    p = dict(numtaps=numtaps, window=window if isinstance(window, str) else window[0],
             args=[] if isinstance(window, str) else list(window[1:]))
    if err:
        s.case(f"firwin_{i}", func="firwin", error=err, **p)
    else:
        s.case(f"firwin_{i}", func="firwin", expected=s.array(f"firwin_{i}_expected", r),
               **scale_tol(r, 1e-10 if "dpss" in str(window) else 1e-11), **p)

s.write()

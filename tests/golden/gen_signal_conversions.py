"""Reference data for cusci::signal's conversions family (representation conversions, normalize, the
bilinear and frequency transformations, partial fractions, and the LTI classes), from SciPy 1.18.1
(format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_conversions/.

Every case names its inputs in_<x> (arrays stored as <case>.<x>; scalars inline) and its outputs out_<x>
(arrays; a gain as the number out_k). `warns` says whether SciPy issued BadCoefficients. `roots` lists the
outputs that are roots (eigenvalues), which the test compares as sets (SciPy's order comes from LAPACK's
eigenvalue solver); `pairs` marks residue outputs compared as (pole, residue) pairs matched by pole.

Tolerances: 1e-10 relative to each output's largest magnitude for coefficients. Roots are compared as sets
with a tolerance from their condition numbers (poly_root_rtol): 100 eps times the largest relative
condition number, at least 1e-10; a root of multiplicity m (or a cluster within 1e-2) is only determined
to about eps^(1/m) by the coefficients, for SciPy as for any other eigenvalue solver, so such cases get at
most 10 eps^(1/m). Residues at repeated poles: 1e-9 with rtype avg (the mean of a cluster of roots is
accurate), 10 eps^(1/m) with min / max, which pick one root of the cluster.
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal_conversions")
rng = s.rng(20261218)

# LinAlgError derives from ValueError: it comes first
EXC = [(np.linalg.LinAlgError, "runtime_error"), (IndexError, "index_error"),
       (NotImplementedError, "not_implemented_error"), (TypeError, "type_error"), (ValueError, "value_error")]
EPS = np.finfo(float).eps


def exc_name(e):
    for t, name in EXC:
        if isinstance(e, t):
            return name
    raise e


def multiplicity(r):
    r = np.atleast_1d(np.asarray(r, dtype=complex))
    m = 1
    for x in r:
        m = max(m, int(np.sum(np.abs(r - x) <= 1e-2 * max(1.0, abs(x)))))
    return m


def root_rtol(*sets):
    m = max([1] + [multiplicity(r) for r in sets if np.size(r)])
    return 1e-10 if m == 1 else min(1e-1, 10 * EPS ** (1.0 / m))


def add(name, func, inputs, call, rtol=1e-10, roots=(), error=None, scalars=None, **extra):
    """Stores the inputs, calls SciPy, stores the outputs (dict name -> array or float)."""
    params = {}
    for k, v in inputs.items():
        if isinstance(v, np.ndarray):
            params["in_" + k] = s.array(f"{name}.{k}", v)
        else:
            params["in_" + k] = v
    params.update(scalars or {})
    params.update(extra)
    if error is not None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                call()
        except Exception as e:  # noqa: BLE001
            got = exc_name(e)
            assert got == error, (name, got, error, e)
            s.case(name, func=func, error=error, **params)
            return
        raise AssertionError(f"{name}: SciPy did not raise")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = call()
    warns = any(issubclass(x.category, ss.BadCoefficients) for x in w)
    for k, v in out.items():
        if isinstance(v, (float, int, np.floating, np.integer)) and not isinstance(v, np.ndarray):
            params["out_" + k] = float(v)
        else:
            params["out_" + k] = s.array(f"{name}.out_{k}", np.asarray(v))
    s.case(name, func=func, rtol=rtol, atol=0.0, warns=warns, roots=list(roots), **params)


def rand_roots(n, complex_frac=0.5, scale=1.0, conj=True):
    """n roots, real and conjugate pairs, well separated."""
    r = []
    while len(r) < n:
        if conj and n - len(r) >= 2 and rng.random() < complex_frac:
            z = scale * (rng.uniform(-1, 1) + 1j * rng.uniform(0.2, 1))
            r += [z, np.conj(z)]
        else:
            r.append(scale * rng.uniform(-1, 1))
    return np.array(r)


def rand_poly(n, lead=None, complex_frac=0.5):
    c = np.real(np.poly(rand_roots(n, complex_frac))) if n > 0 else np.array([1.0])
    return c * (lead if lead is not None else rng.uniform(0.5, 3))


def den1d(d):
    """ss2tf's den: SciPy returns the Python int 1 for a system without states; cusci [1.0]."""
    return np.array([1.0]) if isinstance(d, int) else np.atleast_1d(d)


def poly_root_rtol(c, r):
    """rtol for roots r of polynomial c (highest power first) from their condition numbers: a relative
    perturbation eps of the coefficients moves root x by eps * sum|c_j||x|^j / |c'(x)|; 100 times that,
    capped by the multiplicity bound, at least 1e-10."""
    c = np.trim_zeros(np.atleast_1d(np.asarray(c, dtype=complex)), "f")
    r = np.atleast_1d(np.asarray(r, dtype=complex))
    if c.size < 2 or r.size == 0:
        return 1e-10
    dc = np.polyder(c)
    scale = max(1.0, np.max(np.abs(r)))
    worst = 0.0
    for x in r:
        num = np.sum(np.abs(c) * np.abs(x) ** np.arange(c.size - 1, -1, -1))
        d = abs(np.polyval(dc, x))
        worst = max(worst, np.inf if d == 0 else num / d / scale)
    return float(min(max(1e-10, 100 * EPS * worst), root_rtol(r) if multiplicity(r) > 1 else 1e-1))


def zpk_out(z, p, k):
    return {"z": np.asarray(z), "p": np.asarray(p), "k": float(np.real(k))}


# ---- normalize --------------------------------------------------------------------------------------------
s.group("normalize")
for i, (b, a) in enumerate([
        (rand_poly(3), rand_poly(4)),
        (np.array([0.0, 0.0, 1e-15, 2.0, 3.0]), np.array([0.0, 2.0, 4.0, 1.0])),
        (np.array([[0.0, 1.0, 2.0], [0.0, 2.0, 5.0]]), np.array([2.0, 4.0, 1.0])),
        (np.array([[1e-16, 1.0], [0.0, 2.0], [1e-15, 3.0]]), np.array([4.0, 1.0])),
        (np.array([0.0, 0.0]), np.array([2.0, 4.0])),
        (np.array(3.0), np.array([2.0, 4.0])),
        (np.array([1.0, 2.0]), np.array(5.0)),
        (np.array([1 + 2j, 3.0]), np.array([2.0, 1j])),
        (np.array([1, 2, 3]), np.array([4, 5])),
        (np.array([1.0, 2.0]), np.array([0.0, 0.0, 3.0, 1.0])),
        (rand_poly(8), rand_poly(8)),
        (np.zeros(0), np.array([1.0, 2.0])),
]):
    add(f"normalize_{i}", "normalize", {"b": b, "a": a}, lambda b=b, a=a: dict(zip("ba", ss.normalize(b, a))))
cb, ra = np.array([0.5 + 1j, 2.0, 1.0 - 0.5j]), rand_poly(3)
add("normalize_complex_num", "normalize", {"b": cb, "a": ra}, lambda: dict(zip("ba", ss.normalize(cb, ra))))
add("tf2zpk_complex_num", "tf2zpk", {"b": np.array([2.0, 1 + 1j, 3.0]), "a": ra},
    lambda: zpk_out(*ss.tf2zpk(np.array([2.0, 1 + 1j, 3.0]), ra)), roots=["z", "p"])
add("tf2ss_complex_num", "tf2ss", {"num": cb, "den": ra}, lambda: dict(zip("ABCD", ss.tf2ss(cb, ra))))
add("bilinear_complex_num", "bilinear", {"b": cb, "a": ra}, lambda: dict(zip("ba", ss.bilinear(cb, ra, fs=2.0))),
    scalars={"fs": 2.0})
add("lp2bp_complex_num", "lp2bp", {"b": cb, "a": ra}, lambda: dict(zip("ba", ss.lp2bp(cb, ra, 2.0, 0.5))),
    scalars={"wo": 2.0, "bw": 0.5})
for i, (b, a) in enumerate([
        (np.array([1.0]), np.array([[1.0, 2.0]])),
        (np.ones((2, 2, 2)), np.array([1.0, 2.0])),
        (np.array([1.0]), np.array([0.0, 0.0])),
]):
    add(f"normalize_err_{i}", "normalize", {"b": b, "a": a}, lambda b=b, a=a: ss.normalize(b, a), error="value_error")

# ---- tf2zpk -----------------------------------------------------------------------------------------------
s.group("tf2zpk")
tf_inputs = []
for n in [1, 2, 3, 5, 8, 12]:
    for m in sorted({0, 1, n // 2, n}):
        tf_inputs.append((rand_poly(m), rand_poly(n)))
tf_inputs += [
    (np.array([0.0, 0.0, 2.0, 1.0]), np.array([0.0, 1.0, 3.0, 2.0])),
    (np.array([1e-15, 1.0, 2.0]), np.array([1.0, 3.0, 2.0])),
    (np.array([2.0, 1 + 1j, 3.0]), np.array([1.0, 0.5j, 0.2])),
    (np.array([1.0, 0.0, 0.0]), np.array([1.0, 0.5, 0.0])),
    (np.array([3.0]), np.array([2.0])),
    (np.array([1, 3, 2]), np.array([1, 7, 12])),
]
for N in [4, 8, 12]:
    tf_inputs.append(ss.ellip(N, 0.5, 60, 0.3))
    tf_inputs.append(ss.cheby2(N, 50, [0.2, 0.5], "bandpass"))
    tf_inputs.append(ss.ellip(N, 1, 40, 2.0, analog=True))
tf_inputs.append(ss.cheby2(16, 60, 0.25))
tf_inputs.append(ss.butter(5, 0.3))  # zeros at -1 of multiplicity 5
for i, (b, a) in enumerate(tf_inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z, p, k = ss.tf2zpk(b, a)
        bn, an = ss.normalize(b, a)
    add(f"tf2zpk_{i}", "tf2zpk", {"b": np.asarray(b), "a": np.asarray(a)},
        lambda b=b, a=a: zpk_out(*ss.tf2zpk(b, a)), rtol=max(poly_root_rtol(bn, z), poly_root_rtol(an, p)),
        roots=["z", "p"])
add("tf2zpk_err_2d", "tf2zpk", {"b": np.array([[1.0, 2.0], [3.0, 4.0]]), "a": np.array([1.0, 3.0])},
    lambda: ss.tf2zpk(np.array([[1.0, 2.0], [3.0, 4.0]]), [1.0, 3.0]), error="value_error")
add("tf2zpk_err_nan", "tf2zpk", {"b": np.array([1.0, np.nan, 1.0]), "a": np.array([1.0, 2.0])},
    lambda: ss.tf2zpk([1.0, np.nan, 1.0], [1.0, 2.0]), error="runtime_error")
add("tf2zpk_err_den", "tf2zpk", {"b": np.array([1.0]), "a": np.array([0.0])},
    lambda: ss.tf2zpk([1.0], [0.0]), error="value_error")

# ---- zpk2tf (N-D numerators) -----------------------------------------------------------------------------
s.group("zpk2tf")
zpk2tf_inputs = [
    (rand_roots(4), rand_roots(5), np.array([2.5])),
    (np.array([1j, 2.0]), rand_roots(3), np.array([2.0])),
    (np.array([1j, -1j, 0.5]), np.array([0.2 + 0.3j, 0.2 - 0.3j]), np.array([1.5])),
    (np.array([1 + 1j, 2 - 1j]), np.array([0.5]), np.array([1.0])),  # SciPy's realness test passes
    (np.zeros(0), np.zeros(0), np.array([3.0])),
    (np.stack([rand_roots(3, 0), rand_roots(3, 0)]), rand_roots(4), np.array([2.0, 3.0])),
    (np.stack([rand_roots(4), rand_roots(4), rand_roots(4)]), rand_roots(5), np.array([-1.5])),
    (np.array([[1j, 2.0], [3.0, 4.0]]), np.array([1.0, 2.0]), np.array([2.0])),
    (np.array([[1.0, 2.0], [1j, 4.0]]), np.array([1.0, 2.0]), np.array([2.0, 0.5])),
    (np.zeros((2, 0)), np.zeros(0), np.array([2.0, 3.0])),
    (rand_roots(6), rand_roots(6), np.array([1.0 + 2.0j])),
]
for i, (z, p, k) in enumerate(zpk2tf_inputs):
    add(f"zpk2tf_{i}", "zpk2tf", {"z": z, "p": p, "k": k},
        lambda z=z, p=p, k=k: dict(zip("ba", ss.zpk2tf(z, p, k if z.ndim > 1 else k[0]))))

add("zpk2tf_err_short_k", "zpk2tf", {"z": np.ones((3, 2)), "p": np.array([1.0]), "k": np.array([1.0, 2.0])},
    lambda: ss.zpk2tf(np.ones((3, 2)), [1.0], np.array([1.0, 2.0])), error="index_error")

# ---- second-order sections ---------------------------------------------------------------------------------
s.group("sos")
for i, (b, a, pairing, analog) in enumerate([
        (*ss.ellip(4, 0.5, 60, 0.3), None, False),
        (*ss.ellip(7, 0.5, 60, 0.3), "nearest", False),
        (*ss.ellip(7, 0.5, 60, 0.3), "keep_odd", False),
        (*ss.ellip(6, 0.5, 60, 0.3), "minimal", False),
        (*ss.cheby2(8, 50, [0.2, 0.5], "bandpass"), None, False),
        (*ss.ellip(12, 0.1, 80, 0.4), None, False),
        (*ss.cheby2(16, 60, 0.25), None, False),
        (*ss.ellip(6, 0.5, 50, [0.2, 0.4], "bandpass"), "keep_odd", False),
        (*ss.cheby2(5, 40, [0.3, 0.6], "bandstop"), None, False),
        (*ss.ellip(5, 1, 40, 2.0, analog=True), None, True),
        (rand_poly(4, complex_frac=1.0), rand_poly(6, complex_frac=1.0), None, False),
        (rand_poly(3, complex_frac=0.0), rand_poly(5, complex_frac=0.0), "keep_odd", False),
]):
    z, p, _ = ss.tf2zpk(b, a)
    bn, an = ss.normalize(b, a)
    kw = {} if pairing is None else {"pairing": pairing}
    add(f"tf2sos_{i}", "tf2sos", {"b": np.asarray(b), "a": np.asarray(a)},
        lambda b=b, a=a, kw=kw, analog=analog: {"sos": ss.tf2sos(b, a, analog=analog, **kw)},
        rtol=max(poly_root_rtol(bn, z), poly_root_rtol(an, p)), scalars={"pairing": pairing, "analog": analog})
add("tf2sos_err_analog", "tf2sos", {"b": np.array([1.0]), "a": np.array([1.0, 2.0, 1.0])},
    lambda: ss.tf2sos([1.0], [1.0, 2.0, 1.0], pairing="nearest", analog=True), error="value_error",
    scalars={"pairing": "nearest", "analog": True})

sos_inputs = []
for n in [1, 2, 5, 8]:
    sec = rng.standard_normal((n, 6))
    sec[:, 3] = 1.0
    sos_inputs.append(sec)
sos_inputs.append(ss.ellip(9, 0.5, 60, 0.3, output="sos"))
sos_inputs.append(ss.cheby1(6, 1, [0.1, 0.4], "bandstop", output="sos"))
sos_inputs.append(np.array([[1.0, 2.0, 0.0, 1.0, 0.5, 0.0], [0.0, 1.0, 1.0, 1.0, 0.0, 0.25]]))
sos_inputs.append(np.array([[0.0, 0.0, 2.0, 1.0, 0.3, 0.2], [1.0, 0.0, 1.0, 1.0, 0.0, 0.25]]))
sos_inputs.append(np.array([[1, 2, 3, 1, 0, 0]]))
sos_inputs.append(np.array([[1.0, 1j, 0.5, 1.0, 0.2, 0.1j]]))
for i, sos in enumerate(sos_inputs):
    add(f"sos2tf_{i}", "sos2tf", {"sos": sos}, lambda sos=sos: dict(zip("ba", ss.sos2tf(sos))))
for i, sos in enumerate(sos_inputs[:-2]):
    zs = [ss.tf2zpk(r[:3], r[3:])[0] for r in sos] + [ss.tf2zpk(r[:3], r[3:])[1] for r in sos]
    add(f"sos2zpk_{i}", "sos2zpk", {"sos": sos}, lambda sos=sos: zpk_out(*ss.sos2zpk(sos)),
        rtol=root_rtol(*zs), roots=["z", "p"])

# ---- state space ---------------------------------------------------------------------------------------
s.group("ss")
for i, (num, den) in enumerate([
        (rand_poly(2), rand_poly(3)),
        (rand_poly(4), rand_poly(4)),
        (np.array([2.0]), np.array([3.0])),
        (np.stack([rand_poly(2), rand_poly(2)]), rand_poly(4)),
        (np.array([0.0, 1.0, 2.0]), np.array([1.0, 5.0, 6.0])),
        (np.array([1.0 + 1j, 2.0]), np.array([1.0, 3.0, 2.0j])),
        (rand_poly(10), rand_poly(12)),
        (np.zeros(0), np.array([1.0, 2.0])),
]):
    add(f"tf2ss_{i}", "tf2ss", {"num": num, "den": den}, lambda num=num, den=den: dict(zip("ABCD", ss.tf2ss(num, den))))
add("tf2ss_err_improper", "tf2ss", {"num": np.array([1.0, 2.0, 3.0]), "den": np.array([1.0, 2.0])},
    lambda: ss.tf2ss([1.0, 2.0, 3.0], [1.0, 2.0]), error="value_error")

ss_inputs = []
for n, q, p in [(1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 1, 2), (5, 3, 3), (8, 1, 1)]:
    ss_inputs.append((rng.standard_normal((n, n)), rng.standard_normal((n, q)), rng.standard_normal((p, n)),
                      rng.standard_normal((p, q))))
ss_inputs.append((np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0], [0.0]]), np.array([[1.0, 0.0]]), np.array([[0.0]])))
ss_inputs.append((np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), np.array([[5.0]])))
ss_inputs.append((np.array([[1j, 1.0], [0.0, 2.0]]), np.array([[1.0], [1.0]]), np.array([[1.0, 1.0]]), np.array([[0.5]])))
for i, (A, B, C, D) in enumerate(ss_inputs):
    for inp in sorted({0, D.shape[1] - 1}):
        num, den = ss.ss2tf(A, B, C, D, input=inp)
        add(f"ss2tf_{i}_{inp}", "ss2tf", {"A": A, "B": B, "C": C, "D": D},
            lambda A=A, B=B, C=C, D=D, inp=inp: {"num": ss.ss2tf(A, B, C, D, input=inp)[0],
                                                  "den": den1d(ss.ss2tf(A, B, C, D, input=inp)[1])},
            rtol=1e-10, scalars={"input": inp})
        if D.shape[0] == 1 and A.size:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                z, p, _ = ss.ss2zpk(A, B, C, D, input=inp)
                bn, an = ss.normalize(num, den)
            add(f"ss2zpk_{i}_{inp}", "ss2zpk", {"A": A, "B": B, "C": C, "D": D},
                lambda A=A, B=B, C=C, D=D, inp=inp: zpk_out(*ss.ss2zpk(A, B, C, D, input=inp)),
                rtol=max(1e-10, poly_root_rtol(bn, z), poly_root_rtol(an, p)), roots=["z", "p"],
                scalars={"input": inp})
A, B, C, D = ss_inputs[2]
add("ss2tf_err_input", "ss2tf", {"A": A, "B": B, "C": C, "D": D}, lambda: ss.ss2tf(A, B, C, D, input=2),
    error="value_error", scalars={"input": 2})
add("ss2tf_err_nan", "ss2tf", {"A": np.array([[np.nan]]), "B": B[:1], "C": C[:, :1], "D": D},
    lambda: ss.ss2tf(np.array([[np.nan]]), B[:1], C[:, :1], D), error="runtime_error", scalars={"input": 0})
add("ss2tf_err_shape", "ss2tf", {"A": A, "B": B[:2], "C": C, "D": D}, lambda: ss.ss2tf(A, B[:2], C, D),
    error="value_error", scalars={"input": 0})

for i, (z, p, k) in enumerate([
        (rand_roots(2), rand_roots(3), 2.0),
        (np.zeros(0), rand_roots(4), 0.5),
        (rand_roots(3), rand_roots(3), -1.0),
        (*ss.buttap(5)[:2], 1.0),
]):
    add(f"zpk2ss_{i}", "zpk2ss", {"z": np.asarray(z), "p": np.asarray(p)},
        lambda z=z, p=p, k=k: dict(zip("ABCD", ss.zpk2ss(z, p, k))), scalars={"k": k})

abcd_inputs = [
    dict(A=np.array([[1.0]]), D=np.array([[2.0]])),
    dict(A=np.array([[1.0, 2.0], [3.0, 4.0]]), B=np.array([[1.0], [2.0]]), C=np.array([[1.0, 1.0]])),
    dict(B=np.array([[1.0], [2.0]]), C=np.array([[1.0, 1.0]])),
    dict(A=np.array(3.0), B=np.array(1.0), C=np.array(2.0), D=np.array(0.5)),
    dict(A=np.array([[1.0, 2.0], [3.0, 4.0]]), B=np.array([[1.0], [2.0]]), D=np.array([[0.0], [1.0]])),
    dict(C=np.array([[1.0, 2.0, 3.0]]), D=np.array([1.0, 2.0])),
    dict(A=np.array([[1j]]), B=np.array([[1.0]]), C=np.array([[1.0]]), D=np.array([[0]])),
]
for i, kw in enumerate(abcd_inputs):
    add(f"abcd_normalize_{i}", "abcd_normalize", kw, lambda kw=kw: dict(zip("ABCD", ss.abcd_normalize(**kw))))
for i, kw in enumerate([
        dict(D=np.array([[1.0]])),
        dict(A=np.array([[1.0]]), C=np.array([[1.0]])),
        dict(A=np.array([[1.0]]), B=np.array([[1.0]])),
        dict(A=np.array([[1.0, 2.0], [3.0, 4.0]]), B=np.array([1.0, 2.0]), C=np.array([[1.0, 1.0]])),
        dict(A=np.ones((2, 3)), B=np.ones((2, 1)), C=np.ones((1, 2)), D=np.ones((1, 1))),
        dict(A=np.ones((2, 2)), B=np.ones((2, 1)), C=np.ones((1, 2)), D=np.ones((2, 1))),
]):
    add(f"abcd_normalize_err_{i}", "abcd_normalize", kw, lambda kw=kw: ss.abcd_normalize(**kw), error="value_error")

# ---- bilinear and frequency transformations -----------------------------------------------------------------
s.group("transforms")
analog_ba = [ss.butter(N, 1.0, analog=True) for N in (1, 2, 5, 8)]
analog_ba += [ss.cheby1(4, 1, 1.0, analog=True), ss.ellip(5, 0.5, 50, 1.0, analog=True),
              ss.cheby2(6, 40, 1.0, analog=True), (rand_poly(2), rand_poly(3)), (rand_poly(3), rand_poly(3)),
              (np.array([1.0, 1j]), np.array([1.0, 2.0, 3.0 - 1j])), (np.array([2.0]), np.array([1.0]))]
for i, (b, a) in enumerate(analog_ba):
    for fs in (1.0, 100.0, 0.37):
        add(f"bilinear_{i}_{fs}", "bilinear", {"b": np.asarray(b), "a": np.asarray(a)},
            lambda b=b, a=a, fs=fs: dict(zip("ba", ss.bilinear(b, a, fs=fs))), scalars={"fs": fs})
add("bilinear_longer_num", "bilinear", {"b": np.array([1.0, 2.0, 3.0]), "a": np.array([1.0, 1.0])},
    lambda: dict(zip("ba", ss.bilinear([1.0, 2.0, 3.0], [1.0, 1.0], fs=2.0))), scalars={"fs": 2.0})
add("bilinear_leading_zeros", "bilinear", {"b": np.array([0.0, 1.0]), "a": np.array([0.0, 1.0, 1.0])},
    lambda: dict(zip("ba", ss.bilinear([0.0, 1.0], [0.0, 1.0, 1.0], fs=10.0))), scalars={"fs": 10.0})
add("bilinear_err_2d", "bilinear", {"b": np.array([1.0]), "a": np.ones((2, 2))},
    lambda: ss.bilinear([1.0], np.ones((2, 2))), error="value_error", scalars={"fs": 1.0})

for i, (b, a) in enumerate(analog_ba):
    for wo, bw in [(1.0, 1.0), (2.5, 0.7), (100.0, 30.0), (0.01, 0.003)]:
        for fn in ("lp2lp", "lp2hp", "lp2bp", "lp2bs"):
            if fn in ("lp2lp", "lp2hp"):
                if bw != 1.0 and wo == 1.0:
                    continue
                call = lambda fn=fn, b=b, a=a, wo=wo: dict(zip("ba", getattr(ss, fn)(b, a, wo=wo)))
            else:
                call = lambda fn=fn, b=b, a=a, wo=wo, bw=bw: dict(zip("ba", getattr(ss, fn)(b, a, wo=wo, bw=bw)))
            add(f"{fn}_{i}_{wo}_{bw}", fn, {"b": np.asarray(b), "a": np.asarray(a)}, call,
                scalars={"wo": wo, "bw": bw})
add("lp2lp_longer_num", "lp2lp", {"b": np.array([1.0, 2.0, 3.0]), "a": np.array([1.0, 1.0])},
    lambda: dict(zip("ba", ss.lp2lp([1.0, 2.0, 3.0], [1.0, 1.0], wo=3.0))), scalars={"wo": 3.0, "bw": 1.0})
add("lp2hp_longer_num", "lp2hp", {"b": np.array([1.0, 2.0, 3.0]), "a": np.array([1.0, 1.0])},
    lambda: dict(zip("ba", ss.lp2hp([1.0, 2.0, 3.0], [1.0, 1.0], wo=3.0))), scalars={"wo": 3.0, "bw": 1.0})

zpk_protos = [ss.buttap(N) for N in (1, 2, 5, 9)] + [ss.cheb1ap(4, 1), ss.cheb2ap(5, 40), ss.ellipap(6, 0.5, 60),
                                                    (rand_roots(2, 0), rand_roots(3, 0), 2.0),
                                                    (np.array([1j, -1j]), np.array([-1.0, -2.0, -3.0]), 1.5),
                                                    (np.zeros(0), np.array([-1.0]), 1.0)]
for i, (z, p, k) in enumerate(zpk_protos):
    z, p = np.asarray(z), np.asarray(p)
    for fs in (1.0, 44.1):
        add(f"bilinear_zpk_{i}_{fs}", "bilinear_zpk", {"z": z, "p": p},
            lambda z=z, p=p, k=k, fs=fs: zpk_out(*ss.bilinear_zpk(z, p, k, fs)), scalars={"k": k, "fs": fs})
    for wo, bw in [(1.0, 1.0), (3.0, 0.5), (1000.0, 200.0)]:
        for fn in ("lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk"):
            if fn in ("lp2lp_zpk", "lp2hp_zpk"):
                call = lambda fn=fn, z=z, p=p, k=k, wo=wo: zpk_out(*getattr(ss, fn)(z, p, k, wo=wo))
            else:
                call = lambda fn=fn, z=z, p=p, k=k, wo=wo, bw=bw: zpk_out(*getattr(ss, fn)(z, p, k, wo=wo, bw=bw))
            add(f"{fn}_{i}_{wo}_{bw}", fn, {"z": z, "p": p}, call, scalars={"k": k, "wo": wo, "bw": bw})
for fn in ("bilinear_zpk", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk"):
    args = (np.array([1.0, 2.0]), np.array([1.0]), 1.0) + ((1.0,) if fn == "bilinear_zpk" else ())
    add(f"{fn}_err_improper", fn, {"z": args[0], "p": args[1]}, lambda fn=fn, args=args: getattr(ss, fn)(*args),
        error="value_error", scalars={"k": 1.0, "fs": 1.0, "wo": 1.0, "bw": 1.0})

# ---- roots and partial fractions ------------------------------------------------------------------------
s.group("residue")
ur_inputs = [
    np.array([1.0, 1.0001, 2.0, 3.0, 2.0005]),
    np.array([3 + 1j, 3 - 1j, 3.0002 + 1j, 1.0]),
    np.array([-1.0, -1.0, -1.0]),
    rand_roots(9),
    np.array([0.5]),
]
for i, p in enumerate(ur_inputs):
    for rtype in ("min", "max", "avg", "maximum", "mean"):
        for tol in (1e-3, 1e-2):
            add(f"unique_roots_{i}_{rtype}_{tol}", "unique_roots", {"p": p},
                lambda p=p, rtype=rtype, tol=tol: dict(zip(("unique", "multiplicity"),
                                                            ss.unique_roots(p, tol=tol, rtype=rtype))),
                scalars={"tol": tol, "rtype": rtype})
add("unique_roots_err_nan", "unique_roots", {"p": np.array([1.0, np.nan])},
    lambda: ss.unique_roots([1.0, np.nan]), error="value_error", scalars={"tol": 1e-3, "rtype": "min"})
add("unique_roots_err_rtype", "unique_roots", {"p": np.array([1.0])},
    lambda: ss.unique_roots([1.0], rtype="median"), error="value_error", scalars={"tol": 1e-3, "rtype": "median"})

res_inputs = [
    (np.array([1.0, 2.0]), np.array([1.0, 3.0, 2.0])),
    (np.array([1.0, 2.0]), np.array([1.0, 0.0, 1.0])),
    (np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0])),
    (rand_poly(3), rand_poly(5)),
    (rand_poly(6), rand_poly(6)),
    (rand_poly(9), rand_poly(4)),
    (np.array([1.0, 0.5]), np.real(np.poly([1.0, 1.0, 2.0]))),
    (np.array([2.0, 1.0, 0.5]), np.real(np.poly([-0.5, -0.5, -0.5, 0.3]))),
    (np.array([1.0]), np.real(np.poly([0.2 + 0.4j, 0.2 - 0.4j, 0.2 + 0.4j, 0.2 - 0.4j]))),
    (np.array([1 + 1j, 2.0]), np.array([1.0, 1j, 2.0])),
    (np.array([0.0, 0.0]), np.array([1.0, 3.0, 2.0])),
    (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 3.0, 2.0])),
]
for i, (b, a) in enumerate(res_inputs):
    for fn in ("residue", "residuez"):
        if fn == "residuez" and a[0] == 0:
            continue
        pr = np.roots(np.trim_zeros(a, "f"))
        for rtype, tol in [("avg", 1e-3), ("min", 1e-3), ("max", 1e-2)]:
            # min / max pick one root of a cluster, which is only determined to eps^(1/m)
            rt = 1e-10 if multiplicity(pr) == 1 else (1e-9 if rtype == "avg" else 10 * root_rtol(pr))
            add(f"{fn}_{i}_{rtype}", fn, {"b": b, "a": a},
                lambda fn=fn, b=b, a=a, rtype=rtype, tol=tol: dict(zip("rpk", getattr(ss, fn)(b, a, tol=tol, rtype=rtype))),
                rtol=rt, pairs=True, scalars={"tol": tol, "rtype": rtype})
add("residue_err_zero", "residue", {"b": np.array([1.0]), "a": np.array([0.0, 0.0])},
    lambda: ss.residue([1.0], [0.0, 0.0]), error="value_error", scalars={"tol": 1e-3, "rtype": "avg"})
add("residuez_err_zero", "residuez", {"b": np.array([1.0]), "a": np.array([0.0])},
    lambda: ss.residuez([1.0], [0.0]), error="value_error", scalars={"tol": 1e-3, "rtype": "avg"})
add("residuez_err_lead", "residuez", {"b": np.array([1.0]), "a": np.array([0.0, 1.0])},
    lambda: ss.residuez([1.0], [0.0, 1.0]), error="value_error", scalars={"tol": 1e-3, "rtype": "avg"})

inv_inputs = [
    (np.array([1.0, 2.0]), np.array([1.0, 2.0]), np.zeros(0)),
    (np.array([1.0, 2.0]), np.array([1.0, 1.0000001]), np.array([1.0])),
    (np.array([3.0, 2.0, 1.0]), np.array([-1.0, -1.0, 0.5]), np.array([1.0, 2.0])),
    (rng.standard_normal(5), rand_roots(5, 0), np.array([0.0, 1.0])),
    (np.array([0.5 - 1j, 0.5 + 1j]), np.array([1j, -1j]), np.zeros(0)),
    (np.array([1.0, 2.0, 3.0]), np.array([0.0, 0.5, 0.5]), np.array([2.0, 0.0])),
]
for i, (r, p, k) in enumerate(inv_inputs):
    for fn in ("invres", "invresz"):
        for rtype in ("avg", "max"):
            add(f"{fn}_{i}_{rtype}", fn, {"r": r, "p": p, "k": k},
                lambda fn=fn, r=r, p=p, k=k, rtype=rtype: dict(zip("ba", getattr(ss, fn)(r, p, k, rtype=rtype))),
                rtol=1e-10, scalars={"tol": 1e-3, "rtype": rtype})
add("invres_err_empty", "invres", {"r": np.zeros(0), "p": np.zeros(0), "k": np.zeros(0)},
    lambda: ss.invres([], [], []), error="index_error", scalars={"tol": 1e-3, "rtype": "avg"})

# ---- LTI classes ------------------------------------------------------------------------------------------
s.group("lti")


def dtkw(dt):
    return {} if dt is None else {"dt": dt}


def tf_out(t, prefix=""):
    return {prefix + "num": t.num, prefix + "den": t.den}


def zpk_cls_out(z, prefix=""):
    return {prefix + "z": z.zeros, prefix + "p": z.poles, prefix + "k": float(z.gain)}


def ss_cls_out(m, prefix=""):
    return {prefix + "A": m.A, prefix + "B": m.B, prefix + "C": m.C, prefix + "D": m.D}


for i, (num, den) in enumerate([(rand_poly(2), rand_poly(3)), (np.array([0.0, 1.0, 2.0]), rand_poly(2)),
                                (rand_poly(4), rand_poly(4))]):
    for dt in (None, 0.1):
        def call(num=num, den=den, dt=dt):
            t = ss.TransferFunction(num, den, **dtkw(dt))
            o = tf_out(t)
            o.update(zpk_cls_out(t.to_zpk(), "zpk_"))
            o.update(ss_cls_out(t.to_ss(), "ss_"))
            o["poles"] = t.poles
            o["zeros"] = t.zeros
            return o
        add(f"TransferFunction_{i}_{dt}", "TransferFunction", {"num": num, "den": den}, call,
            roots=["zpk_z", "zpk_p", "poles", "zeros"], scalars={"dt": dt})
num2, den2 = np.stack([rand_poly(2), np.r_[0.0, rand_poly(1)]]), rand_poly(3)
for dt in (None, 0.2):
    def call(dt=dt):
        t = ss.TransferFunction(num2, den2, **dtkw(dt))
        o = tf_out(t)
        o.update(ss_cls_out(t.to_ss(), "ss_"))
        return o
    add(f"TransferFunction_simo_{dt}", "TransferFunction", {"num": num2, "den": den2}, call,
        scalars={"dt": dt}, simo=True)
for i, (z, p, k) in enumerate([(rand_roots(2), rand_roots(3), 2.0), (np.zeros(0), rand_roots(4), 0.5)]):
    for dt in (None, 0.5):
        def call(z=z, p=p, k=k, dt=dt):
            m = ss.ZerosPolesGain(z, p, k, **dtkw(dt))
            o = zpk_cls_out(m)
            o.update(tf_out(m.to_tf(), "tf_"))
            o.update(ss_cls_out(m.to_ss(), "ss_"))
            return o
        add(f"ZerosPolesGain_{i}_{dt}", "ZerosPolesGain", {"z": z, "p": p}, call,
            scalars={"k": k, "dt": dt})
for i, (A, B, C, D) in enumerate(ss_inputs[:3] + [ss_inputs[4]]):
    for dt in (None, 0.01):
        def call(A=A, B=B, C=C, D=D, dt=dt):
            m = ss.StateSpace(A, B, C, D, **dtkw(dt))
            o = ss_cls_out(m)
            o.update(tf_out(m.to_tf(), "tf_"))
            if D.shape[0] == 1:
                o.update(zpk_cls_out(m.to_zpk(), "zpk_"))
                o["poles"] = m.poles
            return o
        add(f"StateSpace_{i}_{dt}", "StateSpace", {"A": A, "B": B, "C": C, "D": D}, call,
            roots=["zpk_z", "zpk_p", "poles"], scalars={"dt": dt})

# ---- single precision: SciPy keeps float32 through normalize, roots, poly and the state-space algebra
# (computed in float32 there, in double here and rounded: compared at 1e-5, roots at 1e-4) -------------
s.group("single")
F32 = np.float32
b32, a32 = rand_poly(2).astype(F32), rand_poly(3).astype(F32)
z32, p32 = rand_roots(2, 0).astype(F32), rand_roots(3, 0).astype(F32)
sos32 = np.array([[1.0, 0.5, 0.2, 1.0, -0.3, 0.1], [2.0, 1.0, 0.0, 1.0, 0.2, 0.0]], F32)
A32, B32, C32, D32 = (x.astype(F32) for x in ss_inputs[2])
for name, func, inputs, call, extra in [
        ("normalize_f32", "normalize", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.normalize(b32, a32))), {}),
        ("normalize_i8_f32", "normalize", {"b": np.array([0, 2, 3], np.int8), "a": a32},
         lambda: dict(zip("ba", ss.normalize(np.array([0, 2, 3], np.int8), a32))), {}),
        ("normalize_f32_f64", "normalize", {"b": b32, "a": a32.astype(float)},
         lambda: dict(zip("ba", ss.normalize(b32, a32.astype(float)))), {}),
        ("normalize_c64", "normalize", {"b": b32.astype(np.complex64), "a": a32},
         lambda: dict(zip("ba", ss.normalize(b32.astype(np.complex64), a32))), {}),
        ("tf2zpk_f32", "tf2zpk", {"b": b32, "a": a32}, lambda: zpk_out(*ss.tf2zpk(b32, a32)), {"roots": ["z", "p"]}),
        ("zpk2tf_f32", "zpk2tf", {"z": z32, "p": p32, "k": np.array([2.0], F32)},
         lambda: dict(zip("ba", ss.zpk2tf(z32, p32, F32(2.0)))), {}),
        ("zpk2tf_f32_k64", "zpk2tf", {"z": z32, "p": p32, "k": np.array([2.0])},
         lambda: dict(zip("ba", ss.zpk2tf(z32, p32, np.float64(2.0)))), {}),
        ("sos2tf_f32", "sos2tf", {"sos": sos32}, lambda: dict(zip("ba", ss.sos2tf(sos32))), {}),
        ("tf2ss_f32", "tf2ss", {"num": b32, "den": a32}, lambda: dict(zip("ABCD", ss.tf2ss(b32, a32))), {}),
        ("ss2tf_f32", "ss2tf", {"A": A32, "B": B32, "C": C32, "D": D32},
         lambda: {"num": ss.ss2tf(A32, B32, C32, D32)[0], "den": ss.ss2tf(A32, B32, C32, D32)[1]}, {"scalars": {"input": 0}}),
        ("abcd_normalize_f32", "abcd_normalize", {"A": A32, "B": B32, "C": C32, "D": D32},
         lambda: dict(zip("ABCD", ss.abcd_normalize(A32, B32, C32, D32))), {}),
        ("zpk2ss_f32", "zpk2ss", {"z": z32, "p": p32}, lambda: dict(zip("ABCD", ss.zpk2ss(z32, p32, 2.0))),
         {"scalars": {"k": 2.0}}),
        ("lp2hp_f32", "lp2hp", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.lp2hp(b32, a32, wo=2.0))),
         {"scalars": {"wo": 2.0, "bw": 1.0}}),
        ("lp2bp_f32", "lp2bp", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.lp2bp(b32, a32, wo=2.0, bw=0.5))),
         {"scalars": {"wo": 2.0, "bw": 0.5}}),
        ("lp2bs_f32", "lp2bs", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.lp2bs(b32, a32, wo=2.0, bw=0.5))),
         {"scalars": {"wo": 2.0, "bw": 0.5}}),
        ("lp2lp_f32", "lp2lp", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.lp2lp(b32, a32, wo=2.0))),
         {"scalars": {"wo": 2.0, "bw": 1.0}}),
        ("bilinear_f32", "bilinear", {"b": b32, "a": a32}, lambda: dict(zip("ba", ss.bilinear(b32, a32, fs=3.0))),
         {"scalars": {"fs": 3.0}}),
        ("bilinear_zpk_f32", "bilinear_zpk", {"z": z32, "p": p32}, lambda: zpk_out(*ss.bilinear_zpk(z32, p32, 2.0, 3.0)),
         {"scalars": {"k": 2.0, "fs": 3.0}}),
        ("lp2lp_zpk_f32", "lp2lp_zpk", {"z": z32, "p": p32}, lambda: zpk_out(*ss.lp2lp_zpk(z32, p32, 2.0, 3.0)),
         {"scalars": {"k": 2.0, "wo": 3.0, "bw": 1.0}}),
        ("lp2hp_zpk_f32", "lp2hp_zpk", {"z": z32, "p": p32}, lambda: zpk_out(*ss.lp2hp_zpk(z32, p32, 2.0, 3.0)),
         {"scalars": {"k": 2.0, "wo": 3.0, "bw": 1.0}}),
        ("lp2bp_zpk_f32", "lp2bp_zpk", {"z": z32, "p": p32}, lambda: zpk_out(*ss.lp2bp_zpk(z32, p32, 2.0, 3.0, 0.5)),
         {"scalars": {"k": 2.0, "wo": 3.0, "bw": 0.5}}),
        ("unique_roots_f32", "unique_roots", {"p": np.array([1.0, 1.0001, 2.0], F32)},
         lambda: dict(zip(("unique", "multiplicity"), ss.unique_roots(np.array([1.0, 1.0001, 2.0], F32)))),
         {"scalars": {"tol": 1e-3, "rtype": "min"}}),
        ("residue_f32", "residue", {"b": b32, "a": a32}, lambda: dict(zip("rpk", ss.residue(b32, a32))),
         {"scalars": {"tol": 1e-3, "rtype": "avg"}}),
]:
    add(name, func, inputs, call, rtol=1e-4 if "roots" in extra or func == "residue" else 1e-5, **extra)
for name, func, inputs, call, extra in [
        ("TransferFunction_f32", "TransferFunction", {"num": b32, "den": a32},
         lambda: {**tf_out(ss.TransferFunction(b32, a32)), **zpk_cls_out(ss.TransferFunction(b32, a32).to_zpk(), "zpk_"),
                  **ss_cls_out(ss.TransferFunction(b32, a32).to_ss(), "ss_"), "poles": ss.TransferFunction(b32, a32).poles,
                  "zeros": ss.TransferFunction(b32, a32).zeros},
         {"roots": ["zpk_z", "zpk_p", "poles", "zeros"], "scalars": {"dt": None}}),
        ("ZerosPolesGain_f32", "ZerosPolesGain", {"z": z32, "p": p32},
         lambda: {**zpk_cls_out(ss.ZerosPolesGain(z32, p32, 2.0)), **tf_out(ss.ZerosPolesGain(z32, p32, 2.0).to_tf(), "tf_"),
                  **ss_cls_out(ss.ZerosPolesGain(z32, p32, 2.0).to_ss(), "ss_")},
         {"scalars": {"k": 2.0, "dt": None}}),
        ("StateSpace_f32", "StateSpace", {"A": A32, "B": B32[:, :1], "C": C32[:1], "D": D32[:1, :1]},
         lambda: {**ss_cls_out(ss.StateSpace(A32, B32[:, :1], C32[:1], D32[:1, :1])),
                  **tf_out(ss.StateSpace(A32, B32[:, :1], C32[:1], D32[:1, :1]).to_tf(), "tf_"),
                  **zpk_cls_out(ss.StateSpace(A32, B32[:, :1], C32[:1], D32[:1, :1]).to_zpk(), "zpk_"),
                  "poles": ss.StateSpace(A32, B32[:, :1], C32[:1], D32[:1, :1]).poles},
         {"roots": ["zpk_z", "zpk_p", "poles"], "scalars": {"dt": None}}),
]:
    add(name, func, inputs, call, rtol=1e-4, **extra)

add("TransferFunction_err_den", "TransferFunction", {"num": np.array([1.0]), "den": np.array([0.0, 0.0])},
    lambda: ss.TransferFunction([1.0], [0.0, 0.0]), error="value_error", scalars={"dt": None})
add("StateSpace_err_shape", "StateSpace", {"A": np.ones((2, 2)), "B": np.ones((3, 1)), "C": np.ones((1, 2)),
                                           "D": np.ones((1, 1))},
    lambda: ss.StateSpace(np.ones((2, 2)), np.ones((3, 1)), np.ones((1, 2)), np.ones((1, 1))), error="value_error",
    scalars={"dt": None})

s.write()

"""Reference data for cusci::signal, from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  firwin       numtaps, cutoff [list], width, fs (null: not given), window (a name, or null with
               window_beta: SciPy's bare-number Kaiser window), window_args [list], pass_zero (bool or
               one of SciPy's strings), scale (bool); expected: the taps. Errors: error = value_error.
  butter       N, Wn [list], btype, analog, output (ba | zpk | sos), fs; expected: b and a (ba), z, p and
               the gain k (zpk), sos (sos). Errors: error = value_error.
  zpk2sos      z, p (complex arrays), k, pairing, analog; expected: sos.
  lfilter_zi   b, a; expected.        sosfilt_zi   sos; expected.
  lfilter      b, a, x, axis, layout (C | F | strided: x holds the parent, the input is x[..., ::2]),
               zi (null: not given); expected (y) and zf (when zi is given). Errors: error names the
               exception and what names the bad input the test builds.
  sosfilt      sos, x, axis, layout, zi; expected, zf. Errors as lfilter's.
  ecg          data (file of examples/data), sos, stride, fs; expected: sosfilt's output [::stride].
  ecg_lfilter  data, b, a (the 0.5-40 Hz band-pass as a transfer function), zi_mode (none | steady:
               zi = lfilter_zi(b, a) * x[0], lfilter_zi its value), channels (1, or 10 along axis 0:
               channel k = np.roll(record, 997 k)), stride; expected y[::stride], zf.
  ecg_accuracy form (sos | ba), sos or b/a (float64), data, length (0: the record; else np.resize to it),
               stride; expected: SciPy's float64 output [::stride]; scipy32_err: max |SciPy's float32
               output - expected| over those samples (cusci's float32 result must not exceed it).
  ecg_long     form, sos or b/a, length (2^26), stride; expected: SciPy's float64 output [::stride].
Tolerances: firwin, the IIR design and the zi functions are exact up to a few ulps of their scale;
the filters' float32 cases allow 2e-3 (the chunked scan sums in another order than SciPy's loop).
"""
import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal")
rng = s.rng(20260518)


def lst(v):
    return [float(t) for t in np.atleast_1d(v)]


def shifted(b, a, w):
    """b(z e^{-jw}) / a(z e^{-jw}): the filter's response moved by w rad/sample (complex coefficients,
    poles rotated, so as stable as the original)."""
    k = np.arange(max(len(b), len(a)))
    return b * np.exp(1j * w * k[:len(b)]), a * np.exp(1j * w * k[:len(a)])


def window_params(win):
    """firwin's window as typed parameters: a name with its arguments, or a bare Kaiser beta."""
    if isinstance(win, str):
        return dict(window=win, window_args=[])
    if isinstance(win, float):
        return dict(window=None, window_beta=win, window_args=[])
    return dict(window=win[0], window_args=[float(a) for a in win[1:]])


# ---------------------------------------------------------------------------------------------- firwin
s.group("firwin")
fir_cases = [
    dict(numtaps=31, cutoff=0.3),
    dict(numtaps=1, cutoff=0.5),
    dict(numtaps=2, cutoff=0.5),
    dict(numtaps=64, cutoff=0.25),
    dict(numtaps=41, cutoff=0.3, pass_zero=False),
    dict(numtaps=41, cutoff=0.3, pass_zero="highpass"),
    dict(numtaps=41, cutoff=[0.2, 0.5], pass_zero=False),
    dict(numtaps=40, cutoff=[0.2, 0.5], pass_zero="bandpass"),
    dict(numtaps=41, cutoff=[0.2, 0.5], pass_zero="bandstop"),
    dict(numtaps=41, cutoff=[0.2, 0.5]),
    dict(numtaps=51, cutoff=[0.1, 0.3, 0.5, 0.7]),
    dict(numtaps=51, cutoff=[0.1, 0.3, 0.5, 0.7], pass_zero=False),
    dict(numtaps=53, cutoff=[0.1, 0.3, 0.5], pass_zero=False),
    dict(numtaps=31, cutoff=0.3, scale=False),
    dict(numtaps=31, cutoff=[0.2, 0.4], pass_zero=False, scale=False),
    dict(numtaps=101, cutoff=40.0, fs=360.0),
    dict(numtaps=101, cutoff=[0.5, 40.0], fs=360.0, pass_zero=False),
    dict(numtaps=55, cutoff=3000.0, fs=44100.0, pass_zero="lowpass"),
    dict(numtaps=61, cutoff=0.3, width=0.1),
    dict(numtaps=60, cutoff=[0.3, 0.6], width=0.05, pass_zero=False),
    dict(numtaps=81, cutoff=1000.0, width=400.0, fs=8000.0),
    dict(numtaps=3, cutoff=0.9, pass_zero=False),
]
for w in ["boxcar", "triang", "bartlett", "hann", "hamming", "blackman", "blackmanharris", "nuttall", "flattop",
          "cosine", "hann_periodic", "hamming_symmetric", "rect", "tri", "han", "blk", "flt", "nut"]:
    for n in (1, 2, 7, 30, 33):
        fir_cases.append(dict(numtaps=n, cutoff=0.35, window=w))
fir_cases += [
    dict(numtaps=33, cutoff=0.35, window=("kaiser", 8.6)),
    dict(numtaps=32, cutoff=0.35, window=("kaiser", 0.0)),
    dict(numtaps=33, cutoff=0.35, window=5.0),
    dict(numtaps=33, cutoff=0.35, window=("general_hamming", 0.6)),
    dict(numtaps=33, cutoff=0.35, window=("general hamming", 0.7)),
    dict(numtaps=33, cutoff=0.35, window=("tukey", 0.3)),
    dict(numtaps=33, cutoff=0.35, window="tukey"),
    dict(numtaps=34, cutoff=0.35, window=("tukey", 1.0)),
    dict(numtaps=33, cutoff=0.35, window=("kaiser_periodic", 3.0)),
]
for i, c in enumerate(fir_cases):
    case = f"firwin{i:03d}"
    kw = {k: v for k, v in c.items() if k not in ("numtaps", "cutoff")}
    h = ss.firwin(c["numtaps"], c["cutoff"], **kw)
    s.case(case, func="firwin", rtol=1e-12, atol=1e-14, numtaps=c["numtaps"], cutoff=lst(c["cutoff"]),
           width=kw.get("width"), fs=kw.get("fs"), pass_zero=kw.get("pass_zero", True),
           scale=kw.get("scale", True), expected=s.array(f"{case}_h", h),
           **window_params(kw.get("window", "hamming")))

fir_errors = [
    dict(numtaps=31, cutoff=[]),
    dict(numtaps=31, cutoff=0.0),
    dict(numtaps=31, cutoff=1.0),
    dict(numtaps=31, cutoff=1.2),
    dict(numtaps=31, cutoff=-0.1),
    dict(numtaps=31, cutoff=[0.5, 0.2]),
    dict(numtaps=31, cutoff=[0.2, 0.2]),
    dict(numtaps=31, cutoff=200.0, fs=360.0),
    dict(numtaps=30, cutoff=0.3, pass_zero=False),
    dict(numtaps=30, cutoff=[0.2, 0.4]),
    dict(numtaps=31, cutoff=[0.2, 0.4], pass_zero="lowpass"),
    dict(numtaps=31, cutoff=[0.2, 0.4], pass_zero="highpass"),
    dict(numtaps=31, cutoff=0.2, pass_zero="bandpass"),
    dict(numtaps=31, cutoff=0.2, pass_zero="bandstop"),
    dict(numtaps=31, cutoff=0.2, pass_zero="band"),
    dict(numtaps=31, cutoff=0.2, window="nosuchwindow"),
    dict(numtaps=31, cutoff=0.2, window="kaiser"),
    dict(numtaps=31, cutoff=0.2, window=("hann", 2.0)),
    dict(numtaps=33, cutoff=0.2, window=("general_cosine", 0.5, 0.3, 0.2)),
    dict(numtaps=0, cutoff=0.2),
    dict(numtaps=-3, cutoff=0.2),
]
for i, c in enumerate(fir_errors):
    kw = {k: v for k, v in c.items() if k not in ("numtaps", "cutoff")}
    try:
        ss.firwin(c["numtaps"], c["cutoff"], **kw)
        raise AssertionError(f"expected an error for {c}")
    except ValueError:
        pass
    s.case(f"firwinerr{i:02d}", func="firwin", error="value_error", numtaps=c["numtaps"], cutoff=lst(c["cutoff"]),
           fs=kw.get("fs"), pass_zero=kw.get("pass_zero", True), **window_params(kw.get("window", "hamming")))

# ---------------------------------------------------------------------------------------------- butter
s.group("butter")
butter_cases = []
for N in (0, 1, 2, 3, 4, 5, 8, 9):
    butter_cases.append(dict(N=N, Wn=0.3, btype="low"))
    butter_cases.append(dict(N=N, Wn=0.45, btype="highpass"))
for N in (1, 2, 3, 4, 6, 7):
    butter_cases.append(dict(N=N, Wn=[0.1, 0.4], btype="bandpass"))
    butter_cases.append(dict(N=N, Wn=[0.2, 0.6], btype="bandstop"))
butter_cases += [
    dict(N=4, Wn=[0.5, 40.0], btype="bandpass", fs=360.0),
    dict(N=4, Wn=50.0, btype="lp", fs=1000.0),
    dict(N=6, Wn=[49.0, 51.0], btype="bs", fs=500.0),
    dict(N=3, Wn=0.01, btype="high"),
    dict(N=5, Wn=0.98, btype="low"),
    dict(N=10, Wn=0.2, btype="low"),
    dict(N=4, Wn=[0.45, 0.55], btype="band"),
    dict(N=3, Wn=2.0, btype="low", analog=True),
    dict(N=4, Wn=100.0, btype="high", analog=True),
    dict(N=3, Wn=[1.0, 10.0], btype="bandpass", analog=True),
    dict(N=2, Wn=[1.0, 10.0], btype="bandstop", analog=True),
    dict(N=5, Wn=[0.1, 0.4, 0.9], btype="bandpass"),
]
bi = 0
for c in butter_cases:
    for output in ("ba", "zpk", "sos"):
        case = f"butter{bi:03d}"
        bi += 1
        kw = dict(btype=c["btype"], analog=c.get("analog", False), output=output, fs=c.get("fs", None))
        res = ss.butter(c["N"], c["Wn"], **kw)
        params = dict(N=c["N"], Wn=lst(c["Wn"]), btype=c["btype"], analog=c.get("analog", False), output=output,
                      fs=c.get("fs"))
        if output == "ba":
            b, a = res
            assert np.isrealobj(b) and np.isrealobj(a)
            params.update(b=s.array(f"{case}_b", b), a=s.array(f"{case}_a", a))
            atol = 1e-13 * max(np.abs(b).max(), 1e-300)
        elif output == "zpk":
            z, p, k = res
            params.update(z=s.array(f"{case}_z", z), p=s.array(f"{case}_p", p), k=float(k))
            atol = 1e-12
        else:
            params.update(sos=s.array(f"{case}_sos", res))
            atol = 1e-12 * max(np.abs(res).max(), 1.0)
        s.case(case, func="butter", rtol=1e-9, atol=atol, **params)

butter_errors = [
    dict(N=4, Wn=0.3, btype="low", analog=True, fs=100.0),
    dict(N=4, Wn=0.0, btype="low"),
    dict(N=4, Wn=-0.3, btype="low"),
    dict(N=4, Wn=[0.4, 0.2], btype="bandpass"),
    dict(N=4, Wn=[0.3, 0.3], btype="bandpass"),
    dict(N=4, Wn=1.0, btype="low"),
    dict(N=4, Wn=1.5, btype="high"),
    dict(N=4, Wn=60.0, btype="low", fs=100.0),
    dict(N=4, Wn=[0.1, 0.4], btype="low"),
    dict(N=4, Wn=0.3, btype="bandpass"),
    dict(N=-1, Wn=0.3, btype="low"),
    dict(N=4, Wn=0.3, btype="nosuchband"),
]
for i, c in enumerate(butter_errors):
    try:
        ss.butter(c["N"], c["Wn"], btype=c["btype"], analog=c.get("analog", False), fs=c.get("fs", None))
        raise AssertionError(f"expected an error for {c}")
    except ValueError:
        pass
    s.case(f"buttererr{i:02d}", func="butter", error="value_error", N=c["N"], Wn=lst(c["Wn"]), btype=c["btype"],
           analog=c.get("analog", False), output="ba", fs=c.get("fs"))

# zpk2sos with every pairing, on random conjugate-closed sets (digital) and analog 'minimal'.
s.group("zpk2sos")
zi_ = 0
for (nz, npole, pairing, analog) in [(4, 4, "nearest", False), (3, 5, "nearest", False), (5, 5, "keep_odd", False),
                                     (2, 6, "minimal", False), (0, 3, "nearest", False), (3, 3, "minimal", True),
                                     (1, 4, "minimal", True), (6, 2, "nearest", False)]:
    def conj_set(n):
        out = []
        while len(out) + 2 <= n and rng.random() < 0.7:
            r = 0.3 + 0.65 * rng.random()
            th = np.pi * rng.random()
            v = r * np.exp(1j * th)
            if analog:
                v = -abs(v.real) - 0.1 + 1j * v.imag * 5
            out += [v, np.conj(v)]
        while len(out) < n:
            out.append(complex((rng.random() * 1.8 - 0.9) if not analog else -0.1 - rng.random() * 3, 0.0))
        return np.array(out, dtype=complex)
    for attempt in range(50):  # some random sets make SciPy's pairing fail; draw again
        z, p = conj_set(nz), conj_set(npole)
        k = 0.5 + rng.random()
        try:
            sos = ss.zpk2sos(z, p, k, pairing=pairing, analog=analog)
            break
        except IndexError:
            continue
    case = f"zpk2sos{zi_:02d}"
    zi_ += 1
    s.case(case, func="zpk2sos", rtol=1e-9, atol=1e-12, z=s.array(f"{case}_z", z), p=s.array(f"{case}_p", p),
           k=float(k), pairing=pairing, analog=analog, expected=s.array(f"{case}_sos", sos))

# lfilter_zi / sosfilt_zi
s.group("zi")
# The poles-near-1 filters (ECG band-pass order 8 and 16, a 0.005 low-pass of order 8) have a tiny sum(a):
# their zi depends on NumPy's pairwise order of summation, which lfilter_zi follows (tolerance 1e-14).
for i, (b, a) in enumerate([ss.butter(4, 0.2), ss.butter(3, [0.1, 0.3], "bandpass"), ([1.0, 2.0, 1.0], [2.0, 0.5]),
                            ([0.5], [1.0, -0.5, 0.1]), ([1.0, 1.0], [1.0]),
                            ss.butter(4, [0.5, 40.0], "bandpass", fs=360.0), ss.butter(8, [0.5, 40.0], "bandpass", fs=360.0),
                            ss.butter(8, 0.005), shifted(*ss.butter(4, 0.2), 0.7),
                            (np.array([1.0, 0.5 + 0.5j]), np.array([1.0, -0.3j]))]):
    case = f"lfzi{i:02d}"
    cdt = complex if (np.iscomplexobj(b) or np.iscomplexobj(a)) else float
    s.case(case, func="lfilter_zi", rtol=1e-14 if i >= 5 else 1e-10, atol=0.0 if i >= 5 else 1e-12,
           b=s.array(f"{case}_b", np.asarray(b, cdt)), a=s.array(f"{case}_a", np.asarray(a, cdt)),
           expected=s.array(f"{case}_zi_out", ss.lfilter_zi(b, a)))
for i, sos in enumerate([ss.butter(4, 0.2, output="sos"), ss.butter(5, [0.1, 0.3], "bandpass", output="sos"),
                         ss.butter(4, [0.5, 40], "bandpass", output="sos", fs=360),
                         ss.butter(4, 0.2, output="sos") * np.exp(0.5j * np.array([0, 1, 2, 0, 1, 2]))]):
    case = f"soszi{i:02d}"
    s.case(case, func="sosfilt_zi", rtol=1e-10, atol=1e-12, sos=s.array(f"{case}_sos", sos),
           expected=s.array(f"{case}_zi_out", ss.sosfilt_zi(sos)))


# ---------------------------------------------------------------------------------------------- lfilter / sosfilt (gpu)
def make_x(shape, dtype):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-50, 50, size=shape).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def make_zi(shape, result_dtype):
    if np.issubdtype(result_dtype, np.complexfloating):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape)





def tol_for(y, dt):
    m = float(np.max(np.abs(y))) if y.size else 1.0
    if dt in (np.float32, np.complex64):
        return 2e-3, 2e-4 * max(m, 1e-30)
    # float64: the chunked scan sums in another order than SciPy's sequential loop; on recursions with
    # poles near the unit circle (0.5 Hz high-pass at 360 Hz) that moves results by ~1e-10 of max|y|.
    return 1e-9, 1e-10 * max(m, 1e-30)


def input_of(case, shape, dtype, layout):
    """The input x and the stored array the test rebuilds it from (for 'strided', the parent)."""
    if layout == "strided":
        pshape = list(shape)
        pshape[-1] *= 2
        parent = make_x(tuple(pshape), dtype)
        return parent[..., ::2], s.array(f"{case}_x", parent)
    x = make_x(shape, dtype)
    return x, s.array(f"{case}_x", x)


filters = {
    "butter4": ss.butter(4, 0.2),
    "bp3": ss.butter(3, [0.1, 0.35], "bandpass"),
    "fir5": (np.array([0.1, 0.2, 0.4, 0.2, 0.1]), np.array([2.0])),
    "fir1": (np.array([3.0]), np.array([1.5])),
    "iir_b_long": (np.array([1.0, 0.5, 0.25, 0.125, 0.06, 0.03]), np.array([1.0, -0.6])),
    "iir_a_long": (np.array([0.3]), np.array([2.0, -0.9, 0.3, -0.1])),
    "iir_k40": (np.r_[1.0, np.zeros(39), 0.5] * 0.1, np.r_[1.0, -0.5, np.zeros(38), 0.1]),
    "firwin63": (ss.firwin(63, 0.3), np.array([1.0])),
    # order 8, poles at radius 0.9967: transients of 1e7 in the companion form's A^k (the carry must
    # use chunks of 8192 samples or more)
    "ecg_bp8": ss.butter(4, [0.5, 40.0], "bandpass", fs=360.0),
    "cbutter4": shifted(*ss.butter(4, 0.2), 0.7),
    "cfir5": (np.array([0.1, 0.2j, 0.4, -0.2j, 0.1]), np.array([1.0 + 1.0j])),
}
s.group("lfilter")
li = 0


def add_lfilter(fname, shape, dtype, axis, layout, with_zi, coef_dtype=np.float64, zi_shape_fn=None):
    global li
    b, a = filters[fname]
    b, a = np.asarray(b), np.asarray(a)
    if np.iscomplexobj(b) or np.iscomplexobj(a):  # complex coefficients keep their precision class
        coef_dtype = np.complex64 if coef_dtype == np.float32 else np.complex128
    b = b.astype(coef_dtype)
    a = a.astype(coef_dtype)
    case = f"lf{li:03d}"
    li += 1
    x, xname = input_of(case, shape, dtype, layout)
    params = dict(x=xname, layout=layout, axis=axis, b=s.array(f"{case}_b", b), a=s.array(f"{case}_a", a), zi=None)
    if with_zi:
        K = max(len(a), len(b)) - 1
        zshape = list(x.shape)
        zshape[axis] = K
        if zi_shape_fn:
            zshape = zi_shape_fn(zshape)
        zi = make_zi(zshape, np.result_type(b, a, x))
        params["zi"] = s.array(f"{case}_zi", zi)
        y, zf = ss.lfilter(b, a, x, axis=axis, zi=zi)
        if x.shape[axis] == 0:
            # SciPy 1.18 returns an uninitialized zf for zero-length signals; the final state of
            # filtering nothing is the initial state (cusci's documented deviation).
            zf = np.broadcast_to(zi, zf.shape).astype(zf.dtype)
        params["zf"] = s.array(f"{case}_zf", zf)
    else:
        y = ss.lfilter(b, a, x, axis=axis)
    rt, at = tol_for(y, y.dtype)
    if fname == "ecg_bp8":
        # SciPy's own float64 result is within ~1e-7 of max|y| of the exact one for this filter. With a
        # random zi (states of 1e7 that cancel) the final state is more sensitive still: evaluating
        # SciPy's loop with fused multiply-adds moves zf by 1.7e-6 of max|zf|.
        rt, at = 0.0, 2e-6 * float(np.max(np.abs(y)))
        if with_zi:
            params["zf_atol"] = 1e-5 * float(np.max(np.abs(zf)))
    s.case(case, func="lfilter", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for dt in (np.float32, np.float64):
    for fname in ("butter4", "bp3", "fir5", "iir_a_long", "firwin63"):
        for n in (1, 2, 17, 300):
            add_lfilter(fname, (n,), dt, -1, "C", False)
        add_lfilter(fname, (3, 257), dt, -1, "C", True)
        add_lfilter(fname, (3, 257), dt, 0, "C", False)
        add_lfilter(fname, (5, 40), dt, 1, "F", True)
        add_lfilter(fname, (4, 101), dt, -1, "strided", False)
        add_lfilter(fname, (2, 3, 50), dt, 1, "C", True)
        add_lfilter(fname, (6, 5, 4), dt, 0, "F", False)
    add_lfilter("butter4", (2, 1500), dt, -1, "C", True)         # chunked, single-level carry
    if dt == np.float32:
        add_lfilter("butter4", (17000,), dt, -1, "C", True)      # chunked, two-level carry (> 64 chunks)
    add_lfilter("bp3", (2, 1500), dt, -1, "strided", True)
    add_lfilter("iir_b_long", (3, 700), dt, -1, "C", True)
    add_lfilter("fir1", (3, 10), dt, -1, "C", True)
    add_lfilter("iir_k40", (3, 300), dt, -1, "C", True)         # sequential fallback (K > 32)
    add_lfilter("butter4", (3, 0), dt, -1, "C", True)            # zero-length signals: zf = zi
    add_lfilter("butter4", (0, 7), dt, -1, "C", False)
    add_lfilter("butter4", (3, 40), dt, -1, "C", True, zi_shape_fn=lambda sh: [1, sh[1]])  # broadcast zi
# promotion: integer data -> float64; float32 coefficients keep float32
add_lfilter("butter4", (3, 50), np.int16, -1, "C", False)
add_lfilter("butter4", (3, 50), np.int64, -1, "C", True)
add_lfilter("butter4", (3, 50), np.float32, -1, "C", False, coef_dtype=np.float32)
add_lfilter("fir5", (3, 50), np.int32, -1, "C", False)
# poles near the unit circle in transfer-function form: chunked with long chunks, and sequential
add_lfilter("ecg_bp8", (2, 40000), np.float64, -1, "C", True)
add_lfilter("ecg_bp8", (3, 9000), np.float64, 0, "F", False)
add_lfilter("ecg_bp8", (300, 700), np.float64, -1, "C", True)
# complex data, complex coefficients, complex64
for dt in (np.complex64, np.complex128):
    for fname in ("butter4", "fir5", "cbutter4", "cfir5", "iir_k40"):
        add_lfilter(fname, (3, 257), dt, -1, "C", True)
        add_lfilter(fname, (5, 40), dt, 0, "F", False)
    add_lfilter("cbutter4", (2, 3000), dt, -1, "strided", True)
    add_lfilter("butter4", (17000,), dt, -1, "C", True)
for fname in ("cbutter4", "cfir5"):
    add_lfilter(fname, (4, 300), np.float64, -1, "C", True)
    add_lfilter(fname, (4, 300), np.float32, 1, "C", False)

s.group("sosfilt")
si = 0
soses = {
    "lp8": ss.butter(8, 0.15, output="sos"),
    "bp4": ss.butter(4, [0.05, 0.3], "bandpass", output="sos"),
    "hp3": ss.butter(3, 0.4, "highpass", output="sos"),
    "lp16": ss.butter(16, 0.3, output="sos"),
    "bs20": ss.butter(20, [0.2, 0.5], "bandstop", output="sos"),   # 20 sections: grouped cascade
    "one": np.array([[0.5, 0.2, 0.1, 1.0, -0.3, 0.05]]),
    "ecg_bp": ss.butter(4, [0.5, 40.0], "bandpass", output="sos", fs=360.0),
    # every section frequency-shifted by 0.5 rad/sample: complex coefficients
    "clp8": ss.butter(8, 0.15, output="sos") * np.exp(1j * 0.5 * np.array([0, 1, 2, 0, 1, 2])),
}


def add_sosfilt(sname, shape, dtype, axis, layout, with_zi, sos_dtype=np.float64):
    global si
    sos = np.asarray(soses[sname])
    if np.iscomplexobj(sos) and not np.issubdtype(sos_dtype, np.complexfloating):
        sos_dtype = np.complex64 if sos_dtype == np.float32 else np.complex128
    sos = sos.astype(sos_dtype)
    case = f"sf{si:03d}"
    si += 1
    x, xname = input_of(case, shape, dtype, layout)
    params = dict(x=xname, layout=layout, axis=axis, sos=s.array(f"{case}_sos", sos), zi=None)
    if with_zi:
        zshape = [sos.shape[0]] + list(x.shape)
        zshape[(axis % x.ndim) + 1] = 2
        zi = make_zi(zshape, np.result_type(sos, x))
        params["zi"] = s.array(f"{case}_zi", zi)
        y, zf = ss.sosfilt(sos, x, axis=axis, zi=zi)
        params["zf"] = s.array(f"{case}_zf", zf)
    else:
        y = ss.sosfilt(sos, x, axis=axis)
    rt, at = tol_for(y, y.dtype)
    s.case(case, func="sosfilt", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for sdt in (np.float32, np.float64):
    for sname in ("lp8", "bp4", "hp3", "one"):
        for n in (1, 2, 33, 300):
            add_sosfilt(sname, (n,), np.float32, -1, "C", False, sos_dtype=sdt)
        add_sosfilt(sname, (3, 257), np.float32 if sdt == np.float32 else np.float64, -1, "C", True, sos_dtype=sdt)
        add_sosfilt(sname, (3, 257), np.float64, 0, "C", False, sos_dtype=sdt)
        add_sosfilt(sname, (5, 40), np.float32, 1, "F", True, sos_dtype=sdt)
        add_sosfilt(sname, (4, 101), np.float32, -1, "strided", False, sos_dtype=sdt)
        add_sosfilt(sname, (2, 3, 50), np.float64, 1, "C", True, sos_dtype=sdt)
        add_sosfilt(sname, (6, 5, 4), np.float32, 0, "F", True, sos_dtype=sdt)
    add_sosfilt("lp8", (2, 1500), np.float32, -1, "C", True, sos_dtype=sdt)
    if sdt == np.float32:
        add_sosfilt("lp8", (17000,), np.float32, -1, "C", True, sos_dtype=sdt)
    add_sosfilt("lp16", (2, 1200), np.float32, -1, "C", True, sos_dtype=sdt)
    add_sosfilt("bs20", (2, 1200), np.float32, -1, "C", True, sos_dtype=sdt)
    add_sosfilt("bs20", (2, 100), np.float64, 0, "F", True, sos_dtype=sdt)
    add_sosfilt("lp8", (0, 7), np.float32, -1, "C", False, sos_dtype=sdt)
add_sosfilt("bp4", (3, 60), np.int16, -1, "C", False)
add_sosfilt("bp4", (3, 60), np.int64, 0, "C", True)
add_sosfilt("ecg_bp", (2, 40000), np.float64, -1, "C", True)
add_sosfilt("ecg_bp", (2, 40000), np.float32, -1, "C", True, sos_dtype=np.float32)
for dt in (np.complex64, np.complex128):
    for sname in ("lp8", "clp8", "bs20"):
        add_sosfilt(sname, (3, 257), dt, -1, "C", True)
        add_sosfilt(sname, (5, 40), dt, 0, "F", False)
    add_sosfilt("clp8", (2, 3000), dt, -1, "strided", True)
    add_sosfilt("lp8", (17000,), dt, -1, "C", True)
add_sosfilt("clp8", (4, 300), np.float32, -1, "C", True, sos_dtype=np.complex64)
add_sosfilt("clp8", (4, 300), np.float64, 0, "C", False)

# Errors (gpu tests: checked before any device work, but they need device inputs); `what` names the
# bad input the test builds.
err_cases = [
    ("lfilter", "a0", "value_error"), ("lfilter", "b2d", "value_error"), ("lfilter", "bempty", "value_error"),
    ("lfilter", "x0d", "value_error"), ("lfilter", "axis", "index_error"), ("lfilter", "zi_shape", "value_error"),
    ("lfilter", "zi_ndim", "value_error"), ("lfilter", "int_only", "not_implemented_error"),
    ("lfilter", "fir_empty", "value_error"),
    ("sosfilt", "sos_cols", "value_error"), ("sosfilt", "sos_a0", "value_error"), ("sosfilt", "sos_3d", "value_error"),
    ("sosfilt", "zi_shape", "value_error"), ("sosfilt", "axis", "index_error"), ("sosfilt", "x0d", "value_error"),
    ("sosfilt", "int_only", "not_implemented_error"), ("sosfilt", "zero_len", "value_error"),
]
for fn, what, err in err_cases:
    s.case(f"{fn}_{what}", func=fn, error=err, what=what)

# ECG: band-pass 0.5-40 Hz, butter(4, sos, fs=360), float64 and float32 data; every stride-th output kept.
s.group("ecg")
ECG = "ecg_mitdb208_360hz_mV.npy"
ecg = np.load(s.data(ECG))
sos = ss.butter(4, [0.5, 40.0], "bandpass", output="sos", fs=360.0)
stride = 100
for name, x, sdt in (("ecg64", ecg, np.float64), ("ecg32", ecg.astype(np.float32), np.float32)):
    sd = sos.astype(sdt)
    y = ss.sosfilt(sd, x)
    rt, at = tol_for(y, y.dtype)
    s.case(name, func="ecg", rtol=rt, atol=at, data=ECG, sos=s.array(f"{name}_sos", sd), stride=stride, fs=360.0,
           expected=s.array(f"{name}_y", y[::stride]))

# The same band-pass in transfer-function form (order 8, poles at radius 0.9967), which a short-chunk
# carry overflows on: plain, from the steady state of the first sample (SciPy's zi * x[0] idiom), and
# for 10 channels along axis 0 (channel k is the record rolled by 997 k samples). Tolerance: SciPy's
# own float64 result is within ~1.3e-7 of max|y| of the exact one (checked against long double).
b8, a8 = ss.butter(4, [0.5, 40.0], "bandpass", fs=360.0)
y = ss.lfilter(b8, a8, ecg)
s.case("ecg_tf", func="ecg_lfilter", rtol=0.0, atol=2e-6 * float(np.abs(y).max()), data=ECG, stride=stride,
       b=s.array("ecg_tf_b", b8), a=s.array("ecg_tf_a", a8), zi_mode="none", channels=1,
       expected=s.array("ecg_tf_y", y[::stride]))
zi = ss.lfilter_zi(b8, a8)
y, zf = ss.lfilter(b8, a8, ecg, zi=zi * ecg[0])
s.case("ecg_tf_zi", func="ecg_lfilter", rtol=0.0, atol=2e-6 * float(np.abs(y).max()), data=ECG, stride=stride,
       b=s.array("ecg_tf_zi_b", b8), a=s.array("ecg_tf_zi_a", a8), zi_mode="steady", channels=1,
       lfilter_zi=s.array("ecg_tf_zi_zi", zi), zf=s.array("ecg_tf_zi_zf", zf),
       expected=s.array("ecg_tf_zi_y", y[::stride]))
X = np.stack([np.roll(ecg, 997 * k) for k in range(10)], axis=1)
Y = ss.lfilter(b8, a8, X, axis=0)
s.case("ecg_tf_ch10", func="ecg_lfilter", rtol=0.0, atol=2e-6 * float(np.abs(Y).max()), data=ECG, stride=stride,
       b=s.array("ecg_tf_ch10_b", b8), a=s.array("ecg_tf_ch10_a", a8), zi_mode="none", channels=10,
       expected=s.array("ecg_tf_ch10_y", Y[::stride]))

# float32 accuracy: cusci's float32 result must be at least as close to SciPy's float64 result as
# SciPy's float32 result is (max abs difference over every 4th sample; `scipy32_err` is SciPy's).
sos64 = ss.butter(4, [0.5, 40.0], "bandpass", output="sos", fs=360.0)
ref = ss.sosfilt(sos64, ecg)
y32 = ss.sosfilt(sos64.astype(np.float32), ecg.astype(np.float32))
s.case("ecg_acc_sos", func="ecg_accuracy", form="sos", data=ECG, stride=4, length=0,
       sos=s.array("ecg_acc_sos_sos", sos64), scipy32_err=float(np.abs(y32 - ref)[::4].max()),
       expected=s.array("ecg_acc_sos_y", ref[::4]))
bw, aw = ss.butter(3, [2.0, 40.0], "bandpass", fs=360.0)   # a transfer function SciPy's float32 loop keeps finite
ref = ss.lfilter(bw, aw, ecg)
y32 = ss.lfilter(bw.astype(np.float32), aw.astype(np.float32), ecg.astype(np.float32))
s.case("ecg_acc_tf", func="ecg_accuracy", form="ba", data=ECG, stride=4, length=0,
       b=s.array("ecg_acc_tf_b", bw), a=s.array("ecg_acc_tf_a", aw), scipy32_err=float(np.abs(y32 - ref)[::4].max()),
       expected=s.array("ecg_acc_tf_y", ref[::4]))

# 2^26 samples: the record repeated (np.resize) to 2^26 samples, both forms in float64, and the float32
# accuracy rule for the sos form; every 4096th output kept.
s.group("ecg_long")
LONG = 1 << 26
xl = np.resize(ecg, LONG)
y = ss.sosfilt(sos64, xl)
s.case("ecg_long_sos", func="ecg_long", form="sos", data=ECG, length=LONG, stride=4096, rtol=0.0,
       atol=1e-9 * float(np.abs(y).max()), sos=s.array("ecg_long_sos_sos", sos64), expected=s.array("ecg_long_sos_y", y[::4096]))
y32 = ss.sosfilt(sos64.astype(np.float32), xl.astype(np.float32))
s.case("ecg_long_acc", func="ecg_accuracy", form="sos", data=ECG, length=LONG, stride=4096,
       sos=s.array("ecg_long_acc_sos", sos64), scipy32_err=float(np.abs(y32 - y)[::4096].max()),
       expected=s.array("ecg_long_acc_y", y[::4096]))
del y32
y = ss.lfilter(b8, a8, xl)
s.case("ecg_long_tf", func="ecg_long", form="ba", data=ECG, length=LONG, stride=4096, rtol=0.0,
       atol=2e-6 * float(np.abs(y).max()), b=s.array("ecg_long_tf_b", b8), a=s.array("ecg_long_tf_a", a8),
       expected=s.array("ecg_long_tf_y", y[::4096]))
del xl, y

s.write()

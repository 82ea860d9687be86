"""Reference data for cusci::signal's zero_phase family (filtfilt, sosfiltfilt, lfiltic), from SciPy 1.18.1
(format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_zero_phase/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  filtfilt     b, a, x, axis, layout (C | F | strided: x holds the parent, the input is x[..., ::2] |
               reversed: the input is x[..., ::-1]), padtype (SciPy's string, "none" for None, or a bad
               string), padlen (null: not given), method (pad | gust | a bad string), irlen (null: not
               given); expected. Error cases carry the same parameters and `error`.
  sosfiltfilt  sos, x, axis, layout, padtype, padlen; expected.
  lfiltic      b, a, y, x (null: not given); expected.
  ecg          data (file of examples/data), form (ba | sos), dtype, stride; b and a or sos (SciPy's
               butter(4, [0.5, 40], 'bandpass', fs=360) design), expected: the filtfilt / sosfiltfilt output
               [::stride].
Tolerances are relative to the output's scale: 1e-10 for well-conditioned float64 filters, 1e-6 for
transfer-function filters with poles near the unit circle (SciPy's own float64 result is only accurate to
about 1e-7 there: on the ECG record's band-pass in ba form it is 1.8e-7 of the scale from a long-double
evaluation of the same algorithm), 2e-6 for that ECG case (108000 samples; the chunked recurrence measured
1.3e-6 of the scale from SciPy on the H200), 2e-3 for float32 results (the chunked scan sums in another
order than SciPy's loop).
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

warnings.simplefilter("ignore")  # ComplexWarning of SciPy's Gustafsson path with complex coefficients

s = Suite("signal_zero_phase")
rng = s.rng(20261202)

EXC = [(IndexError, "index_error"), (NotImplementedError, "not_implemented_error"), (TypeError, "type_error"),
       (ValueError, "value_error")]


def exc_name(e):
    for t, name in EXC:
        if isinstance(e, t):
            return name
    raise e


def data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def with_layout(x, layout):
    """(parent stored, input SciPy sees)."""
    if layout == "strided":
        parent = np.concatenate([x[..., None], np.full(x.shape + (1,), 7, x.dtype)], axis=-1).reshape(
            x.shape[:-1] + (2 * x.shape[-1],))
        return parent, parent[..., ::2]
    if layout == "reversed":
        return x[..., ::-1], x
    return x, x


def tol_of(y, cond="good"):
    scale = max(float(np.max(np.abs(y))) if y.size else 1.0, 1.0)
    if y.dtype in (np.float32, np.complex64):
        r = 2e-3
    else:
        r = {"good": 1e-10, "ill": 1e-6, "ecg": 2e-6}[cond]
    return r, r * scale


def pt_str(p):
    return "none" if p is None else p


# ---------------------------------------------------------------------------------------------- filtfilt
s.group("filtfilt")
b3, a3 = ss.butter(3, 0.2)
b4, a4 = ss.butter(4, 0.1)
bhp, ahp = ss.butter(2, 0.3, btype="high")
bell, aell = ss.ellip(4, 0.01, 120, 0.125)
bfir = ss.firwin(5, 0.3)
bc3 = b3 * (1 + 0.3j)
ac3 = a3.astype(complex)
ac3[1] += 0.01j
bill, aill = ss.butter(4, [0.5, 40.0], btype="bandpass", fs=360.0)
COEF = {"b3": (b3, a3), "b4": (b4, a4), "hp": (bhp, ahp), "ell": (bell, aell), "fir": (bfir, np.array([1.0])),
        "gain": (np.array([2.0]), np.array([1.0])), "b3c": (bc3, a3), "a3c": (b3, ac3), "bac": (bc3, ac3),
        "a0": (b3 * 2, a3 * 2), "ill": (bill, aill)}
ffi = 0


def add_ff(coef, shape, dtype, axis=-1, layout="C", padtype="odd", padlen=None, method="pad", irlen=None,
           coef_dtype=None, cond="good", error=None):
    global ffi
    b, a = COEF[coef]
    if coef_dtype is not None:
        b, a = b.astype(coef_dtype), a.astype(coef_dtype)
    x = data(shape, dtype)
    stored, xin = with_layout(x, layout)
    case = f"ff{ffi:03d}_{coef}"
    ffi += 1
    params = dict(b=s.array(f"{case}_b", b), a=s.array(f"{case}_a", a), x=s.array(f"{case}_x", stored), axis=axis,
                  layout=layout, padtype=pt_str(padtype), padlen=padlen, method=method, irlen=irlen)
    try:
        y = ss.filtfilt(b, a, xin, axis=axis, padtype=padtype, padlen=padlen, method=method, irlen=irlen)
    except Exception as e:  # noqa: BLE001
        name = exc_name(e)
        assert error is None or error == name, (case, e)
        s.case(case, func="filtfilt", error=name, **params)
        return
    assert error is None, (case, "expected an error")
    rt, at = tol_of(y, cond)
    s.case(case, func="filtfilt", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


# every padtype with default, zero and explicit padlen
for pt in ["odd", "even", "constant", None]:
    for pl in [None, 0, 7, 49]:
        add_ff("b3", (3, 50), np.float64, padtype=pt, padlen=pl)
add_ff("b3", (3, 50), np.float64, padlen=-2)
# axes on 2-D and 3-D, layouts
for shape, axis in [((40, 6), 0), ((5, 41), 1), ((5, 41), -1), ((2, 33, 4), 1), ((30, 3, 2), 0), ((2, 3, 31), 2),
                    ((2, 3, 31), -1), ((31,), 0)]:
    for layout in ["C", "F", "strided", "reversed"]:
        add_ff("b3", shape, np.float64, axis=axis, layout=layout)
for pt in ["even", "constant"]:
    add_ff("hp", (4, 6, 25), np.float64, axis=1, layout="F", padtype=pt, padlen=10)
# dtypes and promotion
add_ff("b4", (3, 200), np.float32, coef_dtype=np.float32)
add_ff("b4", (3, 200), np.float32, axis=0, layout="F", coef_dtype=np.float32)
add_ff("b4", (3, 200), np.float32)                       # float64 coefficients: float64 result
add_ff("b4", (3, 200), np.int16, coef_dtype=np.float32)  # float32 result
add_ff("b4", (3, 200), np.int64)
add_ff("b4", (3, 200), np.complex128)
add_ff("b4", (3, 200), np.complex64, coef_dtype=np.float32)
add_ff("b4", (3, 200), np.complex128, padtype="even", padlen=15, layout="strided")
# complex coefficients
for c in ["b3c", "a3c", "bac"]:
    add_ff(c, (3, 60), np.float64)
    add_ff(c, (3, 60), np.complex128, axis=0, layout="F")
    add_ff(c, (4, 60), np.complex128, padtype="constant", padlen=20)
# other filters, sizes
add_ff("a0", (2, 40), np.float64)
add_ff("ell", (2, 300), np.float64)
add_ff("fir", (3, 40), np.float64)
add_ff("fir", (3, 40), np.float64, padtype="even", padlen=5)
add_ff("gain", (3, 20), np.float64)
add_ff("gain", (3, 20), np.float64, padtype=None)
add_ff("b3", (3, 1), np.float64, padtype=None)
add_ff("b3", (3, 1), np.float64, padlen=0)
add_ff("b3", (0, 20), np.float64)
add_ff("b4", (4, 3000), np.float64, layout="F")
add_ff("b4", (2, 12000), np.float32, coef_dtype=np.float32)
add_ff("b4", (1, 8000), np.float64, padlen=500)
add_ff("ill", (2, 3000), np.float64, cond="ill")
# Gustafsson's method
for shape, axis, irlen in [((3, 60), -1, None), ((60,), 0, None), ((60,), 0, 10), ((3, 60), -1, 29), ((3, 60), -1, 30),
                           ((50, 3), 0, None), ((2, 50, 3), 1, 12), ((3, 1), -1, None), ((3, 3), -1, None),
                           ((3, 7), -1, None), ((2, 400), -1, 137)]:
    add_ff("b3", shape, np.float64, axis=axis, method="gust", irlen=irlen)
for layout in ["F", "strided", "reversed"]:
    add_ff("b4", (3, 80), np.float64, layout=layout, method="gust")
add_ff("ell", (2, 300), np.float64, method="gust")
add_ff("ell", (2, 300), np.float64, method="gust", irlen=137)
add_ff("b4", (3, 200), np.float32, coef_dtype=np.float32, method="gust")
add_ff("b4", (3, 200), np.int16, coef_dtype=np.float32, method="gust")
add_ff("b4", (3, 200), np.complex128, method="gust")
add_ff("b4", (3, 200), np.complex128, method="gust", irlen=40)
for c in ["b3c", "a3c", "bac"]:
    add_ff(c, (3, 60), np.complex128, method="gust")
    add_ff(c, (3, 60), np.float64, method="gust", irlen=12)
add_ff("gain", (3, 20), np.float64, method="gust")
add_ff("fir", (3, 40), np.float64, method="gust")
add_ff("b4", (4, 1500), np.float64, method="gust", irlen=200, padtype="even")  # padtype ignored
# long signals: the impulse response decays below DBL_MIN far from the ends (rows dropped on the host)
add_ff("b3", (1, 20000), np.float64, method="gust")
add_ff("b3", (1, 12000), np.float64, method="gust", irlen=5000)
# errors
add_ff("b3", (3, 12), np.float64, error="value_error")                   # default padlen 12
add_ff("b3", (3, 20), np.float64, padlen=20, error="value_error")
add_ff("b3", (3, 20), np.float64, padlen=25, padtype="even", error="value_error")
add_ff("b3", (3, 0), np.float64, padtype=None, error="value_error")
add_ff("b3", (3, 50), np.float64, padtype="zero", error="value_error")
add_ff("b3", (3, 50), np.float64, method="fast", error="value_error")
add_ff("b3", (3, 50), np.float64, axis=2, error="index_error")
add_ff("b3", (3, 50), np.float64, axis=-3, method="gust", error="index_error")
add_ff("b3", (), np.float64, error="index_error")
add_ff("b3", (3, 0), np.float64, method="gust", error="value_error")
add_ff("b3", (3, 50), np.float64, method="gust", irlen=0, error="value_error")
COEF["a00"] = (b3, np.r_[0.0, a3[1:]])
COEF["suma0"] = (np.array([1.0, 1.0]), np.array([1.0, -1.0]))
COEF["b2d"] = (np.atleast_2d(b3), a3)
COEF["bempty"] = (np.zeros(0), a3)
COEF["aempty"] = (b3, np.zeros(0))
COEF["int"] = (np.array([1, 2]), np.array([1, 3]))
add_ff("a00", (3, 50), np.float64, error="value_error")
add_ff("a00", (3, 50), np.float64, method="gust", error="value_error")
add_ff("suma0", (3, 50), np.float64, error="value_error")
add_ff("b2d", (3, 50), np.float64, error="value_error")
add_ff("b2d", (3, 50), np.float64, method="gust", error="value_error")
add_ff("bempty", (3, 50), np.float64, error="value_error")
add_ff("aempty", (3, 50), np.float64, error="index_error")
add_ff("aempty", (3, 50), np.float64, method="gust", error="value_error")
add_ff("int", (3, 50), np.int64, method="gust", error="not_implemented_error")
add_ff("int", (3, 50), np.int64)  # the pad method promotes through lfilter_zi: float64

# ---------------------------------------------------------------------------------------------- sosfiltfilt
s.group("sosfiltfilt")
SOS = {"s4": ss.butter(4, 0.2, output="sos"), "s5": ss.butter(5, 0.25, output="sos"),
       "s16": ss.butter(16, 0.3, output="sos"), "s40": ss.butter(40, 0.4, output="sos"),
       "bp": ss.butter(3, [0.1, 0.3], btype="band", output="sos"), "ell": ss.ellip(6, 0.5, 60, 0.2, output="sos")}
SOS["s4c"] = SOS["s4"] * np.array([1 + 0.2j, 1, 1, 1, 1, 1])
SOS["s1d"] = SOS["s4"][0]
SOS["cols"] = SOS["s4"][:, :5]
SOS["a0"] = SOS["s4"] * 2
SOS["3d"] = SOS["s4"][None]
SOS["empty"] = np.zeros((0, 6))
SOS["int"] = np.array([[1, 1, 0, 1, 0, 0]])
sfi = 0


def add_sff(key, shape, dtype, axis=-1, layout="C", padtype="odd", padlen=None, sos_dtype=None, error=None):
    global sfi
    sos = SOS[key]
    if sos_dtype is not None:
        sos = sos.astype(sos_dtype)
    x = data(shape, dtype)
    stored, xin = with_layout(x, layout)
    case = f"sff{sfi:03d}_{key}"
    sfi += 1
    params = dict(sos=s.array(f"{case}_sos", sos), x=s.array(f"{case}_x", stored), axis=axis, layout=layout,
                  padtype=pt_str(padtype), padlen=padlen)
    try:
        y = ss.sosfiltfilt(sos, xin, axis=axis, padtype=padtype, padlen=padlen)
    except Exception as e:  # noqa: BLE001
        name = exc_name(e)
        assert error is None or error == name, (case, e)
        s.case(case, func="sosfiltfilt", error=name, **params)
        return
    assert error is None, (case, "expected an error")
    rt, at = tol_of(y)
    s.case(case, func="sosfiltfilt", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for pt in ["odd", "even", "constant", None]:
    for pl in [None, 0, 9, 59]:
        add_sff("s4", (3, 60), np.float64, padtype=pt, padlen=pl)
for shape, axis in [((40, 6), 0), ((5, 41), 1), ((2, 33, 4), 1), ((30, 3, 2), 0), ((2, 3, 31), -1), ((31,), 0)]:
    for layout in ["C", "F", "strided", "reversed"]:
        add_sff("s5", shape, np.float64, axis=axis, layout=layout)
add_sff("s5", (3, 50), np.float64, padlen=None)   # zeros at the origin reduce the default padlen
add_sff("s4", (3, 300), np.float32, sos_dtype=np.float32)
add_sff("s4", (3, 300), np.float32, axis=0, layout="F", sos_dtype=np.float32)
add_sff("s4", (3, 300), np.float32)
add_sff("s4", (3, 300), np.int32)
add_sff("s4", (3, 300), np.complex128)
add_sff("s4", (3, 300), np.complex64, sos_dtype=np.float32)
add_sff("s4c", (3, 100), np.float64)
add_sff("s4c", (3, 100), np.complex128, axis=0, layout="F", padtype="even", padlen=30)
add_sff("s16", (4, 2000), np.float64)
add_sff("s16", (4, 2000), np.float32, sos_dtype=np.float32)
add_sff("s40", (3, 500), np.float64)
add_sff("bp", (2, 1000), np.float64, padtype="constant", padlen=100)
add_sff("ell", (2, 700), np.float64)
add_sff("s1d", (2, 30), np.float64)
add_sff("s4", (0, 40), np.float64)
add_sff("s4", (3, 1), np.float64, padtype=None)
add_sff("s4", (1, 20000), np.float32, sos_dtype=np.float32)
add_sff("int", (3, 30), np.int64)
# errors
add_sff("s4", (3, 15), np.float64, error="value_error")  # default padlen 15
add_sff("s4", (3, 20), np.float64, padlen=20, error="value_error")
add_sff("s4", (3, 0), np.float64, padtype=None, error="value_error")
add_sff("s4", (3, 50), np.float64, padtype="zero", error="value_error")
add_sff("s4", (3, 50), np.float64, axis=2, error="index_error")
add_sff("s4", (), np.float64, error="value_error")
add_sff("cols", (3, 50), np.float64, error="value_error")
add_sff("a0", (3, 50), np.float64, error="value_error")
add_sff("3d", (3, 50), np.float64, error="value_error")
add_sff("empty", (3, 50), np.float64, error="value_error")

# ---------------------------------------------------------------------------------------------- lfiltic
s.group("lfiltic")
lfi = 0


def add_lfiltic(b, a, y, x=None, error=None):
    global lfi
    case = f"lfiltic{lfi:02d}"
    lfi += 1
    b, a, y = np.asarray(b), np.asarray(a), np.asarray(y)
    params = dict(b=s.array(f"{case}_b", b), a=s.array(f"{case}_a", a), y=s.array(f"{case}_y", y),
                  x=None if x is None else s.array(f"{case}_x", np.asarray(x)))
    try:
        zi = ss.lfiltic(b, a, y, x)
    except Exception as e:  # noqa: BLE001
        name = exc_name(e)
        assert error is None or error == name, (case, e)
        s.case(case, func="lfiltic", error=name, **params)
        return
    assert error is None, (case, "expected an error")
    scale = max(float(np.max(np.abs(zi))) if zi.size else 1.0, 1.0)
    r = 1e-5 if zi.dtype in (np.float32, np.complex64) else 1e-12
    s.case(case, func="lfiltic", rtol=r, atol=r * scale, expected=s.array(f"{case}_zi", zi), **params)


add_lfiltic(b3, a3, [1.0, 2.0, 3.0])
add_lfiltic(b3, a3, [1.0, 2.0, 3.0], [0.5, -1.0, 2.0])
add_lfiltic(b3, a3, [1.0], [0.5])                       # short: zero-padded
add_lfiltic(b3, a3, [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0])  # long: extra ignored
add_lfiltic(b3 * 3, a3 * 3, [1.0, 2.0], [1.0])          # a[0] != 1
add_lfiltic(bfir, [1.0], [], [1.0, 2.0, 3.0, 4.0])      # FIR
add_lfiltic([1.0], a4, [1.0, -1.0, 0.5, 2.0])           # no b state
add_lfiltic([1, 2, 3], [1, 2], [1], [4, 5])             # integers: float64
add_lfiltic(b3.astype(np.float32), a3.astype(np.float32), np.float32([1, 2, 3]))
add_lfiltic(bc3, a3, [1.0, 2.0])
add_lfiltic(b3, a3, [1.0 + 1j, 2.0], [1j])
add_lfiltic(b3, [0.0, 1.0], [1.0], error="value_error")
add_lfiltic(b3, np.zeros(0), [1.0], error="value_error")
add_lfiltic(b3, np.atleast_2d(a3), [1.0], error="value_error")
add_lfiltic(np.atleast_2d(b3), a3, [1.0], error="value_error")

# ---------------------------------------------------------------------------------------------- ECG record
s.group("ecg")
ecg = np.load(s.data("ecg_mitdb208_360hz_mV.npy"))
assert ecg.shape == (108000,)
bba, aba = ss.butter(4, [0.5, 40.0], btype="bandpass", fs=360.0)
sos_ecg = ss.butter(4, [0.5, 40.0], btype="bandpass", fs=360.0, output="sos")
stride = 9
y = ss.filtfilt(bba, aba, ecg)
r, at = tol_of(y, "ecg")
s.case("ecg_ba", func="ecg", rtol=r, atol=at, data="ecg_mitdb208_360hz_mV.npy", form="ba", dtype="float64",
       stride=stride, b=s.array("ecg_ba_b", bba), a=s.array("ecg_ba_a", aba), expected=s.array("ecg_ba_y", y[::stride]))
for dt in [np.float64, np.float32]:
    so = sos_ecg.astype(dt)
    y = ss.sosfiltfilt(so, ecg.astype(dt))
    r, at = tol_of(y)
    name = f"ecg_sos_{np.dtype(dt).name}"
    s.case(name, func="ecg", rtol=r, atol=at, data="ecg_mitdb208_360hz_mV.npy", form="sos", dtype=np.dtype(dt).name,
           stride=stride, sos=s.array(f"{name}_sos", so), expected=s.array(f"{name}_y", y[::stride]))
# zero phase: the band-passed record is not delayed (its cross-correlation with the input peaks at lag 0)
yz = ss.sosfiltfilt(sos_ecg, ecg)
xc = np.correlate(yz[1000:9000] - yz[1000:9000].mean(), ecg[1000:9000] - ecg[1000:9000].mean(), "full")
assert int(np.argmax(xc)) - (8000 - 1) == 0

s.write()

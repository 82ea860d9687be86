"""Reference data for cusci::signal's responses family (freqz, freqz_sos / sosfreqz, freqz_zpk, freqs,
freqs_zpk, group_delay, findfreqs), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_responses/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  freqz        b, a (absent: SciPy's default 1), worN (an int, or worN_arr: an array name), whole,
               include_nyquist, fs; expected w, h.
  freqz_sos    sos, worN / worN_arr, whole, fs; w, h.
  freqz_zpk    z, p, k, worN / worN_arr, whole, fs; w, h.
  freqs        b, a, worN / worN_arr; w, h.
  freqs_zpk    z, p, k, worN / worN_arr; w, h.
  group_delay  b, a, worN / worN_arr, whole, fs; w, gd; warns: the warning message's start or null.
  findfreqs    num, den, N, kind; w.
  freqz_batch  (GPU only) b [ntaps, K, 1] and a; worN; w, h [K, N] (SciPy's N-D b form).
  freqz_sos_batch (GPU only) sos [K, ns, 6] (a cusci extension); h [K, N] stacked from SciPy's
               freqz_sos of each filter.
Errors (error = the cusci exception) with the same parameters.
Tolerances: w 1e-13 relative (linspace and the fs scaling are replicated operation by operation); h
relative to the response's scale, 1e-10, widened to 20 times the difference between two float64
evaluations that differ only in rounding (Horner in z^-1 and NumPy's polyval in z, rescaled) for
filters whose polynomials are ill-conditioned on the unit circle (high-order 'ba' designs, where both
SciPy's and cusci's results carry that rounding); float32 results 2e-5.
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal_responses")
rng = s.rng(20261218)


def arr(case, what, v):
    return s.array(f"{case}_{what}", np.asarray(v))


def h_tol(h, b=None, a=None, w=None):
    """(rtol, atol) for a complex response: 1e-10 of its scale, widened to 20x the rounding
    disagreement of a second evaluation when b, a, w are given."""
    h = np.asarray(h)
    if h.dtype in (np.complex64, np.float32):
        sc = float(np.max(np.abs(h))) if h.size else 1.0
        return 2e-5, 2e-5 * max(sc, 1.0)
    sc = float(np.max(np.abs(h[np.isfinite(h)]))) if h.size and np.isfinite(h).any() else 1.0
    atol = 1e-10 * max(sc, 1e-300)
    if b is not None and w is not None and np.size(w):
        z = np.exp(1j * np.asarray(w, dtype=np.float64))
        b1 = np.asarray(b, dtype=complex)
        a1 = np.asarray(a if a is not None else [1.0], dtype=complex)
        nb, na = b1.shape[0], a1.shape[0]
        with np.errstate(all="ignore"):
            h2 = np.polyval(b1, z) / np.polyval(a1, z) * z ** (na - nb)
            d = np.abs(h2 - h)
        d = d[np.isfinite(d)]
        if d.size:
            atol = max(atol, 20 * float(d.max()))
    return 1e-10, atol


def w_tol(w):
    w = np.asarray(w)
    if w.dtype in (np.float32, np.complex64):
        return 2e-6
    return 1e-13


def add(name, func, w, h, err_ref=None, error=None, **params):
    if error is not None:
        s.case(name, func=func, error=error, **params)
        return
    rt, at = err_ref if err_ref is not None else h_tol(h)
    s.case(name, func=func, rtol=rt, atol=at, w=arr(name, "w", w), h=arr(name, "h", h), wtol=w_tol(w), **params)


def worN_param(name, worN):
    if isinstance(worN, (int, np.integer)):
        return {"worN": int(worN)}
    return {"worN_arr": arr(name, "worN", worN)}


# ------------------------------------------------------------------------------------------------
# freqz
s.group("freqz")


def freqz_case(name, b, a=None, worN=512, whole=False, include_nyquist=False, fs=None, error=None):
    name = "freqz_" + name
    kw = {"worN": worN, "whole": whole, "include_nyquist": include_nyquist}
    if fs is not None:
        kw["fs"] = fs
    params = {"b": arr(name, "b", b), "whole": whole, "include_nyquist": include_nyquist, "fs": fs}
    if a is not None:
        params["a"] = arr(name, "a", a)
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="freqz", error=error, **params)
        return
    w, h = ss.freqz(b, a if a is not None else 1, **kw)
    wr = w * 2 * np.pi / (fs if fs is not None else 2 * np.pi)
    b1 = np.asarray(b)
    tol = h_tol(h, b1 if b1.ndim == 1 else None, a, wr if b1.ndim == 1 else None)
    add(name, "freqz", w, h, tol, **params)


for ntaps in (1, 2, 5, 64, 101):
    b = ss.firwin(ntaps, 0.3) if ntaps > 2 else rng.standard_normal(ntaps)
    for worN in (1, 8, 511, 512):
        for whole in (False, True):
            for inc in ((False, True) if not whole else (False,)):
                freqz_case(f"fir{ntaps}_n{worN}_w{int(whole)}_i{int(inc)}", b, None, worN, whole, inc)
freqz_case("fir_fs", ss.firwin(31, 100, fs=1000), None, 256, False, False, 1000.0)
freqz_case("fir_fs_whole", ss.firwin(31, 100, fs=1000), None, 100, True, False, 1000.0)
freqz_case("fir_a_scalar", rng.standard_normal(7), [2.5], 64)
freqz_case("fir_n0", [1.0, 2.0], None, 0)
freqz_case("fir_complex", rng.standard_normal(9) + 1j * rng.standard_normal(9), None, 100, True)
freqz_case("fir_float32", ss.firwin(21, 0.4).astype(np.float32), None, 64)
freqz_case("fir_float32_ba", ss.firwin(21, 0.4).astype(np.float32), np.float32([1.0, -0.5]), 64)
freqz_case("fir_long_short_grid", rng.standard_normal(40), None, 8)  # 2N < ntaps: polynomial path
freqz_case("empty_b_fft", np.zeros(0), None, 5)
# long FIR filters: SciPy's FFT path, which cusci takes too on the device beyond 256 taps
freqz_case("fir_long_fft", ss.firwin(301, 0.2), None, 1000)
freqz_case("fir_long_fft_whole", ss.firwin(400, 0.3), None, 1024, True)
freqz_case("fir_long_fft_whole_odd", ss.firwin(301, 0.3), [0.5], 999, True)
freqz_case("fir_long_fft_nyq", ss.firwin(301, 0.3), None, 700, False, True)
freqz_case("fir_long_complex", rng.standard_normal(300) + 1j * rng.standard_normal(300), None, 512)
freqz_case("fir_long_complex_a", rng.standard_normal(300), [1.0 - 0.5j], 400)
freqz_case("nd_b_long", rng.standard_normal((300, 3, 1)), [2.0], 600)
for nm, (b, a) in {"butter8": ss.butter(8, 0.2), "cheby1_6_bp": ss.cheby1(6, 1, [0.2, 0.4], "bandpass"),
                   "ellip8": ss.ellip(8, 0.5, 60, 0.3), "ellip12": ss.ellip(12, 0.1, 80, 0.25),
                   "cheby2_16": ss.cheby2(16, 60, 0.4), "bessel5_hp": ss.bessel(5, 0.3, "high")}.items():
    freqz_case(f"iir_{nm}", b, a, 512)
    freqz_case(f"iir_{nm}_whole", b, a, 257, True)
    freqz_case(f"iir_{nm}_nyq", b, a, 300, False, True)
freqz_case("iir_fs", *ss.butter(4, 50, fs=500), worN=200, fs=500.0)
freqz_case("iir_complex_a", [1.0, 0.5], [1.0, 0.3j], 33)
freqz_case("explicit", rng.standard_normal(6), [1.0, -0.4, 0.1], rng.uniform(0, np.pi, 37))
freqz_case("explicit_fs", rng.standard_normal(6), [1.0, -0.4], rng.uniform(0, 500, 20), fs=1000.0)
freqz_case("explicit_2d", rng.standard_normal(4), None, rng.uniform(0, 3, (3, 5)))
freqz_case("explicit_int", [1.0, 2.0, 1.0], None, np.array([0, 1, 2, 3]))
freqz_case("explicit_scalar_arr", [1.0, 2.0, 1.0], None, np.array(0.7))
freqz_case("nd_b", rng.standard_normal((9, 3, 1)), None, 64)
freqz_case("nd_b_a1d", rng.standard_normal((5, 2, 3, 1)), [1.0, -0.3, 0.2], 40)
freqz_case("nd_b_a_nd", rng.standard_normal((5, 3, 1)), np.concatenate([np.ones((1, 3, 1)), 0.3 * rng.standard_normal((2, 3, 1))]), 50, True)
freqz_case("nd_b_explicit", rng.standard_normal((4, 2, 1)), None, rng.uniform(0, 3, 11))
freqz_case("nd_b_col", rng.standard_normal((6, 1)), None, 16)
freqz_case("err_worN_neg", [1.0, 2.0], None, -1, error="value_error")
freqz_case("err_empty_a", [1.0, 2.0], np.zeros(0), 8, error="index_error")
freqz_case("err_empty_b_poly", np.zeros(0), [1.0, 0.5], 8, error="index_error")
freqz_case("err_empty_b_n0", np.zeros(0), None, 0, error="index_error")
freqz_case("err_nd_b_shape", rng.standard_normal((5, 3)), None, 8, error="value_error")
for name, kw in {"err_nd_b_shape": dict(b=rng.standard_normal((5, 3)), worN=8),
                 "err_worN_neg": dict(b=[1.0, 2.0], worN=-1),
                 "err_empty_a": dict(b=[1.0, 2.0], a=np.zeros(0), worN=8),
                 "err_empty_b_poly": dict(b=np.zeros(0), a=[1.0, 0.5], worN=8),
                 "err_empty_b_n0": dict(b=np.zeros(0), worN=0)}.items():
    try:
        ss.freqz(**kw)
        raise SystemExit(f"{name}: SciPy did not raise")
    except (ValueError, IndexError):
        pass

# ------------------------------------------------------------------------------------------------
# freqz_sos
s.group("freqz_sos")


def sos_case(name, sos, worN=512, whole=False, fs=None, error=None):
    name = "sos_" + name
    params = {"sos": arr(name, "sos", sos), "whole": whole, "fs": fs}
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="freqz_sos", error=error, **params)
        return
    kw = {"worN": worN, "whole": whole}
    if fs is not None:
        kw["fs"] = fs
    w, h = ss.freqz_sos(sos, **kw)
    add(name, "freqz_sos", w, h, **params)


sos_case("butter4", ss.butter(4, 0.3, output="sos"))
sos_case("ellip16", ss.ellip(16, 0.5, 80, 0.2, output="sos"))
sos_case("cheby2_16", ss.cheby2(16, 60, [0.2, 0.5], "bandstop", output="sos"), 1000, True)
sos_case("ellip12_bp", ss.ellip(12, 0.1, 70, [0.1, 0.2], "bandpass", output="sos"), 257)
sos_case("fs", ss.butter(6, 100, fs=1000, output="sos"), 300, False, 1000.0)
sos_case("explicit", ss.butter(5, 0.4, output="sos"), rng.uniform(0, np.pi, 25))
sos_case("explicit_fs", ss.butter(5, 40, fs=200, output="sos"), rng.uniform(0, 100, 25), fs=200.0)
sos_case("n1", ss.butter(2, 0.4, output="sos"), 1)
sos_case("n0", ss.butter(2, 0.4, output="sos"), 0)
sos_case("one_row_1d", ss.butter(2, 0.4, output="sos")[0], 16)
sos_case("float32", ss.butter(4, 0.3, output="sos").astype(np.float32), 64)
sos_case("err_shape", np.ones((2, 5)), error="value_error")
sos_case("err_a0", np.array([[1.0, 0, 0, 2.0, 0, 0]]), error="value_error")
sos_case("err_empty", np.zeros((0, 6)), error="value_error")
sos_case("err_3d", np.ones((2, 1, 6)), error="value_error")
sos_case("err_worN_neg", ss.butter(2, 0.4, output="sos"), -3, error="value_error")

# ------------------------------------------------------------------------------------------------
# freqz_zpk
s.group("freqz_zpk")


def zpk_case(name, z, p, k, worN=512, whole=False, fs=None, error=None):
    name = "zpk_" + name
    params = {"z": arr(name, "z", z), "p": arr(name, "p", p), "k": float(k), "whole": whole, "fs": fs}
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="freqz_zpk", error=error, **params)
        return
    kw = {"worN": worN, "whole": whole}
    if fs is not None:
        kw["fs"] = fs
    w, h = ss.freqz_zpk(z, p, k, **kw)
    add(name, "freqz_zpk", w, h, **params)


zpk_case("ellip8", *ss.ellip(8, 0.5, 60, 0.3, output="zpk"))
zpk_case("butter6_whole", *ss.butter(6, [0.2, 0.5], "bandpass", output="zpk"), 301, True)
zpk_case("fs", *ss.cheby1(5, 1, 100, fs=1000, output="zpk"), 128, False, 1000.0)
zpk_case("explicit", *ss.butter(3, 0.4, output="zpk"), rng.uniform(0, np.pi, 17))
zpk_case("explicit_fs", *ss.butter(3, 20, fs=100, output="zpk"), rng.uniform(0, 50, 17), fs=100.0)
zpk_case("real_zp", np.array([0.5, -0.5]), np.array([0.1]), 2.0, 64)
zpk_case("empty_z", np.zeros(0), np.array([0.3 + 0.2j, 0.3 - 0.2j]), 1.5, 33)
zpk_case("float32", np.float32([0.5]), np.float32([0.25]), 1.0, 16)
zpk_case("err_worN_neg", np.array([0.5]), np.array([0.1]), 1.0, -2, error="value_error")

# ------------------------------------------------------------------------------------------------
# freqs, freqs_zpk, findfreqs
s.group("analog")


def freqs_case(name, b, a, worN=200, error=None):
    name = "freqs_" + name
    params = {"b": arr(name, "b", b), "a": arr(name, "a", a)}
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="freqs", error=error, **params)
        return
    w, h = ss.freqs(b, a, worN=worN)
    add(name, "freqs", w, h, **params)


freqs_case("butter5", *ss.butter(5, 10.0, analog=True))
freqs_case("cheby1_bp", *ss.cheby1(4, 1, [10.0, 40.0], "bandpass", analog=True), 300)
freqs_case("bessel3", *ss.bessel(3, 1.0, analog=True, norm="mag"), 50)
freqs_case("explicit", [1.0, 2.0], [1.0, 3.0, 4.0], np.logspace(-2, 2, 31))
freqs_case("n1", [1.0], [1.0, 1.0], 1)
freqs_case("complex", [1.0, 1j], [1.0, 2.0, 5.0], 40)
freqs_case("err_n_neg", [1.0], [1.0, 1.0], -1, error="value_error")


def freqs_zpk_case(name, z, p, k, worN=200, error=None):
    name = "freqs_zpk_" + name
    params = {"z": arr(name, "z", z), "p": arr(name, "p", p), "k": float(k)}
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="freqs_zpk", error=error, **params)
        return
    w, h = ss.freqs_zpk(z, p, k, worN=worN)
    add(name, "freqs_zpk", w, h, **params)


freqs_zpk_case("ellip6", *ss.ellip(6, 0.5, 50, 100.0, analog=True, output="zpk"))
freqs_zpk_case("butter4_bs", *ss.butter(4, [5.0, 9.0], "bandstop", analog=True, output="zpk"), 123)
freqs_zpk_case("explicit", np.array([-1.0]), np.array([-2.0, -3.0 + 1j, -3.0 - 1j]), 4.0, np.linspace(0, 10, 21))
freqs_zpk_case("no_poles", np.array([-1.0]), np.zeros(0), 1.0, 20)
freqs_zpk_case("err_n_neg", np.array([-1.0]), np.array([-2.0]), 1.0, -5, error="value_error")


def findfreqs_case(name, num, den, N, kind="ba", error=None):
    name = "findfreqs_" + name
    params = {"num": arr(name, "num", num), "den": arr(name, "den", den), "N": N, "kind": kind}
    if error is not None:
        s.case(name, func="findfreqs", error=error, **params)
        return
    w = ss.findfreqs(num, den, N, kind=kind)
    s.case(name, func="findfreqs", rtol=1e-12, atol=0.0, w=arr(name, "w", w), **params)


findfreqs_case("ba", [1.0, 2.0], [1.0, 3.0, 4.0], 5)
findfreqs_case("butter8", *ss.butter(8, 30.0, analog=True), 100)
findfreqs_case("cheby2", *ss.cheby2(6, 40, [2.0, 7.0], "bandpass", analog=True), 64)
findfreqs_case("zp", np.array([-1.0, 1j, -1j]), np.array([-0.5 + 2j, -0.5 - 2j, -10.0]), 33, "zp")
findfreqs_case("zp_zero_pole", np.zeros(0), np.array([0.0, -5.0]), 10, "zp")
findfreqs_case("no_den_roots", [1.0, 5.0], [2.0], 7)
findfreqs_case("n1", [1.0, 2.0], [1.0, 3.0, 4.0], 1)
findfreqs_case("n0", [1.0, 2.0], [1.0, 3.0, 4.0], 0)
findfreqs_case("err_kind", [1.0], [1.0, 1.0], 5, "xy", error="value_error")
findfreqs_case("err_n_neg", [1.0], [1.0, 1.0], -2, error="value_error")

# ------------------------------------------------------------------------------------------------
# group_delay
s.group("group_delay")


def gd_case(name, b, a, worN=512, whole=False, fs=None, error=None):
    name = "gd_" + name
    params = {"b": arr(name, "b", b), "a": arr(name, "a", a), "whole": whole, "fs": fs}
    params.update(worN_param(name, worN))
    if error is not None:
        s.case(name, func="group_delay", error=error, **params)
        return
    kw = {"w": worN, "whole": whole}
    if fs is not None:
        kw["fs"] = fs
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        w, gd = ss.group_delay((b, a), **kw)
    msgs = [str(r.message) for r in rec if issubclass(r.category, UserWarning)]
    warns = msgs[0].split(" at frequencies")[0] if msgs else None
    sc = float(np.max(np.abs(gd))) if gd.size else 1.0
    # The delay is a ratio of two polynomials that both vanish at the filter's zeros on the unit circle
    # (butter's zeros at z = -1): there SciPy's float64 value is rounding noise. The tolerance is 20
    # times SciPy's own error against an extended-precision evaluation of the same formula.
    wr = np.atleast_1d(np.asarray(w, dtype=np.float64)) * 2 * np.pi / (fs if fs is not None else 2 * np.pi)
    bl, al = np.asarray(b, dtype=np.clongdouble), np.asarray(a, dtype=np.clongdouble)
    c = np.convolve(bl, np.conj(al[::-1]))
    z = np.exp(-1j * wr.astype(np.longdouble))
    with np.errstate(all="ignore"):
        gl = np.real(np.polyval((c * np.arange(c.size))[::-1], z) / np.polyval(c[::-1], z)) - al.size + 1
        d = np.abs(gl.astype(np.float64) - gd)
    d = d[np.isfinite(d) & (gd != 0)]
    atol = max(1e-8 * max(sc, 1.0), 20 * float(d.max()) if d.size else 0.0)
    s.case(name, func="group_delay", rtol=1e-8, atol=atol, w=arr(name, "w", w),
           gd=arr(name, "gd", gd), warns=warns, wtol=1e-13, **params)


gd_case("fir", ss.firwin(21, 0.3), [1.0])
# (Butterworth and Chebyshev I numerators vanish to high order at z = -1, where the delay is noise:
# keep away from Nyquist for them, and use numerators without zeros on the unit circle on full grids.)
gd_case("butter6", *ss.butter(6, 0.3), np.linspace(0, 0.7 * np.pi, 300))
gd_case("iir_default_grid", rng.standard_normal(5) + 3 * np.eye(5)[0], ss.butter(6, 0.3)[1])
gd_case("cheby1_whole", rng.standard_normal(5) + 3 * np.eye(5)[0], ss.cheby1(4, 1, 0.4)[1], 200, True)
gd_case("fs", rng.standard_normal(4) + 3 * np.eye(4)[0], ss.butter(3, 100, fs=1000)[1], 128, False, 1000.0)
gd_case("explicit", *ss.butter(3, 0.2), rng.uniform(0, np.pi, 19))
gd_case("explicit_fs", *ss.butter(3, 20, fs=100), rng.uniform(0, 50, 19), fs=100.0)
gd_case("complex", np.array([1.0, 0.5j, 0.2]), np.array([1.0, -0.3]), 64)
gd_case("singular", np.array([1.0, 1.0]), np.array([1.0]), np.array([0.0, np.pi / 2, np.pi]))
gd_case("singular_exact", np.array([1.0, -1.0]), np.array([1.0]), np.array([0.0, 1.0]))
gd_case("zero_den", np.array([1.0]), np.array([1.0, 1.0]), np.array([0.5, 3.0]), fs=2 * np.pi * 1.0)
gd_case("err_empty_b", np.zeros(0), np.array([1.0]), 8, error="value_error")
gd_case("err_n_neg", np.array([1.0]), np.array([1.0]), -1, error="value_error")

# ------------------------------------------------------------------------------------------------
# GPU batches: SciPy's N-D b form, and a batch of sos filters (stacked from SciPy's per-filter calls)
s.group("batch")
K, ntaps, N = 8, 101, 2048
bank = np.stack([ss.firwin(ntaps, 0.05 + 0.1 * k) for k in range(K)], axis=1)[:, :, None]  # [ntaps, K, 1]
w, h = ss.freqz(bank, worN=N)
s.case("fir_bank", func="freqz_batch", rtol=1e-10, atol=1e-10 * float(np.abs(h).max()), b=arr("fir_bank", "b", bank),
       worN=N, whole=False, w=arr("fir_bank", "w", w), h=arr("fir_bank", "h", h), wtol=1e-13)
bb = np.stack([ss.butter(4, 0.1 + 0.1 * k)[0] for k in range(4)], axis=1)[:, :, None]
aa = np.stack([ss.butter(4, 0.1 + 0.1 * k)[1] for k in range(4)], axis=1)[:, :, None]
w, h = ss.freqz(bb, aa, worN=300, whole=True)
s.case("iir_bank", func="freqz_batch", rtol=1e-9, atol=1e-9 * float(np.abs(h).max()), b=arr("iir_bank", "b", bb),
       a=arr("iir_bank", "a", aa), worN=300, whole=True, w=arr("iir_bank", "w", w), h=arr("iir_bank", "h", h), wtol=1e-13)
sos_bank = np.stack([ss.ellip(8, 0.5, 60, 0.1 + 0.1 * k, output="sos") for k in range(5)])  # [5, 4, 6]
hs = np.stack([ss.freqz_sos(sos_bank[k], worN=777)[1] for k in range(5)])
w = ss.freqz_sos(sos_bank[0], worN=777)[0]
s.case("sos_bank", func="freqz_sos_batch", rtol=1e-10, atol=1e-10 * float(np.abs(hs).max()),
       sos=arr("sos_bank", "sos", sos_bank), worN=777, whole=False, w=arr("sos_bank", "w", w),
       h=arr("sos_bank", "h", hs), wtol=1e-13)

s.write()

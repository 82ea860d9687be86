"""Reference data for cusci::signal's lti family (cont2discrete, place_poles, freqresp, bode, dfreqresp,
dbode, impulse, step, dimpulse, dstep, lsim, dlsim), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_lti/.

Systems are given by form: "ss" (arrays A, B, C, D), "tf" (num, den), "zpk" (z, p, k); `cls` true means
the C++ test passes the class (TransferFunction / ZerosPolesGain / StateSpace, SciPy's lti instance)
instead of the tuple. Discrete systems carry dt.
Cases (func, then its parameters; arrays are named <case>_<what>):
  cont2discrete  form, system arrays, dt, method (SciPy's string), alpha (null: not given), cls;
                 expected Ad/Bd/Cd/Dd (ss), num/den (tf), z/p/k (zpk; z and p compared as sorted sets).
  place_poles    A, B, poles, method, rtol_opt (SciPy's rtol), maxiter; expected gain_matrix, computed_poles,
                 requested_poles, X, rtol_out (null: NaN), nb_iter (null: NaN), warns (bool).
  freqresp/bode  form, system, w (null: default grid), n; expected w, h (freqresp) or w, mag, phase.
  dfreqresp/dbode  form, system, dt, w, n, whole (dfreqresp); expected as above.
  impulse/step   form, system, X0, T, N (null: not given); expected T, yout.
  dimpulse/dstep form, system, dt, x0, t, n; expected t, yout_<i> per input, n_inputs.
  lsim           form, system, U (null: None), T, X0, interp; expected tout, yout, xout.
  dlsim          form, system, dt, u, t, x0; expected tout, yout, xout (ss only).
  dlsim_many / lsim_many  S systems A<i>, B<i>, C<i>, D<i> (discretised with zoh / continuous), u [S, N, m],
                 x0 [S, n], dt or T; expected yout [S, N, p], xout [S, N, n] (the device path's layout).
  dlsim_long / lsim_long  one system, N samples of the analytic input above, dt, interp; expected
                 yout [::stride], xout [::stride].
Errors: error = the cusci exception, same parameters.
Tolerances: cont2discrete and the responses 1e-10 relative to the result's scale (matrix exponentials
and solves of well-conditioned matrices); place_poles 1e-7 (the YT/KNV0 sweeps repeat QR, SVD and
eigen-decompositions tens of times, and rounding differences in those add up; X is compared up to the
sign of each column: in later sweeps SciPy projects onto nearly orthogonal vectors, |k^T x| ~ 1e-9, where
rounding or LAPACK's SVD sign convention decides a column's sign, which the gain does not depend on); the simulations 1e-9 of
the output's scale (a product of many steps of a stable recurrence).
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal_lti")
rng = s.rng(20261218)


def stable_ss(n, m, p, with_d=True):
    """A random stable real system (poles in the left half plane)."""
    Q = rng.standard_normal((n, n))
    A = Q - (np.abs(np.linalg.eigvals(Q)).max() + 0.5) * np.eye(n)
    B = rng.standard_normal((n, m))
    C = rng.standard_normal((p, n))
    D = rng.standard_normal((p, m)) if with_d else np.zeros((p, m))
    return A, B, C, D


def scale(*arrs):
    return max([1.0] + [float(np.abs(np.asarray(a)).max()) for a in arrs if np.asarray(a).size])


def put_system(name, form, sysargs):
    """Stores a system's arrays; returns the params dict naming them."""
    if form == "ss":
        A, B, C, D = sysargs
        return dict(form="ss", A=s.array(name + "_A", A), B=s.array(name + "_B", B), C=s.array(name + "_C", C),
                    D=s.array(name + "_D", D))
    if form == "tf":
        num, den = sysargs
        return dict(form="tf", num=s.array(name + "_num", num), den=s.array(name + "_den", den))
    z, p, k = sysargs
    return dict(form="zpk", z=s.array(name + "_z", z), p=s.array(name + "_p", p), k=float(k))


# ---------------------------------------------------------------------------------------------- cont2discrete
s.group("cont2discrete")
methods = [("zoh", None), ("foh", None), ("impulse", None), ("gbt", 0.3), ("gbt", 0.0), ("gbt", 1.0),
           ("bilinear", None), ("tustin", None), ("euler", None), ("forward_diff", None), ("backward_diff", None)]
ci = 0
for (n, m, p) in [(1, 1, 1), (2, 1, 1), (3, 2, 2), (5, 3, 2), (8, 1, 1)]:
    for with_d in (True, False):
        A, B, C, D = stable_ss(n, m, p, with_d)
        for dt in (0.05, 0.5):
            for meth, alpha in methods:
                if meth == "impulse" and with_d:
                    continue
                name = f"c2d_ss_{ci}"
                ci += 1
                Ad, Bd, Cd, Dd, dto = ss.cont2discrete((A, B, C, D), dt, method=meth, alpha=alpha)
                sc = scale(Ad, Bd, Cd, Dd)
                prm = put_system(name, "ss", (A, B, C, D))
                s.case(name, func="cont2discrete", rtol=1e-10, atol=1e-10 * sc, dt=dt, method=meth, alpha=alpha,
                       cls=bool(ci % 3 == 0), Ad=s.array(name + "_Ad", Ad), Bd=s.array(name + "_Bd", Bd),
                       Cd=s.array(name + "_Cd", Cd), Dd=s.array(name + "_Dd", Dd), **prm)

# transfer functions and zpk: SISO systems of several orders
for order in (1, 2, 4, 6):
    A, B, C, D = stable_ss(order, 1, 1, with_d=(order % 2 == 0))
    num, den = ss.ss2tf(A, B, C, D)
    num = num[0]
    num[np.abs(num) < 1e-12] = 0.0  # exact zeros where ss2tf leaves rounding (strictly proper systems)
    z, p, k = ss.ss2zpk(A, B, C, D)
    for dt in (0.1, 1.0):
        for meth, alpha in methods:
            if meth == "impulse" and order % 2 == 0:
                continue
            name = f"c2d_tf_{ci}"
            ci += 1
            nd, dd, _ = ss.cont2discrete((num, den), dt, method=meth, alpha=alpha)
            prm = put_system(name, "tf", (num, den))
            s.case(name, func="cont2discrete", rtol=1e-9, atol=1e-9 * scale(nd, dd), dt=dt, method=meth,
                   alpha=alpha, cls=bool(ci % 2 == 0), num_out=s.array(name + "_numo", nd),
                   den_out=s.array(name + "_deno", dd), **prm)
            name = f"c2d_zpk_{ci}"
            ci += 1
            zd, pd, kd, _ = ss.cont2discrete((z, p, k), dt, method=meth, alpha=alpha)
            prm = put_system(name, "zpk", (z, p, k))
            s.case(name, func="cont2discrete", rtol=1e-7, atol=1e-7 * scale(zd, pd), dt=dt, method=meth,
                   alpha=alpha, cls=bool(ci % 2 == 0), z_out=s.array(name + "_zo", zd),
                   p_out=s.array(name + "_po", pd), k_out=float(kd), **prm)

# errors
A, B, C, D = stable_ss(2, 1, 1)
for name, meth, alpha in [("c2d_err_gbt_noalpha", "gbt", None), ("c2d_err_gbt_alpha_big", "gbt", 1.5),
                          ("c2d_err_gbt_alpha_neg", "gbt", -0.1), ("c2d_err_impulse_d", "impulse", None),
                          ("c2d_err_method", "nonsense", None)]:
    try:
        ss.cont2discrete((A, B, C, D), 0.1, method=meth, alpha=alpha)
        raise SystemExit(f"{name}: SciPy did not raise")
    except ValueError:
        pass
    prm = put_system(name, "ss", (A, B, C, D))
    s.case(name, func="cont2discrete", error="value_error", dt=0.1, method=meth, alpha=alpha, cls=False, **prm)

# ---------------------------------------------------------------------------------------------- place_poles
s.group("place_poles")


def add_place(name, A, B, poles, method="YT", rtol=1e-3, maxiter=30, error=None):
    prm = dict(A=s.array(name + "_A", A), B=s.array(name + "_B", B), poles=s.array(name + "_poles", poles),
               method=method, rtol_opt=rtol, maxiter=maxiter)
    if error:
        try:
            ss.place_poles(A, B, poles, method=method, rtol=rtol, maxiter=maxiter)
            raise SystemExit(f"{name}: SciPy did not raise")
        except ValueError:
            pass
        s.case(name, func="place_poles", error=error, **prm)
        return
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = ss.place_poles(A, B, poles, method=method, rtol=rtol, maxiter=maxiter)
    warned = any("Convergence was not reached" in str(x.message) for x in w)
    sc = scale(r.gain_matrix)
    s.case(name, func="place_poles", rtol=1e-7, atol=1e-7 * sc, gain_matrix=s.array(name + "_K", r.gain_matrix),
           computed_poles=s.array(name + "_cp", r.computed_poles),
           requested_poles=s.array(name + "_rp", r.requested_poles), X=s.array(name + "_X", r.X),
           rtol_out=None if np.isnan(r.rtol) else float(r.rtol),
           nb_iter=None if np.isnan(r.nb_iter) else int(r.nb_iter), warns=warned, **prm)


# SciPy's own test systems (test_ltisys.py's TestPlacePoles)
A1 = np.array([1.380, -0.2077, 6.715, -5.676, -0.5814, -4.290, 0, 0.6750, 1.067, 4.273, -6.654, 5.893, 0.0480,
               4.273, 1.343, -2.104]).reshape(4, 4)
B1 = np.array([0, 5.679, 1.136, 1.136, 0, 0, -3.146, 0]).reshape(4, 2)
P1 = np.array((-0.2, -0.5, -5.0566, -8.6659))
add_place("pp_real_yt", A1, B1, P1)
add_place("pp_real_knv0", A1, B1, P1, method="KNV0")
add_place("pp_complex_yt", A1, B1, np.array((-2 + 1j, -2 - 1j, -5.0566, -8.6659)))
add_place("pp_complex2_yt", A1, B1, np.array((-2 + 1j, -2 - 1j, -3 + 2j, -3 - 2j)))
add_place("pp_real_ints", A1, B1, np.array([-1.0, -2, -3, -4]))
add_place("pp_repeat2", A1, B1, np.array([-1.0, -1, -3, -4]))
add_place("pp_rtol_neg", A1, B1, P1, rtol=-1, maxiter=5)
add_place("pp_maxiter1", A1, B1, P1, rtol=1e-12, maxiter=1)
add_place("pp_knv0_maxiter2", A1, B1, P1, method="KNV0", rtol=1e-12, maxiter=2)
# rank(B) == 1: no optimisation
add_place("pp_rank1", A1, B1[:, :1], P1)
add_place("pp_rank1_cplx", A1, B1[:, :1], np.array((-2 + 1j, -2 - 1j, -5.0, -8.0)))
# B with full row rank: least squares, X = I
add_place("pp_square", A1, np.eye(4) + 0.1 * rng.standard_normal((4, 4)), np.array((-1 + 2j, -1 - 2j, -3.0, -4.0)))
add_place("pp_wide", A1[:3, :3], rng.standard_normal((3, 5)), np.array((-1.0, -2.0, -3.0)))
for n, m in [(5, 2), (6, 3), (7, 3), (6, 2)]:
    for kind in ("real", "mixed", "complex"):
        Ar = rng.standard_normal((n, n))
        Br = rng.standard_normal((n, m))
        if kind == "real":
            P = -np.arange(1, n + 1, dtype=float) * 0.7
        elif kind == "mixed":
            P = np.array([-1 + 1j, -1 - 1j] + list(-np.arange(2, n, dtype=float)))
        else:
            if n % 2:
                continue
            P = np.concatenate([[-k + 1j * k, -k - 1j * k] for k in range(1, n // 2 + 1)])
        add_place(f"pp_rand_{n}_{m}_{kind}", Ar, Br, P)
        if kind == "real":
            add_place(f"pp_rand_{n}_{m}_{kind}_knv0", Ar, Br, P, method="KNV0")
# errors
add_place("pp_err_knv0_complex", A1, B1, np.array((-2 + 1j, -2 - 1j, -5.0566, -8.6659)), method="KNV0",
          error="value_error")
add_place("pp_err_conj", A1, B1, np.array((-2 + 1j, -3 - 1j, -5.0566, -8.6659)), error="value_error")
add_place("pp_err_too_many", A1, B1, np.array((-1.0, -2, -3, -4, -5)), error="value_error")
add_place("pp_err_too_few", A1, B1, np.array((-1.0, -2, -3)), error="value_error")
add_place("pp_err_repeat", A1, B1, np.array((-1.0, -1, -1, -4)), error="value_error")
add_place("pp_err_maxiter", A1, B1, P1, maxiter=0, error="value_error")
add_place("pp_err_rtol", A1, B1, P1, rtol=2.0, error="value_error")
add_place("pp_err_nonsquare", A1[:, :3], B1, P1[:3], error="value_error")
add_place("pp_err_poles2d", A1, B1, P1.reshape(2, 2), error="value_error")
add_place("pp_err_uncontrollable", np.diag([1.0, 2, 3, 4]), np.array([[1.0, 0], [0, 1], [0, 0], [0, 0]]),
          P1, error="value_error")

# ---------------------------------------------------------------------------------------------- responses
s.group("responses")


def siso_systems(prefix):
    """(name, form, system args) for a few continuous SISO systems in every form."""
    out = []
    for order in (1, 2, 3, 5):
        A, B, C, D = stable_ss(order, 1, 1, with_d=(order != 3))
        num, den = ss.ss2tf(A, B, C, D)
        num = num[0]
        num[np.abs(num) < 1e-12] = 0.0
        z, p, k = ss.ss2zpk(A, B, C, D)
        out.append((f"{prefix}_ss{order}", "ss", (A, B, C, D)))
        out.append((f"{prefix}_tf{order}", "tf", (num, den)))
        out.append((f"{prefix}_zpk{order}", "zpk", (z, p, k)))
    # a lightly damped resonance (phase unwrapping) and a pure integrator-free lead-lag
    out.append((f"{prefix}_res", "tf", (np.array([1.0]), np.array([1.0, 0.02, 1.0]))))
    out.append((f"{prefix}_lead", "zpk", (np.array([-1.0]), np.array([-10.0, -0.1 + 3j, -0.1 - 3j]), 5.0)))
    return out


def as_scipy(form, args, dt=None):
    if dt is None:
        return ss.lti(*args)
    return ss.dlti(*args, dt=dt)


for name, form, args in siso_systems("fr"):
    sysc = as_scipy(form, args)
    for wmode in ("default", "explicit"):
        w = None if wmode == "default" else np.logspace(-2, 2, 37)
        cname = f"{name}_{wmode}"
        prm = put_system(cname, form, args)
        wo, h = ss.freqresp(sysc, w=w, n=64)
        s.case(cname, func="freqresp", rtol=1e-10, atol=1e-10 * scale(h), w=None if w is None else s.array(cname + "_w", w),
               n=64, w_out=s.array(cname + "_wo", wo), h=s.array(cname + "_h", h), **prm)
        wb, mag, ph = ss.bode(sysc, w=w, n=50)
        s.case(cname + "_bode", func="bode", rtol=1e-9, atol=1e-9 * scale(mag, ph),
               w=None if w is None else cname + "_w", n=50, w_out=s.array(cname + "_bw", wb),
               mag=s.array(cname + "_mag", mag), phase=s.array(cname + "_ph", ph), **prm)

for name, form, args in siso_systems("dfr"):
    dt = 0.1
    if form == "ss":
        dargs = ss.cont2discrete(args, dt)[:-1]
    elif form == "tf":
        nd, dd, _ = ss.cont2discrete(args, dt)
        dargs = (nd[0], dd)
    else:
        dargs = ss.cont2discrete(args, dt)[:-1]
    sysd = as_scipy(form, dargs, dt)
    for wmode in ("default", "explicit", "whole"):
        w = np.linspace(0.01, 3.0, 29) if wmode == "explicit" else None
        whole = wmode == "whole"
        cname = f"{name}_{wmode}"
        prm = put_system(cname, form, dargs)
        wo, h = ss.dfreqresp(sysd, w=w, n=48, whole=whole)
        s.case(cname, func="dfreqresp", rtol=1e-10, atol=1e-10 * scale(h), dt=dt,
               w=None if w is None else s.array(cname + "_w", w), n=48, whole=whole,
               w_out=s.array(cname + "_wo", wo), h=s.array(cname + "_h", h), **prm)
        if not whole:
            wb, mag, ph = ss.dbode(sysd, w=w, n=40)
            s.case(cname + "_dbode", func="dbode", rtol=1e-9, atol=1e-9 * scale(mag, ph), dt=dt,
                   w=None if w is None else cname + "_w", n=40, w_out=s.array(cname + "_bw", wb),
                   mag=s.array(cname + "_mag", mag), phase=s.array(cname + "_ph", ph), **prm)

# MIMO systems are refused by freqresp (several outputs)
A, B, C, D = stable_ss(3, 1, 2)
prm = put_system("fr_err_mimo", "ss", (A, B, C, D))
try:
    ss.freqresp(ss.lti(A, B, C, D))
    raise SystemExit("fr_err_mimo: SciPy did not raise")
except ValueError:
    pass
s.case("fr_err_mimo", func="freqresp", error="value_error", w=None, n=10, **prm)
try:
    ss.dfreqresp(ss.dlti(A, B, C, D, dt=0.1))
    raise SystemExit("dfr_err_mimo: SciPy did not raise")
except ValueError:
    pass
prm = put_system("dfr_err_mimo", "ss", (A, B, C, D))
s.case("dfr_err_mimo", func="dfreqresp", error="value_error", dt=0.1, w=None, n=10, whole=False, **prm)

# ---------------------------------------------------------------------------------------------- simulation
s.group("simulation")
sim_systems = []
for (n, m, p) in [(1, 1, 1), (2, 1, 1), (3, 1, 2), (4, 2, 1), (5, 2, 3)]:
    A, B, C, D = stable_ss(n, m, p, with_d=(n % 2 == 1))
    sim_systems.append((f"ss{n}{m}{p}", "ss", (A, B, C, D)))
num, den = np.array([1.0, 3.0]), np.array([1.0, 2.0, 5.0])
sim_systems.append(("tf2", "tf", (num, den)))
sim_systems.append(("zpk3", "zpk", (np.array([-2.0]), np.array([-1.0, -0.5 + 2j, -0.5 - 2j]), 3.0)))


def nin(form, args):
    return args[1].shape[1] if form == "ss" else 1


def nstates(form, args):
    return ss.lti(*args).to_ss().A.shape[0]


for name, form, args in sim_systems:
    sysc = ss.lti(*args)
    m = nin(form, args)
    ns = nstates(form, args)
    # impulse / step
    for mode in ("default", "N", "T", "T0", "X0"):
        kw = {}
        if mode == "N":
            kw["N"] = 37
        if mode in ("T", "T0", "X0"):
            kw["T"] = np.linspace(0.0 if mode != "T0" else 0.5, 6.0, 41)
        if mode == "X0":
            kw["X0"] = rng.standard_normal(ns)
        for func in ("impulse", "step"):
            cname = f"{func}_{name}_{mode}"
            prm = put_system(cname, form, args)
            params = dict(X0=s.array(cname + "_X0", kw["X0"]) if "X0" in kw else None,
                          T=s.array(cname + "_T", kw["T"]) if "T" in kw else None, N=kw.get("N"))
            f = getattr(ss, func)
            try:
                T, y = f(sysc, **kw)
            except ValueError:
                s.case(cname, func=func, error="value_error", **params, **prm)
                continue
            s.case(cname, func=func, rtol=1e-9, atol=1e-9 * scale(y), T_out=s.array(cname + "_To", T),
                   yout=s.array(cname + "_y", y), **params, **prm)
    # lsim
    N = 60
    T = np.linspace(0, 5.0, N)
    U = rng.standard_normal((N, m)) if m > 1 else rng.standard_normal(N)
    for mode in ("interp", "zoh", "X0", "T0", "noinput", "one", "U2d"):
        cname = f"lsim_{name}_{mode}"
        Tm, Um, X0, interp = T, U, None, True
        if mode == "zoh":
            interp = False
        if mode == "X0":
            X0 = rng.standard_normal(ns)
        if mode == "T0":
            Tm = T + 0.7
            X0 = rng.standard_normal(ns)
        if mode == "noinput":
            Um = None
            X0 = rng.standard_normal(ns)
        if mode == "one":
            Tm = T[:1]
            Um = U[:1]
            X0 = rng.standard_normal(ns)
        if mode == "U2d":
            if m != 1:
                continue
            Um = U[:, None]
        prm = put_system(cname, form, args)
        tout, yout, xout = ss.lsim(sysc, Um, Tm, X0=X0, interp=interp)
        s.case(cname, func="lsim", rtol=1e-9, atol=1e-9 * scale(yout, xout), U=None if Um is None else s.array(cname + "_U", Um),
               T=s.array(cname + "_T", Tm), X0=None if X0 is None else s.array(cname + "_X0", X0), interp=interp,
               tout=s.array(cname + "_to", tout), yout=s.array(cname + "_y", yout), xout=s.array(cname + "_x", xout),
               **prm)
    # discrete: dlsim / dimpulse / dstep
    dt = 0.1
    if form == "ss":
        dargs = ss.cont2discrete(args, dt)[:-1]
    elif form == "tf":
        nd, dd, _ = ss.cont2discrete(args, dt)
        dargs = (nd[0], dd)
    else:
        dargs = ss.cont2discrete(args, dt)[:-1]
    sysd = ss.dlti(*dargs, dt=dt)
    u = rng.standard_normal((N, m)) if m > 1 else rng.standard_normal(N)
    for mode in ("plain", "x0", "t", "t_fine", "t_offset"):
        cname = f"dlsim_{name}_{mode}"
        kw = {}
        if mode == "x0":
            kw["x0"] = rng.standard_normal(ns)
        if mode == "t":
            kw["t"] = np.arange(N) * dt
        if mode == "t_fine":
            kw["t"] = np.linspace(0, 3.3, N)
        if mode == "t_offset":
            kw["t"] = np.linspace(0.05, 4.0, N)
        prm = put_system(cname, form, dargs)
        r = ss.dlsim(sysd, u, **kw)
        xo = r[2] if len(r) == 3 else None
        s.case(cname, func="dlsim", rtol=1e-9, atol=1e-9 * scale(r[1]), dt=dt, u=s.array(cname + "_u", u),
               t=s.array(cname + "_t", kw["t"]) if "t" in kw else None,
               x0=s.array(cname + "_x0", kw["x0"]) if "x0" in kw else None,
               tout=s.array(cname + "_to", r[0]), yout=s.array(cname + "_y", r[1]),
               xout=None if xo is None else s.array(cname + "_x", xo), **prm)
    for func in ("dimpulse", "dstep"):
        for mode in ("default", "n", "t", "x0"):
            cname = f"{func}_{name}_{mode}"
            kw = {}
            if mode == "n":
                kw["n"] = 23
            if mode == "t":
                kw["t"] = np.linspace(0, 2.0, 15)
            if mode == "x0":
                kw["x0"] = rng.standard_normal(ns)
            prm = put_system(cname, form, dargs)
            t, ys = getattr(ss, func)(sysd, **kw)
            arrays = {f"yout_{i}": s.array(f"{cname}_y{i}", y) for i, y in enumerate(ys)}
            s.case(cname, func=func, rtol=1e-9, atol=1e-9 * scale(*ys), dt=dt,
                   t=s.array(cname + "_t", kw["t"]) if "t" in kw else None,
                   x0=s.array(cname + "_x0", kw["x0"]) if "x0" in kw else None, n=kw.get("n"),
                   t_out=s.array(cname + "_to", t), n_inputs=len(ys), **arrays, **prm)

# simulation errors
A, B, C, D = stable_ss(2, 1, 1)
sysc = ss.lti(A, B, C, D)
T = np.linspace(0, 1, 10)
for cname, U, Tm in [("lsim_err_uneven", np.ones(10), np.r_[0, np.cumsum(np.linspace(0.1, 0.2, 9))]),
                     ("lsim_err_negative_t", np.ones(10), T - 0.5),
                     ("lsim_err_rows", np.ones(9), T),
                     ("lsim_err_cols", np.ones((10, 2)), T),
                     ("lsim_err_T2d", np.ones(10), T.reshape(2, 5))]:
    try:
        ss.lsim(sysc, U, Tm)
        raise SystemExit(f"{cname}: SciPy did not raise")
    except ValueError:
        pass
    prm = put_system(cname, "ss", (A, B, C, D))
    s.case(cname, func="lsim", error="value_error", U=s.array(cname + "_U", U), T=s.array(cname + "_T", Tm),
           X0=None, interp=True, **prm)

# ---------------------------------------------------------------------------------------------- GPU path
# Many systems at once and long signals (the device lsim / dlsim). Long inputs are analytic so that only
# SciPy's outputs are stored (every `stride`-th sample): u[k, j] = sin(0.013 k (j + 1)) + 0.5 cos(0.0029 k).
s.group("gpu")
S, N = 4, 300
for name, (n, m, p) in [("many_ss", (3, 2, 2)), ("many_siso", (2, 1, 1))]:
    systems = [stable_ss(n, m, p) for _ in range(S)]
    u = rng.standard_normal((S, N, m))
    x0 = rng.standard_normal((S, n))
    dt = 0.05
    ys, xs = [], []
    for (A, B, C, D), uu, xx in zip(systems, u, x0):
        Ad, Bd, Cd, Dd, _ = ss.cont2discrete((A, B, C, D), dt)
        _, y, x = ss.dlsim((Ad, Bd, Cd, Dd, dt), uu, x0=xx)
        ys.append(y)
        xs.append(x)
    prm = {}
    for i, (A, B, C, D) in enumerate(systems):
        Ad, Bd, Cd, Dd, _ = ss.cont2discrete((A, B, C, D), dt)
        for nm, arr in zip("ABCD", (Ad, Bd, Cd, Dd)):
            prm[f"{nm}{i}"] = s.array(f"dlsim_{name}_{nm}{i}", arr)
    ys = np.array(ys)
    s.case(f"dlsim_{name}", func="dlsim_many", rtol=1e-9, atol=1e-9 * scale(ys), S=S, dt=dt,
           u=s.array(f"dlsim_{name}_u", u), x0=s.array(f"dlsim_{name}_x0", x0),
           yout=s.array(f"dlsim_{name}_y", ys), xout=s.array(f"dlsim_{name}_x", np.array(xs)), **prm)
    # continuous, same inputs, T from 0
    T = np.arange(N) * dt
    ys, xs = [], []
    for (A, B, C, D), uu, xx in zip(systems, u, x0):
        _, y, x = ss.lsim((A, B, C, D), uu if m > 1 else uu[:, 0], T, X0=xx)
        ys.append(y.reshape(N, p))
        xs.append(x.reshape(N, n))
    prm = {}
    for i, (A, B, C, D) in enumerate(systems):
        for nm, arr in zip("ABCD", (A, B, C, D)):
            prm[f"{nm}{i}"] = s.array(f"lsim_{name}_{nm}{i}", arr)
    ys = np.array(ys)
    s.case(f"lsim_{name}", func="lsim_many", rtol=1e-9, atol=1e-9 * scale(ys), S=S, T=s.array(f"lsim_{name}_T", T),
           u=f"dlsim_{name}_u", x0=f"dlsim_{name}_x0", yout=s.array(f"lsim_{name}_y", ys),
           xout=s.array(f"lsim_{name}_x", np.array(xs)), **prm)

for name, (n, m, p), N, stride in [("long_siso", (4, 1, 1), 200_000, 1000), ("long_mimo", (3, 2, 2), 50_000, 250)]:
    A, B, C, D = stable_ss(n, m, p)
    dt = 0.01
    k = np.arange(N)[:, None]
    u = np.sin(0.013 * k * (np.arange(m)[None, :] + 1)) + 0.5 * np.cos(0.0029 * k)
    Ad, Bd, Cd, Dd, _ = ss.cont2discrete((A, B, C, D), dt)
    _, y, x = ss.dlsim((Ad, Bd, Cd, Dd, dt), u)
    prm = put_system(f"dlsim_{name}", "ss", (Ad, Bd, Cd, Dd))
    s.case(f"dlsim_{name}", func="dlsim_long", rtol=1e-8, atol=1e-8 * scale(y), dt=dt, N=N, m=m, stride=stride,
           yout=s.array(f"dlsim_{name}_y", y[::stride]), xout=s.array(f"dlsim_{name}_x", x[::stride]), **prm)
    T = np.arange(N) * dt
    for interp in (True, False):
        _, y, x = ss.lsim((A, B, C, D), u if m > 1 else u[:, 0], T, interp=interp)
        cname = f"lsim_{name}_{'foh' if interp else 'zoh'}"
        prm = put_system(cname, "ss", (A, B, C, D))
        y = y.reshape(N, -1)
        s.case(cname, func="lsim_long", rtol=1e-8, atol=1e-8 * scale(y), dt=dt, N=N, m=m, stride=stride,
               interp=interp, yout=s.array(cname + "_y", y[::stride]), xout=s.array(cname + "_x", x[::stride]), **prm)

s.write()

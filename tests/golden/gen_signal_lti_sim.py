"""Reference data for cusci::signal's state-space simulation engine (signal/src/lti_sim: the GPU part of
lsim / dlsim, internal API simulate_ss / simulate_ss_many), from SciPy 1.18.1 (format and shared code:
golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_lti_sim/.

Systems: random real A [n, n] with chosen pole radius r (a block-diagonal rotation-scaling matrix
under a random well-conditioned similarity), B [n, m], C [p, n], D [p, m] standard normal.

Cases (func, then its parameters; arrays are named <case>_<what>):
  simulate_ss       A, B, C, D (arrays), n, m, p; u (array), layout (C | F | strided: u holds the parent,
                    the input is u[::2] along time), x0 (array: [n], [nb, n], a 0-d value broadcast to
                    every state, or [1, n]; or null); expected y [N, p] or [nb, N, p] and x [N, n] /
                    [nb, N, n] from scipy.signal.dlsim (one call per signal). sub: only every sub-th
                    row of the results is stored (and the last row), as y_rows / x_rows / y_last /
                    x_last. Static gains (n = 0: A [0, 0]) give y = D u and an empty [N, 0] trajectory.
                    Length-0 inputs: SciPy raises IndexError; the engine returns empty results (the
                    public dlsim raises), which these cases check.
  simulate_ss_many  systems as A, B, C, D (and B1) stacked [S, ...]; u [S, N, m]; x0 [S, n] or null;
                    expected y [S, N, p], x [S, N, n] (dlsim per system; lsim for the B1 case), or
                    their rows every `sub` samples as for simulate_ss.
  simulate_ss_long  A, B, C, D; N, m; the input is computed by the test: u[k, i] = ((7919 k + 104729 i)
                    mod 1009) / 504.5 - 1 (exact in both languages); x0; expected rows every `sub`
                    samples (y_rows, x_rows) and the last row (y_last, x_last).
  simulate_ss_foh   a continuous system (A, B, C, D) simulated by scipy.signal.lsim with linear
                    interpolation (interp=True) on t = dt * arange(N); the test gives the engine lsim's
                    own discretisation Ad, Bd0, Bd1 (computed here with scipy.linalg.expm exactly as lsim
                    does) through the lookahead matrix B1 = Bd1; expected y, x (lsim's, reshaped 2-D).
Errors (error = the cusci exception; the test builds zero inputs of u_shape / x0_shape on the device):
u with the wrong number of columns or dimensions, complex u or x0, x0 of the wrong shape, matrices of
inconsistent sizes, a negative n, many systems of different sizes or not one per signal.

Tolerances: the GPU runs the recurrence in chunks whose states are carried by A^L, a different
summation order from SciPy's loop; the difference is a few ulps of the state's scale times the number
of carries, so results are compared at 1e-10 relative to the largest |value| of the result (1e-9 for the
pole radius 0.999 / 0.9999 systems, whose states accumulate rounding over longer memories, and for the
lsim cases, whose lookahead is folded into B + A B1 in another order). A numpy emulation of the chunked
scan (plan, passes, one- and two-level carry) meets these at 1e-4 of the tolerance on every case.
"""
import numpy as np
import scipy.linalg as sl
import scipy.signal as ss

from golden import Suite

s = Suite("signal_lti_sim")
rng = s.rng(20261218)


def rand_sys(n, m, p, r):
    ang = rng.uniform(0.05, np.pi - 0.05, n)
    Ad = np.zeros((n, n))
    i = 0
    while i < n:
        if i + 1 < n:
            a, b = r * np.cos(ang[i]), r * np.sin(ang[i])
            Ad[i:i + 2, i:i + 2] = [[a, -b], [b, a]]
            i += 2
        else:
            Ad[i, i] = r * (1 if rng.uniform() < 0.5 else -1)
            i += 1
    T = rng.standard_normal((n, n)) * 0.3 + np.eye(n)
    A = T @ Ad @ np.linalg.inv(T)
    return A, rng.standard_normal((n, m)), rng.standard_normal((p, n)), rng.standard_normal((p, m))


def dlsim(A, B, C, D, u, x0):
    if len(u) == 0:  # SciPy's dlsim raises IndexError here (its public wrapper does too); the engine
        # itself returns empty [0, p] / [0, n] results, which is what these cases check
        return np.zeros((0, C.shape[0])), np.zeros((0, A.shape[0]))
    _, y, x = ss.dlsim((A, B, C, D, 1.0), u, x0=x0)
    return y, x


def scale_tol(rtol, *arrs):
    sc = max([1.0] + [float(np.max(np.abs(a))) for a in arrs if a.size])
    return rtol, rtol * sc


def store_sys(name, A, B, C, D):
    return dict(A=s.array(name + "_A", A), B=s.array(name + "_B", B), C=s.array(name + "_C", C),
                D=s.array(name + "_D", D), n=A.shape[0], m=B.shape[1], p=C.shape[0])


def single(name, n, m, p, N, r=0.9, x0=True, dtype=np.float64, layout="C", nb=None, rtol=1e-10, sub=None):
    A, B, C, D = rand_sys(n, m, p, r)
    shape = (N, m) if nb is None else (nb, N, m)
    if dtype in (np.int32,):
        u = rng.integers(-5, 6, shape).astype(dtype)
    else:
        u = rng.standard_normal(shape).astype(dtype)
    if m == 1 and nb is None and name.endswith("_1d"):
        u = u[:, 0]
    x0v = None
    if x0 == "scalar":  # one value broadcast to every state (NumPy's xout[0, :] = x0)
        x0v = np.array(rng.standard_normal())
    elif x0 == "row":  # [1, n]
        x0v = rng.standard_normal((1, n))
    elif x0:
        x0v = rng.standard_normal(n if nb is None else (nb, n))
    if nb is None:
        y, x = dlsim(A, B, C, D, u, x0v)
    else:
        ys, xs = zip(*[dlsim(A, B, C, D, u[b], None if x0v is None else x0v[b]) for b in range(nb)])
        y, x = np.stack(ys), np.stack(xs)
    stored_u = u
    if layout == "strided":  # the parent: every other row along time is the input
        par = np.zeros((2 * u.shape[0],) + u.shape[1:], dtype=u.dtype) if nb is None else \
            np.zeros((nb, 2 * N, m), dtype=u.dtype)
        if nb is None:
            par[::2] = u
            par[1::2] = 1e6
        else:
            raise ValueError("strided batch not used")
        stored_u = par
    p_ = store_sys(name, A, B, C, D)
    rt, at = scale_tol(rtol, y, x)
    extra = {}
    if sub is not None:
        extra = dict(sub=sub, y_rows=s.array(name + "_yrows", y[..., ::sub, :]),
                     x_rows=s.array(name + "_xrows", x[..., ::sub, :]),
                     y_last=s.array(name + "_ylast", y[..., -1:, :]), x_last=s.array(name + "_xlast", x[..., -1:, :]))
    else:
        extra = dict(y=s.array(name + "_y", y), x=s.array(name + "_x", x))
    s.case(name, "simulate_ss", rtol=rt, atol=at, u=s.array(name + "_u", stored_u), layout=layout,
           x0=None if x0v is None else s.array(name + "_x0", x0v), **p_, **extra)


# --- orders 1..8, SISO and MIMO, with and without x0, lengths that split into chunks ----------------
s.group("orders")
for n in range(1, 9):
    single(f"siso_n{n}", n, 1, 1, 600, x0=(n % 2 == 0))
    single(f"mimo_n{n}", n, 1 + n % 3, 1 + (n + 1) % 3, 600, x0=(n % 2 == 1))
single("siso_n3_1d", 3, 1, 1, 700)           # u given 1-D
single("siso_n4_len0", 4, 1, 1, 0)
single("mimo_n3_len0", 3, 2, 2, 0)
single("siso_n4_len1", 4, 1, 1, 1)
single("mimo_n5_len1", 5, 3, 2, 1)
single("siso_n2_len1000", 2, 1, 1, 1000)
single("mimo_n6_len1000", 6, 2, 3, 1000)

# --- dtypes and layouts ----------------------------------------------------------------------------
s.group("layouts")
single("siso_f32", 4, 1, 1, 900, dtype=np.float32)
single("mimo_f32", 3, 2, 2, 900, dtype=np.float32)
single("mimo_i32", 3, 2, 2, 600, dtype=np.int32)
single("siso_f16", 3, 1, 1, 600, dtype=np.float16)
single("mimo_x0_scalar", 3, 2, 2, 600, x0="scalar")
single("siso_x0_row", 4, 1, 1, 600, x0="row")
single("siso_F", 4, 1, 1, 900, layout="F")
single("mimo_F", 5, 3, 2, 900, layout="F")
single("siso_strided", 4, 1, 1, 900, layout="strided")
single("mimo_strided", 2, 2, 1, 900, layout="strided", dtype=np.float32)

# --- lightly damped (long chunks), unstable (sequential), large state (sequential kernel) ----------
s.group("damping")
single("siso_r999", 2, 1, 1, 12000, r=0.999, rtol=1e-9, sub=17, dtype=np.float32)
single("mimo_r999", 4, 2, 2, 12000, r=0.999, rtol=1e-9, sub=23, dtype=np.float32)
single("siso_unstable", 3, 1, 1, 800, r=1.01)
single("siso_n40", 40, 1, 1, 300, r=0.8, sub=3)
single("mimo_n40", 40, 2, 3, 300, r=0.8, sub=3)
single("siso_n20", 20, 1, 1, 600, r=0.8, sub=4)
single("mimo_n32", 32, 2, 2, 600, r=0.8, sub=5)

# --- static gains (no states: SciPy's StateSpace with an empty A), y = D u and an empty trajectory ---
s.group("static")
for name, (m, p, N) in {"static_siso": (1, 1, 700), "static_mimo": (2, 3, 2000)}.items():
    A, B, C = np.zeros((0, 0)), np.zeros((0, m)), np.zeros((p, 0))
    D = rng.standard_normal((p, m))
    u = rng.standard_normal((N, m))
    _, y, x = ss.dlsim(ss.dlti(A, B, C, D, dt=1.0), u)
    rt, at = scale_tol(1e-12, y)
    s.case(name, "simulate_ss", rtol=rt, atol=at, u=s.array(name + "_u", u), layout="C", x0=None,
           **store_sys(name, A, B, C, D), y=s.array(name + "_y", y), x=s.array(name + "_x", x))

# --- batches of signals through one system ---------------------------------------------------------
s.group("batch")
single("siso_batch", 4, 1, 1, 600, nb=4)
single("mimo_batch", 3, 2, 2, 600, nb=3)
single("mimo_batch_nox0", 3, 2, 2, 600, nb=2, x0=False)

# --- many systems, each with its own input ---------------------------------------------------------
s.group("many")


def foh_system(n, m, p, dt):
    """A stable continuous system and lsim's first-order-hold discretisation of it (as lsim computes it,
    transposed to column-vector form): returns (A, B, C, D) continuous and (Ad, Bd0, Bd1)."""
    M = rng.standard_normal((n, n))
    A = M - (np.max(np.linalg.eigvals(M).real) + 0.5) * np.eye(n)
    B, C, D = rng.standard_normal((n, m)), rng.standard_normal((p, n)), rng.standard_normal((p, m))
    Mx = np.vstack([np.hstack([A * dt, B * dt, np.zeros((n, m))]),
                    np.hstack([np.zeros((m, n + m)), np.identity(m)]),
                    np.zeros((m, n + 2 * m))])
    E = sl.expm(Mx.T)
    Bd1 = E[n + m:, :n].T
    return (A, B, C, D), (E[:n, :n].T, E[n:n + m, :n].T - Bd1, Bd1)


def many(name, n, m, p, S, N, with_x0, sub=None, foh_dt=None, dtype=np.float64):
    u = rng.standard_normal((S, N, m)).astype(dtype)
    x0 = rng.standard_normal((S, n)) if with_x0 else None
    extra = {}
    if foh_dt is None:
        systems = [rand_sys(n, m, p, 0.95) for _ in range(S)]
        res = [dlsim(*systems[k], u[k], None if x0 is None else x0[k]) for k in range(S)]
    else:
        cont = [foh_system(n, m, p, foh_dt) for _ in range(S)]
        systems = [(d[0], d[1], c[2], c[3]) for c, d in cont]
        extra["B1"] = s.array(name + "_B1", np.stack([d[2] for c, d in cont]))
        t = foh_dt * np.arange(N)
        res = []
        for k in range(S):
            _, yk, xk = ss.lsim(cont[k][0], u[k], t, X0=None if x0 is None else x0[k], interp=True)
            res.append((yk.reshape(N, p), xk.reshape(N, n)))
    y, x = np.stack([r[0] for r in res]), np.stack([r[1] for r in res])
    rt, at = scale_tol(1e-10 if foh_dt is None else 1e-9, y, x)
    if sub is None:
        extra.update(y=s.array(name + "_y", y), x=s.array(name + "_x", x))
    else:
        extra.update(sub=sub, y_rows=s.array(name + "_yrows", y[:, ::sub, :]),
                     x_rows=s.array(name + "_xrows", x[:, ::sub, :]),
                     y_last=s.array(name + "_ylast", y[:, -1:, :]), x_last=s.array(name + "_xlast", x[:, -1:, :]))
    s.case(name, "simulate_ss_many", rtol=rt, atol=at, n=n, m=m, p=p,
           A=s.array(name + "_A", np.stack([q[0] for q in systems])),
           B=s.array(name + "_B", np.stack([q[1] for q in systems])),
           C=s.array(name + "_C", np.stack([q[2] for q in systems])),
           D=s.array(name + "_D", np.stack([q[3] for q in systems])),
           u=s.array(name + "_u", u), x0=None if x0 is None else s.array(name + "_x0", x0), **extra)


# N <= 2048 S: one thread per system (ss_many_kernel); N > 2048 S: one chunked simulation per system
many("many_siso", 4, 1, 1, 5, 600, True)
many("many_mimo", 3, 2, 2, 3, 600, False)
many("many_n20", 20, 1, 2, 4, 150, True)
many("many_foh", 3, 2, 1, 3, 500, True, foh_dt=0.02)
many("many_chunked_siso", 2, 1, 1, 2, 4500, True, sub=7)
many("many_chunked_mimo", 3, 2, 2, 2, 4500, False, sub=11, dtype=np.float32)

# --- 10^6 samples, input computed by the test ------------------------------------------------------
s.group("long")


def long_u(N, m):
    k = np.arange(N, dtype=np.int64)[:, None]
    i = np.arange(m, dtype=np.int64)[None, :]
    return ((7919 * k + 104729 * i) % 1009) / 504.5 - 1.0


for name, (n, m, p, N, r, sub) in {"long_siso_r999": (4, 1, 1, 10**6, 0.999, 997),
                                    "long_mimo_r9": (3, 2, 2, 10**6, 0.9, 1999),
                                    "long_siso_r9999": (2, 1, 1, 10**6, 0.9999, 4999)}.items():
    A, B, C, D = rand_sys(n, m, p, r)
    x0 = rng.standard_normal(n)
    y, x = dlsim(A, B, C, D, long_u(N, m), x0)
    rt, at = scale_tol(1e-9, y, x)
    s.case(name, "simulate_ss_long", rtol=rt, atol=at, N=N, sub=sub, x0=s.array(name + "_x0", x0),
           **store_sys(name, A, B, C, D),
           y_rows=s.array(name + "_yrows", y[::sub]), x_rows=s.array(name + "_xrows", x[::sub]),
           y_last=s.array(name + "_ylast", y[-1:]), x_last=s.array(name + "_xlast", x[-1:]))

# --- lsim's first-order hold through the lookahead matrix ------------------------------------------
s.group("foh")
for name, (n, m, p, N, dt) in {"foh_siso": (3, 1, 1, 2000, 0.01), "foh_mimo": (4, 2, 2, 1500, 0.02)}.items():
    (A, B, C, D), (Ad, Bd0, Bd1) = foh_system(n, m, p, dt)
    t = dt * np.arange(N)
    u = rng.standard_normal((N, m))
    x0 = rng.standard_normal(n)
    _, y, x = ss.lsim((A, B, C, D), u, t, X0=x0, interp=True)
    y, x = y.reshape(N, p), x.reshape(N, n)
    rt, at = scale_tol(1e-9, y, x)
    s.case(name, "simulate_ss_foh", rtol=rt, atol=at, n=n, m=m, p=p, A=s.array(name + "_A", Ad),
           B=s.array(name + "_B", Bd0), B1=s.array(name + "_B1", Bd1), C=s.array(name + "_C", C),
           D=s.array(name + "_D", D), u=s.array(name + "_u", u), x0=s.array(name + "_x0", x0),
           y=s.array(name + "_y", y), x=s.array(name + "_x", x))

# --- errors ------------------------------------------------------------------------------------------
s.group("errors")
s.case("err_u_columns", "simulate_ss", error="value_error", n=2, m=2, p=1, u_shape=[10, 3], u_dtype="float64")
s.case("err_u_ndim", "simulate_ss", error="value_error", n=2, m=2, p=1, u_shape=[2, 3, 10, 2],
       u_dtype="float64")
s.case("err_u_complex", "simulate_ss", error="type_error", n=2, m=1, p=1, u_shape=[10, 1], u_dtype="complex128")
s.case("err_x0_shape", "simulate_ss", error="value_error", n=3, m=1, p=1, u_shape=[10, 1], u_dtype="float64",
       x0_shape=[2])
s.case("err_x0_rows", "simulate_ss", error="value_error", n=3, m=1, p=1, u_shape=[10, 1], u_dtype="float64",
       x0_shape=[4, 3])
s.case("err_x0_complex", "simulate_ss", error="type_error", n=3, m=1, p=1, u_shape=[10, 1], u_dtype="float64",
       x0_shape=[3], x0_dtype="complex128")
s.case("err_matrix_sizes", "simulate_ss", error="value_error", n=3, m=1, p=1, u_shape=[10, 1],
       u_dtype="float64", bad="B")
s.case("err_negative_n", "simulate_ss", error="value_error", n=-1, m=1, p=1, u_shape=[10, 1], u_dtype="float64")
s.case("err_many_sizes", "simulate_ss_many", error="value_error", n=3, m=1, p=1, u_shape=[2, 10, 1],
       u_dtype="float64", bad="mixed")
s.case("err_many_count", "simulate_ss_many", error="value_error", n=3, m=1, p=1, u_shape=[3, 10, 1],
       u_dtype="float64")

s.write()

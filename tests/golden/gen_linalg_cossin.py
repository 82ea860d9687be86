"""Reference data for cusci::linalg.cossin, from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_cossin/.

Cases: func cossin; input <case>_x (one matrix or batch, with p and/or q; or, with neither, an array whose
first axis holds the four blocks) or <case>_x11, _x12, _x21, _x22 (blocks: true); options p, q (null: not
given), separate, swap_sign, compute_u, compute_vh. Expected: theta (separate) or cs (not separate), and the
shapes of the other outputs (shape_u, shape_vdh, or shape_u1, shape_u2, shape_v1h, shape_v2h). The unitary
factors are checked by the test through their properties (unitary, u @ cs @ vdh == x), not against SciPy's:
the CS decomposition is not unique and LAPACK builds differ in the signs they pick. error: value_error.
"""
import numpy as np
import scipy.linalg as sl
from scipy.stats import ortho_group, unitary_group

from golden import Suite

suite = Suite("linalg_cossin")
rng = suite.rng(20261205)
DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def unitary(m, dt, batch=()):
    seed = int(rng.integers(1 << 30))
    k = int(np.prod(batch)) if batch else 1
    gen = unitary_group if np.issubdtype(dt, np.complexfloating) else ortho_group
    mats = [gen.rvs(m, random_state=seed + i) for i in range(k)] if m > 1 else [np.eye(1)] * k
    return np.stack(mats).reshape(batch + (m, m)).astype(dt)


def add(case, x=None, blocks=None, p=None, q=None, separate=False, swap_sign=False, compute_u=True,
        compute_vh=True, per_slice=False):
    error = None
    res = None
    kw = dict(p=p, q=q, separate=separate, swap_sign=swap_sign, compute_u=compute_u, compute_vh=compute_vh)
    try:
        arg = x if blocks is None else blocks
        if per_slice:
            # SciPy 1.18.1 cannot stack the nested results of a batch with separate=True (it raises
            # "inhomogeneous shape"); cusci returns them stacked: the reference is SciPy per slice.
            arg = x if blocks is None else np.broadcast_arrays(*[b[..., :0, :0] for b in blocks])
            nb = (x.shape[:-2] if blocks is None else arg[0].shape[:-2])
            outs = []
            for idx in np.ndindex(*nb):
                a = x[idx] if blocks is None else [np.broadcast_to(b, nb + b.shape[-2:])[idx] for b in blocks]
                outs.append(sl.cossin(a, **kw))
            (u1, u2), th, (v1, v2) = outs[0]
            st = lambda k: np.stack([o[k] for o in outs]).reshape(nb + outs[0][k].shape)
            res = ((np.zeros(nb + u1.shape, u1.dtype), np.zeros(nb + u2.shape)), st(1),
                   (np.zeros(nb + v1.shape), np.zeros(nb + v2.shape)))
        else:
            res = sl.cossin(arg, **kw)
    except ValueError:
        error = "value_error"
    params = {}
    if blocks is None:
        params["x"] = suite.array(case + "_x", x)
    else:
        for k, b in zip(["x11", "x12", "x21", "x22"], blocks):
            params[k] = suite.array(f"{case}_{k}", b)
    rtol = atol = 0.0
    dt = None
    if res is not None:
        if separate:
            (u1, u2), theta, (v1h, v2h) = res
            params["theta"] = suite.array(case + "_theta", theta)
            for k, a in [("u1", u1), ("u2", u2), ("v1h", v1h), ("v2h", v2h)]:
                params["shape_" + k] = list(a.shape)
            dt = u1.dtype
        else:
            u, cs, vdh = res
            params["cs"] = suite.array(case + "_cs", cs)
            params["shape_u"] = list(u.shape)
            params["shape_vdh"] = list(vdh.shape)
            dt = u.dtype
        eps = float(np.finfo(dt).eps)
        rtol = atol = 1000 * eps
    suite.case(case, func="cossin", rtol=float(f"{rtol:.3g}"), atol=float(f"{atol:.3g}"), error=error,
               blocks=blocks is not None, p=p, q=q, separate=separate, swap_sign=swap_sign, compute_u=compute_u,
               compute_vh=compute_vh, **params)


def main():
    suite.group("cossin")
    for dn, dt in DT.items():
        for m, p, q in [(2, 1, 1), (4, 2, 2), (5, 2, 3), (6, 4, 1), (7, 2, 5), (9, 3, 3), (24, 10, 7)]:
            for separate in [False, True]:
                for swap in [False, True]:
                    add(f"cs_{dn}_m{m}_p{p}_q{q}_s{int(separate)}_w{int(swap)}", unitary(m, dt), p=p, q=q,
                        separate=separate, swap_sign=swap)
    x = unitary(6, np.float64)
    for cu in [False, True]:
        for cv in [False, True]:
            for separate in [False, True]:
                add(f"cs_compute_u{int(cu)}_v{int(cv)}_s{int(separate)}", x, p=2, q=4, separate=separate,
                    compute_u=cu, compute_vh=cv)
    add("cs_only_p", x, p=3)
    add("cs_only_q", x, q=2)
    add("cs_batch_f64", unitary(5, np.float64, (2, 3)), p=2, q=2)
    add("cs_batch_c64_sep", unitary(4, np.complex64, (3,)), p=1, q=3, separate=True, per_slice=True)
    add("cs_int_promoted", np.eye(4, dtype=np.int32)[[1, 0, 3, 2]], p=2, q=2)
    # the four blocks given separately (SciPy's iterable X), with broadcasting batch dimensions
    x = unitary(5, np.float64)
    add("cs_blocks", blocks=[x[:2, :3], x[:2, 3:], x[2:, :3], x[2:, 3:]])
    xb = unitary(5, np.complex128, (2,))
    add("cs_blocks_batch", blocks=[xb[:, :2, :2], xb[:, :2, 2:], xb[:, 2:, :2], xb[:, 2:, 2:]], separate=True,
        per_slice=True)
    xs = np.stack([xb[0], xb[0]])  # the same matrix twice, so that x11 broadcasts
    add("cs_blocks_bcast", blocks=[xs[0, :2, :2], xs[:, :2, 2:], xs[:, 2:, :2], xs[:, 2:, 2:]])
    # an array whose first axis holds four equal-shape blocks (SciPy iterates over it)
    x = unitary(4, np.float64)
    add("cs_array_of_blocks", np.stack([x[:2, :2], x[:2, 2:], x[2:, :2], x[2:, 2:]]))
    # errors
    x = unitary(4, np.float64)
    add("cs_p_too_big", x, p=4, q=2)
    add("cs_q_negative", x, p=2, q=-1)
    add("cs_not_square", rng.standard_normal((4, 5)), p=2, q=2)
    bad = x.copy()
    bad[0, 0] = np.nan
    add("cs_nan", bad, p=2, q=2)
    add("cs_not_four", x)
    add("cs_bad_x12", blocks=[x[:2, :2], x[:2, :1], x[2:, :2], x[2:, 2:]])
    add("cs_not_square_blocks", blocks=[x[:2, :2], x[:2, 2:], x[2:, :2], x[2:, 2:3]])
    suite.write()


if __name__ == "__main__":
    main()

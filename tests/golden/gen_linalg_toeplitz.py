"""Reference data for cusci::linalg's toeplitz family (solve_toeplitz, matmul_toeplitz, solve_circulant),
from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_toeplitz/.

Every case: func (the SciPy name); inputs: `c`, optional `r` (absent: SciPy's c_or_cr is c alone), and
`b` (solve_toeplitz, solve_circulant) or `x` (matmul_toeplitz) name stored arrays; layout C | F (the
test makes Fortran-ordered device copies) | strided (stored inputs have their last axis doubled and the
test takes the view [..., ::2]); keyword arguments under SciPy's names (check_finite; singular, tol
(null = not given), caxis, baxis, outaxis); expected: the result, or error: lin_alg_error |
value_error | index_error. Tolerances from the conditioning of the systems and the precision SciPy computes
in (solve_circulant: NumPy 2's FFT keeps float32 / complex64 inputs in single precision, so one such input
makes the result single-precision accurate whatever its dtype).
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT as DT4, case_adder, rand_maker, storer

suite = Suite("linalg_toeplitz")
rng = suite.rng(20261204)
DT = {**DT4, "i32": np.int32}
ERRORS = ((np.linalg.LinAlgError, "lin_alg_error"), (IndexError, "index_error"), (ValueError, "value_error"))
rand = rand_maker(rng, ints_rounded=True)
stored = storer(suite)
add = case_adder(suite, stored, ERRORS)  # runs SciPy, stores the inputs and the outcome


def eps(dt):
    dt = np.dtype(dt)
    return float(np.finfo(dt).eps) if dt.kind in "fc" else 0.0


def t_matrix(c, r):
    """Dense Toeplitz matrices (batch..., M, N) of c (..., M) and r (..., N) (r[0] ignored)."""
    c = np.asarray(c)
    r = np.asarray(r)
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = np.broadcast_to(c, batch + c.shape[-1:])
    r = np.broadcast_to(r, batch + r.shape[-1:])
    m, n = c.shape[-1], r.shape[-1]
    t = np.empty(batch + (m, n), np.result_type(c, r, np.float64))
    for i in range(m):
        for j in range(n):
            t[..., i, j] = c[..., i - j] if i >= j else r[..., j - i]
    return t


def solve_tol(c, r, out):
    """Tolerance from cond(T) (the results are float64/complex128 whatever the inputs)."""
    out = np.asarray(out)
    if out.size == 0:
        return 0.0, 0.0
    t = t_matrix(c, np.conj(c) if r is None else r).astype(np.complex128)
    cond = np.linalg.cond(t.reshape((-1,) + t.shape[-2:])).max()
    rt = max(2000 * eps(np.float64) * cond, 1e-12)
    return float(f"{rt:.3g}"), float(f"{rt * max(1.0, float(np.abs(out).max())):.3g}")


def toeplitz_inputs(n, dt, batch_c=(), batch_r=None, dominant=True):
    c = rand(batch_c + (n,), dt)
    r = None if batch_r is None else rand(batch_r + (n,), dt)
    if dominant and n:
        c[..., 0] = c[..., 0] + (np.sign(c[..., 0].real) + (c[..., 0].real == 0)) * (2 + n)
    return c, r


def gen_solve_toeplitz():
    f = "solve_toeplitz"
    for dname in ("f64", "c128", "f32", "c64", "i32"):
        dt = DT[dname]
        for n in (1, 2, 5, 17, 33, 100):
            for with_r in (False, True):
                for bshape in ((n,), (n, 1), (n, 3), (n, 40)):
                    if dname in ("f32", "c64", "i32") and (n > 33 or bshape[-1:] == (40,)):
                        continue
                    c, r = toeplitz_inputs(n, dt, batch_r=() if with_r else None)
                    b = rand(bshape, dt if dname != "i32" else np.float64)
                    ins = dict(c=c, b=b) if r is None else dict(c=c, r=r, b=b)
                    cr = c if r is None else (c, r)
                    out = sl.solve_toeplitz(cr, b)
                    rt, at = solve_tol(c, r, out)
                    bs = "x".join(map(str, bshape))
                    add(f"st_{dname}_n{n}_r{int(with_r)}_b{bs}", f, lambda cr=cr, b=b: sl.solve_toeplitz(cr, b), ins,
                        rtol=rt, atol=at)
    # non-dominant (still nonsingular leading minors) and a Hermitian one without r
    c = rand((12,), np.complex128)
    c[0] = 4.0
    add("st_hermitian_c", f, lambda: sl.solve_toeplitz(c, c[::-1].copy()), dict(c=c, b=c[::-1].copy()),
        rtol=solve_tol(c, None, sl.solve_toeplitz(c, c))[0] * 10, atol=1e-9)
    c, r = toeplitz_inputs(9, np.float64, batch_r=(), dominant=False)
    b = rand((9, 2), np.float64)
    out = sl.solve_toeplitz((c, r), b)
    rt, at = solve_tol(c, r, out)
    add("st_generic_f64", f, lambda: sl.solve_toeplitz((c, r), b), dict(c=c, r=r, b=b), rtol=rt * 10, atol=at * 10)
    # layouts
    for layout in ("F", "strided"):
        c, r = toeplitz_inputs(7, np.float64, batch_c=(3,), batch_r=(3,))
        b = rand((3, 7, 4), np.float64)
        out = sl.solve_toeplitz((c, r), b)
        rt, at = solve_tol(c, r, out)
        add(f"st_layout_{layout}", f, lambda c=c, r=r, b=b: sl.solve_toeplitz((c, r), b), dict(c=c, r=r, b=b),
            layout=layout, rtol=rt, atol=at)
    # batches and broadcasting
    batches = {
        "c3_bvec": ((3,), None, (6,)),
        "c3_bmat": ((3,), None, (3, 6, 2)),
        "c2x1_r3_b": ((2, 1), (3,), (2, 3, 6, 2)),
        "b4_only": ((), None, (4, 6, 2)),
        "r_only": ((), (5,), (6,)),
        "c1_b2": ((1,), None, (2, 6, 1)),
    }
    for name, (bc, br, bshape) in batches.items():
        c, r = toeplitz_inputs(6, np.complex128 if "r_only" in name else np.float64, batch_c=bc, batch_r=br)
        b = rand(bshape, np.float64)
        cr = c if r is None else (c, r)
        out = sl.solve_toeplitz(cr, b)
        rt, at = solve_tol(c, r, out)
        ins = dict(c=c, b=b) if r is None else dict(c=c, r=r, b=b)
        add(f"st_batch_{name}", f, lambda cr=cr, b=b: sl.solve_toeplitz(cr, b), ins, rtol=rt, atol=at)
    big_c, _ = toeplitz_inputs(300, np.float64)
    big_b = rand((300, 2), np.float64)
    out = sl.solve_toeplitz(big_c, big_b)
    rt, at = solve_tol(big_c, None, out)
    add("st_n300", f, lambda: sl.solve_toeplitz(big_c, big_b), dict(c=big_c, b=big_b), rtol=rt, atol=at)
    # empty
    e = np.zeros(0)
    add("st_empty_vec", f, lambda: sl.solve_toeplitz(e, e), dict(c=e, b=e))
    add("st_empty_k0", f, lambda: sl.solve_toeplitz(np.array([2.0, 1.0]), np.zeros((2, 0))),
        dict(c=np.array([2.0, 1.0]), b=np.zeros((2, 0))))
    add("st_empty_n0_k3", f, lambda: sl.solve_toeplitz(e, np.zeros((0, 3))), dict(c=e, b=np.zeros((0, 3))))
    add("st_empty_c64", f, lambda: sl.solve_toeplitz(e.astype(np.complex64), e), dict(c=e.astype(np.complex64), b=e))
    # singular leading minors
    add("st_singular_c0", f, lambda: sl.solve_toeplitz(np.array([0.0, 1, 2]), np.ones(3)),
        dict(c=np.array([0.0, 1, 2]), b=np.ones(3)))
    c2, r2 = np.array([1.0, 1.0, 0.5]), np.array([1.0, 1.0, 3.0])
    add("st_singular_minor2", f, lambda: sl.solve_toeplitz((c2, r2), np.ones(3)), dict(c=c2, r=r2, b=np.ones(3)))
    cb = np.stack([toeplitz_inputs(3, np.float64)[0], np.array([0.0, 1.0, 1.0]), toeplitz_inputs(3, np.float64)[0]])
    add("st_singular_batch", f, lambda: sl.solve_toeplitz(cb, np.ones(3)), dict(c=cb, b=np.ones(3)))
    # errors
    c3 = np.array([4.0, 1.0, 0.5])
    add("st_bad_r_len", f, lambda: sl.solve_toeplitz((c3, np.ones(2)), np.ones(3)), dict(c=c3, r=np.ones(2), b=np.ones(3)))
    add("st_bad_b_len", f, lambda: sl.solve_toeplitz(c3, np.ones(2)), dict(c=c3, b=np.ones(2)))
    add("st_bad_b_rows", f, lambda: sl.solve_toeplitz(c3, np.ones((2, 3))), dict(c=c3, b=np.ones((2, 3))))
    add("st_c_0d", f, lambda: sl.solve_toeplitz(np.array(4.0), np.ones(1)), dict(c=np.array(4.0), b=np.ones(1)))
    add("st_b_0d", f, lambda: sl.solve_toeplitz(np.array([4.0]), np.array(1.0)), dict(c=np.array([4.0]), b=np.array(1.0)))
    add("st_zero_batch", f, lambda: sl.solve_toeplitz(np.ones((0, 3)), np.ones(3)), dict(c=np.ones((0, 3)), b=np.ones(3)))
    add("st_batch_mismatch", f, lambda: sl.solve_toeplitz(np.ones((2, 3)) * c3, np.ones((3, 3, 1))),
        dict(c=np.ones((2, 3)) * c3, b=np.ones((3, 3, 1))))
    for where in ("c", "r", "b"):
        ins = dict(c=c3.copy(), r=c3.copy(), b=np.ones(3))
        ins[where][1] = np.inf if where != "b" else np.nan
        add(f"st_nonfinite_{where}", f, lambda ins=ins: sl.solve_toeplitz((ins["c"], ins["r"]), ins["b"]), ins)
    ins = dict(c=c3.copy(), b=np.ones(3))
    ins["c"][2] = np.inf
    add("st_nonfinite_c_alone", f, lambda: sl.solve_toeplitz(ins["c"], ins["b"]), ins)


def mm_tol(c, r, x, out):
    out = np.asarray(out)
    if out.size == 0:
        return 0.0, 0.0
    scale = (np.abs(c).sum(axis=-1).max() + (np.abs(r).sum(axis=-1).max() if r is not None else 0)) * max(
        1.0, float(np.abs(x).max()) if np.size(x) else 1.0)
    return 1e-10, float(f"{1e-12 * max(scale, 1.0):.3g}")


def gen_matmul_toeplitz():
    f = "matmul_toeplitz"
    for dname in ("f64", "c128", "f32", "i32"):
        dt = DT[dname]
        for m, n in ((1, 1), (4, 4), (5, 3), (3, 7), (64, 50), (257, 129)):
            for with_r in (False, True):
                if not with_r and m != n:
                    continue
                for xs in ((n,), (n, 1), (n, 5)):
                    c = rand((m,), dt)
                    r = rand((n,), dt) if with_r else None
                    x = rand(xs, dt)
                    cr = c if r is None else (c, r)
                    out = sl.matmul_toeplitz(cr, x)
                    rt, at = mm_tol(c, r, x, out)
                    ins = dict(c=c, x=x) if r is None else dict(c=c, r=r, x=x)
                    add(f"mt_{dname}_m{m}_n{n}_r{int(with_r)}_x{'x'.join(map(str, xs))}", f,
                        lambda cr=cr, x=x: sl.matmul_toeplitz(cr, x), ins, rtol=rt, atol=at, check_finite=False)
    # mixed dtypes, layouts, batches
    c, r, x = rand((6,), np.float32), rand((4,), np.complex64), rand((4, 2), np.int32)
    add("mt_mixed", f, lambda: sl.matmul_toeplitz((c, r), x), dict(c=c, r=r, x=x),
        rtol=1e-10, atol=mm_tol(c, r, x, sl.matmul_toeplitz((c, r), x))[1], check_finite=False)
    for layout in ("F", "strided"):
        c, r, x = rand((2, 6), np.float64), rand((2, 5), np.float64), rand((2, 5, 3), np.float64)
        out = sl.matmul_toeplitz((c, r), x)
        add(f"mt_layout_{layout}", f, lambda c=c, r=r, x=x: sl.matmul_toeplitz((c, r), x), dict(c=c, r=r, x=x),
            layout=layout, rtol=1e-10, atol=mm_tol(c, r, x, out)[1], check_finite=True)
    batches = {
        "c3_xvec": ((3,), None, (5,)),
        "c2x1_r3": ((2, 1), (3,), (2, 3, 5, 2)),
        "x4_only": ((), (), (4, 5, 3)),
        "cplx_c_only": ((3,), None, (5, 1)),
    }
    for name, (bc, br, xs) in batches.items():
        dt = np.complex128 if "cplx" in name else np.float64
        c = rand(bc + (5,), dt)
        r = None if br is None else rand(br + (5,), np.float64)
        x = rand(xs, np.float64)
        cr = c if r is None else (c, r)
        out = sl.matmul_toeplitz(cr, x)
        ins = dict(c=c, x=x) if r is None else dict(c=c, r=r, x=x)
        add(f"mt_batch_{name}", f, lambda cr=cr, x=x: sl.matmul_toeplitz(cr, x), ins, rtol=1e-10,
            atol=mm_tol(c, r, x, out)[1], check_finite=False)
    # empty
    add("mt_empty_k0", f, lambda: sl.matmul_toeplitz((np.ones(3), np.ones(4)), np.zeros((4, 0))),
        dict(c=np.ones(3), r=np.ones(4), x=np.zeros((4, 0))), check_finite=False)
    add("mt_empty_m0", f, lambda: sl.matmul_toeplitz((np.zeros(0), np.ones(3)), np.ones(3)),
        dict(c=np.zeros(0), r=np.ones(3), x=np.ones(3)), check_finite=False)
    add("mt_empty_all", f, lambda: sl.matmul_toeplitz(np.zeros(0), np.zeros((0, 2))),
        dict(c=np.zeros(0), x=np.zeros((0, 2))), check_finite=False)
    # errors
    add("mt_bad_len", f, lambda: sl.matmul_toeplitz((np.ones(3), np.ones(4)), np.ones(3)),
        dict(c=np.ones(3), r=np.ones(4), x=np.ones(3)), check_finite=False)
    add("mt_x_3d_core", f, lambda: sl.matmul_toeplitz((np.ones(3), np.ones(4)), np.ones((4, 2, 2))),
        dict(c=np.ones(3), r=np.ones(4), x=np.ones((4, 2, 2))), check_finite=False)
    add("mt_x_0d", f, lambda: sl.matmul_toeplitz(np.ones(1), np.array(2.0)), dict(c=np.ones(1), x=np.array(2.0)),
        check_finite=False)
    add("mt_zero_batch", f, lambda: sl.matmul_toeplitz(np.ones((0, 3)), np.ones(3)), dict(c=np.ones((0, 3)), x=np.ones(3)),
        check_finite=False)
    xi = np.ones(3)
    xi[1] = np.inf
    add("mt_nonfinite_checked", f, lambda: sl.matmul_toeplitz(np.ones(3), xi, check_finite=True),
        dict(c=np.ones(3), x=xi), check_finite=True)


def fft_eps(x):
    """eps of the precision NumPy 2's np.fft.fft computes x in: complex64 for float16/float32/complex64
    input (kept single precision), complex128 for everything else."""
    return eps(np.fft.fft(np.ones(1, np.asarray(x).dtype)).dtype)


def circ_tol(c, b, out, caxis=-1):
    """Tolerance of solve_circulant from the conditioning of the circulant and the precision SciPy computes
    in: fft(c) and fft(b) each in the precision of its own input (NumPy 2's FFT keeps single precision),
    so a float32 c or b limits the result to float32 accuracy even when the result is float64/complex128
    (fb / fc promotes the dtype, not the accuracy of the transform already done)."""
    out = np.asarray(out)
    if out.size == 0:
        return 0.0, 0.0
    fc = np.abs(np.fft.fft(np.moveaxis(np.atleast_1d(c), caxis, -1).astype(np.complex128), axis=-1))
    mx = fc.max(axis=-1, keepdims=True)
    kept = np.where(fc > mx * fc.shape[-1] * 1e-6, fc, np.inf)  # least squares: near-zero ones masked
    cond = float((mx[..., 0] / np.maximum(kept.min(axis=-1), 1e-300)).max())
    e = max(eps(out.dtype), fft_eps(c), fft_eps(b))
    rt = max(100 * e * min(cond, 1e6), 20 * e)
    return float(f"{rt:.3g}"), float(f"{rt * max(1.0, float(np.abs(out).max())):.3g}")


def gen_solve_circulant():
    f = "solve_circulant"
    kw0 = dict(singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0)

    def run(case, c, b, layout="C", **kw):
        k = dict(kw0)
        k.update(kw)
        call = lambda: sl.solve_circulant(c, b, **k)  # noqa: E731
        out = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = call()
        except Exception:  # noqa: BLE001 - recorded by add()
            pass
        rt, at = (0.0, 0.0) if out is None else circ_tol(c, b, out, k["caxis"])
        add(case, f, call, dict(c=c, b=b), layout=layout, rtol=rt, atol=at, **k)

    for cname, cdt in (("f64", np.float64), ("f32", np.float32), ("c64", np.complex64), ("c128", np.complex128),
                       ("i32", np.int32)):
        for n in (1, 2, 5, 16, 100):
            c = rand((n,), cdt)
            if n and cname != "i32":
                c[0] += cdt(2 + n)
            elif n:
                c[0] = 3 * n + 1
            for bname, bdt in (("same", cdt), ("f64", np.float64), ("f32", np.float32)):
                if bname != "same" and n not in (5,):
                    continue
                run(f"sc_{cname}_n{n}_b{bname}_vec", c, rand((n,), bdt))
                run(f"sc_{cname}_n{n}_b{bname}_mat", c, rand((n, 3), bdt))
    # axes and broadcasting (the SciPy docstring's example and variants)
    c = np.array([[1.5, 2, 3, 0, 0], [1, 1, 4, 3, 2]])
    b = np.arange(15.0).reshape(-1, 5)
    run("sc_doc_broadcast", c[:, np.newaxis, :], b, baxis=-1, outaxis=-1)
    run("sc_doc_outaxis0", c[:, np.newaxis, :], b, baxis=-1)
    run("sc_doc_outaxis1", c[:, np.newaxis, :], b, baxis=-1, outaxis=1)
    run("sc_caxis0", rand((5, 2), np.float64) + np.array([[8.0, 9.0]] + [[0, 0]] * 4), rand((5, 2), np.float64),
        caxis=0, baxis=0, outaxis=-1)
    run("sc_b3d_baxis1", c[0] + 0, rand((2, 5, 3), np.float64), baxis=1)
    run("sc_0d", np.array(2.0), np.array(3.0))
    for layout in ("F", "strided"):
        cc = rand((2, 6), np.float64)
        cc[:, 0] += 10
        run(f"sc_layout_{layout}", cc[:, None, :], rand((3, 6), np.float64), layout=layout, baxis=-1, outaxis=-1)
    # singular
    cs = np.array([1.0, 1, 0, 0])
    run("sc_singular_raise", cs, np.arange(4.0))
    run("sc_singular_lstsq", cs, np.arange(4.0) + 1, singular="lstsq")
    run("sc_singular_lstsq_c", cs.astype(np.complex128), np.arange(4.0) + 1j, singular="lstsq")
    run("sc_singular_other_string", cs, np.arange(4.0) + 1, singular="foo")
    run("sc_singular_lstsq_bvec_batch_c", np.stack([cs, np.array([4.0, 1, 0, 0])]), np.arange(4.0) + 1,
        singular="lstsq", outaxis=-1)
    run("sc_singular_lstsq_f32", cs.astype(np.float32), (np.arange(4.0) + 1).astype(np.float32), singular="lstsq")
    cn = np.array([3.0, 1.0, 0.5, 0.25])
    run("sc_tol_raise", cn, np.ones(4), tol=10.0)
    run("sc_tol_lstsq", cn, np.ones(4), tol=2.0, singular="lstsq")
    run("sc_tol_small", cn, np.ones(4), tol=1e-3)
    run("sc_nonfinite", np.array([1.0, np.inf, 0, 0]), np.ones(4))
    # empty
    run("sc_empty_b", np.zeros((3, 0)), np.zeros((0,)))
    run("sc_empty_n0", np.zeros((0,)), np.zeros((0, 2)))
    run("sc_empty_f32", np.zeros((0,), np.float32), np.zeros((0,), np.float32))
    # errors
    run("sc_bad_caxis", np.ones(3), np.ones(3), caxis=2)
    run("sc_bad_baxis", np.ones(3), np.ones(3), baxis=-2)
    run("sc_len_mismatch", np.ones(3), np.ones(4))
    run("sc_bad_outaxis", np.array([3.0, 1, 0]), np.ones(3), outaxis=2)
    run("sc_no_broadcast", np.ones((2, 3)) + np.array([5.0, 0, 0]), np.ones((4, 3)), baxis=-1)


def main():
    gen_solve_toeplitz()
    gen_matmul_toeplitz()
    gen_solve_circulant()
    suite.write()


if __name__ == "__main__":
    main()

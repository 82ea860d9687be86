"""Reference data for cusci::linalg's schur family (schur, rsf2csf, hessenberg, matrix_balance, qz, ordqz,
cdf2rdf), from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_schur/.

Every case: func, the inputs as stored arrays (<case>_a, _b, _t, _z, _w, _v), layout C | F | strided
(stored with the last axis doubled; the test takes [..., ::2]), the options as SciPy's keywords, and error
(a cusci exception name) or the expectations. Schur vectors and forms are not unique, so the tests check:
- the dtypes SciPy returns (dtype_0, dtype_1, ...) and the shapes;
- reconstructions (a = z t z^H; a = q aa z^H, b = q bb z^H; a = q h q^H; b = t^-1 a t), unitarity, and the
  structure ((quasi-)upper triangular, upper Hessenberg), with tol (relative to the input's max-abs
  norm times n);
- eigenvalues as multisets: w (the eigenvalues of a, or of the pencil as alpha / beta with infinite ones
  left out), and for sorted calls sdim / m and w_sel, the multiset of the leading selected eigenvalues;
- cdf2rdf and matrix_balance (?gebal is deterministic) elementwise against SciPy's results.
"""
import numpy as np
import scipy.linalg as sl

from golden import Suite

suite = Suite("linalg_schur")
rng = suite.rng(20261204)
DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def is_c(dt):
    return np.issubdtype(np.dtype(dt), np.complexfloating)


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if is_c(dt):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def store(name, a, layout):
    """Stores input a (strided: the last axis doubled, the logical input at the even positions)."""
    a = np.asarray(a)
    if layout == "strided" and a.ndim >= 1:
        s = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        s[..., ::2] = a
        return suite.array(name, s)
    return suite.array(name, a)


def rtol_of(dt):
    return 2e-4 if np.dtype(dt) in (np.float32, np.complex64, np.float16) else 1e-10


def flat(x, core):
    x = np.asarray(x)
    return x.reshape((-1,) + x.shape[x.ndim - core:]) if x.ndim >= core else x


def eig_multiset(t):
    """Eigenvalues of each (quasi-)triangular matrix of the stack t (complex128, (batch, n))."""
    t = flat(t, 2)
    return np.array([np.linalg.eigvals(m.astype(np.complex128)) if m.shape[0] else np.zeros(0, complex)
                     for m in t])


def save_w(name, w):
    return suite.array(name, np.asarray(w, np.complex128))


# --- schur ----------------------------------------------------------------------------------------------
suite.group("schur")
SORTS = {"lhp": lambda w: w.real < 0, "rhp": lambda w: w.real >= 0, "iuc": lambda w: abs(w) <= 1,
         "ouc": lambda w: abs(w) > 1}


def schur_case(name, a, layout="C", **kw):
    a = np.asarray(a)
    res = sl.schur(a, **kw)
    t, z = res[0], res[1]
    params = dict(a=store(name + "_a", a, layout), layout=layout, dtype_0=t.dtype.name, dtype_1=z.dtype.name,
                  w=save_w(name + "_w", eig_multiset(a)), tol=rtol_of(t.dtype) * 10,
                  **{k: v for k, v in kw.items()})
    if "sort" in kw:
        sdim = np.asarray(res[2], np.int64)
        params["sdim"] = suite.array(name + "_sdim", sdim)
        tt = flat(t, 2)
        sd = sdim.reshape(-1)
        k = int(sd.max()) if sd.size else 0
        # leading selected eigenvalues (padded with nan when the batch's sdim differ)
        wsel = np.full((tt.shape[0], k), np.nan + 0j)
        for i, m in enumerate(tt):
            if sd[i]:
                wsel[i, :sd[i]] = np.linalg.eigvals(m[:sd[i], :sd[i]].astype(np.complex128))
        params["w_sel"] = save_w(name + "_wsel", wsel)
    suite.case(name, "schur", **params)


for tag in ["f64", "f32", "c128", "c64"]:
    schur_case(f"schur_{tag}_n6", rand((6, 6), DT[tag]))
schur_case("schur_f64_complex", rand((5, 5), np.float64), output="complex")
schur_case("schur_f32_c", rand((5, 5), np.float32), output="c")
schur_case("schur_f64_r", rand((4, 4), np.float64), output="r")
schur_case("schur_int", rng.integers(-4, 5, (5, 5)).astype(np.int64))
schur_case("schur_int_complex", rng.integers(-4, 5, (4, 4)).astype(np.int32), output="complex")
schur_case("schur_f64_F", rand((7, 7), np.float64), layout="F")
schur_case("schur_c128_strided", rand((5, 5), np.complex128), layout="strided")
schur_case("schur_batch", rand((2, 3, 4, 4), np.float64))
schur_case("schur_batch_c64", rand((3, 5, 5), np.complex64))
schur_case("schur_1x1", np.array([[3.0]]))
schur_case("schur_n40", rand((40, 40), np.float64))
schur_case("schur_lwork", rand((4, 4), np.float64), lwork=40)
for s in SORTS:
    schur_case(f"schur_sort_{s}_f64", rand((8, 8), np.float64) * 0.6, sort=s)
    schur_case(f"schur_sort_{s}_c128", rand((6, 6), np.complex128) * 0.5, sort=s)
schur_case("schur_sort_lhp_complexout", rand((6, 6), np.float64), sort="lhp", output="complex")
schur_case("schur_sort_batch", rand((3, 6, 6), np.float64), sort="lhp")
schur_case("schur_sort_f32", rand((6, 6), np.float32), sort="iuc")
# empty matrices
suite.case("schur_empty", "schur", a=suite.array("schur_empty_a", np.zeros((0, 0))), layout="C",
           dtype_0="float64", dtype_1="float64", empty=True)
suite.case("schur_empty_sorted", "schur", a=suite.array("schur_empty_sorted_a", np.zeros((2, 0, 0))),
           layout="C", dtype_0="float64", dtype_1="float64", empty=True, sort="lhp",
           sdim=suite.array("schur_empty_sorted_sdim", np.zeros(2, np.int64)))
# errors
suite.case("schur_err_square", "schur", error="value_error", a=suite.array("schur_err_square_a", np.ones((3, 4))),
           layout="C")
suite.case("schur_err_1d", "schur", error="value_error", a=suite.array("schur_err_1d_a", np.ones(3)), layout="C")
suite.case("schur_err_output", "schur", error="value_error", a=suite.array("schur_err_output_a", np.eye(3)),
           layout="C", output="hermitian")
suite.case("schur_err_sort", "schur", error="value_error", a=suite.array("schur_err_sort_a", np.eye(3)),
           layout="C", sort="xyz")
x = np.eye(3)
x[1, 2] = np.nan
suite.case("schur_err_nan", "schur", error="value_error", a=suite.array("schur_err_nan_a", x), layout="C")
suite.case("schur_nan_unchecked", "schur", a=suite.array("schur_nan_unchecked_a", np.eye(3)), layout="C",
           check_finite=False, dtype_0="float64", dtype_1="float64",
           w=save_w("schur_nan_unchecked_w", np.ones((1, 3))), tol=1e-10)
suite.case("schur_err_zero_batch", "schur", error="value_error",
           a=suite.array("schur_err_zero_batch_a", np.zeros((0, 3, 3))), layout="C")
suite.case("schur_err_lwork", "schur", error="value_error", a=suite.array("schur_err_lwork_a", np.eye(4)),
           layout="C", lwork=2)

# --- rsf2csf --------------------------------------------------------------------------------------------
suite.group("rsf2csf")


def rsf2csf_case(name, t, z, layout="C"):
    r_t, r_z = sl.rsf2csf(t, z)
    a = z @ t @ np.conj(np.swapaxes(z, -1, -2))
    suite.case(name, "rsf2csf", t=store(name + "_t", t, layout), z=store(name + "_z", z, layout), layout=layout,
               a_full=suite.array(name + "_afull", a), dtype_0=r_t.dtype.name, dtype_1=r_z.dtype.name,
               w=save_w(name + "_w", eig_multiset(np.asarray(r_t))), tol=rtol_of(r_t.dtype) * 10)


for tag in ["f64", "f32"]:
    t, z = sl.schur(rand((6, 6), DT[tag]))
    rsf2csf_case(f"rsf2csf_{tag}", t, z)
t, z = sl.schur(rand((3, 5, 5), np.float64))
rsf2csf_case("rsf2csf_batch", t, z)
t, z = sl.schur(rand((7, 7), np.float64))
rsf2csf_case("rsf2csf_F", t, z, layout="F")
rsf2csf_case("rsf2csf_strided", *sl.schur(rand((4, 4), np.float64)), layout="strided")
t, z = sl.schur(rand((5, 5), np.complex128))
rsf2csf_case("rsf2csf_c128", t, z)
rsf2csf_case("rsf2csf_1x1", np.array([[2.0]]), np.array([[1.0]]))
suite.case("rsf2csf_err_square", "rsf2csf", error="value_error", t=suite.array("rsf2csf_err_square_t", np.eye(3)),
           z=suite.array("rsf2csf_err_square_z", np.ones((3, 2))), layout="C")
suite.case("rsf2csf_err_match", "rsf2csf", error="value_error", t=suite.array("rsf2csf_err_match_t", np.eye(3)),
           z=suite.array("rsf2csf_err_match_z", np.eye(2)), layout="C")
x = np.eye(3)
x[0, 2] = np.inf
suite.case("rsf2csf_err_inf", "rsf2csf", error="value_error", t=suite.array("rsf2csf_err_inf_t", x),
           z=suite.array("rsf2csf_err_inf_z", np.eye(3)), layout="C")

# --- hessenberg -----------------------------------------------------------------------------------------
suite.group("hessenberg")


def hess_case(name, a, layout="C", **kw):
    h, q = sl.hessenberg(a, calc_q=True, **kw) if np.asarray(a).ndim == 2 else (None, None)
    if h is None:
        hs = [sl.hessenberg(m, calc_q=True) for m in flat(a, 2)]
        h, q = hs[0]
    suite.case(name, "hessenberg", a=store(name + "_a", a, layout), layout=layout, dtype_0=h.dtype.name,
               dtype_1=q.dtype.name, tol=rtol_of(h.dtype) * 10, **kw)


for tag in ["f64", "f32", "c128", "c64"]:
    hess_case(f"hess_{tag}", rand((7, 7), DT[tag]))
hess_case("hess_batch", rand((2, 2, 5, 5), np.float64))
hess_case("hess_F", rand((6, 6), np.complex128), layout="F")
hess_case("hess_strided", rand((5, 5), np.float64), layout="strided")
hess_case("hess_int", rng.integers(-3, 4, (5, 5)).astype(np.int64))
hess_case("hess_n2", rand((2, 2), np.float64))
hess_case("hess_n1", rand((1, 1), np.float64))
hess_case("hess_n30", rand((30, 30), np.float64))
suite.case("hess_empty", "hessenberg", a=suite.array("hess_empty_a", np.zeros((0, 0))), layout="C",
           dtype_0="float64", dtype_1="float64", empty=True)
suite.case("hess_err_square", "hessenberg", error="value_error", a=suite.array("hess_err_square_a", np.ones((2, 3))),
           layout="C")
x = np.eye(4)
x[3, 0] = np.nan
suite.case("hess_err_nan", "hessenberg", error="value_error", a=suite.array("hess_err_nan_a", x), layout="C")

# --- matrix_balance -------------------------------------------------------------------------------------
suite.group("balance")


def bal_case(name, a, layout="C", **kw):
    a = np.asarray(a)
    b, t = sl.matrix_balance(a, **{k: v for k, v in kw.items() if k != "separate"})
    _, (sc, pe) = sl.matrix_balance(a, separate=True, **{k: v for k, v in kw.items() if k != "separate"})
    suite.case(name, "matrix_balance", a=store(name + "_a", a, layout), layout=layout, b=suite.array(name + "_b", b),
               t=suite.array(name + "_t", t), scaling=suite.array(name + "_scale", sc),
               perm=suite.array(name + "_perm", pe), dtype_0=b.dtype.name, dtype_1=t.dtype.name,
               rtol=rtol_of(b.dtype), atol=rtol_of(b.dtype) * max(1.0, float(np.abs(b).max()) if b.size else 1.0),
               tol=rtol_of(b.dtype) * 10, **kw)


def badly_scaled(n, dt, batch=()):
    a = rand(batch + (n, n), dt)
    d = 2.0 ** rng.integers(-8, 9, n)
    return (a * d[:, None] / d[None, :]).astype(dt)


bal_case("bal_f64", badly_scaled(6, np.float64))
bal_case("bal_f32", badly_scaled(5, np.float32))
bal_case("bal_c128", badly_scaled(5, np.complex128))
perm_mat = np.triu(rand((6, 6), np.float64))
perm_mat[3, 1] = 2.0
bal_case("bal_permute", perm_mat)
bal_case("bal_permute_only", perm_mat, scale=False)
bal_case("bal_scale_only", badly_scaled(5, np.float64), permute=False)
bal_case("bal_none", badly_scaled(4, np.float64), permute=False, scale=False)
bal_case("bal_F", badly_scaled(5, np.float64), layout="F")
bal_case("bal_1x1", np.array([[5.0]]))
suite.case("bal_err_square", "matrix_balance", error="value_error", a=suite.array("bal_err_square_a", np.ones((2, 3))),
           layout="C")
x = np.eye(3)
x[1, 1] = np.inf
suite.case("bal_err_inf", "matrix_balance", error="value_error", a=suite.array("bal_err_inf_a", x), layout="C")

# --- qz / ordqz -----------------------------------------------------------------------------------------
suite.group("qz")


def pencil_w(a, b):
    """Finite generalized eigenvalues of each pencil (nan padding keeps the rows equal)."""
    out = []
    for x, y in zip(*np.broadcast_arrays(flat(a, 2), flat(b, 2))):
        w = sl.eigvals(x, y) if x.shape[0] else np.zeros(0)
        out.append(w)
    return np.array(out, np.complex128)


def qz_case(name, a, b, layout="C", **kw):
    a, b = np.asarray(a), np.asarray(b)
    aa, bb, q, z = sl.qz(a, b, **kw)
    suite.case(name, "qz", a=store(name + "_a", a, layout), b=store(name + "_b", b, layout), layout=layout,
               dtype_0=aa.dtype.name, dtype_1=bb.dtype.name, dtype_2=q.dtype.name, dtype_3=z.dtype.name,
               w=save_w(name + "_w", pencil_w(a, b)), tol=rtol_of(aa.dtype) * 10, **kw)


for tag in ["f64", "f32", "c128", "c64"]:
    qz_case(f"qz_{tag}", rand((6, 6), DT[tag]), rand((6, 6), DT[tag]))
qz_case("qz_complex_out", rand((5, 5), np.float64), rand((5, 5), np.float64), output="complex")
qz_case("qz_mixed", rand((4, 4), np.float32), rand((4, 4), np.float64))
qz_case("qz_batch", rand((2, 4, 4), np.float64), rand((4, 4), np.float64))
qz_case("qz_F", rand((5, 5), np.float64), rand((5, 5), np.float64), layout="F")
qz_case("qz_strided", rand((4, 4), np.complex128), rand((4, 4), np.complex128), layout="strided")
qz_case("qz_int", rng.integers(-3, 4, (4, 4)), rng.integers(-3, 4, (4, 4)) + 5 * np.eye(4, dtype=int))
qz_case("qz_1x1", np.array([[2.0]]), np.array([[4.0]]))
suite.case("qz_err_sort", "qz", error="value_error", a=suite.array("qz_err_sort_a", np.eye(3)),
           b=suite.array("qz_err_sort_b", np.eye(3)), layout="C", sort="lhp")
suite.case("qz_err_shape", "qz", error="value_error", a=suite.array("qz_err_shape_a", np.eye(3)),
           b=suite.array("qz_err_shape_b", np.eye(4)), layout="C")
suite.case("qz_err_output", "qz", error="value_error", a=suite.array("qz_err_output_a", np.eye(3)),
           b=suite.array("qz_err_output_b", np.eye(3)), layout="C", output="x")
x = np.eye(3)
x[0, 0] = np.nan
suite.case("qz_err_nan", "qz", error="value_error", a=suite.array("qz_err_nan_a", np.eye(3)),
           b=suite.array("qz_err_nan_b", x), layout="C")

QZSORT = {"lhp": lambda al, be: (be != 0) & (np.real(al / np.where(be != 0, be, 1)) < 0),
          "rhp": lambda al, be: (be != 0) & (np.real(al / np.where(be != 0, be, 1)) > 0),
          "iuc": lambda al, be: (be != 0) & (abs(al / np.where(be != 0, be, 1)) < 1),
          "ouc": lambda al, be: np.where(be == 0, al != 0, abs(al / np.where(be != 0, be, 1)) > 1)}


def ordqz_case(name, a, b, layout="C", sort="lhp", **kw):
    a, b = np.asarray(a), np.asarray(b)
    res = [sl.ordqz(x, y, sort=sort, **kw) for x, y in zip(*np.broadcast_arrays(flat(a, 2), flat(b, 2)))] \
        if a.ndim > 2 or b.ndim > 2 else [sl.ordqz(a, b, sort=sort, **kw)]
    aa, bb, al, be, q, z = res[0]
    ms, wsel = [], []
    for r in res:
        sel = QZSORT[sort](r[2], r[3])
        ms.append(int(sel.sum()))
    k = max(ms)
    wsel = np.full((len(res), k), np.nan + 0j)
    for i, r in enumerate(res):
        wsel[i, :ms[i]] = r[2][:ms[i]] / r[3][:ms[i]]
    suite.case(name, "ordqz", a=store(name + "_a", a, layout), b=store(name + "_b", b, layout), layout=layout,
               sort=sort, dtype_0=aa.dtype.name, dtype_1=bb.dtype.name, dtype_2=al.dtype.name,
               dtype_3=be.dtype.name, dtype_4=q.dtype.name, dtype_5=z.dtype.name,
               w=save_w(name + "_w", pencil_w(a, b)), m=suite.array(name + "_m", np.array(ms, np.int64)),
               w_sel=save_w(name + "_wsel", wsel), tol=rtol_of(aa.dtype) * 10, **kw)


for s in ["lhp", "rhp", "iuc", "ouc"]:
    ordqz_case(f"ordqz_{s}_f64", rand((6, 6), np.float64), rand((6, 6), np.float64), sort=s)
    ordqz_case(f"ordqz_{s}_c128", rand((5, 5), np.complex128), rand((5, 5), np.complex128), sort=s)
ordqz_case("ordqz_f32", rand((5, 5), np.float32), rand((5, 5), np.float32))
ordqz_case("ordqz_c64", rand((5, 5), np.complex64), rand((5, 5), np.complex64), sort="iuc")
ordqz_case("ordqz_complex_out", rand((5, 5), np.float64), rand((5, 5), np.float64), output="complex")
ordqz_case("ordqz_batch", rand((3, 4, 4), np.float64), rand((3, 4, 4), np.float64), sort="ouc")
ordqz_case("ordqz_F", rand((5, 5), np.float64), rand((5, 5), np.float64), layout="F", sort="rhp")
suite.case("ordqz_err_sort", "ordqz", error="value_error", a=suite.array("ordqz_err_sort_a", np.eye(3)),
           b=suite.array("ordqz_err_sort_b", np.eye(3)), layout="C", sort="xyz")

# --- cdf2rdf --------------------------------------------------------------------------------------------
suite.group("cdf2rdf")


def cdf_case(name, a, layout="C"):
    w, v = np.linalg.eig(a)
    wr, vr = sl.cdf2rdf(w, v)
    suite.case(name, "cdf2rdf", w=store(name + "_w", w, "C"), v=store(name + "_v", v, layout), layout=layout,
               wr=suite.array(name + "_wr", wr), vr=suite.array(name + "_vr", vr), dtype_0=wr.dtype.name,
               dtype_1=vr.dtype.name, rtol=rtol_of(vr.dtype), atol=rtol_of(vr.dtype) * 10)


cdf_case("cdf_f64", rand((6, 6), np.float64))
cdf_case("cdf_f32", rand((5, 5), np.float32))
cdf_case("cdf_batch", rand((2, 3, 5, 5), np.float64))
cdf_case("cdf_F", rand((6, 6), np.float64), layout="F")
cdf_case("cdf_real", np.diag([1.0, 2.0, 3.0]))
suite.case("cdf_err_pairs", "cdf2rdf", error="value_error",
           w=suite.array("cdf_err_pairs_w", np.array([1.0, 2 + 1j, 3.0])),
           v=suite.array("cdf_err_pairs_v", np.eye(3, dtype=complex)), layout="C")
suite.case("cdf_err_dims", "cdf2rdf", error="value_error", w=suite.array("cdf_err_dims_w", np.ones(3)),
           v=suite.array("cdf_err_dims_v", np.ones((2, 3, 3))), layout="C")
suite.case("cdf_err_count", "cdf2rdf", error="value_error", w=suite.array("cdf_err_count_w", np.ones(2)),
           v=suite.array("cdf_err_count_v", np.eye(3)), layout="C")

suite.write()

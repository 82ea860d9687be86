"""Reference data for cusci::linalg's norm family (norm with check_finite, clarkson_woodruff_transform),
from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_norm/.

norm cases: `a` names the stored input; layout C | F (Fortran-ordered device copy) | strided (the stored
input has its last axis doubled and the test takes [..., ::2]); ord as a string ("none", "fro", "nuc",
"inf", "-inf" or a number such as "2", "0.5"); axis null (none) or a list of one or two ints; keepdims;
check_finite; expected, or error: value_error | index_error | type_error.

clarkson_woodruff_transform cases (func "cwt"): `a`, sketch_size, and the sketch SciPy drew for
rng=seed (`rows`, `signs`: the csc_array's indices and data of scipy.linalg._sketches.cwt_matrix; the
generator checks that SciPy's transform equals that sketch times `a`); expected = SciPy's
clarkson_woodruff_transform(a, sketch_size, rng=seed), or error. cusci's generator cannot reproduce
NumPy's stream, so the test applies the stored sketch (exactness of the construction); the
distributional properties of cusci's own sketches are tested without references.
"""
import numpy as np
import scipy.linalg as sl
from scipy.linalg._sketches import cwt_matrix

from golden import Suite
from linalg_common import DT as DT4, case_adder, rand_maker, storer

suite = Suite("linalg_norm")
rng = suite.rng(20261205)
DT = {**DT4, "i32": np.int32, "b": np.bool_}
# IndexError: numpy's AxisError too
ERRORS = ((IndexError, "index_error"), (ValueError, "value_error"), (TypeError, "type_error"))
rand = rand_maker(rng, ints_rounded=True)
stored = storer(suite, fill=7)
add = case_adder(suite, stored, ERRORS)  # runs SciPy, stores the inputs and the outcome


def ord_str(o):
    if o is None:
        return "none"
    if isinstance(o, str):
        return o
    return repr(float(o)) if np.isfinite(o) else ("inf" if o > 0 else "-inf")


def norm_tol(dt, o):
    single = np.dtype(dt) in (np.float32, np.complex64)
    svd = o in ("nuc", 2, -2)
    if single:
        return (2e-4 if svd else 2e-5), 1e-6
    return (1e-10 if svd else 1e-12), 1e-300


def gen_norm():
    f = "norm"
    vec_ords = [None, np.inf, -np.inf, 0, 1, -1, 2, 3, 0.5, -2.5]
    mat_ords = [None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2]
    for dname in ("f64", "f32", "c128", "c64", "i32", "b"):
        dt = DT[dname]
        v = rand((7,), dt)
        for o in vec_ords:
            for kd in (False, True):
                rt, at = norm_tol(dt, o)
                add(f"n_{dname}_vec_{ord_str(o)}_kd{int(kd)}", f,
                    lambda o=o, kd=kd, v=v: sl.norm(v, o, keepdims=kd), dict(a=v), rtol=rt, atol=at,
                    ord=ord_str(o), axis=None, keepdims=kd, check_finite=True)
        m = rand((5, 4), dt)
        for o in mat_ords:
            for kd in (False, True):
                rt, at = norm_tol(dt, o)
                add(f"n_{dname}_mat_{ord_str(o)}_kd{int(kd)}", f,
                    lambda o=o, kd=kd, m=m: sl.norm(m, o, keepdims=kd), dict(a=m), rtol=rt, atol=at,
                    ord=ord_str(o), axis=None, keepdims=kd, check_finite=True)
    # axes over stacks
    t = rand((3, 4, 5), np.float64)
    for ax in ([0], [1], [-1], [0, 1], [1, 0], [-1, -2], [0, 2], [2, 0]):
        ords = vec_ords if len(ax) == 1 else mat_ords
        for o in ords:
            for kd in (False, True):
                rt, at = norm_tol(np.float64, o)
                add(f"n_stack_ax{'_'.join(map(str, ax))}_{ord_str(o)}_kd{int(kd)}", f,
                    lambda o=o, kd=kd, ax=ax: sl.norm(t, o, axis=ax[0] if len(ax) == 1 else tuple(ax), keepdims=kd),
                    dict(a=t), rtol=rt, atol=at, ord=ord_str(o), axis=ax, keepdims=kd, check_finite=True)
    t4 = rand((2, 3, 4, 2), np.complex128)
    add("n_4d_none", f, lambda: sl.norm(t4), dict(a=t4), rtol=1e-12, atol=0.0, ord="none", axis=None,
        keepdims=False, check_finite=True)
    add("n_4d_none_kd", f, lambda: sl.norm(t4, keepdims=True), dict(a=t4), rtol=1e-12, atol=0.0, ord="none",
        axis=None, keepdims=True, check_finite=True)
    add("n_4d_axes_nuc", f, lambda: sl.norm(t4, "nuc", axis=(1, 2)), dict(a=t4), rtol=1e-10, atol=0.0, ord="nuc",
        axis=[1, 2], keepdims=False, check_finite=True)
    # layouts (the LAPACK lange path of SciPy for Fortran-ordered 1 / inf norms included)
    m = rand((6, 5), np.float64)
    for layout in ("F", "strided"):
        for o in (None, 1, np.inf, "fro", 2, "nuc"):
            rt, at = norm_tol(np.float64, o)
            add(f"n_layout_{layout}_{ord_str(o)}", f, lambda o=o: sl.norm(m, o), dict(a=m), layout=layout, rtol=rt,
                atol=at, ord=ord_str(o), axis=None, keepdims=False, check_finite=True)
    # scaling: no overflow / underflow in the vector 2-norm (SciPy's nrm2)
    for name, v in (("big", np.array([1e200, -1e200, 3e199])), ("tiny", np.array([1e-200, 2e-200, -1e-210])),
                    ("big_c", np.array([1e200 + 1e200j, 3e199j])), ("big_f32", np.array([1e30, 2e30], np.float32))):
        add(f"n_scaled_{name}", f, lambda v=v: sl.norm(v), dict(a=v), rtol=1e-6 if v.dtype == np.float32 else 1e-13,
            atol=0.0, ord="none", axis=None, keepdims=False, check_finite=True)
    # empty
    for shape in ((0,), (0, 3), (3, 0)):
        e = np.zeros(shape)
        for o in ((None, 2, np.inf, 1) if len(shape) == 1 else (None, "fro", 1, np.inf)):
            add(f"n_empty_{'x'.join(map(str, shape))}_{ord_str(o)}", f, lambda e=e, o=o: sl.norm(e, o), dict(a=e),
                ord=ord_str(o), axis=None, keepdims=False, check_finite=True)
    for shape, o, ax in (((0, 3), "nuc", None), ((0, 3), 2, None), ((0, 3), -2, None), ((2, 0, 3), "nuc", [1, 2]),
                         ((2, 0, 3), 2, [1, 2]), ((0, 2, 3), 2, [1, 2]), ((0, 2, 3), "nuc", [2, 1])):
        e = np.zeros(shape)
        add(f"n_empty_sv_{'x'.join(map(str, shape))}_{ord_str(o)}", f,
            lambda e=e, o=o, ax=ax: sl.norm(e, o, axis=None if ax is None else tuple(ax)), dict(a=e), ord=ord_str(o),
            axis=ax, keepdims=False, check_finite=True)
    add("n_f16_svd", f, lambda: sl.norm(np.eye(2, dtype=np.float16), 2), dict(a=np.eye(2, dtype=np.float16)),
        ord="2.0", axis=None, keepdims=False, check_finite=True)
    add("n_empty_neg_inf", f, lambda: sl.norm(np.zeros(0), -np.inf), dict(a=np.zeros(0)), ord="-inf", axis=None,
        keepdims=False, check_finite=True)
    # check_finite
    bad = np.array([1.0, np.inf, 2.0])
    nan = np.array([[1.0, np.nan], [0.0, 1.0]])
    add("n_inf_checked", f, lambda: sl.norm(bad), dict(a=bad), ord="none", axis=None, keepdims=False, check_finite=True)
    add("n_nan_checked", f, lambda: sl.norm(nan, 1), dict(a=nan), ord="1.0", axis=None, keepdims=False,
        check_finite=True)
    add("n_inf_unchecked", f, lambda: sl.norm(bad, check_finite=False), dict(a=bad), ord="none", axis=None,
        keepdims=False, check_finite=False)
    add("n_inf_unchecked_1", f, lambda: sl.norm(bad, 1, check_finite=False), dict(a=bad), ord="1.0", axis=None,
        keepdims=False, check_finite=False)
    add("n_int_inf_free", f, lambda: sl.norm(np.arange(5)), dict(a=np.arange(5)), rtol=1e-15, ord="none", axis=None,
        keepdims=False, check_finite=True)
    # argument errors
    t3 = rand((2, 3, 4), np.float64)
    add("n_err_fro_vector", f, lambda: sl.norm(rand((3,), np.float64), "fro"), dict(a=np.ones(3)), ord="fro",
        axis=None, keepdims=False, check_finite=True)
    add("n_err_fro_axis", f, lambda: sl.norm(np.ones((2, 2)), "fro", axis=0), dict(a=np.ones((2, 2))), ord="fro",
        axis=[0], keepdims=False, check_finite=True)
    add("n_err_3d_ord", f, lambda: sl.norm(t3, 2), dict(a=t3), ord="2.0", axis=None, keepdims=False,
        check_finite=True)
    add("n_err_3_axes", f, lambda: sl.norm(t3, None, axis=(0, 1, 2)), dict(a=t3), ord="none", axis=[0, 1, 2],
        keepdims=False, check_finite=True)
    add("n_err_dup_axes", f, lambda: sl.norm(t3, None, axis=(1, 1)), dict(a=t3), ord="none", axis=[1, 1],
        keepdims=False, check_finite=True)
    add("n_err_axis_range", f, lambda: sl.norm(t3, None, axis=3), dict(a=t3), ord="none", axis=[3], keepdims=False,
        check_finite=True)
    add("n_err_mat_ord", f, lambda: sl.norm(np.ones((2, 2)), 3), dict(a=np.ones((2, 2))), ord="3.0", axis=None,
        keepdims=False, check_finite=True)
    add("n_empty_0x3_neg1", f, lambda: sl.norm(np.zeros((0, 3)), -1), dict(a=np.zeros((0, 3))), ord="-1.0",
        axis=None, keepdims=False, check_finite=True)


def gen_cwt():
    f = "cwt"

    def case(name, a, k, seed, layout="C"):
        S = cwt_matrix(k, a.shape[-2], rng=np.random.default_rng(seed))  # what rng=seed becomes
        rows = np.asarray(S.indices, np.int64)
        signs = np.asarray(S.data, np.int64)
        assert np.array_equal(np.asarray(S.indptr), np.arange(a.shape[-2] + 1))
        ref = sl.clarkson_woodruff_transform(a, k, rng=seed)
        dense = S.toarray()
        direct = np.einsum("kn,...nd->...kd", dense, a.astype(np.result_type(dense, a)))
        dt = np.dtype(ref.dtype)
        if dt.kind in "iu":
            assert np.array_equal(ref, direct)
            rt, at = 0.0, 0.0
        else:
            scale = float(np.abs(a).max()) if a.size else 1.0
            assert np.allclose(ref, direct, rtol=1e-12, atol=1e-12 * scale)
            rt, at = 1e-13, float(f"{1e-13 * max(scale, 1.0) * 4:.3g}")
        add(name, f, lambda: ref, dict(a=a, rows=rows, signs=signs), layout=layout, rtol=rt, atol=at,
            sketch_size=k, seed=seed)

    for dname in ("f64", "f32", "c128", "c64", "i32", "b"):
        dt = DT[dname]
        for n, d, k in ((1, 1, 1), (10, 3, 4), (50, 7, 10), (200, 5, 3), (64, 1, 64), (5, 9, 20)):
            case(f"cwt_{dname}_n{n}_d{d}_k{k}", rand((n, d), dt), k, 1000 + n * d + k)
    for dname, dt in (("i8", np.int8), ("u64", np.uint64), ("f16", np.float16), ("i64", np.int64)):
        case(f"cwt_{dname}", (np.abs(rand((12, 3), np.float64)) * 10).astype(dt), 5, 7)
    case("cwt_batch", rand((3, 20, 4), np.float64), 6, 11)
    case("cwt_batch2", rand((2, 3, 20, 4), np.complex128), 6, 12)
    for layout in ("F", "strided"):
        case(f"cwt_layout_{layout}", rand((2, 30, 6), np.float64), 8, 13, layout=layout)
    case("cwt_empty_n0", np.zeros((0, 3)), 2, 14)
    case("cwt_empty_d0", np.zeros((5, 0)), 2, 15)

    def err(name, a, k):
        add(name, f, lambda: sl.clarkson_woodruff_transform(a, k, rng=0), dict(a=a), sketch_size=k, seed=0)

    err("cwt_err_k0", np.ones((5, 3)), 0)
    err("cwt_err_kneg", np.ones((5, 3)), -2)
    err("cwt_err_1d", np.ones(5), 2)
    err("cwt_err_0d", np.array(1.0), 2)
    err("cwt_err_zero_batch", np.ones((0, 5, 3)), 2)


def main():
    gen_norm()
    gen_cwt()
    suite.write()


if __name__ == "__main__":
    main()

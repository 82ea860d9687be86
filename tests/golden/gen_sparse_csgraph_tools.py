"""Reference data for cusci::sparse::csgraph's representation conversions (scipy.sparse.csgraph's
_tools: csgraph_from_dense, csgraph_to_dense, csgraph_masked_from_dense, csgraph_from_masked,
csgraph_to_masked), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_csgraph_tools/.

Graph inputs: param `graph` names the input kind: "dense" (array <case>_g), "csr"/"csc" (arrays
<case>_data, <case>_indices, <case>_indptr and param shape), "coo" (<case>_data, <case>_row, <case>_col,
shape). Options as SciPy's keywords (null_value null: None). Expected: <case>_out (dense results),
<case>_out_data/_out_indices/_out_indptr (CSR results: SciPy's arrays, so the row-major order and
explicit zeros are checked), <case>_out_mask and fill_value (masked results).
Errors: `error` names the cusci exception; SciPy raises ValueError for each, except complex weights,
which SciPy casts to float64 with a ComplexWarning and cusci rejects with type_error (a documented
deviation: silently dropping the imaginary part is not done).
Tolerances: exact (the conversions copy values).
"""
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

from golden import Suite

s = Suite("sparse_csgraph_tools")
rng = s.rng(20261202)


def rand_graph(n, density, dtype=np.float64, special=True):
    a = rng.uniform(-3, 5, (n, n))
    a[rng.random((n, n)) > density] = 0
    if special and n >= 4:
        a[0, 1] = np.nan
        a[1, 2] = np.inf
        a[2, 3] = -np.inf
        a[3, 0] = 7.0
    return a.astype(dtype) if np.dtype(dtype).kind != "f" or dtype == np.float64 else a.astype(dtype)


def store_sparse(name, m):
    if m.format in ("csr", "csc"):
        s.array(name + "_data", m.data)
        s.array(name + "_indices", m.indices)
        s.array(name + "_indptr", m.indptr)
    else:
        s.array(name + "_data", m.data)
        s.array(name + "_row", m.row)
        s.array(name + "_col", m.col)
    return dict(graph=m.format, shape=list(m.shape))


def store_csr_out(name, g):
    s.array(name + "_out_data", g.data)
    s.array(name + "_out_indices", g.indices)
    s.array(name + "_out_indptr", g.indptr)


# ------------------------------------------------------------------------------------------------
s.group("from_dense")
dense_inputs = {
    "f64": rand_graph(9, 0.5),
    "f64_big": rand_graph(300, 0.05, special=False),
    "f32": rand_graph(6, 0.6).astype(np.float32),
    "i32": (rng.integers(-2, 3, (7, 7))).astype(np.int32),
    "bool": rng.random((5, 5)) > 0.5,
    "empty": np.zeros((0, 0)),
    "one": np.array([[4.0]]),
    "allnull": np.zeros((4, 4)),
}
opts = [("default", {}), ("null7", {"null_value": 7.0}), ("none", {"null_value": None}),
        ("keepnan", {"nan_null": False}), ("keepinf", {"infinity_null": False}),
        ("keepall", {"null_value": None, "nan_null": False, "infinity_null": False})]
for key, a in dense_inputs.items():
    for oname, o in opts:
        if key not in ("f64", "i32") and oname not in ("default",):
            continue
        name = f"fd_{key}_{oname}"
        s.array(name + "_g", a)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = cg.csgraph_from_dense(a, **o)
        store_csr_out(name, g)
        s.case(name, "csgraph_from_dense", graph="dense", **{k: v for k, v in o.items()},
               null_given="null_value" in o)
# F-ordered / strided dense input
a = rand_graph(8, 0.5)
s.array("fd_forder_g", a)
g = cg.csgraph_from_dense(np.asfortranarray(a))
store_csr_out("fd_forder", g)
s.case("fd_forder", "csgraph_from_dense", graph="dense", layout="F", null_given=False)
for name, arr, err in [("fd_err_nonsquare", np.zeros((2, 3)), "value_error"),
                       ("fd_err_3d", np.zeros((2, 2, 2)), "value_error"),
                       ("fd_err_complex", np.zeros((2, 2), complex), "type_error")]:
    s.array(name + "_g", arr)
    s.case(name, "csgraph_from_dense", error=err, graph="dense", null_given=False)

# ------------------------------------------------------------------------------------------------
s.group("to_dense")
dup = sp.csr_matrix((np.array([3., 1., np.nan, 0., np.inf, -2.]), np.array([1, 1, 2, 0, 0, 2]),
                     np.array([0, 3, 5, 6])), shape=(3, 3))
rnd = sp.random(40, 40, density=0.1, random_state=np.random.RandomState(3), format="csr")
rnd.data -= 0.5
explicit0 = sp.csr_matrix((np.array([0.0, 2.0, 0.0]), np.array([1, 0, 1]), np.array([0, 1, 2, 3])), shape=(3, 3))
i8 = sp.csr_matrix(np.array([[0, 1], [2, 0]], dtype=np.int8))
inputs = {"dup": dup, "rnd": rnd, "rnd_csc": rnd.tocsc(), "explicit0": explicit0, "int8": i8,
          "empty": sp.csr_matrix((0, 0)), "noedges": sp.csr_matrix((5, 5))}
for key, m in inputs.items():
    for nv in ([0.0, -1.0, np.inf] if key in ("dup", "explicit0") else [0.0]):
        name = f"td_{key}_{str(nv).replace('-', 'm')}"
        params = store_sparse(name, m)
        s.array(name + "_out", cg.csgraph_to_dense(m, null_value=nv))
        s.case(name, "csgraph_to_dense", null_value=nv, **params)
coo = sp.coo_matrix(np.eye(3))
s.case("td_err_coo", "csgraph_to_dense", error="value_error", **store_sparse("td_err_coo", coo))
s.case("td_err_nonsquare", "csgraph_to_dense", error="value_error",
       **store_sparse("td_err_nonsquare", sp.csr_matrix((2, 3))))
s.array("td_err_dense_g", np.eye(2))
s.case("td_err_dense", "csgraph_to_dense", error="value_error", graph="dense")

# ------------------------------------------------------------------------------------------------
s.group("masked")
for key, a in [("f64", rand_graph(9, 0.5)), ("i64", rng.integers(0, 3, (5, 5))), ("f32", rand_graph(6, 0.5).astype(np.float32))]:
    for oname, o in opts[:4]:
        if key != "f64" and oname not in ("default", "null7"):
            continue
        name = f"mfd_{key}_{oname}"
        s.array(name + "_g", a)
        m = cg.csgraph_masked_from_dense(a, **o)
        s.array(name + "_out", np.asarray(m.data))
        s.array(name + "_out_mask", np.ma.getmaskarray(m))
        s.case(name, "csgraph_masked_from_dense", graph="dense", fill_value=float(m.fill_value),
               null_given="null_value" in o, **{k: v for k, v in o.items()})
s.array("mfd_err_nonsquare_g", np.zeros((3, 2)))
s.case("mfd_err_nonsquare", "csgraph_masked_from_dense", error="value_error", graph="dense", null_given=False)

for key, (a, mask) in {"f64": (rand_graph(8, 0.6), rng.random((8, 8)) > 0.6),
                       "i32": (rng.integers(0, 4, (6, 6)).astype(np.int32), rng.random((6, 6)) > 0.3),
                       "nomask": (rand_graph(5, 0.5, special=False), np.zeros((5, 5), bool)),
                       "allmasked": (rand_graph(5, 0.5, special=False), np.ones((5, 5), bool))}.items():
    name = f"fm_{key}"
    s.array(name + "_g", a)
    s.array(name + "_mask", mask)
    g = cg.csgraph_from_masked(np.ma.masked_array(a, mask=mask))
    store_csr_out(name, g)
    s.case(name, "csgraph_from_masked", graph="dense")
s.array("fm_err_nonsquare_g", np.zeros((2, 3)))
s.array("fm_err_nonsquare_mask", np.zeros((2, 3), bool))
s.case("fm_err_nonsquare", "csgraph_from_masked", error="value_error", graph="dense")

for key, m in {"dup": dup, "rnd": rnd, "rnd_csc": rnd.tocsc(), "explicit0": explicit0}.items():
    name = f"tm_{key}"
    params = store_sparse(name, m)
    r = cg.csgraph_to_masked(m)
    s.array(name + "_out", np.asarray(r.data))
    s.array(name + "_out_mask", np.ma.getmaskarray(r))
    s.case(name, "csgraph_to_masked", fill_value=float(r.fill_value), **params)
s.case("tm_err_coo", "csgraph_to_masked", error="value_error", **store_sparse("tm_err_coo", coo))

s.write()

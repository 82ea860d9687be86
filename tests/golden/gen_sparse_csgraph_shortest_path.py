"""Reference data for cusci::sparse::csgraph's shortest_path family (shortest_path, dijkstra,
bellman_ford, johnson, floyd_warshall, yen, NegativeCycleError), from SciPy 1.18.1 (format and shared
code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_csgraph_shortest_path/
(the two large graphs and their cases in large.npz, the rest in sparse_csgraph_shortest_path.npz).

Graphs: a graph is stored once under a key and referred to by the case parameters
  graph (key), fmt ("csr", "csc", "coo", "dense", or "mtx": the file named by param `file` in
  CUSCI_EXAMPLE_DATA, read with mmread, values abs()+1 when `mtx_abs`), n;
  arrays g_<key>_data / _indices / _indptr (csr, csc: kept exactly, duplicates and explicit zeros
  included), g_<key>_row / _col / _data (coo), g_<key>_dense (dense).
Effective edges (for checking that predecessors realise the distances): arrays e_<key>_<d>_<u>_u,
  _v, _w (d = directed 0/1, u = unweighted 0/1): every edge an algorithm may walk (validated CSR,
  plus reversed edges when undirected; weight 1 when unweighted); param `edges` names the prefix.
Cases (func, then parameters):
  dijkstra / bellman_ford / johnson / shortest_path / floyd_warshall:
     directed, indices (null, an int, a list, or the name of an int array: param indices_array),
     return_predecessors, unweighted, limit, min_only, method, overwrite;
     expected: dist, pred (when return_predecessors), sources (min_only + predecessors);
     pred_unique: predecessors are unique (exact comparison), else only "realises the distance";
     raises: "negative_cycle_error" when SciPy raises NegativeCycleError;
     warns: UserWarning messages SciPy issued;
     deviation "dijkstra_negative": SciPy's dijkstra with negative weights is "inaccurate"; cusci
     returns exact shortest paths, so the expected values are bellman_ford's.
  yen: source, sink, K, directed, return_predecessors, unweighted; dist (costs), pred.
Errors (error = the cusci exception) with stage "host" throw before any device work: the host test
runs them on data-less dense arrays of shape `shape`.
Tolerances: distances 1e-12 relative (johnson 1e-9: the reweighting rounds); indices exact.
"""
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph as cg
from scipy.sparse.csgraph._validation import validate_graph

from golden import Suite

s = Suite("sparse_csgraph_shortest_path")
rng = s.rng(20261202)

graphs = {}  # key -> (scipy input object, n)


def add_graph(key, obj, fmt):
    """Stores graph `obj` (already in format fmt) under key."""
    if key in graphs:
        return key
    if fmt in ("csr", "csc"):
        s.array(f"g_{key}_data", obj.data)
        s.array(f"g_{key}_indices", obj.indices.astype(np.int32))
        s.array(f"g_{key}_indptr", obj.indptr.astype(np.int32))
    elif fmt == "coo":
        s.array(f"g_{key}_data", obj.data)
        s.array(f"g_{key}_row", obj.row.astype(np.int32))
        s.array(f"g_{key}_col", obj.col.astype(np.int32))
    elif fmt == "dense":
        s.array(f"g_{key}_dense", obj)
    graphs[key] = (obj, fmt, obj.shape[0])
    return key


def edges_of(key, directed, unweighted):
    name = f"e_{key}_{int(directed)}_{int(unweighted)}"
    if s.has_array(name + "_u"):
        return name
    obj = graphs[key][0]
    c = validate_graph(obj, directed, dense_output=False)
    c = sp.csr_matrix(c)
    n = c.shape[0]
    rows = np.repeat(np.arange(n), np.diff(c.indptr))
    u, v, w = rows, c.indices.astype(np.int64), c.data.astype(np.float64)
    if unweighted:
        w = np.ones_like(w)
    if not directed:
        u, v, w = np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w])
    s.array(name + "_u", u.astype(np.int32))
    s.array(name + "_v", v.astype(np.int32))
    s.array(name + "_w", w)
    return name


def pred_unique(dist, pred, eu, ev, ew):
    """True when every predecessor SciPy wrote is the only node realising the distance."""
    if pred is None:
        return True
    n = dist.shape[-1]
    if dist.size == 0:
        return True
    d2 = np.asarray(dist).reshape(-1, n)
    p2 = np.asarray(pred).reshape(-1, n)
    # distinct (u, v) pairs with their smallest weight
    order = np.lexsort((ew, ev, eu))
    eu, ev, ew = eu[order], ev[order], ew[order]
    keep = np.ones(len(eu), bool)
    keep[1:] = (eu[1:] != eu[:-1]) | (ev[1:] != ev[:-1])
    eu, ev, ew = eu[keep], ev[keep], ew[keep]
    for r in range(d2.shape[0]):
        dr = d2[r]
        tight = np.isfinite(dr[ev]) & np.isclose(dr[eu] + ew, dr[ev], rtol=1e-12, atol=0)
        cnt = np.zeros(len(dr), np.int64)
        np.add.at(cnt, ev[tight], 1)
        has = p2[r] != -9999
        if np.any(cnt[has] != 1):
            return False
    return True


def call(f, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(*a, **k)
            err = None
        except cg.NegativeCycleError:
            r, err = None, "negative_cycle_error"
        except ValueError:
            r, err = None, "value_error"
    return r, err, [str(x.message) for x in w if x.category is UserWarning]


counter = [0]


def paths_case(func, key, directed=True, indices=None, return_predecessors=True, unweighted=False,
               limit=None, min_only=False, method=None, overwrite=False, rtol=1e-12, note=None):
    counter[0] += 1
    name = f"{func}_{key}_{counter[0]}"
    obj, fmt, n = graphs[key]
    kw = dict(directed=directed, return_predecessors=return_predecessors, unweighted=unweighted)
    params = dict(graph=key, fmt=fmt, n=n, directed=directed, return_predecessors=return_predecessors,
                  unweighted=unweighted, min_only=min_only, overwrite=overwrite)
    ind_py = indices
    if isinstance(indices, np.ndarray):
        params["indices_array"] = s.array(name + "_indices", indices)
    else:
        params["indices"] = indices
    if func != "floyd_warshall":
        kw["indices"] = ind_py
    if func == "dijkstra":
        if limit is not None:
            kw["limit"] = limit
            params["limit"] = limit
        kw["min_only"] = min_only
    if func == "shortest_path":
        kw["method"] = method or "auto"
        kw["overwrite"] = False
        params["method"] = method or "auto"
    if func == "floyd_warshall":
        kw["overwrite"] = False
    f = getattr(cg, func)
    inp = obj.copy() if hasattr(obj, "copy") else obj
    r, err, warns = call(f, inp, **kw)
    deviation = None
    if func == "dijkstra" and warns:
        # cusci returns exact shortest paths for negative weights: the reference is bellman_ford's
        deviation = "dijkstra_negative"
        kw2 = {k: v for k, v in kw.items() if k not in ("limit", "min_only")}
        r, err, _ = call(cg.bellman_ford, obj, **kw2)
        if min_only and r is not None:
            raise ValueError("no min_only reference for negative weights")
    params["warns"] = warns
    params["deviation"] = deviation
    params["edges"] = edges_of(key, directed, unweighted)
    if err == "value_error":
        s.case(name, func, error="value_error", stage="gpu", **params)
        return name
    if err is not None:
        s.case(name, func, raises=err, **params)
        return name
    if return_predecessors:
        if min_only:
            dist, pred, srcs = r
            params["sources"] = s.array(name + "_sources", srcs)
        else:
            dist, pred = r
        params["pred"] = s.array(name + "_pred", pred)
    else:
        dist, pred = r, None
    params["dist"] = s.array(name + "_dist", dist)
    eu = s._groups[s._where[params["edges"] + "_u"]][params["edges"] + "_u"].astype(np.int64)
    ev = s._groups[s._where[params["edges"] + "_v"]][params["edges"] + "_v"].astype(np.int64)
    ew = s._groups[s._where[params["edges"] + "_w"]][params["edges"] + "_w"]
    params["pred_unique"] = bool(pred_unique(dist, pred, eu, ev, ew)) if pred is not None else True
    scale = float(np.abs(dist[np.isfinite(dist)]).max()) if np.isfinite(dist).any() else 1.0
    s.case(name, func, rtol=rtol, atol=rtol * max(scale, 1.0), **params)
    return name


# ---- graphs -------------------------------------------------------------------------------------------
doc = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]], float)
add_graph("doc_csr", sp.csr_matrix(doc), "csr")
add_graph("doc_csc", sp.csc_matrix(doc), "csc")
add_graph("doc_coo", sp.coo_matrix(doc), "coo")
add_graph("doc_dense", doc, "dense")


def rand_graph(n, density, lo, hi, integer=False, neg=False, seed_shift=0):
    m = sp.random(n, n, density=density, random_state=int(rng.integers(1 << 30)), format="coo")
    if integer:
        m.data = rng.integers(lo, hi + 1, size=m.nnz).astype(float)
    else:
        m.data = rng.uniform(lo, hi, size=m.nnz)
    return m.tocsr()


r30 = rand_graph(30, 0.12, 0.5, 10.0)
add_graph("r30_csr", r30, "csr")
add_graph("r30_dense", r30.toarray(), "dense")
add_graph("r30_coo", r30.tocoo(), "coo")
add_graph("r30_csc", r30.tocsc(), "csc")
r40i = rand_graph(40, 0.1, 1, 3, integer=True)
add_graph("r40i_csr", r40i, "csr")
r200 = rand_graph(200, 0.03, 0.1, 5.0)
add_graph("r200_csr", r200, "csr")
dense_fw = rand_graph(120, 0.4, 0.5, 3.0)
add_graph("d120_dense", dense_fw.toarray(), "dense")

# explicit zeros, duplicates, self-loops
ez = sp.csr_matrix((np.array([0.0, 2.0, 0.0, 1.5, 3.0]), np.array([1, 2, 3, 3, 0]), np.array([0, 2, 3, 4, 5, 5])),
                   shape=(5, 5))
add_graph("ezero_csr", ez, "csr")
dup = sp.csr_matrix((np.array([3.0, 1.0, 2.0, 5.0, 0.5, 4.0]), np.array([1, 1, 2, 2, 2, 0]),
                     np.array([0, 2, 3, 5, 6])), shape=(4, 4))
add_graph("dup_csr", dup, "csr")
dupcoo = sp.coo_matrix((np.array([3.0, 1.0, 2.0, 4.0, 1.0]), (np.array([0, 0, 1, 2, 2]), np.array([1, 1, 2, 3, 0]))),
                       shape=(4, 4))
add_graph("dup_coo", dupcoo, "coo")
sl = sp.csr_matrix(np.array([[1.0, 2, 0, 0], [0, 3, 1, 0], [0, 0, 0, 1], [4, 0, 0, 2]]))
add_graph("selfloop_csr", sl, "csr")
# disconnected: two components and an isolated node
disc = sp.block_diag([rand_graph(8, 0.3, 1, 4), rand_graph(6, 0.4, 1, 4), sp.csr_matrix((1, 1))]).tocsr()
add_graph("disc_csr", disc, "csr")
add_graph("n1_csr", sp.csr_matrix((1, 1)), "csr")
add_graph("n1loop_csr", sp.csr_matrix(np.array([[2.0]])), "csr")
add_graph("n0_csr", sp.csr_matrix((0, 0)), "csr")
add_graph("noedge_csr", sp.csr_matrix((5, 5)), "csr")
add_graph("n0_dense", np.zeros((0, 0)), "dense")
# dense with inf / nan / zeros / -inf as non-edges
dd = np.array([[0, 1, np.inf, 4], [np.nan, 0, 2, 0], [-np.inf, 0, 0, 1], [1, 0, 0, 0]], float)
add_graph("nulls_dense", dd, "dense")
# negative weights without a negative cycle (a DAG plus positive back edges)
nd = np.zeros((25, 25))
for i in range(25):
    for j in range(i + 1, min(25, i + 5)):
        if rng.random() < 0.6:
            nd[i, j] = rng.uniform(-3, 5)
    if i > 3 and rng.random() < 0.3:
        nd[i, i - 3] = rng.uniform(10, 20)
negg = sp.csr_matrix(nd)
add_graph("neg_csr", negg, "csr")
add_graph("neg_dense", nd, "dense")
# negative cycle
nc = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 2, 0], [-4, 0, 0, 1], [0, 0, 0, 0]], float))
add_graph("negcyc_csr", nc, "csr")
ncd = np.array([[0, 1, 0], [0, 0, -2], [0.5, 0, 0]], float)
add_graph("negcyc_dense", ncd, "dense")
# undirected with one negative edge
un = sp.csr_matrix(np.array([[0, 2, 0], [0, 0, -1], [0, 0, 0]], float))
add_graph("negundir_csr", un, "csr")
negself = sp.csr_matrix(np.array([[-1.0, 1], [0, 0]]))
add_graph("negself_csr", negself, "csr")
# a real graph from the bundled data (integer weights: many ties)
pgp = scipy.io.mmread(s.data("PGPgiantcompo.mtx")).tocsr()
pgp.data = np.abs(pgp.data).astype(float) + 1.0
add_graph("pgp_csr", pgp, "csr")
bus = scipy.io.mmread(s.data("1138_bus.mtx")).tocsr()
bus.data = np.abs(bus.data) + 0.01
add_graph("bus_csr", bus, "csr")

# ---- value cases ------------------------------------------------------------------------------------
for key in ["doc_csr", "doc_csc", "doc_coo", "doc_dense"]:
    for directed in (True, False):
        for func in ("dijkstra", "bellman_ford", "johnson"):
            paths_case(func, key, directed=directed)
            paths_case(func, key, directed=directed, indices=0)
            paths_case(func, key, directed=directed, indices=[2, 0], return_predecessors=False)
        paths_case("floyd_warshall", key, directed=directed)
        paths_case("shortest_path", key, directed=directed)
        paths_case("dijkstra", key, directed=directed, unweighted=True)

for key in ["r30_csr", "r30_dense", "r30_coo", "r30_csc"]:
    for directed in (True, False):
        for func in ("dijkstra", "bellman_ford", "johnson", "floyd_warshall"):
            paths_case(func, key, directed=directed)
        paths_case("dijkstra", key, directed=directed, unweighted=True)
        for m in ("auto", "FW", "D", "BF", "J"):
            paths_case("shortest_path", key, directed=directed, method=m)

for key in ["r40i_csr", "r200_csr", "ezero_csr", "dup_csr", "dup_coo", "selfloop_csr", "disc_csr", "n1_csr",
            "n1loop_csr", "n0_csr", "noedge_csr", "nulls_dense", "n0_dense"]:
    for directed in (True, False):
        for func in ("dijkstra", "bellman_ford", "johnson", "floyd_warshall"):
            paths_case(func, key, directed=directed)
            if func != "floyd_warshall":
                paths_case(func, key, directed=directed, unweighted=True, return_predecessors=False)
        paths_case("shortest_path", key, directed=directed)
        paths_case("floyd_warshall", key, directed=directed, unweighted=True)

# indices forms
for key in ["r30_csr", "disc_csr"]:
    n = graphs[key][2]
    for ind in [3, -1, [0, 5, 5, 2], [], np.array([[1, 2], [3, 4]], dtype=np.int64), np.array(7, dtype=np.int32),
                np.array([1.7, 4.2])]:
        paths_case("dijkstra", key, indices=ind)
        paths_case("bellman_ford", key, indices=ind, directed=False)
        paths_case("johnson", key, indices=ind)
        paths_case("shortest_path", key, indices=ind)

# limit and min_only
for key in ["r30_csr", "r200_csr", "r40i_csr", "disc_csr"]:
    for directed in (True, False):
        for limit in (0.0, 2.5, 6.0, float("nan")):
            paths_case("dijkstra", key, directed=directed, limit=limit)
            paths_case("dijkstra", key, directed=directed, limit=limit, indices=[0, 3])
        for ind in (None, [0], [1, 7, 7, 12], 5):
            paths_case("dijkstra", key, directed=directed, min_only=True, indices=ind)
            paths_case("dijkstra", key, directed=directed, min_only=True, indices=ind, return_predecessors=False)
            paths_case("dijkstra", key, directed=directed, min_only=True, indices=ind, limit=3.0)

# negative weights
for key in ["neg_csr", "neg_dense"]:
    for func in ("bellman_ford", "johnson", "floyd_warshall"):
        paths_case(func, key, rtol=1e-9)
        paths_case(func, key, directed=False, rtol=1e-9)  # negative cycle
    paths_case("bellman_ford", key, indices=[0, 4])
    paths_case("johnson", key, indices=[0, 4], rtol=1e-9)
    paths_case("shortest_path", key, indices=[0, 1], rtol=1e-9)
    paths_case("shortest_path", key, rtol=1e-9)
    paths_case("dijkstra", key, indices=[0, 2])  # deviation: warns, exact paths
    paths_case("johnson", key, unweighted=True)
for key in ["negcyc_csr", "negcyc_dense", "negundir_csr", "negself_csr"]:
    for directed in (True, False):
        for func in ("bellman_ford", "johnson", "floyd_warshall"):
            paths_case(func, key, directed=directed)
        paths_case("shortest_path", key, directed=directed, method="BF")
        paths_case("shortest_path", key, directed=directed, method="J", indices=0)

# larger real graphs
paths_case("dijkstra", "pgp_csr", indices=list(range(0, 10680, 800)), directed=False)
paths_case("dijkstra", "pgp_csr", indices=17, directed=True)
paths_case("dijkstra", "pgp_csr", indices=[3, 500, 9000], min_only=True)
paths_case("bellman_ford", "pgp_csr", indices=[5, 6000])
paths_case("johnson", "pgp_csr", indices=[5, 6000], rtol=1e-9)
paths_case("dijkstra", "bus_csr", indices=list(range(0, 1138, 97)))
paths_case("dijkstra", "bus_csr", indices=[10], limit=0.5)
paths_case("floyd_warshall", "r200_csr", directed=True)
paths_case("floyd_warshall", "d120_dense", directed=True)
paths_case("floyd_warshall", "d120_dense", directed=False)
paths_case("shortest_path", "d120_dense")  # auto -> FW

# overwrite (dense float64 input; the C++ test checks that the input now holds the result)
paths_case("floyd_warshall", "r30_dense", overwrite=True)
paths_case("shortest_path", "r30_dense", method="FW", overwrite=True)

# ---- both relaxation paths on large graphs ---------------------------------------------------------------
# With non-negative weights the relaxation runs in one thread block per source row when N <= 2^17 and the
# relaxed CSR holds at most 2^19 entries (sparse/src/csgraph/shortest_path/shortest_path_block.cu), and in
# the persistent grid kernel otherwise (shortest_path_kernels.cu). Every graph above is small, so these two
# make sure both stay tested: one past the node limit (grid path) and one exactly at both limits (block
# path, with its queues spilling out of shared memory). Their arrays go to their own group (large.npz), which
# the tests read only when they reach these cases.
s.group("large")


def random_csr(n, nnz, weights):
    """n x n CSR with nnz stored entries at random (rows sorted, duplicates kept), weights[nnz] as data."""
    rows = np.sort(rng.integers(0, n, nnz))
    cols = rng.integers(0, n, nnz)
    order = np.lexsort((cols, rows))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))])
    return sp.csr_matrix((weights, cols[order].astype(np.int32), indptr.astype(np.int32)), shape=(n, n))


# 150,000 nodes (past 2^17), 4 edges a node, small integer weights 0..6, about a quarter of them 0 (about one
# zero-weight out-edge a node: long zero-weight chains and a few zero-weight cycles): many ties; nodes without
# in-edges stay unreachable.
nbig = 150_000
wbig = rng.integers(0, 7, 4 * nbig).astype(float)
wbig[rng.random(4 * nbig) < 0.12] = 0.0
add_graph("big_csr", random_csr(nbig, 4 * nbig, wbig), "csr")
paths_case("dijkstra", "big_csr", indices=[0, 7919, nbig - 1])
paths_case("dijkstra", "big_csr", indices=42, return_predecessors=False)
paths_case("dijkstra", "big_csr", indices=[3, 100_000], limit=6.0)  # many nodes at exactly 6
paths_case("dijkstra", "big_csr", indices=[11, 75_000, 140_000], min_only=True)
paths_case("dijkstra", "big_csr", indices=[11, 75_000, 140_000], min_only=True, limit=4.0,
           return_predecessors=False)

# 2^17 nodes and 2^19 stored edges (the block path's largest graph), spread weights (exponential, 5% zeros,
# 1% heavy ones: empty distance buckets the threshold skips over).
nblk, eblk = 1 << 17, 1 << 19
wblk = rng.exponential(2.0, eblk)
wblk[rng.random(eblk) < 0.05] = 0.0
wblk[rng.random(eblk) < 0.01] *= 50.0
add_graph("blk_csr", random_csr(nblk, eblk, wblk), "csr")
paths_case("dijkstra", "blk_csr", indices=[0, nblk // 2, nblk - 1])
paths_case("dijkstra", "blk_csr", indices=17, limit=7.5, return_predecessors=False)
paths_case("dijkstra", "blk_csr", indices=[5, 99_999], min_only=True)
s.group(s.module)

# ---- yen ------------------------------------------------------------------------------------------------
def yen_case(key, source, sink, K, directed=True, unweighted=False):
    counter[0] += 1
    name = f"yen_{key}_{counter[0]}"
    obj, fmt, n = graphs[key]
    params = dict(graph=key, fmt=fmt, n=n, source=source, sink=sink, K=K, directed=directed,
                  return_predecessors=True, unweighted=unweighted, edges=edges_of(key, directed, unweighted))
    r, err, warns = call(cg.yen, obj, source, sink, K, directed=directed, return_predecessors=True,
                         unweighted=unweighted)
    if err == "value_error":
        s.case(name, "yen", error="value_error", stage="gpu", **params)
        return
    if err is not None:
        s.case(name, "yen", raises=err, **params)
        return
    d, p = r
    params["dist"] = s.array(name + "_dist", np.asarray(d, dtype=np.float64))
    params["pred"] = s.array(name + "_pred", np.asarray(p, dtype=np.int32).reshape(len(d), n))
    scale = float(np.abs(d).max()) if len(d) else 1.0
    s.case(name, "yen", rtol=1e-12, atol=1e-12 * max(scale, 1.0), **params)


yen_case("doc_csr", 0, 3, 3)
yen_case("doc_csr", 0, 3, 3, directed=False)
yen_case("doc_csr", 3, 0, 2)
yen_case("doc_csr", 0, 0, 2)
yen_case("doc_csr", 0, 1, 0)
yen_case("doc_dense", 2, 3, 4)
yen_case("r30_csr", 0, 7, 6)
yen_case("r30_csr", 4, 11, 8, directed=False)
yen_case("r30_csr", 4, 11, 5, unweighted=True)
yen_case("r40i_csr", 1, 9, 10)
yen_case("neg_csr", 0, 20, 5)
yen_case("negcyc_csr", 0, 3, 2)
yen_case("negundir_csr", 0, 2, 2, directed=False)
yen_case("disc_csr", 0, 10, 3)
yen_case("dup_csr", 0, 3, 4)
yen_case("r200_csr", 3, 77, 10)

# ---- errors ---------------------------------------------------------------------------------------------
def err_case(name, func, stage, shape, **params):
    s.case(name, func, error="value_error", stage=stage, shape=list(shape), **params)


def expect_value_error(f):
    try:
        f()
    except ValueError:
        return
    raise AssertionError("SciPy did not raise ValueError")


G4 = sp.csr_matrix(doc)
expect_value_error(lambda: cg.dijkstra(G4, indices=5))
err_case("err_dijkstra_index_high", "dijkstra", "host", (4, 4), indices=4)
expect_value_error(lambda: cg.dijkstra(G4, indices=-5))
err_case("err_dijkstra_index_low", "dijkstra", "host", (4, 4), indices=-5)
expect_value_error(lambda: cg.bellman_ford(G4, indices=[0, 9]))
err_case("err_bf_index", "bellman_ford", "host", (4, 4), indices=[0, 9])
expect_value_error(lambda: cg.johnson(G4, indices=[7]))
err_case("err_johnson_index", "johnson", "host", (4, 4), indices=[7])
expect_value_error(lambda: cg.dijkstra(G4, limit=-1))
err_case("err_dijkstra_limit", "dijkstra", "host", (4, 4), limit=-1.0)
expect_value_error(lambda: cg.shortest_path(G4, method="FW", indices=0))
err_case("err_sp_fw_indices", "shortest_path", "host", (4, 4), method="FW", indices=0)
expect_value_error(lambda: cg.shortest_path(G4, method="XX"))
err_case("err_sp_method", "parse_shortest_path_method", "host", (4, 4), method="XX")
expect_value_error(lambda: cg.dijkstra(np.zeros((3, 4))))
err_case("err_dijkstra_nonsquare", "dijkstra", "host", (3, 4))
expect_value_error(lambda: cg.floyd_warshall(np.zeros((3,))))
err_case("err_fw_1d", "floyd_warshall", "host", (3,))
expect_value_error(lambda: cg.yen(G4, 5, 0, 1))
err_case("err_yen_source", "yen", "host", (4, 4), source=5, sink=0, K=1)
expect_value_error(lambda: cg.yen(G4, 0, -1, 1))
err_case("err_yen_sink", "yen", "host", (4, 4), source=0, sink=-1, K=1)
expect_value_error(lambda: cg.yen(G4, 0, 1, -1))
err_case("err_yen_k", "yen", "host", (4, 4), source=0, sink=1, K=-1)

s.write()

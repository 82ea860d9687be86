"""Reference data for cusci::sparse::csgraph's flow family (minimum_spanning_tree,
reverse_cuthill_mckee, maximum_bipartite_matching, structural_rank,
min_weight_full_bipartite_matching, maximum_flow), from SciPy 1.18.1 (format and shared code:
golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_csgraph_flow/.

Every input graph is stored as the CSR arrays handed to SciPy, <g>_data, <g>_indices, <g>_indptr
(exactly as stored: explicit zeros, duplicates and unsorted rows kept), and the parameter `shape`;
`form` says what the call received: "csr" (that matrix), "csc" / "coo" / "dia" / "bsr" (its
tocsc() / tocoo() / todia() / tobsr()), "dense" (its toarray()). Parameter `graph` names the arrays'
prefix.

Cases (func, parameters, expected):
  minimum_spanning_tree  graph, form; <case>_indptr/_indices/_data: SciPy's tree exactly (cusci
                         reproduces SciPy's tie-breaking), total (its weight sum).
  reverse_cuthill_mckee  graph, form, symmetric_mode; perm (int32), pat_indices / pat_indptr: the
                         pattern the ordering runs on (A + A^T, or the input's compressed arrays),
                         scipy_exact: whether SciPy's permutation equals the stable-tie-break order
                         (it always is the expected one when true; else `perm` is the stable order, see
                         reordering.hpp).
  maximum_bipartite_matching  graph, form, perm_type; perm (SciPy's, exact), size.
  structural_rank        graph, form; rank.
  min_weight_full_bipartite_matching  graph, form, maximize; row, col (SciPy's), cost.
  maximum_flow           graph, source, sink, method; flow_value, flow_indptr / flow_indices
                         (SciPy's residual structure), rcap (the capacity of each entry of it: the
                         input's, 0 for added reverse entries), flow (SciPy's flow; any valid maximum
                         flow passes).
Errors: error = the cusci exception (SciPy's exception kind).
"""
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph as cg
import scipy.sparse.csgraph._flow as _flow

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_csgraph_flow")
rng = s.rng(20261202)
stored = set()


def store(name, g):
    """Stores CSR g's arrays once under name."""
    g = sp.csr_matrix(g) if not sp.issparse(g) else g
    assert g.format == "csr"
    if name not in stored:
        s.array(name + "_data", g.data)
        s.array(name + "_indices", g.indices.astype(np.int32))
        s.array(name + "_indptr", g.indptr.astype(np.int32))
        stored.add(name)
    return name


def as_form(g, form):
    if form == "csr":
        return g
    if form == "csc":
        return g.tocsc()
    if form == "coo":
        return g.tocoo()
    if form == "dia":
        return g.todia()
    if form == "bsr":
        return g.tobsr()
    if form == "dense":
        return g.toarray()
    raise ValueError(form)


def csr(data, indices, indptr, shape, dtype=np.float64):
    return sp.csr_matrix((np.asarray(data, dtype), np.asarray(indices, np.int32), np.asarray(indptr, np.int32)),
                         shape=shape)


def rand_graph(n, m, weights="float", sym=False, dtype=np.float64):
    r = rng.integers(0, n, m)
    c = rng.integers(0, n, m)
    if weights == "float":
        w = rng.random(m) + 0.01
    elif weights == "int":
        w = rng.integers(1, 5, m).astype(float)
    else:
        w = rng.integers(-3, 10, m).astype(float)
    g = sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()
    if sym:
        g = g + g.T
    g = g.astype(dtype)
    g.sort_indices()
    return g


def mmread(name):
    return sp.csr_matrix(scipy.io.mmread(s.data(name)))


# ---- graphs ---------------------------------------------------------------------------------
G = {}
G["d4"] = sp.csr_matrix(np.array([[0, 3, 0, 0], [0, 0, 1, 0], [2, 0, 0, 4], [0, 0, 0, 0]], float))
G["both"] = sp.csr_matrix(np.array([[0, 5, 1], [2, 0, 0], [1, 0, 0]], float))
G["expzero"] = csr([0., 2, 3], [1, 2, 2], [0, 2, 3, 3], (3, 3))
G["dupunsorted"] = csr([4., 2, 3, 1], [2, 1, 1, 2], [0, 3, 4, 4], (3, 3))
G["neg"] = sp.csr_matrix(np.array([[0, -1, 2], [0, 0, -3], [0, 0, 0]], float))
G["ties"] = sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]], float))
G["naninf"] = csr([np.nan, 2, 3, np.inf, 1], [1, 2, 2, 3, 0], [0, 2, 3, 4, 5, 5], (5, 5))
G["selfloops"] = csr([1., 2, 3, 4], [0, 1, 2, 2], [0, 2, 3, 4, 4], (4, 4))
G["empty0"] = sp.csr_matrix((0, 0))
G["one"] = sp.csr_matrix((1, 1))
G["one_loop"] = csr([2.], [0], [0, 1], (1, 1))
G["noedges"] = sp.csr_matrix((5, 5))
G["disconnected"] = sp.csr_matrix(sp.block_diag([rand_graph(6, 12, "int"), rand_graph(1, 0), rand_graph(9, 20, "int"),
                                                 rand_graph(3, 4)]).tocsr())
G["rand_float"] = rand_graph(300, 2000, "float")
G["rand_ties"] = rand_graph(300, 2000, "int")
G["rand_neg"] = rand_graph(200, 1500, "neg")
G["rand_big"] = rand_graph(3000, 20000, "float")
G["rand_big_ties"] = rand_graph(3000, 24000, "int")
G["bus1138"] = mmread("1138_bus.mtx")
G["erdos971"] = mmread("Erdos971.mtx")
G["pgp"] = mmread("PGPgiantcompo.mtx")
G["bcsstk16"] = mmread("bcsstk16.mtx.gz")
G["pgp"].data = G["pgp"].data.astype(np.float64)
G["erdos971"].data = G["erdos971"].data.astype(np.float64)
# weighted versions of the pattern graphs (random distinct weights)
G["erdos_w"] = G["erdos971"].copy()
G["erdos_w"].data = rng.random(G["erdos_w"].nnz) + 0.5

# ---- minimum_spanning_tree ----------------------------------------------------------------------
s.group("mst")
for name, g in G.items():
    forms = ["csr", "csc", "coo", "dense"] if g.shape[0] <= 3000 else ["csr"]
    store(name, g)
    for form in forms:
        t = cg.minimum_spanning_tree(as_form(g, form))
        t = sp.csr_matrix(t)
        c = f"mst_{name}_{form}"
        s.case(c, "minimum_spanning_tree", graph=name, form=form, shape=list(g.shape),
               indptr=s.array(c + "_indptr", t.indptr.astype(np.int32)),
               indices=s.array(c + "_indices", t.indices.astype(np.int32)),
               data=s.array(c + "_data", t.data), total=float(t.data.sum()), rtol=1e-12, atol=1e-9)
store("nonsquare", sp.csr_matrix(np.ones((2, 3))))
s.case("mst_err_nonsquare", "minimum_spanning_tree", graph="nonsquare", form="csr", shape=[2, 3], error="value_error")


# ---- reverse_cuthill_mckee ------------------------------------------------------------------------
def node_degrees(ind, ptr, n):
    deg = np.diff(ptr).astype(np.int64)
    for i in range(n):
        if (ind[ptr[i]:ptr[i + 1]] == i).any():
            deg[i] += 1
    return deg


def rcm_stable(ind, ptr, n, kind="stable"):
    deg = node_degrees(ind, ptr, n)
    seeds = np.argsort(deg, kind=kind)
    visited = np.zeros(n, bool)
    order = []
    for sd in seeds:
        if visited[sd]:
            continue
        visited[sd] = True
        order.append(sd)
        ls, le = len(order) - 1, len(order)
        while ls < le:
            for ii in range(ls, le):
                i = order[ii]
                new = []
                for jj in range(ptr[i], ptr[i + 1]):
                    j = ind[jj]
                    if not visited[j]:
                        visited[j] = True
                        new.append(j)
                new.sort(key=lambda v: deg[v])
                order.extend(new)
            ls, le = le, len(order)
    return np.array(order[::-1], dtype=np.int32)


s.group("rcm")
R = dict(G)
R["cancel"] = sp.csr_matrix(np.array([[0, 1, 0, 2], [-1, 0, 0, 0], [0, 0, 0, 3], [0, 0, 1, 0]], float))
R["nonsym"] = sp.csr_matrix(np.array([[0, 1, 1, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 1, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 1]], float))
R["int8"] = sp.csr_matrix(np.array([[1, 2, 0], [0, 0, 3], [4, 0, 0]], np.int8))
# non-canonical inputs: SciPy's A + A^T then lists each row in its own (unsorted) order, which is the
# search's neighbour order. Duplicates that cancel each other or their transposed entry, unsorted rows.
R["dupcancel"] = csr([2., 2, 1, 2, 1, 2, -1, -1, -1, -1], [3, 3, 5, 1, 5, 1, 5, 0, 1, 3], [0, 0, 2, 3, 5, 8, 10], (6, 6))


def shuffled_dups(n, m):
    """A CSR graph with duplicates, rows in random order, small integer values (some sums cancel)."""
    r = np.sort(rng.integers(0, n, m))
    c = rng.integers(0, n, m)
    w = rng.choice([-2., -1, 1, 2], m)
    o = np.lexsort((rng.random(m), r))
    return csr(w[o], c[o], np.searchsorted(r[o], np.arange(n + 1)), (n, n))


R["dupshuffled"] = shuffled_dups(60, 260)
del R["empty0"]
del R["naninf"]  # NaN + NaN entries: fine, but inf - inf cancellation is NaN, not dropped; keep it simple
for name, g in R.items():
    store(name, g)
    for form in ["csr", "csc"]:
        for symm in [False, True]:
            a = as_form(g, form)
            p = cg.reverse_cuthill_mckee(a, symmetric_mode=symm)
            if symm:
                pat = a
            else:
                pat = a + a.T
            ind, ptr = pat.indices.astype(np.int32), pat.indptr.astype(np.int32)
            ref = rcm_stable(ind, ptr, g.shape[0])
            # the algorithm is SciPy's: with NumPy's own argsort it gives SciPy's permutation
            assert (rcm_stable(ind, ptr, g.shape[0], kind="quicksort") == p).all(), name
            c = f"rcm_{name}_{form}_{int(symm)}"
            s.case(c, "reverse_cuthill_mckee", graph=name, form=form, shape=list(g.shape), symmetric_mode=symm,
                   perm=s.array(c + "_perm", ref), pat_indices=s.array(c + "_pat_indices", ind),
                   pat_indptr=s.array(c + "_pat_indptr", ptr), scipy_exact=bool((p == ref).all()))
store("empty0", G["empty0"])
s.case("rcm_err_coo", "reverse_cuthill_mckee", graph="d4", form="coo", shape=[4, 4], symmetric_mode=False,
       error="type_error")
s.case("rcm_err_nonsquare", "reverse_cuthill_mckee", graph="nonsquare", form="csr", shape=[2, 3],
       symmetric_mode=False, error="value_error")
s.case("rcm_err_empty", "reverse_cuthill_mckee", graph="empty0", form="csr", shape=[0, 0], symmetric_mode=False,
       error="value_error")

# ---- matchings ----------------------------------------------------------------------------------
s.group("matching")
B = {}
for k, (m, n, d) in enumerate([(4, 3, 0.5), (3, 5, 0.4), (20, 20, 0.1), (30, 50, 0.05), (60, 40, 0.05),
                               (100, 100, 0.03), (200, 150, 0.02), (1, 1, 1.0), (5, 1, 0.5)]):
    B[f"bip{k}"] = sp.random(m, n, density=d, format="csr", random_state=rng) * 0 + sp.random(
        m, n, density=d, format="csr", random_state=rng)
B["bip_expzero"] = csr([0., 0, 0], [2, 0, 1], [0, 1, 3], (2, 3))
B["bip_empty_rows"] = sp.csr_matrix((0, 3))
B["bip_empty_cols"] = sp.csr_matrix((2, 0))
B["bip_noedges"] = sp.csr_matrix((4, 6))
B["bip_dup"] = csr([1., 2, 3, 4], [1, 1, 0, 0], [0, 2, 4], (2, 2))
B["bip_bus"] = G["bus1138"]
B["bip_erdos"] = G["erdos971"]
for name, g in B.items():
    store(name, g)
    for form in ["csr", "csc", "coo"]:
        for pt in ["row", "column"]:
            p = cg.maximum_bipartite_matching(as_form(g, form), perm_type=pt)
            c = f"mbm_{name}_{form}_{pt}"
            s.case(c, "maximum_bipartite_matching", graph=name, form=form, shape=list(g.shape), perm_type=pt,
                   perm=s.array(c + "_perm", p.astype(np.int32)), size=int((p >= 0).sum()))
    for form in ["csr", "csc", "coo", "dia", "bsr"]:
        if form in ("dia", "bsr") and 0 in g.shape:
            continue
        c = f"srank_{name}_{form}"
        s.case(c, "structural_rank", graph=name, form=form, shape=list(g.shape),
               rank=int(cg.structural_rank(as_form(g, form))))
s.case("mbm_err_dia", "maximum_bipartite_matching", graph="bip2", form="dia", shape=list(B["bip2"].shape),
       perm_type="row", error="type_error")

W = {}
for k, (m, n, d) in enumerate([(3, 3, 1.0), (5, 5, 0.6), (20, 20, 0.3), (10, 25, 0.3), (25, 10, 0.3),
                               (80, 80, 0.1), (60, 90, 0.08), (150, 150, 0.05)]):
    a = sp.random(m, n, density=d, format="csr", random_state=rng)
    a.data = np.round(a.data * 100) + 1  # ties on purpose: costs compared, not the matching
    a = a + sp.eye(m, n) * 7  # a full matching exists
    W[f"w{k}"] = sp.csr_matrix(a)
W["w_neg"] = sp.csr_matrix(np.array([[-1, 2, 0], [3, -4, 5], [0, 6, -7.]]))
W["w_zero_inf"] = csr([0., 2, 5, np.inf, 1, 3, 4], [0, 1, 0, 1, 2, 0, 2], [0, 2, 5, 7], (3, 3))
W["w_int"] = sp.csr_matrix(np.array([[1, 2], [3, 4]], np.int64))
W["w_bool"] = sp.csr_matrix(np.array([[True, True], [True, False]]))
W["w_empty"] = sp.csr_matrix((0, 0))
W["w_dup_coo"] = csr([1., 5, 2, 4], [0, 0, 1, 1], [0, 2, 4], (2, 2))
for name, g in W.items():
    store(name, g)
    for form in ["csr", "csc", "coo"]:
        for mx in [False, True]:
            a = as_form(g, form)
            c = f"mwf_{name}_{form}_{int(mx)}"
            try:
                r, col = cg.min_weight_full_bipartite_matching(a, maximize=mx)
            except ValueError:
                s.case(c, "min_weight_full_bipartite_matching", graph=name, form=form, shape=list(g.shape),
                       maximize=mx, error="value_error")
                continue
            ad = sp.csr_matrix(a).astype(float)
            ad.sum_duplicates()
            cost = float(np.asarray(ad[r, col]).sum()) if len(r) else 0.0
            s.case(c, "min_weight_full_bipartite_matching", graph=name, form=form, shape=list(g.shape),
                   maximize=mx, row=s.array(c + "_row", r), col=s.array(c + "_col", col), cost=cost,
                   row_dtype=r.dtype.name, col_dtype=col.dtype.name, rtol=1e-12, atol=1e-9)
W2 = {"w_infeasible": sp.csr_matrix(np.array([[1, 0, 0], [1, 0, 0], [0, 1, 1.]])),
      "w_zeroes_only": csr([0., 0], [0, 1], [0, 1, 2], (2, 2))}
for name, g in W2.items():
    store(name, g)
    s.case(f"mwf_err_{name}", "min_weight_full_bipartite_matching", graph=name, form="csr", shape=list(g.shape),
           maximize=False, error="value_error")
s.case("mwf_err_dia", "min_weight_full_bipartite_matching", graph="w1", form="dia", shape=list(W["w1"].shape),
       maximize=False, error="type_error")

# ---- maximum_flow -------------------------------------------------------------------------------
s.group("flow")


def grid_graph(r, c):
    idx = lambda i, j: i * c + j
    rows, cols, caps = [], [], []
    for i in range(r):
        for j in range(c):
            for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                a, b = i + di, j + dj
                if 0 <= a < r and 0 <= b < c:
                    rows.append(idx(i, j))
                    cols.append(idx(a, b))
                    caps.append(rng.integers(1, 20))
    return sp.csr_matrix((np.array(caps, np.int32), (rows, cols)), shape=(r * c, r * c))


F = {}
F["f4"] = sp.csr_matrix(np.array([[0, 5, 3, 0], [0, 0, 1, 4], [0, 0, 0, 2], [0, 0, 0, 0]], np.int32))
F["fboth"] = sp.csr_matrix(np.array([[0, 5], [2, 0]], np.int32))
F["fneg"] = sp.csr_matrix(np.array([[0, -5, 3], [2, 0, 4], [0, 0, 0]], np.int32))
F["fzero"] = csr([0, 3], [1, 2], [0, 2, 2, 2], (3, 3), np.int32)
F["fdup"] = csr([2, 3, 7], [1, 1, 0], [0, 2, 3], (2, 2), np.int32)
F["fdup2"] = csr([2, 7, 1], [1, 0, 0], [0, 1, 3], (2, 2), np.int32)
F["fself"] = sp.csr_matrix(np.array([[4, 5], [0, 0]], np.int32))
F["fnoedge"] = sp.csr_matrix((3, 3), dtype=np.int32)
F["fint64"] = sp.csr_matrix(np.array([[0, 7, 0], [0, 0, 9], [3, 0, 0]], np.int64))
F["fuint8"] = sp.csr_matrix(np.array([[0, 200], [0, 0]], np.uint8))
F["fbig"] = sp.csr_matrix(np.array([[0, 2**31 - 1, 2**31 - 1], [0, 0, 2**31 - 1], [0, 0, 0]], np.int64))
F["fgrid"] = grid_graph(12, 15)
for k in range(4):
    n = [10, 40, 120, 400][k]
    g = sp.random(n, n, density=min(1.0, 6.0 / n), format="csr", random_state=rng)
    g.data = rng.integers(0, 30, g.nnz)
    F[f"frand{k}"] = sp.csr_matrix(g.astype(np.int32))
for name, g in F.items():
    store(name, g)
    n = g.shape[0]
    pairs = [(0, n - 1)] + ([(1, 0)] if n > 2 else [])
    for (src, snk) in pairs:
        for method in ["dinic", "edmonds_karp"]:
            res = cg.maximum_flow(g, src, snk, method=method)
            ra = _flow._add_reverse_edges(g.astype(np.int32))
            f = res.flow
            assert (f.indptr == ra.indptr).all() and (f.indices == ra.indices).all()
            c = f"flow_{name}_{src}_{snk}_{method}"
            s.case(c, "maximum_flow", graph=name, form="csr", shape=list(g.shape), source=src, sink=snk,
                   method=method, flow_value=int(res.flow_value),
                   flow_indptr=s.array(c + "_findptr", f.indptr.astype(np.int32)),
                   flow_indices=s.array(c + "_findices", f.indices.astype(np.int32)),
                   rcap=s.array(c + "_rcap", ra.data.astype(np.int32)), flow=s.array(c + "_flow", f.data.astype(np.int32)))
store("ffloat", sp.csr_matrix(np.array([[0, 5.], [2, 0]])))
store("fbool", sp.csr_matrix(np.array([[False, True], [True, False]])))
store("fnonsq", sp.csr_matrix(np.ones((2, 3), np.int32)))
for c, gname, form, src, snk in [("flow_err_float", "ffloat", "csr", 0, 1), ("flow_err_bool", "fbool", "csr", 0, 1),
                                 ("flow_err_csc", "f4", "csc", 0, 3), ("flow_err_same", "f4", "csr", 1, 1),
                                 ("flow_err_nonsq", "fnonsq", "csr", 0, 1), ("flow_err_src", "f4", "csr", -1, 1),
                                 ("flow_err_src_big", "f4", "csr", 4, 1), ("flow_err_sink", "f4", "csr", 0, 4),
                                 ("flow_err_nonsq_same", "fnonsq", "csr", 1, 1)]:
    g = G.get(gname)
    try:
        cg.maximum_flow(as_form({"ffloat": sp.csr_matrix(np.array([[0, 5.], [2, 0]])),
                                 "fbool": sp.csr_matrix(np.array([[False, True], [True, False]])),
                                 "fnonsq": sp.csr_matrix(np.ones((2, 3), np.int32)), "f4": F["f4"]}[gname], form),
                        src, snk)
        raise AssertionError(c)
    except (ValueError, TypeError) as e:
        err = "value_error" if isinstance(e, ValueError) else "type_error"
    s.case(c, "maximum_flow", graph=gname, form=form, shape=[2, 3] if gname == "fnonsq" else [4, 4] if gname == "f4" else [2, 2],
           source=src, sink=snk, method="dinic", error=err)

s.write()

"""Reference data for cusci::sparse::csgraph's traversal family (connected_components,
breadth_first_order / breadth_first_tree, depth_first_order / depth_first_tree, laplacian,
construct_dist_matrix, reconstruct_path, and reverse_cuthill_mckee past the one-block Cuthill-McKee
search this family provides), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_csgraph_traversal/:
graphs.npz (the small graphs and their results), large.npz (graphs past the limits of the
small-graph GPU paths; their cases carry `reaches`, the branch they are made for).

Graphs: every case names its input graph `graph` (a prefix P) and its form `fmt`:
  csr / csc: arrays P_data, P_indices, P_indptr (the stored arrays, duplicates and explicit zeros
             kept, indices possibly unsorted), shape [N, N] in `shape`; the large graphs store no
             P_data (every weight is 1);
  coo:       P_data, P_row, P_col;
  dense:     P_dense (N x N float64; zeros are non-edges).
Cases (func, then its parameters):
  connected_components  graph, fmt, shape, directed, connection; n_components, labels.
  breadth_first_order / depth_first_order  graph, fmt, shape, i_start, directed; order, pred.
  breadth_first_tree / depth_first_tree / reconstruct_path  graph, fmt, shape, i_start or pred,
                        directed; the tree with sorted rows: t_indptr, t_indices, t_data.
  construct_dist_matrix graph, fmt, shape, pred (N x N int32), directed, null_value; dist.
  reverse_cuthill_mckee graph, fmt, shape, symmetric_mode; perm (SciPy's, exact: every graph has a
                        single node of lowest degree, so SciPy's start node is unambiguous).
  laplacian             graph, fmt, shape, normed, use_out_degree, symmetrized, dtype (null or a
                        name), in_dtype (the dtype the input is cast to); lap (dense), diag,
                        out_format, out_dtype, and for COO results coo_row / coo_col / coo_data
                        (SciPy's stored order) unless symmetrized.
Errors (error = the cusci exception): non-square graphs, i_start out of range (cusci raises
index_error where SciPy prints an ignored IndexError), bad connection / form, predecessor shape and
dtype.
Tolerances: orders, labels, predecessors and permutations exact; weights and distances 1e-12 relative;
laplacian 1e-12 (float64) / 2e-5 (float32).
"""
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

from golden import Suite, tol

warnings.simplefilter("ignore", DeprecationWarning)
s = Suite("sparse_csgraph_traversal")
rng = s.rng(20261202)
s.group("graphs")

graphs = {}  # name -> (scipy object, fmt)


def store(name, g, fmt):
    """Stores graph g (a scipy sparse matrix in the form fmt, or a dense array) under prefix name."""
    if fmt in ("csr", "csc"):
        s.array(name + "_data", np.asarray(g.data, dtype=np.float64))
        s.array(name + "_indices", g.indices.astype(np.int32))
        s.array(name + "_indptr", g.indptr.astype(np.int32))
    elif fmt == "coo":
        s.array(name + "_data", np.asarray(g.data, dtype=np.float64))
        s.array(name + "_row", g.row.astype(np.int32))
        s.array(name + "_col", g.col.astype(np.int32))
    else:
        s.array(name + "_dense", np.asarray(g, dtype=np.float64))
    graphs[name] = (g, fmt)
    return name


def random_csr(n, density, seed_rng, dup=False, zeros=False, loops=True, unsorted=False):
    m = max(int(n * n * density), 0)
    r = seed_rng.integers(0, n, m)
    c = seed_rng.integers(0, n, m)
    if not loops:
        keep = r != c
        r, c = r[keep], c[keep]
    w = seed_rng.integers(1, 10, r.size).astype(np.float64)
    if zeros and w.size:
        w[seed_rng.random(w.size) < 0.2] = 0.0
    if dup and r.size:
        k = min(r.size, max(1, r.size // 5))
        r = np.concatenate([r, r[:k]])
        c = np.concatenate([c, c[:k]])
        w = np.concatenate([w, w[:k] + 1])
    order = np.lexsort((c, r)) if not unsorted else np.argsort(r, kind="stable")
    r, c, w = r[order], c[order], w[order]
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.add.at(indptr, r + 1, 1)
    indptr = np.cumsum(indptr).astype(np.int32)
    # build the raw CSR (duplicates and explicit zeros kept)
    return sp.csr_matrix((w, c.astype(np.int32), indptr), shape=(n, n))


# ---- the graphs ------------------------------------------------------------------------------
doc = np.array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]], dtype=np.float64)
doc2 = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]], dtype=np.float64)
cc_doc = np.array([[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]],
                  dtype=np.float64)
base = {
    "doc": sp.csr_matrix(doc),
    "doc2": sp.csr_matrix(doc2),
    "ccdoc": sp.csr_matrix(cc_doc),
    "r30": random_csr(30, 0.06, rng),
    "r50dup": random_csr(50, 0.05, rng, dup=True, zeros=True, unsorted=True),
    "r200": random_csr(200, 0.01, rng, zeros=True),
    "r400sparse": random_csr(400, 0.003, rng),       # many components / SCCs
    "r2000": random_csr(2000, 0.0008, rng),
    "noedge": sp.csr_matrix((5, 5)),
    "one": sp.csr_matrix((1, 1)),
    "oneloop": sp.csr_matrix(np.array([[2.0]])),
}
# explicit zero edges and a self-loop on the start node, duplicates
base["zeros"] = sp.csr_matrix((np.array([2., 3., 0., 5., 0., 1.]), np.array([1, 1, 2, 0, 0, 3]),
                               np.array([0, 3, 4, 5, 6])), shape=(4, 4))
bus = scipy.io.mmread(s.data("1138_bus.mtx")).tocsr()
bus.data = np.abs(bus.data)
base["bus"] = bus
erd = scipy.io.mmread(s.data("Erdos971.mtx")).tocsr()
erd.data = np.ones_like(erd.data, dtype=np.float64)
base["erdos"] = erd
pgp = scipy.io.mmread(s.data("PGPgiantcompo.mtx")).tocsr().astype(np.float64)
base["pgp"] = pgp

for name, g in base.items():
    store(name, g, "csr")
for name in ("doc", "r50dup", "r200", "bus", "zeros"):
    g = base[name]
    store(name + "_csc", g.tocsc(), "csc")
    store(name + "_coo", g.tocoo(), "coo")
    if g.shape[0] <= 400:
        store(name + "_dense", cg.csgraph_to_dense(g), "dense")  # zero-weight edges vanish: a different graph
store("empty", sp.csr_matrix((0, 0)), "csr")
store("rect", sp.csr_matrix(np.ones((2, 3))), "csr")
store("rect_dense", np.ones((2, 3)), "dense")


def scipy_graph(name):
    return graphs[name][0]


def params(name):
    g, fmt = graphs[name]
    return dict(graph=name, fmt=fmt, shape=list(np.shape(g)))


# ---- connected_components --------------------------------------------------------------------
for name in graphs:
    if name.startswith("rect"):
        continue
    for directed, conn in ((True, "weak"), (True, "strong"), (False, "weak"), (False, "strong")):
        n, lab = cg.connected_components(scipy_graph(name), directed=directed, connection=conn)
        cname = f"cc_{name}_{'d' if directed else 'u'}_{conn}"
        s.case(cname, "connected_components", directed=directed, connection=conn, n_components=int(n),
               labels=s.array(cname + "_labels", lab.astype(np.int32)), **params(name))
s.case("cc_rect", "connected_components", error="value_error", directed=True, connection="weak", **params("rect"))
s.case("cc_rect_dense", "connected_components", error="value_error", directed=True, connection="weak",
       **params("rect_dense"))
s.case("cc_badconn", "connected_components", error="value_error", directed=True, connection="medium",
       **params("doc"))

# ---- orders and trees --------------------------------------------------------------------------


def tree_arrays(cname, t):
    t = sp.csr_matrix(t)
    t = t.sorted_indices()  # cusci's rows are in increasing column order
    return dict(t_indptr=s.array(cname + "_tindptr", t.indptr.astype(np.int32)),
                t_indices=s.array(cname + "_tindices", t.indices.astype(np.int32)),
                t_data=s.array(cname + "_tdata", t.data.astype(np.float64)))


for name in graphs:
    if name.startswith("rect") or name == "empty":
        continue
    N = np.shape(scipy_graph(name))[0]
    starts = sorted({0, N // 2, N - 1})
    for i0 in starts:
        for directed in (True, False):
            tag = f"{name}_{i0}_{'d' if directed else 'u'}"
            for func, ofunc, tfunc in (("bfo", cg.breadth_first_order, cg.breadth_first_tree),
                                       ("dfo", cg.depth_first_order, cg.depth_first_tree)):
                o, p = ofunc(scipy_graph(name), i0, directed=directed)
                cname = f"{func}_{tag}"
                s.case(cname, "breadth_first_order" if func == "bfo" else "depth_first_order", i_start=i0,
                       directed=directed, order=s.array(cname + "_order", o.astype(np.int32)),
                       pred=s.array(cname + "_pred", p.astype(np.int32)), **params(name))
                if N <= 2000:
                    t = tfunc(scipy_graph(name), i0, directed=directed)
                    tname = ("bft_" if func == "bfo" else "dft_") + tag
                    s.case(tname, "breadth_first_tree" if func == "bfo" else "depth_first_tree", i_start=i0,
                           directed=directed, rtol=1e-12, **tree_arrays(tname, t), **params(name))
for func in ("breadth_first_order", "depth_first_order", "breadth_first_tree", "depth_first_tree"):
    s.case(f"{func}_rect", func, error="value_error", i_start=0, directed=True, **params("rect"))
    s.case(f"{func}_start_high", func, error="index_error", i_start=4, directed=True, **params("doc"))
    s.case(f"{func}_start_neg", func, error="index_error", i_start=-1, directed=True, **params("doc"))
    s.case(f"{func}_empty", func, error="index_error", i_start=0, directed=True, **params("empty"))

# ---- reconstruct_path --------------------------------------------------------------------------
for name in ("doc", "zeros", "r50dup", "r50dup_csc", "r50dup_dense", "bus"):
    for directed in (True, False):
        g = scipy_graph(name)
        N = np.shape(g)[0]
        # predecessors of a shortest-path tree from node 0 and an arbitrary (random) parent list
        _, p = cg.shortest_path(g, directed=directed, indices=0, return_predecessors=True)
        prand = rng.integers(-1, N, N).astype(np.int32)
        for k, pr in (("sp", p.astype(np.int32)), ("rand", prand)):
            cname = f"rp_{name}_{k}_{'d' if directed else 'u'}"
            t = cg.reconstruct_path(g, pr, directed=directed)
            s.case(cname, "reconstruct_path", directed=directed, rtol=1e-12,
                   pred=s.array(cname + "_pred", pr), **tree_arrays(cname, t), **params(name))
s.case("rp_badlen", "reconstruct_path", error="value_error", directed=True,
       pred=s.array("rp_badlen_pred", np.zeros(3, np.int32)), **params("doc"))

# ---- construct_dist_matrix ---------------------------------------------------------------------
for name in ("doc", "doc_dense", "r50dup", "r50dup_csc", "r200", "zeros"):
    for directed in (True, False):
        g = scipy_graph(name)
        _, P = cg.shortest_path(g, directed=directed, return_predecessors=True)
        for nv in (np.inf, -1.0):
            cname = f"cdm_{name}_{'d' if directed else 'u'}_{'inf' if nv == np.inf else 'm1'}"
            D = cg.construct_dist_matrix(g, P, directed=directed, null_value=nv)
            s.case(cname, "construct_dist_matrix", directed=directed, null_value=nv, rtol=1e-12, atol=1e-12,
                   pred=s.array(cname + "_pred", P.astype(np.int32)), dist=s.array(cname + "_dist", D),
                   **params(name))
s.case("cdm_shape", "construct_dist_matrix", error="value_error", directed=True, null_value=np.inf,
       pred=s.array("cdm_shape_pred", np.zeros((3, 3), np.int32)), **params("doc"))
s.case("cdm_dtype", "construct_dist_matrix", error="type_error", directed=True, null_value=np.inf,
       pred=s.array("cdm_dtype_pred", np.full((4, 4), -9999, np.int64)), **params("doc"))

# ---- laplacian ---------------------------------------------------------------------------------
lap_graphs = {}
A = np.array([[1, 2, 0], [0, 0, 3], [4, 0, 0]], dtype=np.float64)
lap_graphs["small"] = sp.csr_matrix(A)
lap_graphs["isolated"] = sp.coo_matrix((np.array([1., 2., 3., 0.]), (np.array([0, 0, 1, 1]), np.array([1, 1, 1, 0]))),
                                       shape=(3, 3))
lap_graphs["r50dup"] = base["r50dup"]
lap_graphs["bus"] = base["bus"]
for name, g in lap_graphs.items():
    if name not in graphs:
        store(name, g, "coo" if g.format == "coo" else "csr")
for name, g in list(lap_graphs.items()):
    store("lap_" + name + "_csc", sp.csr_matrix(g).tocsc(), "csc")
    store("lap_" + name + "_coo", sp.coo_matrix(g), "coo")
    if g.shape[0] <= 64:
        store("lap_" + name + "_dense", sp.csr_matrix(g).toarray(), "dense")

lap_inputs = []
for name in lap_graphs:
    lap_inputs += [name, "lap_" + name + "_csc", "lap_" + name + "_coo"]
    if "lap_" + name + "_dense" in graphs:
        lap_inputs.append("lap_" + name + "_dense")


def as_input(name, in_dtype):
    g, fmt = graphs[name]
    if fmt == "dense":
        return np.asarray(g).astype(in_dtype)
    if fmt == "csr":
        return sp.csr_matrix(g).astype(in_dtype)
    if fmt == "csc":
        return sp.csc_matrix(g).astype(in_dtype)
    return sp.coo_matrix(g).astype(in_dtype)


k = 0
for name in lap_inputs:
    for in_dtype in ("float64", "float32", "int64"):
        for normed in (False, True):
            for use_out in (False, True):
                for sym in (False, True):
                    if in_dtype != "float64" and (use_out or sym):
                        continue
                    big = np.shape(graphs[name][0])[0] > 64
                    if big and (sym or in_dtype != "float64"):
                        continue
                    for dt in (None, "float32") if in_dtype == "float64" and not sym else (None,):
                        gin = as_input(name, in_dtype)
                        L, d = cg.laplacian(gin, normed=normed, return_diag=True, use_out_degree=use_out,
                                            symmetrized=sym, dtype=None if dt is None else np.dtype(dt))
                        cname = f"lap{k}_{name}"
                        k += 1
                        extra = {}
                        out_format = L.format if sp.issparse(L) else "dense"
                        Ld = L.toarray() if sp.issparse(L) else np.asarray(L)
                        if out_format == "coo" and not sym:
                            extra = dict(coo_row=s.array(cname + "_row", L.row.astype(np.int64)),
                                         coo_col=s.array(cname + "_col", L.col.astype(np.int64)),
                                         coo_data=s.array(cname + "_cdata", L.data.astype(np.float64)))
                        r, a = tol(Ld.dtype, scale=np.abs(Ld).max() if Ld.size else 1.0)
                        s.case(cname, "laplacian", normed=normed, use_out_degree=use_out, symmetrized=sym,
                               dtype=dt, in_dtype=in_dtype, out_format=out_format, out_dtype=Ld.dtype.name,
                               rtol=max(r, 1e-12), atol=a,
                               lap=None if big else s.array(cname + "_lap", Ld.astype(np.float64)),
                               diag=s.array(cname + "_diag", np.asarray(d).astype(np.float64)),
                               **extra, **params(name))
s.case("lap_rect", "laplacian", error="value_error", normed=False, use_out_degree=False, symmetrized=False,
       dtype=None, in_dtype="float64", form="array", **params("rect"))
s.case("lap_rect_dense", "laplacian", error="value_error", normed=False, use_out_degree=False,
       symmetrized=False, dtype=None, in_dtype="float64", form="array", **params("rect_dense"))
s.case("lap_form_lo", "laplacian", error="not_implemented_error", normed=False, use_out_degree=False,
       symmetrized=False, dtype=None, in_dtype="float64", form="lo", **params("doc"))
s.case("lap_form_function", "laplacian", error="not_implemented_error", normed=False, use_out_degree=False,
       symmetrized=False, dtype=None, in_dtype="float64", form="function", **params("doc_dense"))


# ---- graphs past the limits of the small-graph paths -------------------------------------------
# The graphs above are all small, so every breadth-first order runs in one thread block and every
# weak-components call in one cooperative kernel. The graphs below reach the other branches, and those
# of reverse_cuthill_mckee's one-block search (traversal_kernels.cu); each case names its branch in
# `reaches` (the GPU test checks that every branch keeps a case). Their weights are all 1 and not
# stored (no P_data: the reader uses ones).
s.group("large")
lrng = s.rng(20261203)


def store_unit(name, g):
    """Stores the CSR pattern of g (weights 1, not stored) under prefix name; returns its params."""
    g = sp.csr_matrix(g)
    s.array(name + "_indices", g.indices.astype(np.int32))
    s.array(name + "_indptr", g.indptr.astype(np.int32))
    return dict(graph=name, fmt="csr", shape=list(g.shape))


def unit_csr(n, r, c, shuffle_rows=False):
    """CSR of the edges r -> c with weights 1, duplicates kept; entries of a row in the given order
    (or shuffled)."""
    r = np.asarray(r, np.int64)
    c = np.asarray(c, np.int64)
    if shuffle_rows:
        o = lrng.permutation(r.size)
        r, c = r[o], c[o]
    o = np.argsort(r, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))]).astype(np.int32)
    return sp.csr_matrix((np.ones(r.size), c[o].astype(np.int32), ptr), shape=(n, n))


def bfo_case(cname, g, prm, i0, directed, reaches):
    o, p = cg.breadth_first_order(g, i0, directed=directed)
    s.case(cname, "breadth_first_order", i_start=int(i0), directed=directed, reaches=reaches,
           order=s.array(cname + "_order", o.astype(np.int32)), pred=s.array(cname + "_pred", p.astype(np.int32)),
           **prm)


# 1. The one-block BFS (N <= 2^19) handing a level of more than 4096 nodes (claims) to the grid
#    kernels and resuming after it. A star of 5000 leaves around node 0 (edges 0 -> leaf), a chain A
#    of 300 nodes hanging off leaf 1 whose end points back to 0, and a chain B of 200 nodes off leaf
#    2500: from 0 the first level is handed over at once; from inside chain A (directed) or its end
#    (undirected) the hand-over comes mid-search; either way the chains resume in the block. Then the
#    same graph with its nodes relabelled at random, rows shuffled and 100 duplicate entries.
NS, NA, NBc = 5000, 300, 200
A0, B0 = 1 + NS, 1 + NS + NA
n_star = B0 + NBc
chain_a, chain_b = np.arange(A0, A0 + NA), np.arange(B0, B0 + NBc)
r = np.concatenate([np.zeros(NS, np.int64), [1], chain_a[:-1], [chain_a[-1]], [2500], chain_b[:-1]])
c = np.concatenate([np.arange(1, NS + 1), [A0], chain_a[1:], [0], [B0], chain_b[1:]])
perm_star = lrng.permutation(n_star)
dup = lrng.integers(0, r.size, 100)
star_graphs = {
    "starchain": (unit_csr(n_star, r, c), np.arange(n_star)),
    "starchain_perm": (unit_csr(n_star, perm_star[np.concatenate([r, r[dup]])],
                                perm_star[np.concatenate([c, c[dup]])], shuffle_rows=True), perm_star),
}
for name, (g, lab) in star_graphs.items():
    prm = store_unit(name, g)
    for i0, directed in ((0, True), (0, False), (A0 + NA // 2, True), (A0 + NA - 1, False)):
        bfo_case(f"bfo_{name}_{i0}_{'d' if directed else 'u'}", g, prm, lab[i0], directed, "bfs_block_handover_resume")
# A plain star: the hand-over's grid levels end the search (no resume).
g = unit_csr(NS + 1, np.zeros(NS, np.int64), np.arange(1, NS + 1))
prm = store_unit("star", g)
bfo_case("bfo_star_0_d", g, prm, 0, True, "bfs_block_handover_end")
bfo_case("bfo_star_7_u", g, prm, 7, False, "bfs_block_handover_end")
# A level of one node whose row outgrows the block's edge slots (at most 32768 on any GPU): a chain of
# 50 nodes, then a hub with 40000 leaves, the first leaf starting a chain of 100 nodes. The hub's level
# goes to the grid kernels, its leaves' level too (more than 4096 nodes), and the last chain resumes in
# the block.
NH, NL, NC = 50, 40000, 100
hub, leaf0, tail0 = NH, NH + 1, NH + 1 + NL
r = np.concatenate([np.arange(NH), np.full(NL, hub), [leaf0], np.arange(tail0, tail0 + NC - 1)])
c = np.concatenate([np.arange(1, NH + 1), np.arange(leaf0, leaf0 + NL), [tail0], np.arange(tail0 + 1, tail0 + NC)])
g = unit_csr(tail0 + NC, r, c)
prm = store_unit("hub", g)
bfo_case("bfo_hub_0_d", g, prm, 0, True, "bfs_block_edges_handover")
bfo_case("bfo_hub_0_u", g, prm, 0, False, "bfs_block_edges_handover")
bfo_case("bfo_hub_tail_u", g, prm, tail0 + NC - 1, False, "bfs_block_edges_handover")

# 2. and 3. One graph of N = 600000 > 2^19 nodes (the general BFS path: the single-block kernel while
#    levels have at most 4096 nodes, grid levels beyond) and N + nnz > 2^22 (the general weak
#    components path). Five groups of nodes in random positions, each a random directed graph of
#    Poisson(6.3) out-edges per node inside its group (duplicates and self-loops possible, rows in
#    random order), 1000 isolated nodes, and a path of 3000 nodes leading into group 0 (the searches
#    start at its first node: 3000 one-node levels, then levels of up to ~10^5 nodes, then small ones).
NBIG = 600_000
grp = lrng.integers(0, 5, NBIG)
grp[lrng.choice(NBIG, 1000, replace=False)] = -1
path = lrng.choice(np.flatnonzero(grp == 0), 3000, replace=False)
grp[path] = -2
core = np.flatnonzero(grp >= 0)
members = core[np.argsort(grp[core], kind="stable")].astype(np.int32)  # group 0's nodes, then group 1's, ...
size = np.bincount(grp[core], minlength=5)
first = np.concatenate([[0], np.cumsum(size)[:-1]])
deg = np.zeros(NBIG, np.int64)
deg[core] = lrng.poisson(6.3, core.size)
deg[path] = 1
ptr = np.concatenate([[0], np.cumsum(deg)])
eg = np.repeat(grp.astype(np.int8), deg)  # the group of each entry's row (-2 on the path's rows: fixed below)
size_e, first_e = np.append(size, [1, 1]), np.append(first, [0, 0])  # indices -2 / -1 land here
ind = members[first_e[eg] + lrng.integers(0, 1 << 30, eg.size) % size_e[eg]]
ind[ptr[path]] = np.append(path[1:], members[0])
big = sp.csr_matrix((np.ones(ind.size), ind, ptr.astype(np.int32)), shape=(NBIG, NBIG))
assert NBIG > 2 ** 19 and NBIG + big.nnz > 2 ** 22, big.nnz
prm = store_unit("big", big)
for directed in (True, False):
    bfo_case(f"bfo_big_{'d' if directed else 'u'}", big, prm, path[0], directed, "bfs_general")
# weak components ignore the direction: one SciPy call gives both cases' labels
n_big, lab_big = cg.connected_components(big, directed=False)
s.array("cc_big_labels", lab_big.astype(np.int32))
for directed in (True, False):
    s.case(f"cc_big_{'d' if directed else 'u'}_weak", "connected_components", directed=directed, connection="weak",
           reaches="cc_general", n_components=int(n_big), labels="cc_big_labels", **prm)

# 4. reverse_cuthill_mckee (whose one-block search is this family's rcm_block_device) past the block:
#    symmetric graphs, relabelled at random, whose leaves are joined in pairs (degree 2) and which carry
#    a chain of 5 nodes ending in the only node of degree 1, so that SciPy's start node (the first of
#    an unstable argsort of the degrees) is unambiguous and SciPy's permutation is the one expected.
#    hubs: a root joined to 4 hubs of 1500 leaves each: the level of the 4500 leaves of hubs 2-4 does
#          not fit the block; rows are at most 1501 long, so the general device kernel runs;
#    star5000: a centre with 5000 leaves: the level of the leaves does not fit, and the centre's row
#          is longer than 2048: the host fallback;
#    star2000: a centre with 2000 leaves: every level fits and the longest row (2000) is within the
#          host fallback's 2048, so the one-block search orders it, its children sorted in one segment.


def rcm_graph(hubs, leaves):
    """Edges of the graph: node 0 the root (the centre when hubs == 0), then the hubs, the leaves
    (`leaves` per hub, or around the centre) and the chain; relabelled at random. Returns the CSR."""
    e = []
    centres = list(range(1, hubs + 1)) if hubs else [0]
    e += [(0, h) for h in range(1, hubs + 1)]
    nxt = 1 + hubs
    for h in centres:
        lv = np.arange(nxt, nxt + leaves)
        nxt += leaves
        e += [(h, int(v)) for v in lv]
        e += [(int(lv[k]), int(lv[k + 1])) for k in range(0, leaves - 1, 2)]
    prev = 1 + hubs  # the first leaf carries the chain
    for k in range(5):
        e.append((prev, nxt))
        prev = nxt
        nxt += 1
    e = np.array(e, np.int64)
    lab = lrng.permutation(nxt)
    r, c = lab[np.concatenate([e[:, 0], e[:, 1]])], lab[np.concatenate([e[:, 1], e[:, 0]])]
    return sp.csr_matrix((np.ones(r.size), (r, c)), shape=(nxt, nxt))  # canonical: sorted, no duplicates


for name, hubs, leaves, reaches in (("rcm_hubs", 4, 1500, "rcm_general_kernel"),
                                    ("rcm_star5000", 0, 5000, "rcm_host"),
                                    ("rcm_star2000", 0, 2000, "rcm_block")):
    g = rcm_graph(hubs, leaves)
    deg = np.diff(g.indptr)  # no diagonal entries: SciPy's degree is the row length
    assert (deg == deg.min()).sum() == 1 and cg.connected_components(g, directed=False)[0] == 1, name
    prm = store_unit(name, g)
    for symm in (False, True):
        p = cg.reverse_cuthill_mckee(g, symmetric_mode=symm)
        assert p[-1] == np.argmin(deg), name  # SciPy started from the node of lowest degree
        cname = f"{name}_{int(symm)}"
        s.case(cname, "reverse_cuthill_mckee", symmetric_mode=symm, reaches=reaches,
               perm=s.array(cname + "_perm", p.astype(np.int32)), **prm)

s.write()

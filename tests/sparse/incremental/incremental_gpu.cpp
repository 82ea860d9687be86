// GPU tests of cusci::sparse's incremental family against SciPy 1.18 goldens
// (tests/golden/gen_sparse_incremental.py): dok_matrix / lil_matrix -> csr, csc, coo, dense, dia, bsr
// with SciPy's exact arrays (DOK's insertion order within rows included) and index dtypes, and the
// constructors from device matrices (unsorted, duplicates, explicit zeros) and dense arrays.

#include <string>

#include "cusci/error.hpp"
#include "incremental_common.hpp"

using namespace incremental_test;

namespace {

void check_index_dev(const ndarray& a, const host_array& e, dtype it, const std::string& what) {
  CAPTURE(what);
  CHECK(a.dtype() == it);
  check_index(int64s(to_host(a)), e, what);
}

template <class C>
void check_compressed(const C& A, const std::string& pre, dtype it) {
  check_exact(to_host(A.data()), g(pre + "_data"), pre + "_data");
  check_index_dev(A.indices(), g(pre + "_indices"), it, pre + "_indices");
  check_index_dev(A.indptr(), g(pre + "_indptr"), it, pre + "_indptr");
}

void check_dense(const ndarray& a, const host_array& e) {
  check_exact(to_host(a), e, "dense");
}

}  // namespace

TEST_CASE("build: conversions to the device formats give SciPy's arrays") {
  for (auto& c : t::cases(M, "build")) {
    const std::string n = c.name();
    CAPTURE(n);
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const sp::shape2 shape = shape_of(c);
    const dtype it = c.get<bool>("int64_idx") ? dtype::int64 : dtype::int32;
    sp::dok_matrix D(shape, dt);
    sp::lil_matrix L(shape, dt);
    replay(D, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    replay(L, g(n + "_i"), g(n + "_j"), g(n + "_v"));

    const sp::csr_matrix Dc = D.tocsr();
    CHECK(Dc.shape() == shape);
    CHECK(Dc.dtype() == dt);
    check_compressed(Dc, n + "_dok_csr", it);
    const sp::coo_matrix Do = D.tocoo();
    check_exact(to_host(Do.data()), g(n + "_dok_val"), "dok coo data");
    check_index_dev(Do.row(), g(n + "_dok_row"), it, "dok coo row");
    check_index_dev(Do.col(), g(n + "_dok_col"), it, "dok coo col");
    const sp::csr_matrix Lc = L.tocsr();
    check_compressed(Lc, n + "_lil_csr", it);
    CHECK(Lc.has_canonical_format());
    if (c.get<bool>("huge")) continue;

    check_compressed(D.tocsc(), n + "_dok_csc", it);
    check_compressed(L.tocsc(), n + "_lil_csc", it);
    const host_array dense = g(n + "_dense");
    check_dense(D.toarray(), dense);
    check_dense(L.toarray(), dense);
    const ndarray F = D.toarray(order::F);
    CHECK(F.is_f_contiguous());
    check_dense(F.copy(order::C), dense);
    check_dense(L.todense(order::F).copy(order::C), dense);
    check_dense(D.asformat(sp::format::dia).toarray(), dense);
    check_dense(L.asformat(sp::format::bsr).toarray(), dense);
    check_dense(L.tocoo().toarray(), dense);
    // Round trips through the device.
    check_lil(sp::lil_matrix(Dc), n + "_lil_csr");  // the unsorted CSR is summed and sorted
    const sp::dok_matrix R(Lc);
    CHECK(R.nnz() == D.nnz());
    for (const auto& [k, v] : D.items())
      CHECK(R.get(k[0], k[1]).value<std::complex<double>>() == v.value<std::complex<double>>());
  }
}

TEST_CASE("from device CSR with unsorted indices, duplicates and explicit zeros") {
  for (auto& c : t::cases(M, "from_csr")) {
    const std::string n = c.name();
    CAPTURE(n);
    const sp::csr_matrix A(asarray(g(n + "_in_data")), asarray(g(n + "_in_indices")), asarray(g(n + "_in_indptr")),
                           sp::matrix_options{.shape = shape_of(c)});
    const sp::dok_matrix D(A);
    check_dok(D, n + "_dok");
    check_lil(sp::lil_matrix(A), n + "_lil_csr");
    // Keys in row-major order: SciPy's todok().tocsr() is the canonical CSR (the row pointers only).
    const sp::csr_matrix Dc = D.tocsr();
    check_compressed(Dc, n + "_lil_csr", dtype::int32);
    CHECK(Dc.has_canonical_format());
    CHECK(D.tocoo().has_canonical_format());
    check_dok(sp::dok_matrix(A.tocsc()), n + "_dok");  // csc.todok(): through sorted COO too
    check_lil(sp::lil_matrix(A.tocoo()), n + "_lil_csr");
  }
}

TEST_CASE("from dense arrays") {
  for (auto& c : t::cases(M, "from_dense")) {
    const std::string n = c.name();
    CAPTURE(n);
    const ndarray d = asarray(g(n + "_in"));
    check_dok(sp::dok_matrix(d), n + "_dok");
    check_lil(sp::lil_matrix(d), n + "_lil_csr");
    check_lil(sp::lil_matrix(d.copy(order::F)), n + "_lil_csr");
  }
}

TEST_CASE("a real matrix built entry by entry (1138_bus): SciPy's tocsr/tocsc arrays") {
  for (auto& c : t::cases(M, "mtx")) {
    const std::string n = c.name();
    sp::dok_matrix D(shape_of(c));
    sp::lil_matrix L(shape_of(c));
    replay(D, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    replay(L, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    check_compressed(D.tocsr(), n + "_dok_csr", dtype::int32);
    check_compressed(D.tocsc(), n + "_dok_csc", dtype::int32);
    check_compressed(L.tocsr(), n + "_lil_csr", dtype::int32);
    check_compressed(L.tocsc(), n + "_lil_csc", dtype::int32);
    check_compressed(sp::dok_matrix(L.tocsr()).tocsr(), n + "_lil_csr", dtype::int32);
    check_compressed(L.todok().tocsc(), n + "_lil_csc", dtype::int32);
    // DOK's rows keep the random insertion order: not sorted, as SciPy's.
    CHECK_FALSE(D.tocsr().has_sorted_indices());
    // Same matrix either way, once sorted.
    const sp::csr_matrix a = D.tocsr().sorted_indices(), b = L.tocsr();
    check_exact(to_host(a.data()), to_host(b.data()), "sorted data");
    check_exact(to_host(a.indices()), to_host(b.indices()), "sorted indices");
  }
}

TEST_CASE("empty matrices convert to empty device matrices") {
  for (dtype dt : {dtype::float64, dtype::int8, dtype::complex64}) {
    sp::dok_matrix D(sp::shape2{4, 3}, dt);
    sp::lil_matrix L(sp::shape2{0, 3}, dt);
    CHECK(D.tocsr().nnz() == 0);
    CHECK(D.tocsr().dtype() == dt);
    CHECK(D.tocsc().indptr().size() == 4);
    CHECK(D.tocoo().nnz() == 0);
    CHECK(L.tocsr().indptr().size() == 1);
    CHECK(L.toarray().shape() == shape_t{0, 3});
    CHECK(D.toarray().shape() == shape_t{4, 3});
  }
}

// GPU tests of cusci::sparse's formats family against SciPy 1.18 goldens
// (tests/golden/gen_sparse_formats.py): constructors from triplets / dense / compressed arrays for every
// value dtype (int32 indices, int64 for a subset), every pair conversion, toarray in C and F order,
// format maintenance, empty and degenerate shapes, and real Matrix Market matrices.

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/matrix.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sp = cusci::sparse;
namespace t = cusci::testing;

namespace {

const char* M = "sparse_formats";

host_array g(const std::string& name) { return t::golden(M, name); }
ndarray gd(const std::string& name) { return asarray(g(name)); }

// Compares an index array: values against the golden, dtype against the expected index dtype.
void check_index(const ndarray& a, const host_array& e, dtype it) {
  CHECK(a.dtype() == it);
  t::check_allclose(to_host(a).astype(e.dtype()), e, 0, 0);
}

template <class C>
void check_compressed(const C& A, const std::string& pre, dtype it, double rtol, double atol) {
  t::check_allclose(A.data(), g(pre + "_data"), rtol, atol);
  check_index(A.indices(), g(pre + "_indices"), it);
  check_index(A.indptr(), g(pre + "_indptr"), it);
}

void check_dense(const sp::spmatrix& A, const host_array& dense, double rtol, double atol) {
  t::check_allclose(A.toarray(), dense, rtol, atol);
  ndarray F = A.toarray(order::F);
  CHECK(F.is_f_contiguous());
  t::check_allclose(F.copy(order::C), dense, rtol, atol);
  t::check_allclose(A.todense(), dense, rtol, atol);
}

std::vector<t::golden_case> cases(const std::string& func) { return t::cases(M, func); }

sp::shape2 shape_of(const t::golden_case& r) { return {r.get<std::int64_t>("rows"), r.get<std::int64_t>("cols")}; }

}  // namespace

TEST_CASE("triplets: constructors and every pair conversion, every value dtype") {
  for (auto& r : cases("from_triplets")) {
    const std::string c = r.name();
    const dtype vt = dtype_from_string(r.get<std::string>("dtype"));
    const double rtol = r.rtol(), atol = r.atol();
    const sp::shape2 shape = shape_of(r);
    const bool wide = vt == dtype::float64 || vt == dtype::int8 || vt == dtype::complex64 || vt == dtype::bool_;
    std::vector<dtype> its{dtype::int32};
    if (wide) its.push_back(dtype::int64);
    for (dtype it : its) {
      CAPTURE(c);
      CAPTURE(dtype_name(it));
      const ndarray data = gd(c + "_data"), row = gd(c + "_row"), col = gd(c + "_col");
      const host_array dense = g(c + "_dense");
      const sp::matrix_options o{.shape = shape, .index_dtype = it};

      sp::coo_matrix A(data, {row, col}, o);
      CHECK(A.shape() == shape);
      CHECK(A.nnz() == data.size());
      CHECK(A.dtype() == vt);
      CHECK(A.index_dtype() == it);
      CHECK_FALSE(A.has_canonical_format());
      check_dense(A, dense, rtol, atol);

      // COO -> CSR / CSC sum duplicates and sort, as SciPy.
      sp::csr_matrix B = A.tocsr();
      check_compressed(B, c + "_csr", it, rtol, atol);
      CHECK(B.has_canonical_format());
      sp::csc_matrix C = A.tocsc();
      check_compressed(C, c + "_csc", it, rtol, atol);
      check_compressed(sp::csr_matrix(data, {row, col}, o), c + "_csr", it, rtol, atol);
      check_compressed(sp::csc_matrix(data, {row, col}, o), c + "_csc", it, rtol, atol);
      // CSR <-> CSC
      check_compressed(B.tocsc(), c + "_csc", it, rtol, atol);
      check_compressed(C.tocsr(), c + "_csr", it, rtol, atol);
      // from compressed arrays (full check)
      sp::csr_matrix B2(gd(c + "_csr_data"), gd(c + "_csr_indices"), gd(c + "_csr_indptr"), o);
      check_compressed(B2, c + "_csr", it, rtol, atol);
      sp::csc_matrix C2(gd(c + "_csc_data"), gd(c + "_csc_indices"), gd(c + "_csc_indptr"), o);
      check_dense(C2, dense, rtol, atol);
      // DIA
      sp::dia_matrix D = B.todia();
      t::check_allclose(D.data(), g(c + "_dia_data"), rtol, atol);
      t::check_allclose(to_host(D.offsets()).astype(dtype::int32), g(c + "_dia_offsets"), 0, 0);
      check_dense(D, dense, rtol, atol);
      {  // DIA -> COO in SciPy 1.18's order (row-major, as its CSR), zeros dropped
        sp::coo_matrix Dc = D.tocoo();
        t::check_allclose(to_host(Dc.row()).astype(dtype::int64), g(c + "_dia_coo_row"), 0, 0);
        t::check_allclose(to_host(Dc.col()).astype(dtype::int64), g(c + "_dia_coo_col"), 0, 0);
        t::check_allclose(Dc.data(), g(c + "_dia_coo_data"), rtol, atol);
        CHECK(Dc.has_canonical_format());
      }
      check_compressed(D.tocsr(), c + "_ez", it == dtype::int64 ? dtype::int32 : it, rtol, atol);  // zeros dropped
      sp::dia_matrix D2(gd(c + "_dia_data"), gd(c + "_dia_offsets"), {.shape = shape});
      check_dense(D2, dense, rtol, atol);
      // BSR (2, 1)
      sp::bsr_matrix R = B.tobsr(sp::shape2{2, 1});
      CHECK(R.blocksize() == sp::shape2{2, 1});
      t::check_allclose(R.data(), g(c + "_bsr_data"), rtol, atol);
      check_index(R.indices(), g(c + "_bsr_indices"), it);
      check_index(R.indptr(), g(c + "_bsr_indptr"), it);
      check_dense(R, dense, rtol, atol);
      check_dense(R.tocsr(), dense, rtol, atol);
      check_dense(R.tocsc(), dense, rtol, atol);
      check_dense(R.tocoo(), dense, rtol, atol);
      check_dense(R.todia(), dense, rtol, atol);
      sp::bsr_matrix R2(gd(c + "_bsr_data"), gd(c + "_bsr_indices"), gd(c + "_bsr_indptr"), {.shape = shape});
      check_dense(R2, dense, rtol, atol);
      // every format through spmatrix::asformat, and back
      const sp::spmatrix S = A;
      for (auto f : {sp::format::csr, sp::format::csc, sp::format::coo, sp::format::dia, sp::format::bsr}) {
        sp::spmatrix X = S.asformat(f);
        CHECK(X.format() == f);
        check_dense(X, dense, rtol, atol);
        for (auto f2 : {sp::format::csr, sp::format::csc, sp::format::coo, sp::format::dia, sp::format::bsr})
          check_dense(X.asformat(f2), dense, rtol, atol);
      }
      // maintenance
      sp::csr_matrix E = B.copy();
      E.eliminate_zeros();
      check_compressed(E, c + "_ez", it, rtol, atol);
      sp::coo_matrix A2 = A.copy();
      A2.sum_duplicates();
      CHECK(A2.has_canonical_format());
      check_dense(A2, dense, rtol, atol);
      CHECK(A2.nnz() == g(c + "_csr_data").size());
      // astype / copy
      sp::csr_matrix Z = B.astype(dtype::complex128);
      CHECK(Z.dtype() == dtype::complex128);
      t::check_allclose(Z.toarray(), dense.astype(dtype::complex128), rtol, atol);
      sp::csr_matrix Y = B.copy();
      CHECK(Y.data().data() != B.data().data());
      // unsorted CSR: reverse each row through CSC -> CSR of the transpose pattern is sorted, so build
      // an unsorted one from the COO in reverse order.
      sp::csr_matrix U = sp::csr_matrix::from_valid(B.data(), B.indices(), B.indptr(), shape);
      CHECK(U.has_sorted_indices());
    }
  }
}

TEST_CASE("dense inputs: empty, 1 x n, n x 1, 1-D and nnz 0") {
  for (auto& r : cases("from_dense")) {
    const std::string c = r.name();
    CAPTURE(c);
    const double rtol = r.rtol(), atol = r.atol();
    const sp::shape2 shape = shape_of(r);
    const ndarray in = gd(c + "_in");
    const host_array dense = g(c + "_dense");
    sp::coo_matrix A(in);
    CHECK(A.shape() == shape);
    CHECK(A.has_canonical_format());
    t::check_allclose(A.data(), g(c + "_coo_data"), rtol, atol);
    check_index(A.row(), g(c + "_coo_row"), dtype::int32);
    check_index(A.col(), g(c + "_coo_col"), dtype::int32);
    check_compressed(sp::csr_matrix(in), c + "_csr", dtype::int32, rtol, atol);
    check_compressed(sp::csc_matrix(in), c + "_csc", dtype::int32, rtol, atol);
    sp::dia_matrix D(in);
    t::check_allclose(D.data(), g(c + "_dia_data"), rtol, atol);
    t::check_allclose(to_host(D.offsets()), g(c + "_dia_offsets"), 0, 0);
    for (auto f : {sp::format::csr, sp::format::csc, sp::format::coo, sp::format::dia})
      check_dense(sp::spmatrix(A).asformat(f), dense, rtol, atol);
    if (shape[0] % 1 == 0) check_dense(sp::bsr_matrix(in, {.blocksize = sp::shape2{1, 1}}), dense, rtol, atol);
    // empty constructors
    sp::csr_matrix Z(shape);
    CHECK(Z.nnz() == 0);
    CHECK(Z.indptr().size() == shape[0] + 1);
    t::check_allclose(Z.toarray(), host_array(dtype::float64, {shape[0], shape[1]}).astype(dtype::float64), 0, 0,
                      false);
  }
}

TEST_CASE("Matrix Market matrices: read, convert to every format and back") {
  for (auto& r : cases("mmread_convert")) {
    const std::string c = r.name();
    CAPTURE(c);
    // A real matrix of examples/data.
    const std::string path = std::string(CUSCI_EXAMPLE_DATA) + "/" + r.get<std::string>("file");
    if (!std::filesystem::exists(path)) {
      MESSAGE("skipping " << path << " (not present)");
      continue;
    }
    sp::csr_matrix A = io::mmread(path).tocsr();
    check_compressed(A, c + "_csr", dtype::int32, 1e-12, 1e-12);
    check_compressed(A.tocsc(), c + "_csc", dtype::int32, 1e-12, 1e-12);
    const ndarray dense = A.toarray();
    const host_array hd = to_host(dense);
    for (auto f : {sp::format::csr, sp::format::csc, sp::format::coo, sp::format::dia, sp::format::bsr}) {
      // (BSR pads blocks with zeros and DIA drops explicit zeros: compare the dense forms, A itself
      // having been checked against SciPy above.)
      check_dense(sp::spmatrix(A).asformat(f), hd, 1e-12, 1e-12);
    }
    // From the dense form: SciPy's csr_matrix(A.toarray()), without A's stored zeros.
    check_compressed(sp::csr_matrix(dense), c + "_fromdense", dtype::int32, 1e-12, 1e-12);
  }
}

TEST_CASE("device checks: out-of-range indices and a decreasing indptr throw value_error") {
  const ndarray d = asarray(std::vector<double>{1, 2, 3});
  const ndarray r = asarray(std::vector<std::int64_t>{0, 1, 3}), c = asarray(std::vector<std::int64_t>{0, 1, 2});
  CHECK_THROWS_WITH_AS(sp::coo_matrix(d, {r, c}, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("axis 0 index 3 exceeds matrix dimension 3"), value_error);
  const ndarray ind = asarray(std::vector<std::int32_t>{0, 1, 2});
  CHECK_THROWS_WITH_AS(sp::csr_matrix(d, ind, asarray(std::vector<std::int32_t>{0, 2, 1, 3}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("indptr must be a non-decreasing sequence"), value_error);
  CHECK_THROWS_WITH_AS(sp::csc_matrix(d, ind, asarray(std::vector<std::int32_t>{0, 1, 2, 3}), {.shape = sp::shape2{2, 3}}),
                       doctest::Contains("indices must be < 2"), value_error);
  CHECK_THROWS_WITH_AS(sp::dia_matrix(asarray(std::vector<double>{1, 2, 3, 4, 5, 6}).reshape({2, 3}),
                                      asarray(std::vector<std::int32_t>{1, 1}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("offset array contains duplicate values"), value_error);
  CHECK_THROWS_WITH_AS(sp::dia_matrix(asarray(std::vector<double>{1, 2, 3, 4, 5, 6}).reshape({2, 3}),
                                      asarray(std::vector<std::int32_t>{0, 1, 2}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("number of diagonals (2) does not match the number of offsets (3)"), value_error);
  // check_format on a valid matrix passes; the spmatrix get<> of another format is a type_error.
  sp::csr_matrix A(d, ind, asarray(std::vector<std::int32_t>{0, 1, 2, 3}), {.shape = sp::shape2{3, 3}});
  A.check_format(true);
  sp::spmatrix S = A;
  CHECK(S.holds<sp::csr_matrix>());
  CHECK_THROWS_AS(S.get<sp::csc_matrix>(), type_error);
}

TEST_CASE("sort_indices / sum_duplicates on an unsorted CSR with duplicates") {
  // Row 0: cols 2, 0, 2 (a duplicate, unsorted); row 1: col 1.
  const ndarray d = asarray(std::vector<double>{1, 2, 4, 8});
  const ndarray ind = asarray(std::vector<std::int32_t>{2, 0, 2, 1});
  const ndarray ptr = asarray(std::vector<std::int32_t>{0, 3, 4});
  sp::csr_matrix A(d, ind, ptr, {.shape = sp::shape2{2, 3}});
  CHECK_FALSE(A.has_sorted_indices());
  CHECK_FALSE(A.has_canonical_format());
  // Expected from SciPy's toarray of the same arrays: [[2, 0, 5], [0, 8, 0]].
  sp::csr_matrix S = A.sorted_indices();
  CHECK(S.has_sorted_indices());
  CHECK(S.nnz() == 4);
  sp::csr_matrix C = A.copy();
  C.sum_duplicates();
  CHECK(C.has_canonical_format());
  CHECK(C.nnz() == 3);
  t::check_allclose(C.toarray(), A.toarray().get(), 0, 0);
  t::check_allclose(A.tocsc().toarray(), A.toarray().get(), 0, 0);
}

namespace {

// Index array against a golden stored in a small unsigned dtype: dtype `it`, values compared as int64.
void check_index_exact(const ndarray& a, const host_array& e, dtype it) {
  CHECK(a.dtype() == it);
  CHECK(a.ndim() == 1);
  t::check_allclose(to_host(a).astype(dtype::int64), e.astype(dtype::int64), 0, 0);
}

template <class M>
void check_transposed(const M& X, const std::string& c, sp::shape2 shape, dtype vt, dtype it, double rtol,
                      double atol) {
  CHECK(X.shape() == shape);
  CHECK(X.dtype() == vt);
  CHECK(X.index_dtype() == it);
  t::check_allclose(X.data(), g(c + "_csc_data"), rtol, atol);
  check_index_exact(X.indices(), g(c + "_csc_indices"), it);
  check_index_exact(X.indptr(), g(c + "_csc_indptr"), it);
}

}  // namespace

TEST_CASE("CSR -> CSC and CSC -> CSR of given arrays: stable order, duplicates and zeros kept, every tier") {
  // Slices of up to 32 entries (16 when a group of 256 slices does not fit the shared-memory stage)
  // are ordered in registers, longer ones (33, 40, 100, 3001, ~102k entries here) through the
  // segmented sort; the expected arrays are SciPy's tocsc() of the same arrays. The tr_window cases
  // have more minor slices than the count/scatter window (entries in and out of it) and one a row tile
  // of more than 8192 entries.
  const auto all = cases("csr_to_csc");
  REQUIRE(all.size() >= 22);
  for (auto& r : all) {
    const std::string c = r.name();
    const dtype vt = dtype_from_string(r.get<std::string>("dtype"));
    const double rtol = r.rtol(), atol = r.atol();
    const std::int64_t m = r.get<std::int64_t>("rows"), n = r.get<std::int64_t>("cols");
    const host_array hd = g(c + "_in_data"), hi = g(c + "_in_indices"), hp = g(c + "_in_indptr");
    for (dtype it : {dtype::int32, dtype::int64}) {
      CAPTURE(c);
      CAPTURE(dtype_name(it));
      const ndarray data = asarray(hd), ind = asarray(hi.astype(it)), ptr = asarray(hp.astype(it));
      sp::csr_matrix A(data, ind, ptr, {.shape = sp::shape2{m, n}, .index_dtype = it});
      CHECK(A.nnz() == hd.size());
      check_transposed(A.tocsc(), c, sp::shape2{m, n}, vt, it, rtol, atol);
      // The same arrays read as a (n, m) CSC matrix: tocsr() gives the same arrays.
      sp::csc_matrix B(data, ind, ptr, {.shape = sp::shape2{n, m}, .index_dtype = it});
      check_transposed(B.tocsr(), c, sp::shape2{n, m}, vt, it, rtol, atol);
      // Twice in a row on the same stream (pool reuse of the work list and counters).
      check_transposed(A.tocsc(), c, sp::shape2{m, n}, vt, it, rtol, atol);
    }
  }
}

TEST_CASE("CSR -> CSC across many scan tiles and look-back rounds: stencil and wide patterns") {
  // The counts' scan works in tiles of 4096 slices (2048 with int64 indices) with a look-back over
  // 32 predecessors at a time; the goldens above stay within two tiles, so these reach 88 to 586.
  // Expected arrays: a symmetric matrix's CSC arrays are its CSR arrays; the wide pattern's come from
  // the definition (a stable counting sort by column on the host).
  // 2-D 5-point stencil on a 600 x 600 grid, symmetric values (the smaller index picks the value).
  const std::int64_t k = 600, n = k * k;
  std::vector<std::int64_t> sp_ptr{0}, sp_ind;
  std::vector<double> sp_val;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = i / k, c = i % k;
    auto add = [&](std::int64_t j) {
      sp_ind.push_back(j);
      sp_val.push_back(i == j ? 4.0 : -1.0 - static_cast<double>(std::min(i, j) % 7));
    };
    if (r > 0) add(i - k);
    if (c > 0) add(i - 1);
    add(i);
    if (c < k - 1) add(i + 1);
    if (r < k - 1) add(i + k);
    sp_ptr.push_back(static_cast<std::int64_t>(sp_ind.size()));
  }
  // 1000 rows x 1,200,001 columns, 300 sorted distinct columns per row spread over the whole width.
  const std::int64_t wm = 1000, wn = 1200001, per = 300;
  std::vector<std::int64_t> w_ptr{0}, w_ind;
  std::vector<float> w_val;
  for (std::int64_t r = 0; r < wm; ++r) {
    std::vector<std::int64_t> cols;
    for (std::int64_t j = 0; j < per; ++j) cols.push_back((r * 7919 + j * 4001 + (j * j) % 13) % wn);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (std::int64_t c : cols) w_ind.push_back(c), w_val.push_back(static_cast<float>(r) + 1e-3f * static_cast<float>(c % 1000));
    w_ptr.push_back(static_cast<std::int64_t>(w_ind.size()));
  }
  const std::int64_t w_nnz = static_cast<std::int64_t>(w_ind.size());
  std::vector<std::int64_t> e_ptr(wn + 1, 0), e_ind(w_nnz);
  std::vector<float> e_val(w_nnz);
  for (std::int64_t c : w_ind) ++e_ptr[c + 1];
  for (std::int64_t c = 0; c < wn; ++c) e_ptr[c + 1] += e_ptr[c];
  {
    std::vector<std::int64_t> next(e_ptr.begin(), e_ptr.end() - 1);
    for (std::int64_t r = 0; r < wm; ++r)
      for (std::int64_t p = w_ptr[r]; p < w_ptr[r + 1]; ++p) {
        const std::int64_t slot = next[w_ind[p]]++;
        e_ind[slot] = r;
        e_val[slot] = w_val[p];
      }
  }
  auto as_vec = [](const ndarray& a) { return to_host(a).astype(dtype::int64).to_vector<std::int64_t>(); };
  for (dtype it : {dtype::int32, dtype::int64}) {
    CAPTURE(dtype_name(it));
    const sp::csr_matrix S(asarray(sp_val), asarray(sp_ind).astype(it), asarray(sp_ptr).astype(it),
                           {.shape = sp::shape2{n, n}, .index_dtype = it});
    const sp::csc_matrix St = S.tocsc();
    CHECK(as_vec(St.indptr()) == sp_ptr);
    CHECK(as_vec(St.indices()) == sp_ind);
    CHECK(to_host(St.data()).to_vector<double>() == sp_val);
    const sp::csr_matrix W(asarray(w_val), asarray(w_ind).astype(it), asarray(w_ptr).astype(it),
                           {.shape = sp::shape2{wm, wn}, .index_dtype = it});
    const sp::csc_matrix Wt = W.tocsc();
    CHECK(Wt.shape() == sp::shape2{wm, wn});
    CHECK(as_vec(Wt.indptr()) == e_ptr);
    CHECK(as_vec(Wt.indices()) == e_ind);
    CHECK(to_host(Wt.data()).to_vector<float>() == e_val);
  }
}

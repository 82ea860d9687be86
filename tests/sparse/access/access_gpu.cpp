// GPU tests of cusci::sparse's access family against SciPy goldens: outer indexing of csr/csc over
// the value-dtype x index-dtype sweep (slices with steps, negative indices, integer arrays, empty
// selections), element and paired reads, masks, getrow/getcol of every format, reshape, resize,
// assignment (existing and new entries), save_npz/load_npz and mmread/mmwrite on the device.
#include <string>
#include <vector>

#include <unistd.h>

#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;

namespace {

// Array <k> of case <c> (stored as <c>__<k>).
host_array g(const std::string& c, const std::string& k) { return t::golden("sparse_access", c + "__" + k); }

sparse::format fmt_of(const t::golden_case& r, const std::string& key) {
  return sparse::format_from_string(r.get<std::string>(key));
}

// One axis index of a case: {"int": 3}, {"slice": [1, 5, 2]} (null = None), {"arr": [1, 3, 1]},
// {"mask": [true, false, true]}.
sparse::axis_index parse(const cusci::testing::golden_value& j) {
  const std::string kind = j.keys().at(0);
  const auto v = j.at(kind);
  if (kind == "int") return v.get<std::int64_t>();
  if (kind == "arr") return v.get<std::vector<std::int64_t>>();
  if (kind == "mask") return v.get<std::vector<bool>>();
  REQUIRE(kind == "slice");
  cusci::slice sl;
  if (!v.at(0).is_null()) sl.start = v.at(0).get<std::int64_t>();
  if (!v.at(1).is_null()) sl.stop = v.at(1).get<std::int64_t>();
  if (!v.at(2).is_null()) sl.step = v.at(2).get<std::int64_t>();
  return sl;
}

sparse::spmatrix build(const host_array& dense, sparse::format f, dtype it) {
  const ndarray d = asarray(dense);
  const sparse::csr_matrix A(d, sparse::matrix_options{.index_dtype = it});
  if (f == sparse::format::bsr) return A.tobsr(sparse::shape2{2, 2});
  return A.asformat(f);
}

}  // namespace

TEST_CASE("getitem vs SciPy over formats x value dtypes x index dtypes") {
  int n = 0;
  for (const auto& r : t::cases("sparse_access", "getitem")) {
    const std::string c = r.name();
    CAPTURE(c);
    const std::string rows = r.params().at("rows").dump(), cols = r.params().at("cols").dump();
    CAPTURE(rows);
    CAPTURE(cols);
    const dtype it = dtype_from_string(r.get<std::string>("index"));
    const sparse::spmatrix A = build(g(c, "a"), fmt_of(r, "fmt"), it);
    const sparse::spmatrix B = sparse::getitem(A, parse(r.params().at("rows")), parse(r.params().at("cols")));
    CHECK(B.format() == fmt_of(r, "out_fmt"));
    CHECK(B.dtype() == A.dtype());
    CHECK(B.index_dtype() == it);
    const auto sh = r.get<std::vector<std::int64_t>>("out_shape");
    CHECK(B.shape() == sparse::shape2{sh.at(0), sh.at(1)});
    t::check_allclose(B.toarray(), g(c, "out"), 0, 0);
    ++n;
  }
  CHECK(n > 700);
}

TEST_CASE("get, paired get, masks, getrow/getcol, reshape, resize, setitem vs SciPy") {
  for (const auto& r : t::cases("sparse_access", "access")) {
    const std::string c = r.name();
    CAPTURE(c);
    const sparse::format f = fmt_of(r, "fmt");
    const sparse::spmatrix A = build(g(c, "a"), f, dtype::int32);
    const sparse::csr_matrix R = sparse::getrow(A, -2);
    CHECK(sparse::format::csr == fmt_of(r, "getrow_fmt"));
    t::check_allclose(R.toarray(), g(c, "getrow"), 0, 0);
    const sparse::spmatrix C = sparse::getcol(A, 3);
    CHECK(C.format() == fmt_of(r, "getcol_fmt"));
    t::check_allclose(C.toarray(), g(c, "getcol"), 0, 0);
    const sparse::spmatrix S = sparse::reshape(A, {4, 12});
    CHECK(S.format() == fmt_of(r, "reshape_fmt"));
    t::check_allclose(S.toarray(), g(c, "reshape_c"), 0, 0);
    t::check_allclose(sparse::reshape(A, {12, -1}, order::F).toarray(), g(c, "reshape_f"), 0, 0);
    sparse::spmatrix Z = A.copy();
    sparse::resize(Z, {4, 10});
    t::check_allclose(Z.toarray(), g(c, "resize_a"), 0, 0);
    Z = A.copy();
    sparse::resize(Z, {8, 4});
    t::check_allclose(Z.toarray(), g(c, "resize_b"), 0, 0);
    if (f != sparse::format::csr && f != sparse::format::csc) continue;
    const host_array elem = g(c, "elem");
    const std::vector<std::pair<int, int>> at{{1, 2}, {-1, -1}, {5, 0}};
    for (std::size_t k = 0; k < at.size(); ++k) {
      const scalar v = sparse::get(A, at[k].first, at[k].second);
      CHECK(v.value<std::complex<double>>() == t::element(elem, static_cast<std::int64_t>(k)));
    }
    t::check_allclose(sparse::get(A, std::vector<std::int64_t>{1, 2, -1, 1}, std::vector<std::int64_t>{3, 3, 0, 3}),
                      g(c, "pairs"), 0, 0);
    const std::vector<bool> mr{true, false, true, true, false, false},
        mc{false, true, true, false, true, false, true, true};
    t::check_allclose(sparse::getitem(A, mr, cusci::slice{}).toarray(), g(c, "mask_r"), 0, 0);
    t::check_allclose(sparse::getitem(A, cusci::slice{}, mc).toarray(), g(c, "mask_c"), 0, 0);
    sparse::spmatrix W = A.copy();
    sparse::setitem(W, 1, 2, 7);
    const host_array v3 = host_array::from(std::vector<std::int64_t>{3, 4, 5}).astype(A.dtype());
    sparse::setitem(W, std::vector<std::int64_t>{0, 5, 0}, std::vector<std::int64_t>{1, 1, 1}, asarray(v3));
    sparse::setitem(W, cusci::slice{2, 4}, cusci::slice{1, 7, 3}, scalar(2));
    t::check_allclose(W.toarray(), g(c, "set"), 0, 0);
    // Writing an existing entry only keeps the structure; raise mode refuses new entries. The positions come from
    // the dense golden: the first stored (nonzero) entry and the first absent (zero) one, in C order.
    const host_array dense = g(c, "a");
    std::int64_t nz = -1, zero = -1;
    for (std::int64_t k = 0; k < 6 * 8; ++k) {
      const bool is_zero = t::element(dense, k) == std::complex<double>{};
      if (is_zero && zero < 0) zero = k;
      if (!is_zero && nz < 0) nz = k;
    }
    REQUIRE(nz >= 0);
    REQUIRE(zero >= 0);
    sparse::spmatrix V = A.copy();
    const std::int64_t nnz0 = V.nnz();
    CHECK_NOTHROW(sparse::setitem(V, nz / 8, nz % 8, scalar(1), sparse::new_entries::raise));
    CHECK(V.nnz() == nnz0);
    CHECK_THROWS_AS(sparse::setitem(V, std::vector<std::int64_t>{nz / 8, zero / 8},
                                    std::vector<std::int64_t>{nz % 8, zero % 8}, scalar(1), sparse::new_entries::raise),
                    value_error);
    CHECK(V.nnz() == nnz0);
  }
}

TEST_CASE("load_npz of SciPy files, save_npz read back, on the device") {
  const std::string tmp = "/tmp/cusci_access_gpu_" + std::to_string(static_cast<long>(::getpid())) + ".npz";
  for (const auto& r : t::cases("sparse_access", "load_npz")) {
    const std::string c = r.name();
    CAPTURE(c);
    const sparse::spmatrix A = sparse::load_npz(t::golden_file("sparse_access", c + ".npz"));
    CHECK(sparse::to_string(A.format()) == r.get<std::string>("fmt"));
    t::check_allclose(A.toarray(), t::golden("sparse_access", c), 0, 0);
    sparse::save_npz(tmp, A, r.get<bool>("compressed"));
    const sparse::spmatrix B = sparse::load_npz(tmp);
    CHECK(B.format() == A.format());
    CHECK(B.index_dtype() == A.index_dtype());
    t::check_allclose(B.toarray(), t::golden("sparse_access", c), 0, 0);
  }
  std::remove(tmp.c_str());
}

TEST_CASE("mmread_any / mmread / mmread_dense and mmwrite on the device") {
  const std::string tmp = "/tmp/cusci_access_gpu_" + std::to_string(static_cast<long>(::getpid())) + ".mtx";
  for (const auto& r : t::cases("sparse_access", "mmread")) {
    const std::string c = r.name();
    CAPTURE(c);
    const std::string p = t::golden_file("sparse_access", r.get<std::string>("file"));
    const auto any = io::mmread_any(p);
    CHECK(std::holds_alternative<sparse::coo_matrix>(any) == r.get<bool>("sparse"));
    const ndarray D = io::mmread_dense(p);
    t::check_allclose(D, t::golden("sparse_access", c), 0, 0);
    if (std::holds_alternative<sparse::coo_matrix>(any)) {
      const auto& A = std::get<sparse::coo_matrix>(any);
      CHECK(A.nnz() == r.get<std::int64_t>("nnz"));
      io::mmwrite(tmp, A, {.field = r.get<std::string>("field") == "pattern" ? std::optional(io::mm_field::pattern)
                                                                                : std::nullopt});
    } else {
      io::mmwrite(tmp, D);
    }
    t::check_allclose(io::mmread_dense(tmp), t::golden("sparse_access", c), 0, 0);
  }
  std::remove(tmp.c_str());
}

// GPU tests of dense x sparse products (sparse::dot(X, B), X * B), the result formats of sparse x
// sparse products and the index-dtype utilities (sputils.hpp) against SciPy 1.18 goldens
// (tests/golden/gen_sparse_products2.py): 13 value dtypes and mixed pairs x int32/int64 indices x the
// five formats of B; X 1-D, 2-D, one row, no rows, F order, strided and reversed views; empty shapes;
// real matrices; every pair of formats of A @ B; get_index_dtype and safely_cast_index_arrays.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/sparse/sputils.hpp"
#include "testing.hpp"

namespace t = cusci::testing;
using namespace cusci;
using namespace cusci::sparse;

namespace {

constexpr const char* M = "sparse_products2";

/// The arrays of one case (stored as <case>__<key>).
class case_arrays {
 public:
  explicit case_arrays(std::string name) : name_(std::move(name)) {}
  bool contains(const std::string& key) const { return t::has_golden(M, name_ + "__" + key); }
  host_array operator[](const std::string& key) const { return t::golden(M, name_ + "__" + key); }

 private:
  std::string name_;
};

shape2 shape_of(const host_array& h) {
  const auto s = h.astype(dtype::int64).to_vector<std::int64_t>();
  return {s[0], s[1]};
}

const std::vector<format> all_formats{format::csr, format::csc, format::coo, format::dia, format::bsr};

// B of a dense_sparse case in format f with index dtype it: CSR and CSC from their raw arrays
// (duplicates kept, indices unsorted), COO from the triplets (duplicates, an explicit zero), DIA and
// BSR converted from the COO matrix (duplicates summed, as SciPy's todia/tobsr).
spmatrix build_b(const case_arrays& z, format f, dtype it) {
  const shape2 s = shape_of(z["shape"]);
  const matrix_options o{.shape = s, .index_dtype = it};
  switch (f) {
    case format::csr:
      return csr_matrix(asarray(z["csr_data"]), asarray(z["csr_indices"]), asarray(z["csr_indptr"]), o);
    case format::csc:
      return csc_matrix(asarray(z["csc_data"]), asarray(z["csc_indices"]), asarray(z["csc_indptr"]), o);
    default: break;
  }
  const coo_matrix A(asarray(z["data"]), {asarray(z["row"]), asarray(z["col"])}, o);
  if (f == format::dia) return A.todia();
  if (f == format::bsr) return A.tobsr();
  return A;
}

void check(const ndarray& a, const host_array& want, double rtol, double atol) {
  t::check_allclose(a, want, rtol, atol, true);
}

// Bitwise equality of two device arrays of one dtype and shape.
void check_same_bits(const ndarray& a, const ndarray& b) {
  REQUIRE(a.dtype() == b.dtype());
  REQUIRE(a.shape() == b.shape());
  const host_array ha = to_host(a), hb = to_host(b);
  const auto* pa = static_cast<const unsigned char*>(ha.data());
  const auto* pb = static_cast<const unsigned char*>(hb.data());
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < ha.nbytes(); ++i) bad += pa[i] != pb[i];
  CHECK_MESSAGE(bad == 0, bad << " bytes differ");
}

// Every call form of one dense_sparse case against the golden keys (suffix "_c" for DIA and BSR).
void check_dense_sparse(const spmatrix& B, const case_arrays& z, const std::string& sfx, double rtol, double atol) {
  const ndarray x = asarray(z["x"]), X = asarray(z["X"]);
  check(dot(x, B), z["xB" + sfx], rtol, atol);
  check(dot(X, B), z["XB" + sfx], rtol, atol);
  check(X * B, z["XB" + sfx], rtol, atol);
  // F order, a strided view (every other column of a wider array), one row, no rows, reversed rows.
  check(dot(X.copy(order::F), B), z["XB" + sfx], rtol, atol);
  const ndarray wide = asarray(z["Xwide"]);
  check(dot(wide[{slice{}, slice{{}, {}, 2}}], B), z["XB" + sfx], rtol, atol);
  check(dot(X[{slice{0, 1}}], B), z["X1B" + sfx], rtol, atol);
  check(dot(X[{slice{0, 0}}], B), z["X0B" + sfx], rtol, atol);
  check(dot(X[{slice{{}, {}, -1}}], B), z["XrB" + sfx], rtol, atol);
}

}  // namespace

TEST_CASE("dense @ sparse: dtype (and mixed dtypes) x index dtype x format of B vs SciPy") {
  for (const auto& row : t::cases(M, "dense_sparse")) {
    const case_arrays z(row.name());
    for (dtype it : {dtype::int32, dtype::int64}) {
      for (format f : all_formats) {
        INFO(row.name(), " index ", dtype_name(it), " format ", to_string(f));
        const spmatrix B = build_b(z, f, it);
        // DIA and BSR hold the canonical matrix (duplicates summed in B's dtype): keys "_c".
        const std::string sfx = (f == format::dia || f == format::bsr) ? "_c" : "";
        check_dense_sparse(B, z, sfx, row.rtol(), row.atol());
        // A repeated product (CSR: on the cached column structure) gives the same bits.
        const ndarray X = asarray(z["X"]);
        check_same_bits(dot(X, B), dot(X, B));
      }
    }
  }
}

TEST_CASE("dense @ sparse: empty shapes and a matrix without stored entries") {
  for (const auto& row : t::cases(M, "dense_sparse_shape")) {
    const case_arrays z(row.name());
    for (dtype it : {dtype::int32, dtype::int64}) {
      for (format f : {format::csr, format::csc, format::coo}) {
        INFO(row.name(), " index ", dtype_name(it), " format ", to_string(f));
        const spmatrix B = build_b(z, f, it);
        const ndarray x = asarray(z["x"]), X = asarray(z["X"]);
        check(dot(x, B), z["xB"], row.rtol(), row.atol());
        check(dot(X, B), z["XB"], row.rtol(), row.atol());
        check(dot(X[{slice{0, 0}}], B), z["X0B"], row.rtol(), row.atol());
      }
    }
  }
}

TEST_CASE("dense @ sparse: real matrices of examples/data") {
  for (const auto& row : t::cases(M, "dense_sparse_mtx")) {
    const std::string file = row.get<std::string>("file");
    const std::string path = std::string(CUSCI_EXAMPLE_DATA) + "/" + file;
    if (!std::filesystem::exists(path)) {
      MESSAGE("skipping ", file, ": not found");
      continue;
    }
    const case_arrays z(row.name());
    const csr_matrix A = io::mmread(path).tocsr();
    const ndarray X = asarray(z["X"]);
    for (const spmatrix& B : {spmatrix(A), spmatrix(A.tocsc()), spmatrix(A.tocoo())}) {
      INFO(file, " format ", to_string(B.format()));
      check(dot(X, B), z["XA"], row.rtol(), row.atol());
      check(dot(X[0], B), z["xA"], row.rtol(), row.atol());
    }
  }
}

namespace {

// The 2-D Poisson matrix (5-point stencil) of a k x k grid, CSR float64 with int32 indices.
csr_matrix poisson2d(std::int64_t k) {
  const std::int64_t n = k * k;
  std::vector<std::int32_t> ptr{0}, ind;
  std::vector<double> val;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = i / k, c = i % k;
    if (r > 0) ind.push_back(static_cast<std::int32_t>(i - k)), val.push_back(-1);
    if (c > 0) ind.push_back(static_cast<std::int32_t>(i - 1)), val.push_back(-1);
    ind.push_back(static_cast<std::int32_t>(i)), val.push_back(4);
    if (c < k - 1) ind.push_back(static_cast<std::int32_t>(i + 1)), val.push_back(-1);
    if (r < k - 1) ind.push_back(static_cast<std::int32_t>(i + k)), val.push_back(-1);
    ptr.push_back(static_cast<std::int32_t>(ind.size()));
  }
  return csr_matrix(asarray(val), asarray(ind), asarray(ptr), matrix_options{.shape = shape2{n, n}});
}

}  // namespace

TEST_CASE("dense @ sparse at size: 2-D Poisson 256^2 against the transposed sparse x dense product") {
  const csr_matrix B = poisson2d(256);
  const std::int64_t n = B.shape()[0];
  const csr_matrix Bt = transpose(B).tocsr();
  for (std::int64_t k : {1, 8, 20}) {
    INFO("k ", k);
    const ndarray X = random::default_rng(7).standard_normal({k, n});
    const ndarray got = dot(X, B);
    const ndarray want = dot(spmatrix(Bt), X.T()).T();  // (B^T X^T)^T
    t::check_allclose(got, to_host(want), 1e-13, 1e-13);
    check_same_bits(got, dot(X, B));
    check_same_bits(got, dot(X, spmatrix(B.tocsc())));  // same columns, same order: same bits
    const ndarray Xi = (X * 4.0).astype(dtype::int64);
    const ndarray Bi_want = dot(spmatrix(Bt.astype(dtype::int64)), Xi.T()).T();
    t::check_allclose(dot(Xi, spmatrix(B.astype(dtype::int64))), to_host(Bi_want), 0, 0);
  }
  // Writes into B's values after the column structure is cached are seen by the next product.
  csr_matrix C = B.copy();
  const ndarray X = ones({2, n});
  (void)dot(X, C);
  ndarray d = C.data();
  d.fill(0.5);
  const ndarray want = dot(spmatrix(transpose(C).tocsr()), X.T()).T();
  t::check_allclose(dot(X, C), to_host(want), 0, 0);
}

TEST_CASE("dense @ sparse: bad input") {
  const csr_matrix B(ones({4, 3}));
  CHECK_THROWS_WITH_AS(dot(ones({2, 5}), B), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(ones({3}), B), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(ones({2, 3}) * B, doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(ones({2, 2, 4}), B), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(ones(shape_t{}), B), doctest::Contains("dimension mismatch"), value_error);
  for (format f : all_formats) {
    INFO(to_string(f));
    CHECK_THROWS_AS(dot(ones({4, 2}), spmatrix(B).asformat(f)), value_error);
  }
  CHECK(dot(ones({4}), B).shape() == shape_t{3});
  CHECK(dot(ones({2, 4}), B).shape() == shape_t{2, 3});
}

// --- sparse @ sparse result formats -------------------------------------------------------------------

namespace {

spmatrix as_format(const csr_matrix& A, format f, shape2 bsr_blocksize) {
  if (f == format::bsr) return A.tobsr(bsr_blocksize);
  return spmatrix(A).asformat(f);
}

csr_matrix operand(const case_arrays& z, const std::string& p, dtype it) {
  return csr_matrix(asarray(z[p + "_data"]), asarray(z[p + "_indices"]), asarray(z[p + "_indptr"]),
                    {.shape = shape_of(z[p + "_shape"]), .index_dtype = it});
}

void check_result(const spmatrix& C, const case_arrays& r, const t::golden_case& row) {
  CHECK(std::string(to_string(C.format())) == row.get<std::string>("result_format"));
  CHECK(std::string(dtype_name(C.dtype())) == row.get<std::string>("result_dtype"));
  CHECK(C.shape() == shape_of(r["c_shape"]));
  check(C.toarray(), r["c_dense"], row.rtol(), row.atol());
  if (C.format() == format::csr || C.format() == format::csc) {
    const spmatrix S = C.sorted_indices();
    const auto& arrays = S.visit([](const auto& m) -> std::vector<ndarray> {
      if constexpr (requires { m.indptr(); }) return {m.data(), m.indices(), m.indptr()};
      else return {};
    });
    REQUIRE(arrays.size() == 3);
    check(arrays[0], r["c_data"], row.rtol(), row.atol());
    t::check_allclose(arrays[1], r["c_indices"], 0, 0, false);
    t::check_allclose(arrays[2], r["c_indptr"], 0, 0, false);
  }
  if (C.format() == format::bsr) CHECK(C.get<bsr_matrix>().blocksize() == shape_of(r["c_blocksize"]));
}

}  // namespace

TEST_CASE("sparse @ sparse: SciPy's result format, dtype and arrays for every pair of formats") {
  for (const auto& row : t::cases(M, "spsp")) {
    const case_arrays r(row.name());
    const case_arrays z(row.get<std::string>("operands"));
    const format fa = format_from_string(row.get<std::string>("fa"));
    const format fb = format_from_string(row.get<std::string>("fb"));
    for (dtype it : {dtype::int32, dtype::int64}) {
      INFO(row.name(), " index ", dtype_name(it));
      const spmatrix A = as_format(operand(z, "a", it), fa, {2, 2});
      const spmatrix B = as_format(operand(z, "b", it), fb, {2, 2});
      const spmatrix C = dot(A, B);
      check_result(C, r, row);
      check_result(A * B, r, row);
      // Index dtype, where SciPy's rule reads the operands' own index arrays: SciPy's with int32
      // operands, int64 with int64 operands (get_index_dtype of int64 arrays).
      const bool compressed = (fa == format::csr || fa == format::csc) && (fb == format::csr || fb == format::csc);
      if (compressed && it == dtype::int64) CHECK(C.index_dtype() == dtype::int64);
      if (compressed && it == dtype::int32 && row.has("result_index_dtype"))
        CHECK(std::string(dtype_name(C.index_dtype())) == row.get<std::string>("result_index_dtype"));
    }
  }
  for (const auto& row : t::cases(M, "spsp_bsr32")) {
    const case_arrays r(row.name());
    const spmatrix A = operand(r, "a", dtype::int32).tobsr(shape2{3, 2});
    const spmatrix B = operand(r, "b", dtype::int32);
    check_result(dot(A, B), r, row);
  }
  // The options overload keeps returning CSR.
  const csc_matrix S(ones({3, 3}));
  const csr_matrix C = dot(S, S, spgemm_options{});
  CHECK(C.format() == format::csr);
  CHECK(dot(spmatrix(S), spmatrix(S)).format() == format::csc);
}

// --- sputils --------------------------------------------------------------------------------------------

TEST_CASE("get_index_dtype(arrays, maxval, check_contents) vs SciPy") {
  for (const auto& row : t::cases(M, "get_index_dtype")) {
    INFO(row.name());
    std::vector<ndarray> arrays;
    for (const auto& name : row.get<std::vector<std::string>>("arrays")) arrays.push_back(asarray(t::golden(M, "idx__" + name)));
    std::optional<std::int64_t> maxval;
    if (row.has("maxval")) maxval = row.get<std::int64_t>("maxval");
    const bool check_contents = row.get<bool>("check_contents");
    const dtype want = dtype_from_string(row.get<std::string>("expected"));
    CHECK(get_index_dtype(arrays, maxval, check_contents) == want);
    if (arrays.size() == 1) CHECK(get_index_dtype(arrays[0], maxval, check_contents) == want);
  }
}

TEST_CASE("safely_cast_index_arrays vs SciPy: results, dtypes and messages") {
  for (const auto& row : t::cases(M, "safely_cast")) {
    INFO(row.name());
    const case_arrays m(row.get<std::string>("matrix"));
    const case_arrays z(row.name());
    const format f = format_from_string(row.get<std::string>("fmt"));
    const coo_matrix C(asarray(m["data"]), {asarray(m["row"]), asarray(m["col"])},
                       {.shape = shape_of(m["shape"]), .index_dtype = dtype::int64});
    const spmatrix A = f == format::bsr ? spmatrix(C.tobsr(shape2{2, 1})) : spmatrix(C).asformat(f);
    const std::string idx_name = row.get<std::string>("idx_dtype");
    const dtype idx = dtype_from_string(idx_name);
    const std::string msg = row.get<std::string>("msg");
    if (row.has("error_text")) {
      std::string text = row.get<std::string>("error_text");
      if (text.find("{msg}") == std::string::npos) text += " " + (msg.empty() ? "dtype " + idx_name : msg);
      CHECK_THROWS_WITH_AS(safely_cast_index_arrays(A, idx, msg), doctest::Contains(text.c_str()), value_error);
      continue;
    }
    const std::vector<ndarray> out = safely_cast_index_arrays(A, idx, msg);
    const auto nout = row.get<std::int64_t>("nout");
    REQUIRE(static_cast<std::int64_t>(out.size()) == nout);
    for (std::int64_t j = 0; j < nout; ++j) t::check_allclose(out[j], z["out" + std::to_string(j)], 0, 0, true);
  }
  const csr_matrix A(ones({2, 2}));
  CHECK_THROWS_AS(safely_cast_index_arrays(A, dtype::float32), value_error);
  // An array that already has the dtype is returned itself (shared).
  const auto same = safely_cast_index_arrays(A, A.index_dtype());
  CHECK(same[0].data() == A.indices().data());
}

TEST_CASE("isspmatrix_* answer from the held format") {
  const csr_matrix A(ones({2, 2}));
  CHECK(isspmatrix(A));
  CHECK(isspmatrix_csr(A));
  CHECK_FALSE(isspmatrix_csc(A));
  CHECK(isspmatrix_csc(A.tocsc()));
  CHECK(isspmatrix_coo(A.tocoo()));
  CHECK(isspmatrix_dia(A.todia()));
  CHECK(isspmatrix_bsr(A.tobsr()));
  CHECK_FALSE(isspmatrix_bsr(A.tocoo()));
}

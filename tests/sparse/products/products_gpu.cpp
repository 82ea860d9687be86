// GPU tests of cusci::sparse products and reductions against SciPy 1.18 goldens
// (tests/golden/gen_sparse_products.py): 13 value dtypes x int32/int64 indices x COO (duplicates,
// explicit zeros, unsorted) / raw CSR / raw CSC (unsorted indices, duplicates), DIA and BSR for
// SpMV; empty, 1 x n, n x 1, no-entry, all-negative and full matrices; real matrices; a large SpGEMM
// checked against the 2-D Poisson stencil; bad input.

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

namespace t = cusci::testing;
using namespace cusci;
using namespace cusci::sparse;

namespace {

/// The arrays of one case (stored as <case>__<key>; a key is missing when SciPy raised).
class case_arrays {
 public:
  explicit case_arrays(const t::golden_case& c) : name_(c.name()) {}
  bool contains(const std::string& key) const { return t::has_golden(M, name_ + "__" + key); }
  host_array operator[](const std::string& key) const { return t::golden(M, name_ + "__" + key); }

 private:
  static constexpr const char* M = "sparse_products";
  std::string name_;
};

shape2 shape_of(const case_arrays& z) {
  auto s = z["shape"].astype(dtype::int64).to_vector<std::int64_t>();
  return {s[0], s[1]};
}

spmatrix build(const case_arrays& z, format f, dtype it) {
  const shape2 s = shape_of(z);
  const matrix_options o{.shape = s, .index_dtype = it};
  switch (f) {
    case format::csr:
      return csr_matrix(asarray(z["csr_data"]), asarray(z["csr_indices"]), asarray(z["csr_indptr"]), o);
    case format::csc:
      return csc_matrix(asarray(z["csc_data"]), asarray(z["csc_indices"]), asarray(z["csc_indptr"]), o);
    default: break;
  }
  coo_matrix A(asarray(z["data"]), {asarray(z["row"]), asarray(z["col"])}, o);
  if (f == format::dia) return A.todia();
  if (f == format::bsr) return A.tobsr();
  return A;
}

// Compares when SciPy produced the key; returns whether it did.
bool check(const ndarray& a, const case_arrays& z, const std::string& key, double rtol, double atol,
           bool check_dtype = true) {
  if (!z.contains(key)) return false;
  INFO("key ", key);
  t::check_allclose(a, z[key], rtol, atol, check_dtype);
  return true;
}

std::int64_t golden_int(const case_arrays& z, const std::string& key) {
  return z[key].astype(dtype::int64).to_vector<std::int64_t>()[0];
}

// Checks `expr` against golden `key` when SciPy produced it; when SciPy raised (no key) and the case
// expects errors, `expr` must throw too. `expr` is evaluated only in those two cases.
#define CK(key, expr, ...)                                  \
  do {                                                      \
    const std::string ck_key_ = (key);                      \
    if (z.contains(ck_key_)) check((expr), z, ck_key_, __VA_ARGS__); \
    else if (expect_errors) CHECK_THROWS((void)(expr));     \
  } while (0)

void check_reductions(const spmatrix& A, const case_arrays& z, double rtol, double atol, bool expect_errors) {
  CK("sum", sum(A), rtol, atol);
  CK("sum0", sum(A, 0), rtol, atol);
  CK("sum1", sum(A, 1), rtol, atol);
  CK("sum1", sum(A, -1), rtol, atol);
  // Means are float sums of entry / count whose order of addition NumPy does not define (pairwise in
  // np.sum, sequential in SciPy's matvec-based axis sums): a few ulp apart even for integer matrices.
  const double mtol = std::max(rtol, 1e-14), matol = std::max(atol, 1e-14);
  CK("mean", mean(A), mtol, matol);
  CK("mean0", mean(A, 0), mtol, matol);
  CK("mean1", mean(A, 1), mtol, matol);
  auto maybe = [&](const std::string& key, auto&& fn) {
    if (z.contains(key)) fn();
    else if (expect_errors) CHECK_THROWS_AS(fn(), value_error);
  };
  maybe("max", [&] { check(max(A), z, "max", rtol, atol); });
  maybe("min", [&] { check(min(A), z, "min", rtol, atol); });
  maybe("max0", [&] { check(max(A, 0).toarray(), z, "max0", rtol, atol); });
  maybe("max1", [&] { check(max(A, 1).toarray(), z, "max1", rtol, atol); });
  maybe("min0", [&] { check(min(A, 0).toarray(), z, "min0", rtol, atol); });
  maybe("min1", [&] { check(min(A, 1).toarray(), z, "min1", rtol, atol); });
  // The call runs outside CHECK so that an expected exception reaches `maybe`'s CHECK_THROWS_AS.
  maybe("argmax", [&] {
    const std::int64_t got = argmax(A).item<std::int64_t>();
    CHECK(got == golden_int(z, "argmax"));
  });
  maybe("argmin", [&] {
    const std::int64_t got = argmin(A).item<std::int64_t>();
    CHECK(got == golden_int(z, "argmin"));
  });
  maybe("argmax0", [&] { check(argmax(A, 0), z, "argmax0", 0, 0); });
  maybe("argmax1", [&] { check(argmax(A, 1), z, "argmax1", 0, 0); });
  maybe("argmin0", [&] { check(argmin(A, 0), z, "argmin0", 0, 0); });
  maybe("argmin1", [&] { check(argmin(A, 1), z, "argmin1", 0, 0); });
  if (z.contains("cnz")) CHECK(count_nonzero(A).item<std::int64_t>() == golden_int(z, "cnz"));
  CK("cnz0", count_nonzero(A, 0), 0, 0, false);
  CK("cnz1", count_nonzero(A, 1), 0, 0, false);
  for (int k : {0, 1, -2}) {
    CK("diag" + std::to_string(k), diagonal(A, k), rtol, atol);
    CK("trace" + std::to_string(k), trace(A, k), rtol, atol);
  }
  using linalg::norm;
  const double inf = INFINITY;
  CK("nfro", norm(A), rtol, atol);
  if (z.contains("n1")) {
    CK("n1", norm(A, 1.0), rtol, atol);
    CK("nm1", norm(A, -1.0), rtol, atol);
    CK("ninf", norm(A, inf), rtol, atol);
    CK("nminf", norm(A, -inf), rtol, atol);
  }
  for (int ax : {0, 1}) {
    const std::string s = "_ax" + std::to_string(ax);
    CK("v0" + s, norm(A, 0.0, ax), 0, 0, false);
    CK("v1" + s, norm(A, 1.0, ax), rtol, atol);
    CK("v2" + s, norm(A, 2.0, ax), rtol, atol);
    CK("vinf" + s, norm(A, inf, ax), rtol, atol);
    CK("vminf" + s, norm(A, -inf, ax), rtol, atol);
    CK("v3" + s, norm(A, 3.0, ax), std::max(rtol, 1e-6), std::max(atol, 1e-6));
  }
  if (z.contains("sd_vals")) {
    const ndarray v = asarray(z["sd_vals"]);
    CK("setdiag1", setdiag(A, v, 1).toarray(), rtol, atol);
    CK("setdiagm1", setdiag(A, v[{slice{0, 2}}].copy(), -1).toarray(), rtol, atol);
    CK("setdiag0s", setdiag(A, v[0], 0).toarray(), rtol, atol);
  }
}

}  // namespace

TEST_CASE("products and reductions: dtype x index dtype x format sweep vs SciPy") {
  for (const auto& row : t::cases("sparse_products", "dtype")) {
    const std::string name = row.name();
    const double rtol = row.rtol(), atol = row.atol();
    const case_arrays z(row);
    for (dtype it : {dtype::int32, dtype::int64}) {
      for (format f : {format::coo, format::csr, format::csc, format::dia, format::bsr}) {
        INFO(name, " index ", dtype_name(it), " format ", to_string(f));
        const spmatrix A = build(z, f, it);
        // DIA and BSR come from A.todia() / A.tobsr(), which sum duplicates (bool: or) as SciPy's: their
        // products are those of the canonical matrix (keys "_c"); COO/CSR/CSC keep the duplicates.
        const std::string sfx = (f == format::dia || f == format::bsr) ? "_c" : "";
        check(A.dot(asarray(z["x"])), z, "Ax" + sfx, rtol, atol);
        check(A * asarray(z["xf"]), z, "Axf" + sfx, std::max(rtol, 1e-6), std::max(atol, 1e-6));
        check(dot(A, asarray(z["X"])), z, "AX" + sfx, rtol, atol);
        check(spmv_batched(A, asarray(z["Xb"])), z, "AXb" + sfx, rtol, atol);
        if (f == format::dia || f == format::bsr) continue;  // SpMV only for these
        const spmatrix B = coo_matrix(asarray(z["b_data"]), {asarray(z["b_row"]), asarray(z["b_col"])},
                                      {.shape = shape2{5, 4}, .index_dtype = it});
        const spmatrix C = A * B;
        CHECK(C.format() == (f == format::csc ? format::csc : format::csr));  // SciPy's result format
        check(C.toarray(), z, "AB", rtol, atol);
        CHECK(C.nnz() == golden_int(z, "AB_nnz"));  // canonical: zero sums dropped, as SciPy
        check(dot(A, B, {.algorithm = spgemm_algorithm::esc}).toarray(), z, "AB", rtol, atol);
        check_reductions(A, z, rtol, atol, false);
      }
    }
    const csr_matrix S(asarray(z["sq"]));
    for (int p = 0; p <= 3; ++p) check(matrix_power(S, p).toarray(), z, "pow" + std::to_string(p), rtol, atol);
  }
}

TEST_CASE("products and reductions: shapes (empty, 1 x n, n x 1, no entries, negative, full)") {
  for (const auto& row : t::cases("sparse_products", "shape")) {
    const std::string name = row.name();
    const case_arrays z(row);
    for (dtype it : {dtype::int32, dtype::int64}) {
      for (format f : {format::coo, format::csr, format::csc}) {
        INFO(name, " index ", dtype_name(it), " format ", to_string(f));
        const spmatrix A = build(z, f, it);
        check(A.dot(asarray(z["x"])), z, "Ax", 1e-12, 1e-12);
        check(A.dot(asarray(z["X"])), z, "AX", 1e-12, 1e-12);
        check_reductions(A, z, 1e-12, 1e-12, true);
      }
    }
  }
}

TEST_CASE("real matrices: A @ x and A @ A vs SciPy") {
  for (const auto& row : t::cases("sparse_products", "mtx")) {
    // A real matrix of examples/data.
    const std::string file = row.get<std::string>("file");
    const std::string path = std::string(CUSCI_EXAMPLE_DATA) + "/" + file;
    if (!std::filesystem::exists(path)) {
      MESSAGE("skipping ", file, ": not found");
      continue;
    }
    INFO(file);
    const case_arrays z(row);
    const csr_matrix A = io::mmread(path).tocsr();
    check(A.dot(asarray(z["x"])), z, "Ax", 1e-10, 1e-10);
    check(sum(A, 0), z, "A_sum0", 1e-10, 1e-10);
    check(linalg::norm(A, 1.0), z, "A_n1", 1e-10, 1e-10);
    check(linalg::norm(A, INFINITY), z, "A_ninf", 1e-10, 1e-10);
    if (!z["square"].data_as<bool>()[0]) continue;
    // Row and column sums of C = A @ A cancel (1138_bus: entries up to ~1e9, sums down to ~1e1): their
    // rounding error is relative to the size of the terms, bounded by the Frobenius norm of C.
    const double csum_atol = 1e-14 * z["C_fro"].astype(dtype::float64).data_as<double>()[0];
    for (auto alg : {spgemm_algorithm::automatic, spgemm_algorithm::cusparse_alg2, spgemm_algorithm::cusparse_alg3,
                     spgemm_algorithm::esc}) {
      const csr_matrix C = dot(A, A, {.algorithm = alg, .chunk_fraction = 0.3f});
      check(sum(C, 0), z, "C_sum0", 1e-9, csum_atol);
      check(sum(C, 1), z, "C_sum1", 1e-9, csum_atol);
      check(linalg::norm(C), z, "C_fro", 1e-10, 1e-10);
      const std::int64_t want = golden_int(z, "C_nnz"), got = count_nonzero(C).item<std::int64_t>();
      CHECK(std::abs(got - want) <= want / 1000);
    }
  }
}

TEST_CASE("SpGEMM at size: 2-D Poisson 1024^2 squared matches the stencil formula") {
  const std::int64_t k = 1024, n = k * k;
  std::vector<std::int32_t> ptr{0}, ind;
  std::vector<double> val;
  ptr.reserve(n + 1);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = i / k, c = i % k;
    if (r > 0) ind.push_back(static_cast<std::int32_t>(i - k)), val.push_back(-1);
    if (c > 0) ind.push_back(static_cast<std::int32_t>(i - 1)), val.push_back(-1);
    ind.push_back(static_cast<std::int32_t>(i)), val.push_back(4);
    if (c < k - 1) ind.push_back(static_cast<std::int32_t>(i + 1)), val.push_back(-1);
    if (r < k - 1) ind.push_back(static_cast<std::int32_t>(i + k)), val.push_back(-1);
    ptr.push_back(static_cast<std::int32_t>(ind.size()));
  }
  const csr_matrix A(asarray(val), asarray(ind), asarray(ptr), matrix_options{.shape = shape2{n, n}});
  for (auto alg : {spgemm_algorithm::automatic, spgemm_algorithm::cusparse_alg2, spgemm_algorithm::cusparse_alg3}) {
    const csr_matrix C = dot(A, A, {.algorithm = alg});
    REQUIRE(C.shape() == shape2{n, n});
    const auto cp = to_host(C.indptr()).astype(dtype::int64).to_vector<std::int64_t>();
    const auto ci = to_host(C.indices()).astype(dtype::int64).to_vector<std::int64_t>();
    const auto cv = to_host(C.data()).to_vector<double>();
    std::int64_t bad = 0, bad_count = 0;
    auto deg = [&](std::int64_t r, std::int64_t c) { return (r > 0) + (r < k - 1) + (c > 0) + (c < k - 1); };
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t r = i / k, c = i % k;
      // Stored entries of row i of A^2: every grid point within Manhattan distance 2.
      std::int64_t expected_count = 0;
      for (std::int64_t dr = -2; dr <= 2; ++dr)
        for (std::int64_t dc = -2; dc <= 2; ++dc)
          if (std::abs(dr) + std::abs(dc) <= 2 && r + dr >= 0 && r + dr < k && c + dc >= 0 && c + dc < k)
            ++expected_count;
      if (cp[i + 1] - cp[i] != expected_count) ++bad_count;
      for (std::int64_t p = cp[i]; p < cp[i + 1]; ++p) {
        const std::int64_t j = ci[p], rj = j / k, cj = j % k;
        const std::int64_t dr = rj - r, dc = cj - c, dist = std::abs(dr) + std::abs(dc);
        double want;
        if (dist == 0) want = 16.0 + deg(r, c);
        else if (dist == 1) want = -8.0;
        else if (dr == 0 || dc == 0) want = 1.0;  // two steps in one direction: one common neighbour
        else want = 2.0;                          // diagonal: two common neighbours
        if (dist > 2 || cv[p] != want) ++bad;
      }
    }
    CHECK(bad == 0);
    CHECK(bad_count == 0);
  }
}

csr_matrix golden_csr(const case_arrays& z, const std::string& p, dtype it) {
  const auto s = z[p + "_shape"].astype(dtype::int64).to_vector<std::int64_t>();
  return csr_matrix(asarray(z[p + "_data"]), asarray(z[p + "_indices"]), asarray(z[p + "_indptr"]),
                    matrix_options{.shape = shape2{s[0], s[1]}, .index_dtype = it});
}

// C against SciPy's canonical (sorted) result: shape, row offsets, columns (exactly), values and dtype.
void check_csr(const csr_matrix& C, const case_arrays& z, const std::string& p, double rtol, double atol) {
  INFO("result ", p);
  const auto s = z[p + "_shape"].astype(dtype::int64).to_vector<std::int64_t>();
  CHECK(C.shape() == shape2{s[0], s[1]});
  t::check_allclose(C.indptr().astype(dtype::int64), z[p + "_indptr"], 0, 0);
  t::check_allclose(C.indices().astype(dtype::int64), z[p + "_indices"], 0, 0);
  t::check_allclose(C.data(), z[p + "_data"], rtol, atol);
}

TEST_CASE("SpGEMM (row-wise, the default): every tier, dtype and index dtype vs SciPy's canonical result") {
  int cases = 0;
  for (const auto& row : t::cases("sparse_products", "spgemm")) {
    const std::string name = row.name();
    const double rtol = row.rtol(), atol = row.atol();
    const case_arrays z(row);
    for (dtype it : {dtype::int32, dtype::int64}) {
      INFO(name, " index ", dtype_name(it));
      const csr_matrix A = golden_csr(z, "a", it), B = golden_csr(z, "b", it);
      const csr_matrix C = dot(A, B, spgemm_options{});
      check_csr(C, z, "c", rtol, atol);
      CHECK(C.has_canonical_format());
      CHECK(C.indices().dtype() == it);  // SciPy: the operands' index dtype (products < 2**31)
      check_csr(dot(A, B, {.algorithm = spgemm_algorithm::rowwise}), z, "c", rtol, atol);
      const spmatrix Cs = A * B;
      check_csr(Cs.get<csr_matrix>(), z, "c", rtol, atol);
      for (int p : {2, 3, 5}) {
        if (!z.contains("pow" + std::to_string(p) + "_data")) continue;
        check_csr(matrix_power(A, p), z, "pow" + std::to_string(p), rtol, atol);
      }
      // The same operands through COO (duplicates summed first) and CSC.
      check_csr(dot(spmatrix(A.tocoo()), spmatrix(B.tocsc()), spgemm_options{}), z, "c", rtol, atol);
      ++cases;
    }
  }
  CHECK(cases == 2 * 18);
}

// Rows of 12 entries (tier 2, a warp each) in more rows than the warp kernels' grid holds: A[i, j] =
// 1 for the 12 columns j = (i + d) mod n, d = 0..11; (A A)[i, (i + e) mod n] counts the pairs
// d1 + d2 = e (mod n), a closed formula.
TEST_CASE("SpGEMM at size: 40000 rows of 12 entries (warp tier, grid-stride) match the closed formula") {
  const std::int64_t n = 40000, w = 12;
  std::vector<std::int64_t> ptr{0}, ind;
  std::vector<double> val;
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<std::int64_t> cols;
    for (std::int64_t d = 0; d < w; ++d) cols.push_back((i + d) % n);
    std::sort(cols.begin(), cols.end());
    for (auto c : cols) ind.push_back(c), val.push_back(1.0);
    ptr.push_back(static_cast<std::int64_t>(ind.size()));
  }
  for (dtype it : {dtype::int32, dtype::int64}) {
    const csr_matrix A(asarray(val), asarray(ind), asarray(ptr), matrix_options{.shape = shape2{n, n}, .index_dtype = it});
    const csr_matrix C = dot(A, A, spgemm_options{});
    REQUIRE(C.nnz() == n * (2 * w - 1));
    const auto cp = to_host(C.indptr()).astype(dtype::int64).to_vector<std::int64_t>();
    const auto ci = to_host(C.indices()).astype(dtype::int64).to_vector<std::int64_t>();
    const auto cv = to_host(C.data()).to_vector<double>();
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (cp[i + 1] - cp[i] != 2 * w - 1) ++bad;
      for (std::int64_t p = cp[i]; p < cp[i + 1]; ++p) {
        const std::int64_t e = ((ci[p] - i) % n + n) % n;  // 0 .. 2w - 2
        const double want = static_cast<double>(e < w ? e + 1 : 2 * w - 1 - e);
        if (e > 2 * w - 2 || cv[p] != want || (p > cp[i] && ci[p] <= ci[p - 1])) ++bad;
      }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("bad input: dimension mismatch and invalid arguments") {
  const csr_matrix A(ones({3, 4}));
  CHECK_THROWS_WITH_AS(A.dot(ones({3})), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(A, ones({5, 2})), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(spmv_batched(A, ones({2, 3})), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(A, A), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_AS(matrix_power(A, 2), type_error);
  const csr_matrix S(ones({3, 3}));
  CHECK_THROWS_AS(matrix_power(S, -1), value_error);
  CHECK_THROWS_AS(setdiag(A, scalar(1.0), 4), value_error);
  CHECK_THROWS_AS(setdiag(A, scalar(1.0), -3), value_error);
  CHECK_THROWS_AS(sum(A, 2), index_error);
  CHECK_THROWS_AS(linalg::norm(A, 2.0), not_implemented_error);
  CHECK_THROWS_AS(linalg::norm(A, 5.0), value_error);
  // int32 x int32 stays int32 (int32 x float64 would be float64, which cuSPARSE handles).
  const csr_matrix I32(ones({3, 3}, dtype::int32));
  CHECK_THROWS_AS(dot(I32, I32, {.algorithm = spgemm_algorithm::cusparse_alg2}), type_error);
}

// Host tests of cusci::sparse's incremental family (dok_matrix, lil_matrix) against SciPy 1.18
// goldens (tests/golden/gen_sparse_incremental.py): element-wise building in every value dtype, dict
// order, zero assignment and overwrites, transposes, resize, astype, host triplets, SciPy's refusals,
// a real matrix built entry by entry, and argument checks. Nothing here touches a GPU.

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "cusci/error.hpp"
#include "incremental_common.hpp"

using namespace incremental_test;

static_assert(sp::is_sparse_v<sp::dok_matrix>);
static_assert(sp::is_sparse_v<const sp::lil_matrix&>);
static_assert(sp::dok_matrix::format_name() == "dok");
static_assert(sp::lil_matrix::format_name() == "lil");

TEST_CASE("build: element assignment in every dtype, dict order, zeros, overwrites, T, resize") {
  for (auto& c : t::cases(M, "build")) {
    const std::string n = c.name();
    CAPTURE(n);
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const sp::shape2 shape = shape_of(c);
    sp::dok_matrix D(shape, dt);
    sp::lil_matrix L(shape, dt);
    replay(D, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    replay(L, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    CHECK(D.shape() == shape);
    CHECK(L.shape() == shape);
    CHECK(D.dtype() == dt);
    CHECK(L.dtype() == dt);
    CHECK(D.nnz() == c.get<std::int64_t>("nnz"));
    CHECK(L.nnz() == c.get<std::int64_t>("nnz"));
    CHECK(D.count_nonzero() == c.get<std::int64_t>("count_nonzero"));
    CHECK(L.count_nonzero() == c.get<std::int64_t>("count_nonzero"));
    check_dok(D, n + "_dok");
    check_lil(L, n + "_lil_csr");
    // Host conversions between the two.
    check_lil(D.tolil(), n + "_lil_csr");
    {
      sp::dok_matrix D2 = L.todok();  // keys row-major: same entries as D
      CHECK(D2.nnz() == D.nnz());
      for (const auto& [k, v] : D.items()) {
        const scalar w = D2.get(k[0], k[1]);
        CHECK(w.dtype() == v.dtype());
        CHECK(w.value<std::complex<double>>() == v.value<std::complex<double>>());
      }
    }
    // Element reads agree with the golden CSR.
    for (const auto& [k, v] : D.items()) {
      CHECK(L.get(k[0], k[1]).value<std::complex<double>>() == v.value<std::complex<double>>());
      CHECK(D(k[0] - shape[0], k[1] - shape[1]).value<std::complex<double>>() == v.value<std::complex<double>>());
    }
    if (c.get<bool>("huge")) continue;
    check_dok(D.T(), n + "_dokT");
    check_lil(L.T(), n + "_lilT_csr");
    sp::dok_matrix Dr = D.copy();
    sp::lil_matrix Lr = L.copy();
    const sp::shape2 ns{c.get<std::int64_t>("new_rows"), c.get<std::int64_t>("new_cols")};
    Dr.resize(ns);
    Lr.resize(ns);
    CHECK(Dr.shape() == ns);
    CHECK(Lr.shape() == ns);
    check_dok(Dr, n + "_rs_dok");
    check_lil(Lr, n + "_rs_lil_csr");
    check_dok(D, n + "_dok");  // the copies were independent
  }
}

TEST_CASE("host triplets: duplicates summed, row-major keys") {
  for (auto& c : t::cases(M, "triplets")) {
    const std::string n = c.name();
    CAPTURE(n);
    const auto row = int64s(g(n + "_row")), col = int64s(g(n + "_col"));
    const host_array data = g(n + "_data");
    sp::dok_matrix D(shape_of(c), row, col, data);
    sp::lil_matrix L(shape_of(c), row, col, data);
    check_dok(D, n + "_dok");
    check_lil(L, n + "_lil_csr");
  }
}

TEST_CASE("astype keeps entries, in order") {
  for (auto& c : t::cases(M, "astype")) {
    const std::string n = c.name();
    CAPTURE(n);
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const dtype to = dtype_from_string(c.get<std::string>("to"));
    sp::dok_matrix D(shape_of(c), dt);
    sp::lil_matrix L(shape_of(c), dt);
    replay(D, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    replay(L, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    const sp::dok_matrix D2 = D.astype(to);
    const sp::lil_matrix L2 = L.astype(to);
    CHECK(D2.dtype() == to);
    CHECK(L2.dtype() == to);
    check_exact(D2.values_array(), g(n + "_dok_val"), "dok values");
    check_lil(L2, n + "_lil_csr");
  }
}

namespace {
scalar case_value(const t::golden_case& c) {
  const std::string kind = c.get<std::string>("kind");
  if (kind == "float") return scalar(c.get<double>("fval"));
  if (kind == "complex") return scalar(c.get<std::complex<double>>("cval"));
  const std::string s = c.get<std::string>("ival");
  if (s[0] == '-') return scalar(static_cast<std::int64_t>(std::stoll(s)));
  const unsigned long long u = std::stoull(s);
  if (u <= static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
    return scalar(static_cast<std::int64_t>(u));
  return scalar(static_cast<std::uint64_t>(u));
}
}  // namespace

TEST_CASE("assignments SciPy refuses, and the conversions it makes") {
  for (auto& c : t::cases(M, "set_error")) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const std::int64_t i = c.get<std::int64_t>("i"), j = c.get<std::int64_t>("j");
    const scalar v = case_value(c);
    auto run = [&](auto& A) {
      if (c.expects_error()) {
        t::check_error(c, [&] { A.set(i, j, v); });
        CHECK(A.nnz() == 0);
        return;
      }
      A.set(i, j, v);
      const scalar r = A.get(i, j);
      const std::string expect = c.get<std::string>("result_str");
      if (dt == dtype::bool_) CHECK(r.value<bool>() == (expect == "True"));
      else if (dt == dtype::uint64) CHECK(r.value<std::uint64_t>() == std::stoull(expect));
      else CHECK(r.value<std::int64_t>() == std::stoll(expect));
    };
    if (c.get<std::string>("fmt") == "dok") {
      sp::dok_matrix A(shape_of(c), dt);
      run(A);
    } else {
      sp::lil_matrix A(shape_of(c), dt);
      run(A);
    }
  }
}

TEST_CASE("a real matrix assigned entry by entry (1138_bus)") {
  for (auto& c : t::cases(M, "mtx")) {
    const std::string n = c.name();
    sp::dok_matrix D(shape_of(c));
    sp::lil_matrix L(shape_of(c));
    replay(D, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    replay(L, g(n + "_i"), g(n + "_j"), g(n + "_v"));
    CHECK(D.nnz() == c.get<std::int64_t>("nnz"));
    check_lil(L, n + "_lil_csr");
    check_lil(D.tolil(), n + "_lil_csr");
    // SciPy's dok.tocsr(): rows in order, each row in insertion order (checked here on the host).
    const auto keys = D.keys();
    std::vector<std::size_t> perm(keys.size());
    for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = k;
    std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) { return keys[a][0] < keys[b][0]; });
    std::vector<std::int64_t> ind;
    for (std::size_t k : perm) ind.push_back(keys[k][1]);
    check_index(ind, g(n + "_dok_csr_indices"), "dok csr indices");
  }
}

TEST_CASE("dok_array and lil_array are SciPy's array flavour of the same formats") {
  static_assert(std::is_same_v<cusci::sparse::dok_array, cusci::sparse::dok_matrix>);
  static_assert(std::is_same_v<cusci::sparse::lil_array, cusci::sparse::lil_matrix>);
  cusci::sparse::dok_array D(cusci::sparse::shape2{3, 4});
  D.set(1, 2, 5.0);
  cusci::sparse::lil_array L = D.tolil();
  CHECK(L.nnz() == 1);
  CHECK(L(1, 2).value<double>() == 5.0);
}

TEST_CASE("dok_matrix: dict interface") {
  sp::dok_matrix A(sp::shape2{3, 4}, dtype::int64);
  A.set(0, 3, std::int64_t{5});
  A.set(2, 1, std::int64_t{-7});
  A.set(1, 1, std::int64_t{1} << 62);
  CHECK(A.nnz() == 3);
  CHECK(A.contains({2, 1}));
  CHECK(A.count({2, 1}) == 1);
  CHECK_FALSE(A.contains({-1, 1}));  // a dict lookup: no wrapping
  CHECK(A.get({-1, 1}, 0.0).value<std::int64_t>() == -7);  // get(key, default) wraps
  CHECK(A.get({0, 0}, 42).value<std::int64_t>() == 42);
  CHECK_THROWS_WITH_AS(A.get({3, 0}, 0.0), doctest::Contains("Index out of bounds."), index_error);
  CHECK(A(1, 1).value<std::int64_t>() == (std::int64_t{1} << 62));  // exact
  CHECK(A.pop({0, 3}).value<std::int64_t>() == 5);
  CHECK(A.pop({0, 3}, -1).value<std::int64_t>() == -1);
  CHECK_THROWS_AS(A.pop({0, 3}), index_error);
  CHECK_THROWS_AS(A.erase({0, 3}), index_error);
  A.set(0, 3, std::int64_t{9});  // re-inserted at the end
  auto keys = A.keys();
  REQUIRE(keys.size() == 3);
  CHECK(keys[0] == sp::dok_matrix::key_type{2, 1});
  CHECK(keys[2] == sp::dok_matrix::key_type{0, 3});
  const auto [k, v] = A.popitem();
  CHECK(k == sp::dok_matrix::key_type{0, 3});
  CHECK(v.value<std::int64_t>() == 9);
  A.set(2, 1, 0);  // zero removes
  CHECK(A.nnz() == 1);
  // update stores zeros and checks keys first.
  A.update({0, 2}, {0, 3}, host_array::from(std::vector<double>{0.0, 2.9}));
  CHECK(A.nnz() == 3);
  CHECK(A.contains({0, 0}));
  CHECK(A(2, 3).value<std::int64_t>() == 2);
  CHECK(A.count_nonzero() == 2);
  CHECK_THROWS_WITH_AS(A.update({0}, {-1}, host_array::from(std::vector<double>{1.0})),
                       doctest::Contains("negative index (0, -1) not allowed in update"), index_error);
  CHECK_THROWS_WITH_AS(A.update({3}, {0}, host_array::from(std::vector<double>{1.0})),
                       doctest::Contains("index (3, 0) is too large for self.shape"), index_error);
  CHECK_THROWS_AS(A.update({0, 1}, {0}, host_array::from(std::vector<double>{1.0})), value_error);
  CHECK(A.nnz() == 3);
  A.clear();
  CHECK(A.nnz() == 0);
  CHECK_THROWS_AS(A.popitem(), index_error);
  CHECK(A.shape() == sp::shape2{3, 4});
  CHECK(A.format() == "dok");
}

TEST_CASE("dok_matrix: many insertions and erasures keep the hash map consistent") {
  sp::dok_matrix A(sp::shape2{1000, 1000});
  std::uint64_t x = 88172645463325252ull;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<double> ref(1000 * 1000, 0.0);
  for (int k = 0; k < 200000; ++k) {
    const std::int64_t i = static_cast<std::int64_t>(next() % 1000), j = static_cast<std::int64_t>(next() % 1000);
    const double v = (next() % 4 == 0) ? 0.0 : static_cast<double>(next() % 100) + 1.0;
    A.set(i, j, v);
    ref[static_cast<std::size_t>(i * 1000 + j)] = v;
  }
  std::int64_t nz = 0;
  for (double v : ref) nz += v != 0.0;
  CHECK(A.nnz() == nz);
  bool ok = true;
  for (std::int64_t i = 0; i < 1000; ++i)
    for (std::int64_t j = 0; j < 1000; ++j) ok = ok && A(i, j).value<double>() == ref[static_cast<std::size_t>(i * 1000 + j)];
  CHECK(ok);
}

TEST_CASE("lil_matrix: rows, setrow, getrow, getcol") {
  sp::lil_matrix L(sp::shape2{3, 5}, dtype::float32);
  L.set(1, 4, 2.5);
  L.set(1, 0, 1.0);
  L.set(1, 2, 3.0);
  CHECK(L.rows()[1] == std::vector<std::int64_t>{0, 2, 4});
  L.set(1, 2, 0.0);  // SciPy's lil_insert deletes
  CHECK(L.rows()[1] == std::vector<std::int64_t>{0, 4});
  CHECK(L.nnz() == 2);
  const auto d = L.data();
  REQUIRE(d[1].size() == 2);
  CHECK(d[1][1].value<float>() == 2.5f);
  CHECK(d[1][1].dtype() == dtype::float32);
  L.setrow(-1, host_array::from(std::vector<double>{0, 7, 0, 0, 8}));
  CHECK(L.rows()[2] == std::vector<std::int64_t>{1, 4});
  CHECK(L.nnz() == 4);
  L.setrow(0, host_array::from(std::vector<std::int32_t>{3}));  // broadcast
  CHECK(L.rows()[0].size() == 5);
  CHECK(L.nnz() == 9);
  L.setrow(0, host_array::from(std::vector<std::int32_t>{0}));
  CHECK(L.rows()[0].empty());
  CHECK(L.nnz() == 4);
  CHECK_THROWS_AS(L.setrow(0, host_array::from(std::vector<double>{1, 2})), value_error);
  CHECK_THROWS_AS(L.setrow(3, host_array::from(std::vector<double>{1})), index_error);
  const sp::lil_matrix r = L.getrow(-2);
  CHECK(r.shape() == sp::shape2{1, 5});
  CHECK(r.rows()[0] == std::vector<std::int64_t>{0, 4});
  CHECK_THROWS_WITH_AS(L.getrow(3), doctest::Contains("row index out of bounds"), index_error);
  const sp::lil_matrix col = L.getcol(4);
  CHECK(col.shape() == sp::shape2{3, 1});
  CHECK(col.nnz() == 2);
  CHECK(col(2, 0).value<float>() == 8.0f);
  CHECK(L.format() == "lil");
}

TEST_CASE("argument checks name the function and parameter") {
  CHECK_THROWS_WITH_AS(sp::dok_matrix(sp::shape2{-1, 3}), doctest::Contains("cusci::sparse::dok_matrix"), value_error);
  CHECK_THROWS_WITH_AS(sp::lil_matrix(sp::shape2{3, -2}), doctest::Contains("cannot be negative"), value_error);
  CHECK_THROWS_WITH_AS(sp::dok_matrix(sp::shape2{2, 2}, dtype::float16), doctest::Contains("float16"), type_error);
  CHECK_THROWS_AS(sp::lil_matrix(sp::shape2{2, 2}, dtype::float16), type_error);
  // DOK allocates nothing proportional to the shape (SciPy accepts any shape); LIL's row lists are
  // checked against the host's memory before anything is allocated.
  CHECK_NOTHROW(sp::dok_matrix(sp::shape2{std::int64_t{1} << 62, std::int64_t{1} << 62}));
  CHECK_THROWS_AS(sp::lil_matrix(sp::shape2{std::int64_t{1} << 62, 3}), cusci::error);
  sp::dok_matrix D(sp::shape2{3, 4});
  CHECK_THROWS_WITH_AS(D.set(3, 0, 1.0), doctest::Contains("cusci::sparse::dok_matrix::set: row index (3)"),
                       index_error);
  CHECK_THROWS_WITH_AS(D.get(0, -5), doctest::Contains("column index (-5) out of range"), index_error);
  CHECK_THROWS_AS(D.resize({-1, 2}), value_error);
  CHECK_THROWS_AS(D.astype(dtype::float16), type_error);
  sp::lil_matrix L(sp::shape2{3, 4});
  CHECK_THROWS_WITH_AS(L.set(0, 4, 1.0), doctest::Contains("cusci::sparse::lil_matrix::set: column index (4)"),
                       index_error);
  CHECK_THROWS_AS(L.resize({2, -1}), value_error);
  // Triplets.
  const host_array v = host_array::from(std::vector<double>{1, 2});
  CHECK_THROWS_WITH_AS(sp::dok_matrix(sp::shape2{2, 2}, {0, 1}, {0}, v), doctest::Contains("same length"), value_error);
  CHECK_THROWS_WITH_AS(sp::lil_matrix(sp::shape2{2, 2}, {0, 2}, {0, 0}, v),
                       doctest::Contains("row index exceeds matrix dimensions"), value_error);
  CHECK_THROWS_WITH_AS(sp::dok_matrix(sp::shape2{2, 2}, {0, 1}, {0, -1}, v),
                       doctest::Contains("negative column index found"), value_error);
  CHECK_THROWS_AS(sp::dok_matrix(sp::shape2{2, 2}, {0, 1}, {0, 1}, host_array(dtype::float16, {2})), type_error);
  // Dense input must be 2-D for DOK (checked before any device work).
  CHECK_THROWS_AS(sp::dok_matrix(t::fake_array(dtype::float64, {5})), value_error);
  CHECK_THROWS_AS(sp::lil_matrix(t::fake_array(dtype::float64, {2, 2, 2})), value_error);
  CHECK_THROWS_AS(sp::dok_matrix(t::fake_array(dtype::float16, {2, 2})), type_error);
}

TEST_CASE("resize and transpose of empty and degenerate shapes") {
  sp::lil_matrix L(sp::shape2{0, 4}, dtype::complex128);
  L.resize({2, 0});
  CHECK(L.rows().size() == 2);
  CHECK(L.nnz() == 0);
  CHECK(L.T().shape() == sp::shape2{0, 2});
  sp::dok_matrix D(sp::shape2{1, 1}, dtype::bool_);
  D.set(0, 0, true);
  CHECK(D.get(0, 0).value<bool>());
  D.resize({0, 0});
  CHECK(D.nnz() == 0);
}

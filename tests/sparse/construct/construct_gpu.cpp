// GPU tests of cusci::sparse's construct family against SciPy 1.18 goldens
// (tests/golden/gen_sparse_construct.py): every manifest row is one case, run through the C++ API
// and compared on result format, stored-entry count, dtype, shape and dense values (or the expected
// exception).

#include <cmath>
#include <complex>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/io.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/construct.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sp = cusci::sparse;

namespace {

const std::string kModule = "sparse_construct";

const io::npz_file& npz() {
  static io::npz_file f = io::load_npz(std::string(CUSCI_GOLDEN_DIR) + "/" + kModule + "/cases.npz");
  return f;
}
const host_array& arr(const std::string& c, const std::string& name) { return npz()[c + "__" + name]; }
ndarray dev(const std::string& c, const std::string& name) { return asarray(arr(c, name)); }

std::map<std::string, std::string> parse(const std::string& s) {
  std::map<std::string, std::string> out;
  std::stringstream ss(s);
  std::string kv;
  while (std::getline(ss, kv, ';')) {
    const auto eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}
std::vector<std::int64_t> ints(const std::string& s) {
  std::vector<std::int64_t> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) v.push_back(std::stoll(x));
  return v;
}
sp::shape2 shape_of(const std::string& s) {
  auto v = ints(s);
  return {v[0], v[1]};
}
scalar scalar_of(const std::string& s) {
  if (s == "nan") return scalar(std::nan(""));
  if (s == "1j") return scalar(std::complex<double>(0.0, 1.0));
  if (s.find('.') != std::string::npos) return scalar(std::stod(s));
  return scalar(static_cast<std::int64_t>(std::stoll(s)));
}
sp::compare_op op_of(const std::string& s) {
  if (s == "eq") return sp::compare_op::eq;
  if (s == "ne") return sp::compare_op::ne;
  if (s == "lt") return sp::compare_op::lt;
  if (s == "le") return sp::compare_op::le;
  if (s == "gt") return sp::compare_op::gt;
  return sp::compare_op::ge;
}

/// Input matrix `name` of case `c`, in the format named by the manifest.
sp::spmatrix input(const std::string& c, const std::string& name, std::map<std::string, std::string>& p) {
  const std::string fmt = p[name + "_fmt"];
  const sp::shape2 shape = shape_of(p[name + "_shape"]);
  ndarray data = dev(c, name + "_data"), i1 = dev(c, name + "_i1"), i2 = dev(c, name + "_i2");
  const sp::matrix_options o{.shape = shape, .index_dtype = i1.dtype()};
  if (fmt == "csc") return sp::csc_matrix(data, i1, i2, o);
  if (fmt == "coo") return sp::coo_matrix(data, {i1, i2}, o);
  sp::csr_matrix A(data, i1, i2, o);
  if (fmt == "dia") return A.todia();
  if (fmt == "bsr") return A.tobsr(sp::shape2{2, 2});
  return A;
}

using result = std::variant<ndarray, sp::spmatrix>;

result run_case(const std::string& c, const std::string& func, std::map<std::string, std::string>& p) {
  auto dt = [&](const char* key, dtype def) { return p.count(key) ? dtype_from_string(p[key]) : def; };
  if (func == "eye")
    return sp::eye(std::stoll(p["m"]), std::stoll(p["n"]), std::stoll(p["k"]), dt("dtype", dtype::float64), p["format"]);
  if (func == "identity") return sp::identity(std::stoll(p["n"]), dt("dtype", dtype::float64), p["format"]);
  if (func == "diags") {
    std::vector<ndarray> d;
    for (int j = 0; j < std::stoi(p["ndiag"]); ++j) d.push_back(dev(c, "diag" + std::to_string(j)));
    sp::diags_options o{.format = p["format"]};
    if (p.count("shape")) o.shape = shape_of(p["shape"]);
    if (p.count("dtype")) o.dtype = dtype_from_string(p["dtype"]);
    return sp::diags(d, ints(p["offsets"]), o);
  }
  if (func == "spdiags") {
    std::optional<std::int64_t> m, n;
    if (p.count("m")) {
      m = std::stoll(p["m"]);
      n = std::stoll(p["n"]);
    }
    return sp::spdiags(dev(c, "data"), ints(p["offsets"]), m, n, p["format"]);
  }
  if (func == "random")
    return sp::random(std::stoll(p["m"]), std::stoll(p["n"]),
                      {.density = std::stod(p["density"]), .format = p["format"], .dtype = dt("dtype", dtype::float64),
                       .seed = 7});
  if (func == "kron") return sp::kron(input(c, "A", p), input(c, "B", p), p["format"]);
  if (func == "kronsum") return sp::kronsum(input(c, "A", p), input(c, "B", p), p["format"]);
  if (func == "hstack" || func == "vstack" || func == "block_diag" || func == "bmat") {
    std::vector<std::optional<sp::spmatrix>> blocks;
    for (int j = 0; j < std::stoi(p["nblocks"]); ++j) {
      const std::string nm = "B" + std::to_string(j);
      if (p[nm + "_fmt"] == "none") blocks.emplace_back();
      else blocks.emplace_back(input(c, nm, p));
    }
    std::optional<dtype> d;
    if (p.count("dtype")) d = dtype_from_string(p["dtype"]);
    if (func == "bmat") {
      const auto g = ints(p["grid"]);
      sp::block_grid grid(g[0]);
      for (std::int64_t r = 0; r < g[0]; ++r)
        for (std::int64_t q = 0; q < g[1]; ++q) grid[r].push_back(blocks[r * g[1] + q]);
      return sp::bmat(grid, p["format"], d);
    }
    std::vector<sp::spmatrix> mats;
    for (auto& b : blocks) mats.push_back(*b);
    if (func == "hstack") return sp::hstack(mats, p["format"], d);
    if (func == "vstack") return sp::vstack(mats, p["format"], d);
    return sp::block_diag(mats, p["format"], d);
  }
  if (func == "tril") return sp::tril(input(c, "A", p), std::stoll(p["k"]), p["format"]);
  if (func == "triu") return sp::triu(input(c, "A", p), std::stoll(p["k"]), p["format"]);
  if (func == "add") return input(c, "A", p) + input(c, "B", p);
  if (func == "subtract") return input(c, "A", p) - input(c, "B", p);
  if (func == "multiply") return sp::multiply(input(c, "A", p), input(c, "B", p));
  if (func == "divide") return input(c, "A", p) / input(c, "B", p);
  if (func == "maximum") return sp::maximum(input(c, "A", p), input(c, "B", p));
  if (func == "minimum") return sp::minimum(input(c, "A", p), input(c, "B", p));
  if (func == "compare") return sp::compare(input(c, "A", p), input(c, "B", p), op_of(p["op"]));
  if (func.size() > 6 && func.substr(func.size() - 6) == "_dense") {
    const std::string f = func.substr(0, func.size() - 6);
    sp::spmatrix A = input(c, "A", p);
    ndarray D = dev(c, "D");
    if (f == "add") return A + D;
    if (f == "subtract") return A - D;
    if (f == "rsubtract") return D - A;
    if (f == "multiply") return sp::multiply(A, D);
    if (f == "divide") return A / D;
    if (f == "maximum") return sp::maximum(A, D);
    if (f == "minimum") return sp::minimum(A, D);
    return sp::compare(A, D, op_of(p["op"]));
  }
  sp::spmatrix A = input(c, "A", p);
  if (func == "multiply_scalar") return A * scalar_of(p["s"]);
  if (func == "divide_scalar") return A / scalar_of(p["s"]);
  if (func == "add_scalar") return A + scalar_of(p["s"]);
  if (func == "abs") return sp::abs(A);
  if (func == "negative") return -A;
  if (func == "conj") return sp::conj(A);
  if (func == "real") return sp::real(A);
  if (func == "imag") return sp::imag(A);
  if (func == "transpose") return sp::transpose(A);
  if (func == "conj_transpose") return sp::conj_transpose(A);
  if (func == "power") {
    std::optional<dtype> d;
    if (p.count("dtype")) d = dtype_from_string(p["dtype"]);
    return sp::power(A, scalar_of(p["p"]), d);
  }
  if (func == "maximum_scalar") return sp::maximum(A, scalar_of(p["s"]));
  if (func == "minimum_scalar") return sp::minimum(A, scalar_of(p["s"]));
  if (func == "compare_scalar") return sp::compare(A, scalar_of(p["s"]), op_of(p["op"]));
  FAIL("unknown func " << func);
  return ndarray();
}

}  // namespace

TEST_CASE("sparse construct: SciPy goldens") {
  int ran = 0;
  for (auto row : testing::manifest(kModule)) {
    const std::string c = row["case"], func = row["func"], kind = row["out_kind"];
    auto p = parse(row["params"]);
    const double rtol = std::stod(row["rtol"]), atol = std::stod(row["atol"]);
    CAPTURE(c);
    ++ran;
    if (kind == "error") {
      const std::string e = row["error"];
      if (e == "value_error") CHECK_THROWS_AS(run_case(c, func, p), value_error);
      else if (e == "type_error") CHECK_THROWS_AS(run_case(c, func, p), type_error);
      else CHECK_THROWS_AS(run_case(c, func, p), not_implemented_error);
      continue;
    }
    if (func == "find") {
      sp::find_result r = sp::find(input(c, "A", p));
      testing::check_allclose(r.row, arr(c, "out_row"), 0, 0, false);
      testing::check_allclose(r.col, arr(c, "out_col"), 0, 0, false);
      testing::check_allclose(r.data, arr(c, "out_data"), rtol, atol);
      continue;
    }
    result r;
    try {
      r = run_case(c, func, p);
    } catch (const std::exception& ex) {
      FAIL_CHECK("threw: " << ex.what());
      continue;
    }
    if (kind == "dense") {
      REQUIRE(std::holds_alternative<ndarray>(r));
      testing::check_allclose(std::get<ndarray>(r), arr(c, "out"), rtol, atol);
      continue;
    }
    REQUIRE(std::holds_alternative<sp::spmatrix>(r));
    const sp::spmatrix& R = std::get<sp::spmatrix>(r);
    CHECK(std::string(sp::to_string(R.format())) == row["out_format"]);
    const std::int64_t want_nnz = std::stoll(row["out_nnz"]);
    if (kind != "random" || want_nnz >= 0) CHECK(R.nnz() == want_nnz);
    if (kind == "random") {
      // k sampled positions; a dia result stores whole diagonals, so only nnz >= k is comparable
      // there (SciPy's own count depends on its random stream), and at most k values are nonzero.
      const std::int64_t k = std::stoll(p["k"]);
      CHECK(R.nnz() >= k);
      CHECK(cusci::count_nonzero(R.toarray()).item<std::int64_t>() <= k);
      CHECK(R.dtype() == dtype_from_string(p["dtype"]));
      CHECK(R.shape() == sp::shape2{std::stoll(p["m"]), std::stoll(p["n"])});
      sp::coo_matrix co = R.tocoo();
      auto rows = to_host(co.row().astype(dtype::int64)).to_vector<std::int64_t>();
      auto cols = to_host(co.col().astype(dtype::int64)).to_vector<std::int64_t>();
      std::set<std::pair<std::int64_t, std::int64_t>> seen;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        CHECK((rows[i] >= 0 && rows[i] < R.shape()[0] && cols[i] >= 0 && cols[i] < R.shape()[1]));
        seen.insert({rows[i], cols[i]});
      }
      CHECK(seen.size() == rows.size());
      if (is_inexact(R.dtype())) {
        auto v = to_host(co.data().astype(dtype::complex128)).to_vector<std::complex<double>>();
        for (auto x : v) CHECK((x.real() >= 0 && x.real() < 1 && x.imag() >= 0 && x.imag() < 1));
      }
      continue;
    }
    testing::check_allclose(R.toarray(), arr(c, "out"), rtol, atol);
  }
  CHECK(ran > 800);
}

TEST_CASE("sparse construct: random is reproducible for a seed") {
  auto a = sp::random(50, 40, {.density = 0.2, .seed = 11}).toarray();
  auto b = sp::random(50, 40, {.density = 0.2, .seed = 11}).toarray();
  testing::check_allclose(a, to_host(b), 0, 0);
}

TEST_CASE("sparse construct: A + B on a 2-D Poisson matrix equals 2A") {
  const std::int64_t n = 64;
  sp::spmatrix T = sp::diags({full(shape_t{1}, -1.0), full(shape_t{1}, 2.0), full(shape_t{1}, -1.0)}, {-1, 0, 1},
                             {.shape = sp::shape2{n, n}, .format = "csr"});
  sp::spmatrix A = sp::kronsum(T, T, "csr");
  sp::spmatrix S = A + A;
  CHECK(S.format() == sp::format::csr);
  CHECK(S.nnz() == A.nnz());
  testing::check_allclose(S.toarray(), to_host(cusci::multiply(A.toarray(), scalar(2.0))), 0, 0);
  sp::spmatrix Z = A - A;
  CHECK(Z.nnz() == 0);
}

// GPU tests of cusci::sparse's construct family against SciPy 1.18 goldens
// (tests/golden/gen_sparse_construct.py): every case is run through the C++ API (a table from func
// to call) and compared on result format, stored-entry count, dtype, shape and dense values (or the
// expected exception).

#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
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
using gcase = testing::golden_case;

host_array arr(const std::string& c, const std::string& name) { return testing::golden(kModule, c + "__" + name); }
ndarray dev(const std::string& c, const std::string& name) { return asarray(arr(c, name)); }

std::string format_of(const gcase& p) { return p.get_or<std::string>("format", ""); }
sp::shape2 shape_of(const std::vector<std::int64_t>& v) { return {v.at(0), v.at(1)}; }
// A scalar parameter: an integer, a float ("nan" too) or a complex [re, im], as SciPy was given it.
scalar scalar_of(const gcase& p, const std::string& key) {
  const auto& j = p.params().at(key);
  if (j.is_array()) return scalar(p.get<std::complex<double>>(key));
  if (j.is_number_integer()) return scalar(p.get<std::int64_t>(key));
  return scalar(p.get<double>(key));
}
sp::compare_op op_of(const std::string& s) {
  if (s == "eq") return sp::compare_op::eq;
  if (s == "ne") return sp::compare_op::ne;
  if (s == "lt") return sp::compare_op::lt;
  if (s == "le") return sp::compare_op::le;
  if (s == "gt") return sp::compare_op::gt;
  return sp::compare_op::ge;
}
std::optional<dtype> dtype_param(const gcase& p) {
  if (!p.has("dtype")) return std::nullopt;
  return dtype_from_string(p.get<std::string>("dtype"));
}

/// Input matrix `name` of case `p`, in the format its parameters name.
sp::spmatrix input(const gcase& p, const std::string& name) {
  const std::string c = p.name();
  const std::string fmt = p.get<std::string>(name + "_fmt");
  const sp::shape2 shape = shape_of(p.get<std::vector<std::int64_t>>(name + "_shape"));
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

result stack(const gcase& p) {
  const std::string func = p.func();
  std::vector<std::optional<sp::spmatrix>> blocks;
  for (std::int64_t j = 0; j < p.get<std::int64_t>("nblocks"); ++j) {
    const std::string nm = "B" + std::to_string(j);
    if (!p.has(nm + "_fmt")) blocks.emplace_back();  // an empty block
    else blocks.emplace_back(input(p, nm));
  }
  const std::optional<dtype> d = dtype_param(p);
  if (func == "bmat") {
    const auto g = p.get<std::vector<std::int64_t>>("grid");
    sp::block_grid grid(g[0]);
    for (std::int64_t r = 0; r < g[0]; ++r)
      for (std::int64_t q = 0; q < g[1]; ++q) grid[r].push_back(blocks[r * g[1] + q]);
    return sp::bmat(grid, format_of(p), d);
  }
  std::vector<sp::spmatrix> mats;
  for (auto& b : blocks) mats.push_back(*b);
  if (func == "hstack") return sp::hstack(mats, format_of(p), d);
  if (func == "vstack") return sp::vstack(mats, format_of(p), d);
  return sp::block_diag(mats, format_of(p), d);
}

/// Sparse with a dense operand (func "<op>_dense"; "compare_dense" takes parameter op).
result with_dense(const gcase& p, const std::string& f) {
  sp::spmatrix A = input(p, "A");
  ndarray D = dev(p.name(), "D");
  if (f == "add") return A + D;
  if (f == "subtract") return A - D;
  if (f == "rsubtract") return D - A;
  if (f == "multiply") return sp::multiply(A, D);
  if (f == "divide") return A / D;
  if (f == "maximum") return sp::maximum(A, D);
  if (f == "minimum") return sp::minimum(A, D);
  return sp::compare(A, D, op_of(p.get<std::string>("op")));
}

using runner = std::function<result(const gcase&)>;

/// What each func of the manifest runs.
const std::map<std::string, runner>& runners() {
  static const std::map<std::string, runner> table = [] {
    std::map<std::string, runner> t{
        {"eye",
         [](const gcase& p) -> result {
           return sp::eye(p.get<std::int64_t>("m"), p.get<std::int64_t>("n"), p.get<std::int64_t>("k"),
                          dtype_param(p).value_or(dtype::float64), format_of(p));
         }},
        {"identity",
         [](const gcase& p) -> result {
           return sp::identity(p.get<std::int64_t>("n"), dtype_param(p).value_or(dtype::float64), format_of(p));
         }},
        {"diags",
         [](const gcase& p) -> result {
           std::vector<ndarray> d;
           for (std::int64_t j = 0; j < p.get<std::int64_t>("ndiag"); ++j)
             d.push_back(dev(p.name(), "diag" + std::to_string(j)));
           const std::string format = format_of(p);  // diags_options holds a view of it
           sp::diags_options o{.format = format};
           if (p.has("shape")) o.shape = shape_of(p.get<std::vector<std::int64_t>>("shape"));
           if (p.has("dtype")) o.dtype = dtype_from_string(p.get<std::string>("dtype"));
           return sp::diags(d, p.get<std::vector<std::int64_t>>("offsets"), o);
         }},
        {"spdiags",
         [](const gcase& p) -> result {
           std::optional<std::int64_t> m, n;
           if (p.has("m")) {
             m = p.get<std::int64_t>("m");
             n = p.get<std::int64_t>("n");
           }
           return sp::spdiags(dev(p.name(), "data"), p.get<std::vector<std::int64_t>>("offsets"), m, n, format_of(p));
         }},
        {"random",
         [](const gcase& p) -> result {
           return sp::random(p.get<std::int64_t>("m"), p.get<std::int64_t>("n"),
                             {.density = p.get<double>("density"), .format = format_of(p),
                              .dtype = dtype_param(p).value_or(dtype::float64), .seed = 7});
         }},
        {"kron", [](const gcase& p) -> result { return sp::kron(input(p, "A"), input(p, "B"), format_of(p)); }},
        {"kronsum", [](const gcase& p) -> result { return sp::kronsum(input(p, "A"), input(p, "B"), format_of(p)); }},
        {"hstack", stack},
        {"vstack", stack},
        {"block_diag", stack},
        {"bmat", stack},
        {"tril",
         [](const gcase& p) -> result { return sp::tril(input(p, "A"), p.get<std::int64_t>("k"), format_of(p)); }},
        {"triu",
         [](const gcase& p) -> result { return sp::triu(input(p, "A"), p.get<std::int64_t>("k"), format_of(p)); }},
        {"add", [](const gcase& p) -> result { return input(p, "A") + input(p, "B"); }},
        {"subtract", [](const gcase& p) -> result { return input(p, "A") - input(p, "B"); }},
        {"multiply", [](const gcase& p) -> result { return sp::multiply(input(p, "A"), input(p, "B")); }},
        {"divide", [](const gcase& p) -> result { return input(p, "A") / input(p, "B"); }},
        {"maximum", [](const gcase& p) -> result { return sp::maximum(input(p, "A"), input(p, "B")); }},
        {"minimum", [](const gcase& p) -> result { return sp::minimum(input(p, "A"), input(p, "B")); }},
        {"compare",
         [](const gcase& p) -> result {
           return sp::compare(input(p, "A"), input(p, "B"), op_of(p.get<std::string>("op")));
         }},
        {"multiply_scalar", [](const gcase& p) -> result { return input(p, "A") * scalar_of(p, "s"); }},
        {"divide_scalar", [](const gcase& p) -> result { return input(p, "A") / scalar_of(p, "s"); }},
        {"add_scalar", [](const gcase& p) -> result { return input(p, "A") + scalar_of(p, "s"); }},
        {"abs", [](const gcase& p) -> result { return sp::abs(input(p, "A")); }},
        {"negative", [](const gcase& p) -> result { return -input(p, "A"); }},
        {"conj", [](const gcase& p) -> result { return sp::conj(input(p, "A")); }},
        {"real", [](const gcase& p) -> result { return sp::real(input(p, "A")); }},
        {"imag", [](const gcase& p) -> result { return sp::imag(input(p, "A")); }},
        {"transpose", [](const gcase& p) -> result { return sp::transpose(input(p, "A")); }},
        {"conj_transpose", [](const gcase& p) -> result { return sp::conj_transpose(input(p, "A")); }},
        {"power",
         [](const gcase& p) -> result { return sp::power(input(p, "A"), scalar_of(p, "p"), dtype_param(p)); }},
        {"maximum_scalar", [](const gcase& p) -> result { return sp::maximum(input(p, "A"), scalar_of(p, "s")); }},
        {"minimum_scalar", [](const gcase& p) -> result { return sp::minimum(input(p, "A"), scalar_of(p, "s")); }},
        {"compare_scalar",
         [](const gcase& p) -> result {
           return sp::compare(input(p, "A"), scalar_of(p, "s"), op_of(p.get<std::string>("op")));
         }},
    };
    for (const char* f : {"add", "subtract", "rsubtract", "multiply", "divide", "maximum", "minimum", "compare"}) {
      const std::string op = f;
      t.emplace(op + "_dense", [op](const gcase& p) -> result { return with_dense(p, op); });
    }
    return t;
  }();
  return table;
}

result run_case(const gcase& p) {
  auto it = runners().find(p.func());
  if (it == runners().end()) {
    FAIL("unknown func " << p.func());
    return ndarray();
  }
  return it->second(p);
}

}  // namespace

TEST_CASE("sparse construct: SciPy goldens") {
  int ran = 0;
  for (const auto& p : testing::cases(kModule)) {
    const std::string c = p.name(), func = p.func();
    const double rtol = p.rtol(), atol = p.atol();
    CAPTURE(c);
    ++ran;
    if (p.expects_error()) {
      testing::check_error(p, [&] { return run_case(p); });
      continue;
    }
    const std::string kind = p.get<std::string>("out_kind");
    if (func == "find") {
      sp::find_result r = sp::find(input(p, "A"));
      testing::check_allclose(r.row, arr(c, "out_row"), 0, 0, false);
      testing::check_allclose(r.col, arr(c, "out_col"), 0, 0, false);
      testing::check_allclose(r.data, arr(c, "out_data"), rtol, atol);
      continue;
    }
    result r;
    try {
      r = run_case(p);
    } catch (const std::exception& ex) {
      FAIL_CHECK("threw: " << std::string(ex.what()));
      continue;
    }
    if (kind == "dense") {
      REQUIRE(std::holds_alternative<ndarray>(r));
      testing::check_allclose(std::get<ndarray>(r), arr(c, "out"), rtol, atol);
      continue;
    }
    REQUIRE(std::holds_alternative<sp::spmatrix>(r));
    const sp::spmatrix& R = std::get<sp::spmatrix>(r);
    CHECK(std::string(sp::to_string(R.format())) == p.get<std::string>("out_format"));
    // A random dia result has no comparable nnz (out_nnz null): see below.
    const std::optional<std::int64_t> want_nnz = p.get<std::optional<std::int64_t>>("out_nnz");
    if (kind != "random" || want_nnz) CHECK(R.nnz() == want_nnz.value_or(-1));
    if (kind == "random") {
      // k sampled positions; a dia result stores whole diagonals, so only nnz >= k is comparable
      // there (SciPy's own count depends on its random stream), and at most k values are nonzero.
      const std::int64_t k = p.get<std::int64_t>("k");
      CHECK(R.nnz() >= k);
      CHECK(cusci::count_nonzero(R.toarray()).item<std::int64_t>() <= k);
      CHECK(R.dtype() == dtype_from_string(p.get<std::string>("dtype")));
      CHECK(R.shape() == sp::shape2{p.get<std::int64_t>("m"), p.get<std::int64_t>("n")});
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

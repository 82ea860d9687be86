// GPU tests of 2-D boolean-mask indexing of cusci::sparse matrices and of the SparseEfficiencyWarnings
// of assignment, comparisons and maximum/minimum, against SciPy goldens (gen_sparse_mask.py): A[mask]
// and A[mask] = x for csr/csc over every value dtype and both index dtypes, canonical and messy
// (duplicates, unsorted, explicit zeros) matrices, dense masks and bool sparse masks of every format,
// empty shapes, all-false and all-true masks; rejected calls (exception kind and SciPy's message);
// the warnings' categories and messages.
#include <complex>
#include <string>
#include <variant>
#include <vector>

#include "cusci/sparse/sparse.hpp"
#include "cusci/warnings.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;

namespace {

constexpr const char* module = "sparse_mask";

host_array g(const std::string& c, const std::string& k) { return t::golden(module, c + "__" + k); }

sparse::shape2 shape_of(const t::golden_case& r) {
  const auto sh = r.get<std::vector<std::int64_t>>("shape");
  return {sh.at(0), sh.at(1)};
}

// A exactly as SciPy held it (data, indices, indptr: duplicates, order and explicit zeros kept).
sparse::spmatrix build(const t::golden_case& r) {
  const std::string c = r.name();
  const sparse::matrix_options o{.shape = shape_of(r), .index_dtype = dtype_from_string(r.get<std::string>("index"))};
  const ndarray d = asarray(g(c, "data")), i = asarray(g(c, "indices")), p = asarray(g(c, "indptr"));
  if (r.get<std::string>("fmt") == "csr") return sparse::csr_matrix(d, i, p, o);
  return sparse::csc_matrix(d, i, p, o);
}

bool canonical(const sparse::spmatrix& A) {
  return A.format() == sparse::format::csr ? A.get<sparse::csr_matrix>().has_canonical_format()
                                           : A.get<sparse::csc_matrix>().has_canonical_format();
}

using mask_t = std::variant<ndarray, sparse::spmatrix>;

mask_t mask_of(const t::golden_case& r) {
  const std::string c = r.name(), f = r.get<std::string>("mask_fmt");
  const sparse::shape2 sh = shape_of(r);
  const ndarray dense = asarray(g(c, "mask"));
  if (f == "dense") return dense;
  const sparse::matrix_options o{.shape = sh};
  if (f == "csr") return sparse::spmatrix(sparse::csr_matrix(asarray(g(c, "mdata")), asarray(g(c, "mind")),
                                                             asarray(g(c, "mptr")), o));
  if (f == "csc") return sparse::spmatrix(sparse::csc_matrix(asarray(g(c, "mdata")), asarray(g(c, "mind")),
                                                             asarray(g(c, "mptr")), o));
  if (f == "coo")
    return sparse::spmatrix(sparse::coo_matrix(
        asarray(g(c, "mdata")), std::pair<ndarray, ndarray>{asarray(g(c, "mrow")), asarray(g(c, "mcol"))}, o));
  if (f == "dia") return sparse::spmatrix(sparse::dia_matrix(dense));
  REQUIRE(f == "bsr");  // SciPy's block order, which the selection order follows
  return sparse::spmatrix(sparse::bsr_matrix(asarray(g(c, "mdata")), asarray(g(c, "mind")), asarray(g(c, "mptr")),
                                             sparse::bsr_options{.shape = sh, .blocksize = sparse::shape2{2, 2}}));
}

// The collected warnings equal SciPy's [[category, message], ...], each issued by `fn`.
void check_warnings(const std::vector<cusci::warning>& got, const t::golden_value& want, const std::string& fn) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].category == want.at(k).at(std::size_t{0}).get<std::string>());
    CHECK(got[k].message == want.at(k).at(std::size_t{1}).get<std::string>());
    CHECK(got[k].function == fn);
  }
}

sparse::compare_op op_of(const std::string& s) {
  if (s == "eq") return sparse::compare_op::eq;
  if (s == "ne") return sparse::compare_op::ne;
  if (s == "lt") return sparse::compare_op::lt;
  if (s == "le") return sparse::compare_op::le;
  if (s == "gt") return sparse::compare_op::gt;
  REQUIRE(s == "ge");
  return sparse::compare_op::ge;
}

// The scalar of a warning case: weak (Python) int/float/complex/bool, or a strong NumPy scalar.
scalar scalar_of(const t::golden_case& r) {
  const std::string k = r.get<std::string>("kind");
  if (k == "int") return scalar(r.get<std::int64_t>("value"));
  if (k == "float") return scalar(r.get<double>("value"));
  if (k == "complex") return scalar(r.get<std::complex<double>>("value"));
  if (k == "bool") return scalar(r.get<bool>("value"));
  return scalar::of(r.get<double>("value"), dtype_from_string(k));
}

sparse::spmatrix warn_matrix(const t::golden_case& r) {
  const sparse::csr_matrix A(asarray(t::golden(module, "warn__a")));
  return sparse::spmatrix(A).asformat(sparse::format_from_string(r.get<std::string>("fmt")));
}

}  // namespace

TEST_CASE("A[mask] vs SciPy: csr/csc x value dtypes x index dtypes x dense and sparse masks") {
  int n = 0;
  for (const auto& r : t::cases(module, "mask_get")) {
    const std::string c = r.name();
    CAPTURE(c);
    CAPTURE(r.params().dump());
    const sparse::spmatrix A = build(r);
    CHECK(canonical(A) == r.get<bool>("canonical"));
    const mask_t m = mask_of(r);
    const ndarray out = std::visit([&](const auto& mk) { return sparse::get(A, mk); }, m);
    const host_array want = g(c, "out");
    CHECK(out.dtype() == A.dtype());
    REQUIRE(out.shape() == shape_t{1, want.size()});
    t::check_allclose(out.reshape({want.size()}), want, 0, 0);
    const auto osh = r.get<std::vector<std::int64_t>>("out_shape");
    CHECK(osh == std::vector<std::int64_t>{1, want.size()});
    ++n;
  }
  CHECK(n > 400);
}

TEST_CASE("A[mask] = x vs SciPy: values, structure and the SparseEfficiencyWarning") {
  int n = 0;
  for (const auto& r : t::cases(module, "mask_set")) {
    const std::string c = r.name();
    CAPTURE(c);
    CAPTURE(r.params().dump());
    sparse::spmatrix B = build(r);
    const mask_t m = mask_of(r);
    const host_array val = g(c, "val");
    cusci::warning_capture cap;
    if (r.get<std::string>("value_kind") == "scalar") {
      const scalar x = scalar::of(t::element(val, 0), B.dtype());
      std::visit([&](const auto& mk) { sparse::setitem(B, mk, x); }, m);
    } else {
      const ndarray x = asarray(val);
      std::visit([&](const auto& mk) { sparse::setitem(B, mk, x); }, m);
    }
    t::check_allclose(B.toarray(), g(c, "res"), 0, 0);
    CHECK(B.dtype() == dtype_from_string(r.get<std::string>("dtype")));
    const auto& want = r.params().at("warnings");
    check_warnings(cap.warnings(), want, "cusci::sparse::setitem");
    // SciPy keeps untouched duplicates when it inserts; cusci rebuilds the matrix canonical.
    if (r.get<bool>("canonical") || want.empty()) CHECK(B.nnz() == r.get<std::int64_t>("nnz"));
    if (!want.empty()) CHECK(canonical(B));
    ++n;
  }
  CHECK(n > 900);
}

TEST_CASE("A[mask] = x: the same through csr_matrix& / csc_matrix& and new_entries::raise") {
  for (const auto& r : t::cases(module, "mask_set")) {
    if (r.get<std::string>("mask_fmt") != "dense" || r.get<std::string>("value_kind") != "n" ||
        r.get<std::string>("dtype") != "float64")
      continue;
    const std::string c = r.name();
    CAPTURE(c);
    const sparse::spmatrix A = build(r);
    const ndarray mask = asarray(g(c, "mask"));
    const ndarray x = asarray(g(c, "val"));
    const bool inserts = !r.params().at("warnings").empty();
    cusci::warning_capture cap;
    if (A.format() == sparse::format::csr) {
      sparse::csr_matrix B = A.get<sparse::csr_matrix>().copy();
      sparse::setitem(B, mask, x);
      t::check_allclose(B.toarray(), g(c, "res"), 0, 0);
      sparse::csr_matrix R = A.get<sparse::csr_matrix>().copy();
      if (inserts) CHECK_THROWS_AS(sparse::setitem(R, mask, x, sparse::new_entries::raise), value_error);
      else sparse::setitem(R, mask, x, sparse::new_entries::raise);
    } else {
      sparse::csc_matrix B = A.get<sparse::csc_matrix>().copy();
      sparse::setitem(B, mask, x);
      t::check_allclose(B.toarray(), g(c, "res"), 0, 0);
      sparse::csc_matrix R = A.get<sparse::csc_matrix>().copy();
      if (inserts) CHECK_THROWS_AS(sparse::setitem(R, mask, x, sparse::new_entries::raise), value_error);
      else sparse::setitem(R, mask, x, sparse::new_entries::raise);
    }
    CHECK(cap.warnings().size() == (inserts ? 1u : 0u));  // raise mode does not warn
  }
}

TEST_CASE("mask indexing: rejected calls raise SciPy's exception kind and message") {
  int n = 0;
  for (const auto& r : t::cases(module, "mask_error")) {
    const std::string c = r.name();
    CAPTURE(c);
    CAPTURE(r.params().dump());
    const std::string f = r.get<std::string>("fmt");
    const sparse::csr_matrix D(asarray(t::golden(module, "err__a")));
    sparse::spmatrix A = f == "bsr" ? sparse::spmatrix(D.tobsr(sparse::shape2{1, 2}))
                                    : sparse::spmatrix(D).asformat(sparse::format_from_string(f));
    const ndarray dense = asarray(g(c, "mask"));
    const mask_t m = r.get<std::string>("mask_fmt") == "dense" ? mask_t{dense}
                                                               : mask_t{sparse::spmatrix(sparse::csr_matrix(dense))};
    auto call = [&] {
      if (r.get<std::string>("op") == "get") {
        std::visit([&](const auto& mk) { (void)sparse::get(A, mk); }, m);
      } else {
        const ndarray x = asarray(g(c, "val"));
        std::visit([&](const auto& mk) { sparse::setitem(A, mk, x); }, m);
      }
    };
    t::check_error(r, call);
    if (r.has("message")) CHECK_THROWS_WITH(call(), doctest::Contains(r.get<std::string>("message").c_str()));
    ++n;
  }
  CHECK(n == 40);
}

TEST_CASE("comparisons, maximum/minimum and element assignment warn as SciPy") {
  int n = 0;
  for (const auto& r : t::cases(module, "warn_compare")) {
    CAPTURE(r.name());
    CAPTURE(r.params().dump());
    const sparse::spmatrix A = warn_matrix(r);
    const sparse::compare_op op = op_of(r.get<std::string>("op"));
    cusci::warning_capture cap;
    if (r.get<std::string>("kind") == "sparse") (void)sparse::compare(A, A, op);
    else (void)sparse::compare(A, scalar_of(r), op);
    check_warnings(cap.warnings(), r.params().at("warnings"), "cusci::sparse::compare");
    ++n;
  }
  for (const auto& r : t::cases(module, "warn_maxmin")) {
    CAPTURE(r.name());
    const sparse::spmatrix A = warn_matrix(r);
    const std::string f = r.get<std::string>("op");
    cusci::warning_capture cap;
    if (f == "maximum") (void)sparse::maximum(A, scalar_of(r));
    else (void)sparse::minimum(A, scalar_of(r));
    check_warnings(cap.warnings(), r.params().at("warnings"), "cusci::sparse::" + f);
    ++n;
  }
  for (const auto& r : t::cases(module, "warn_setitem")) {
    CAPTURE(r.name());
    sparse::spmatrix A = warn_matrix(r);
    cusci::warning_capture cap;
    if (r.get<std::string>("what") == "slice") sparse::setitem(A, cusci::slice{1, 3}, cusci::slice{}, scalar(2.0));
    else sparse::setitem(A, r.get<std::int64_t>("i"), r.get<std::int64_t>("j"), scalar(7.0));
    check_warnings(cap.warnings(), r.params().at("warnings"), "cusci::sparse::setitem");
    ++n;
  }
  CHECK(n == 234);
}

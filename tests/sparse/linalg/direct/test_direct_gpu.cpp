// GPU tests of cusci::sparse::linalg's direct solvers against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_direct.py): spsolve (dense right-hand sides [n], [n, 1], [n, k];
// CSC, CSR, COO, DIA, BSR; float32/float64/complex64/complex128; permc_spec; dtype promotion; singular
// matrices give MatrixRankWarning and nan), spsolve with sparse right-hand sides and inv (format, dtype,
// SciPy's warnings), splu / spilu (perm_r, perm_c and SuperLU's nnz exactly, L and U to rounding,
// solves with trans N/T/H and several columns, SciPy's options, singular matrices), factorized,
// spsolve_triangular (lower/upper, unit diagonal, every format, 1-D/2-D b), is_sptriangular,
// spbandwidth, and SciPy's errors. Solutions are compared norm-wise with rtol = 100 cond(A) eps
// (the generator's), the factors elementwise with 1e-10 (float32: 1e-4) of their largest entry.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/warnings.hpp"
#include "direct_test_util.hpp"

using namespace cusci;
using namespace cusci::direct_test;
namespace sl = cusci::sparse::linalg;

namespace {

sparse::csc_matrix generated(const std::string& name) {
  const host_array ptr = garray(name + "_indptr");
  const std::int64_t n = ptr.size() - 1;
  return sparse::csc_matrix(asarray(garray(name + "_data")), asarray(garray(name + "_indices")), asarray(ptr),
                            sparse::matrix_options{.shape = sparse::shape2{n, n}});
}

sparse::csc_matrix bundled(const std::string& name) {
  sparse::csc_matrix c = io::mmread(cusci::testing::example_matrix(name)).tocsc();
  c.sum_duplicates();
  return c;
}

// Read afresh each time: no device memory outlives main (the pools are released there).
sparse::csc_matrix matrix(const std::string& name) { return is_generated(name) ? generated(name) : bundled(name); }

sparse::spmatrix in_format(const sparse::spmatrix& m, const std::string& f) {
  return m.asformat(sparse::format_from_string(f));
}

ndarray rhs(std::int64_t n, std::int64_t k, dtype dt) { return asarray(rhs_host(n, k, dt)); }

std::int64_t k_of(const case_t& c) { return c.has("k") ? c.get<std::int64_t>("k") : -1; }

std::set<std::string> categories(const std::vector<warning>& ws) {
  std::set<std::string> s;
  for (const auto& w : ws) s.insert(w.category);
  return s;
}
std::vector<std::string> category_list(const std::vector<warning>& ws) {
  std::vector<std::string> s;
  for (const auto& w : ws) s.push_back(w.category);
  return s;
}

void check_solution(const ndarray& x, const case_t& c, const std::string& key = "x") {
  const host_array ref = c.array(key);
  const host_array got = to_host(x);
  CHECK(dtype_name(got.dtype()) == dtype_name(ref.dtype()));
  REQUIRE(got.shape() == ref.shape());
  const double err = rel_diff(got, ref);
  CHECK_MESSAGE(err <= c.rtol(), "relative error " << err << " > " << c.rtol());
}

// L or U of a factorization against the reference CSC arrays, densely (SciPy's near-zero entries of
// cancellations may be exact zeros here and vice versa).
void check_factor(const sparse::csc_matrix& F, const case_t& c, const std::string& tag, dtype dt) {
  CAPTURE(tag);
  const std::int64_t n = F.shape()[0];
  const auto ptr = to_host(F.indptr().astype(dtype::int64)).to_vector<std::int64_t>();
  const auto ind = to_host(F.indices().astype(dtype::int64)).to_vector<std::int64_t>();
  const auto a = dense_of_csc(n, ptr, ind, to_host(F.data()));
  const auto e = dense_of_csc(n, gvec<std::int64_t>(c.get<std::string>(tag + "_indptr")),
                              gvec<std::int64_t>(c.get<std::string>(tag + "_indices")),
                              garray(c.get<std::string>(tag + "_data")));
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    worst = std::max(worst, std::abs(a[k] - e[k]));
    scale = std::max(scale, std::abs(e[k]));
  }
  const double tol = (dt == dtype::float32 || dt == dtype::complex64) ? 1e-4 : 1e-10;
  CHECK(worst <= tol * scale);
  CHECK(F.has_sorted_indices());
  CHECK(F.dtype() == dt);
}

void check_lu(const sl::SuperLU& lu, const case_t& c, dtype dt, std::int64_t n) {
  CHECK(lu.shape() == sparse::shape2{n, n});
  CHECK(lu.dtype() == dt);
  CHECK(to_host(lu.perm_r()).to_vector<std::int32_t>() == gvec<std::int32_t>(c.get<std::string>("perm_r")));
  CHECK(to_host(lu.perm_c()).to_vector<std::int32_t>() == gvec<std::int32_t>(c.get<std::string>("perm_c")));
  CHECK(lu.nnz() == c.get<std::int64_t>("nnz"));
  if (c.has("L_indptr")) {
    check_factor(lu.L(), c, "L", dt);
    check_factor(lu.U(), c, "U", dt);
  }
}

// The solve of a factorization whose factors are too ill-conditioned for any digit of x to be
// reproducible (the generator's solve_check = "backward"; cond(L) cond(U) >= 1 / (100 eps)): the
// componentwise backward error of x against the factors (which check_lu compares with SciPy's):
// max_i |op(Pr^T L U Pc^T) x - b|_i / (op(|L||U|) |x| + |b|)_i, permuted as SuperLU. Two triangular
// solves have one of at most about 2 n eps; 10 n eps is asked.
void check_backward(const sl::SuperLU& lu, const ndarray& x, const ndarray& b, char trans) {
  using cd = std::complex<double>;
  const auto dense = [](const sparse::csc_matrix& F) {
    const std::int64_t n = F.shape()[0];
    return dense_of_csc(n, to_host(F.indptr().astype(dtype::int64)).to_vector<std::int64_t>(),
                        to_host(F.indices().astype(dtype::int64)).to_vector<std::int64_t>(), to_host(F.data()));
  };
  const std::int64_t n = lu.shape()[0];
  const auto L = dense(lu.L()), U = dense(lu.U());
  const auto pr = to_host(lu.perm_r()).to_vector<std::int32_t>();
  const auto pc = to_host(lu.perm_c()).to_vector<std::int32_t>();
  const host_array xh = to_host(x).astype(dtype::complex128), bh = to_host(b).astype(dtype::complex128);
  const std::int64_t k = xh.shape().size() == 2 ? xh.shape()[1] : 1;
  const auto* px = xh.data_as<cd>();
  const auto* pb = bh.data_as<cd>();
  // e(i, j) of op(F): F[i, j] for 'N', F[j, i] for 'T', conj(F[j, i]) for 'H'.
  const auto op = [&](const std::vector<cd>& F, std::int64_t i, std::int64_t j) {
    if (trans == 'N') return F[i * n + j];
    return trans == 'T' ? F[j * n + i] : std::conj(F[j * n + i]);
  };
  double worst = 0;
  for (std::int64_t col = 0; col < k; ++col) {
    // SciPy's Pr A Pc = L U with (Pr v)[pr[i]] = v[i] and (Pc v)[i] = v[pc[i]]:
    // 'N': L U w = c with w = Pc^T x (w[pc[i]] = x[i]) and c = Pr b (c[pr[i]] = b[i]);
    // 'T' / 'H': op(U) op(L) w = c with w = Pr x (w[pr[i]] = x[i]) and c = Pc^T b (c[pc[i]] = b[i]).
    std::vector<cd> w(n), c(n), y(n);
    std::vector<double> ya(n);
    for (std::int64_t i = 0; i < n; ++i) {
      if (trans == 'N') {
        w[pc[i]] = px[i * k + col];
        c[pr[i]] = pb[i * k + col];
      } else {
        w[pr[i]] = px[i * k + col];
        c[pc[i]] = pb[i * k + col];
      }
    }
    const auto& F1 = trans == 'N' ? U : L;  // applied first
    const auto& F2 = trans == 'N' ? L : U;
    for (std::int64_t i = 0; i < n; ++i) {
      y[i] = 0;
      ya[i] = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const cd e = op(F1, i, j);
        y[i] += e * w[j];
        ya[i] += std::abs(e) * std::abs(w[j]);
      }
    }
    for (std::int64_t i = 0; i < n; ++i) {
      cd s = 0;
      double sa = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const cd e = op(F2, i, j);
        s += e * y[j];
        sa += std::abs(e) * ya[j];
      }
      const double d = sa + std::abs(c[i]);
      if (d > 0) worst = std::max(worst, std::abs(s - c[i]) / d);
    }
  }
  const double eps = (lu.dtype() == dtype::float32 || lu.dtype() == dtype::complex64) ? 1.1920929e-07
                                                                                     : 2.220446049250313e-16;
  CHECK_MESSAGE(worst <= 10.0 * static_cast<double>(n) * eps, "componentwise backward error " << worst);
}

}  // namespace

TEST_CASE("spsolve with dense right-hand sides gives SciPy's solution") {
  const auto cs = cases_of("spsolve");
  REQUIRE(cs.size() >= 60);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const sparse::csc_matrix A0 = matrix(c.get<std::string>("matrix"));
    const sparse::spmatrix A = in_format(sparse::spmatrix(A0).astype(dt), c.get<std::string>("format"));
    const ndarray b = rhs(A0.shape()[0], k_of(c), dt);
    warning_capture wc;
    const ndarray x = sl::spsolve(A, b, c.get<std::optional<std::string>>("permc_spec"));
    CHECK(x.shape() == c.get<shape_t>("x_shape"));
    CHECK(dtype_name(x.dtype()) == c.get<std::string>("x_dtype"));
    check_solution(x, c);
    const auto expected = c.get<std::vector<std::string>>("warnings");
    CHECK(categories(wc.warnings()) == std::set<std::string>(expected.begin(), expected.end()));
  }
}

TEST_CASE("spsolve promotes the dtypes as SciPy") {
  for (const auto& c : cases_of("spsolve_promote")) {
    CAPTURE(c.name());
    const dtype adt = dtype_from_string(c.get<std::string>("a_dtype"));
    const dtype bdt = dtype_from_string(c.get<std::string>("b_dtype"));
    const sparse::csc_matrix A0 = matrix(c.get<std::string>("matrix"));
    const ndarray x = sl::spsolve(sparse::spmatrix(A0).astype(adt), rhs(A0.shape()[0], -1, bdt));
    CHECK(dtype_name(x.dtype()) == c.get<std::string>("x_dtype"));
    check_solution(x, c);
  }
}

TEST_CASE("spsolve of a singular matrix warns MatrixRankWarning and returns nan; splu and spilu throw") {
  for (const auto& c : cases_of("spsolve_singular")) {
    CAPTURE(c.name());
    const sparse::csc_matrix A(asarray(garray(c.get<std::string>("dense"))));
    warning_capture wc;
    const ndarray x = sl::spsolve(A, ones({3}));
    const host_array h = to_host(x);
    for (std::int64_t i = 0; i < 3; ++i) CHECK(std::isnan(h.data_as<double>()[i]));
    CHECK(category_list(wc.warnings()) == c.get<std::vector<std::string>>("warnings"));
  }
  for (const char* fn : {"splu_singular", "spilu_singular"}) {
    for (const auto& c : cases_of(fn)) {
      CAPTURE(c.name());
      const sparse::csc_matrix A(asarray(garray(c.get<std::string>("dense"))));
      if (std::string(fn) == "splu_singular")
        CHECK_THROWS_AS(sl::splu(A), runtime_error);
      else
        CHECK_THROWS_AS(sl::spilu(A), runtime_error);
    }
  }
}

TEST_CASE("spsolve with a sparse right-hand side and inv give SciPy's matrices and warnings") {
  for (const auto& c : cases_of("spsolve_sparse")) {
    CAPTURE(c.name());
    const sparse::csc_matrix A0 = matrix(c.get<std::string>("matrix"));
    const std::int64_t n = A0.shape()[0];
    const sparse::spmatrix A = in_format(A0, c.get<std::string>("format"));
    const sparse::coo_matrix Bc(asarray(garray(c.get<std::string>("b_data"))),
                                {asarray(garray(c.get<std::string>("b_row"))),
                                 asarray(garray(c.get<std::string>("b_col")))},
                                sparse::matrix_options{.shape = sparse::shape2{n, 4}});
    const sparse::spmatrix B = in_format(Bc, c.get<std::string>("b_format"));
    warning_capture wc;
    const sparse::spmatrix X = sl::spsolve(A, B);
    CHECK(sparse::to_string(X.format()) == c.get<std::string>("x_format"));
    CHECK(dtype_name(X.dtype()) == c.get<std::string>("x_dtype"));
    check_solution(X.toarray(), c);
    std::vector<std::string> got;
    for (const auto& w : wc.warnings()) got.push_back(w.category + ": " + w.message);
    CHECK(got == c.get<std::vector<std::string>>("warnings"));
  }
  for (const auto& c : cases_of("inv")) {
    CAPTURE(c.name());
    const sparse::spmatrix A = in_format(matrix(c.get<std::string>("matrix")), c.get<std::string>("format"));
    warning_capture wc;
    const sparse::spmatrix X = sl::inv(A);
    CHECK(sparse::to_string(X.format()) == c.get<std::string>("x_format"));
    CHECK(dtype_name(X.dtype()) == c.get<std::string>("x_dtype"));
    check_solution(X.toarray(), c);
    CHECK(category_list(wc.warnings()) == c.get<std::vector<std::string>>("warnings"));
  }
}

TEST_CASE("splu and spilu give SciPy's factorization and solves") {
  int checked = 0;
  for (const char* fn : {"splu", "spilu"}) {
    const bool ilu = std::string(fn) == "spilu";
    for (const auto& c : cases_of(fn)) {
      CAPTURE(c.name());
      const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
      const sparse::csc_matrix A = matrix(c.get<std::string>("matrix")).astype(dt);
      const std::string order = c.get<std::string>("permc_spec");
      auto factor = [&] {
        return ilu ? sl::spilu(A, {.permc_spec = order}) : sl::splu(A, {.permc_spec = order});
      };
      if (c.expects_error()) {
        CHECK_THROWS_AS(factor(), runtime_error);
        continue;
      }
      const sl::SuperLU lu = factor();
      const std::int64_t n = A.shape()[0];
      check_lu(lu, c, dt, n);
      const ndarray b = rhs(n, -1, dt);
      const bool backward = c.has("solve_check") && c.get<std::string>("solve_check") == "backward";
      for (const char t : {'N', 'T', 'H'}) {
        const std::string key = std::string("x_") + t;
        if (!c.has(key)) continue;
        CAPTURE(t);
        const ndarray x = lu.solve(b, t);
        if (backward) {
          REQUIRE(x.shape() == c.array(key).shape());
          check_backward(lu, x, b, t);
        } else {
          check_solution(x, c, key);
        }
      }
      if (c.has("X_N")) {
        const ndarray B = rhs(n, 2, dt);
        const ndarray X = lu.solve(B);
        CHECK(X.shape() == shape_t{n, 2});
        if (backward)
          check_backward(lu, X, B, 'N');
        else
          check_solution(X, c, "X_N");
      }
      ++checked;
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("splu and spilu honour SciPy's options") {
  for (const char* fn : {"splu_options", "spilu_options"}) {
    const bool ilu = std::string(fn) == "spilu_options";
    for (const auto& c : cases_of(fn)) {
      CAPTURE(c.name());
      const auto kw = c.params().at("kwargs");
      sl::superlu_options o;
      if (kw.contains("options")) {
        const auto d = kw.at("options");
        if (d.contains("SymmetricMode")) o.SymmetricMode = d.at("SymmetricMode").as_bool();
        if (d.contains("ILU_MILU")) o.ILU_MILU = d.at("ILU_MILU").as_string();
        if (d.contains("ILU_Norm")) o.ILU_Norm = d.at("ILU_Norm").as_string();
        if (d.contains("ILU_FillTol")) o.ILU_FillTol = d.at("ILU_FillTol").as_double();
      }
      std::optional<std::string> permc;
      if (kw.contains("permc_spec")) permc = kw.at("permc_spec").as_string();
      std::optional<double> dpt;
      if (kw.contains("diag_pivot_thresh")) dpt = kw.at("diag_pivot_thresh").as_double();
      std::optional<int> relax, panel;
      if (kw.contains("relax")) relax = static_cast<int>(kw.at("relax").as_int64());
      if (kw.contains("panel_size")) panel = static_cast<int>(kw.at("panel_size").as_int64());
      const sparse::csc_matrix A = matrix(c.get<std::string>("matrix"));
      auto factor = [&] {
        if (!ilu) return sl::splu(A, {.permc_spec = permc, .diag_pivot_thresh = dpt, .relax = relax,
                                      .panel_size = panel, .options = o});
        sl::spilu_options io{.permc_spec = permc, .diag_pivot_thresh = dpt, .relax = relax, .panel_size = panel,
                             .options = o};
        if (kw.contains("drop_tol")) io.drop_tol = kw.at("drop_tol").as_double();
        if (kw.contains("fill_factor")) io.fill_factor = kw.at("fill_factor").as_double();
        if (kw.contains("drop_rule")) io.drop_rule = kw.at("drop_rule").as_string();
        return sl::spilu(A, io);
      };
      if (c.expects_error()) {
        CHECK_THROWS_AS(factor(), runtime_error);
        continue;
      }
      const sl::SuperLU lu = factor();
      check_lu(lu, c, dtype::float64, A.shape()[0]);
      check_solution(lu.solve(rhs(A.shape()[0], -1, dtype::float64)), c, "x_N");
    }
  }
}

TEST_CASE("factorized solves as SciPy's") {
  for (const auto& c : cases_of("factorized")) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const sparse::csc_matrix A = matrix(c.get<std::string>("matrix")).astype(dt);
    const auto solve = sl::factorized(A);
    check_solution(solve(rhs(A.shape()[0], -1, dt)), c);
  }
}

TEST_CASE("SuperLU::solve: shapes, empty right-hand sides, casts") {
  const sparse::csc_matrix A = matrix("poisson4");
  const sl::SuperLU lu = sl::splu(A);
  CHECK(lu.solve(zeros({16, 0})).shape() == shape_t{16, 0});
  const ndarray xi = lu.solve(ones({16}, dtype::int64));  // int64 -> float64 is a safe cast
  CHECK(xi.dtype() == dtype::float64);
  const ndarray xf = lu.solve(ones({16}, dtype::float32));
  CHECK(rel_diff(to_host(xf), to_host(xi)) < 1e-14);
  // A strided right-hand side (a column of a C-order matrix) gives the same solution.
  const ndarray B = rhs(16, 3, dtype::float64);
  const ndarray X = lu.solve(B);
  const ndarray x1 = lu.solve(B[{slice{}, std::int64_t{1}}]);
  CHECK(rel_diff(to_host(x1), to_host(X[{slice{}, std::int64_t{1}}].copy())) < 1e-14);
  // A x = b, A^T x = b checked by products.
  const ndarray b = rhs(16, -1, dtype::float64);
  CHECK(rel_diff(to_host(A.dot(lu.solve(b))), to_host(b)) < 1e-12);
  CHECK(rel_diff(to_host(A.T().dot(lu.solve(b, 'T'))), to_host(b)) < 1e-12);
  // n = 0
  const sparse::csc_matrix E(sparse::shape2{0, 0});
  const sl::SuperLU le = sl::splu(E);
  CHECK(le.shape() == sparse::shape2{0, 0});
  CHECK(le.nnz() == 0);
  CHECK(le.solve(zeros({0})).shape() == shape_t{0});
  CHECK(sl::spsolve(E, zeros({0})).shape() == shape_t{0});
}

TEST_CASE("spsolve_triangular gives SciPy's solution") {
  const auto cs = cases_of("spsolve_triangular");
  REQUIRE(cs.size() >= 50);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const std::string t = c.get<std::string>("t");
    const host_array ptr = garray(t + "_indptr");
    const std::int64_t n = ptr.size() - 1;
    const sparse::csc_matrix T(asarray(garray(t + "_data")), asarray(garray(t + "_indices")), asarray(ptr),
                               sparse::matrix_options{.shape = sparse::shape2{n, n}});
    const sparse::spmatrix A = in_format(sparse::spmatrix(T).astype(dt), c.get<std::string>("format"));
    warning_capture wc;
    const ndarray x = sl::spsolve_triangular(A, rhs(n, k_of(c), dt), c.get<bool>("lower"), false, false,
                                             c.get<bool>("unit_diagonal"));
    check_solution(x, c);
    CHECK(category_list(wc.warnings()) == c.get<std::vector<std::string>>("warnings"));
  }
  for (const auto& c : cases_of("spsolve_triangular_error")) {
    const sparse::csr_matrix Z(asarray(garray(c.get<std::string>("dense"))));
    const std::string msg = "cusci::sparse::linalg::spsolve_triangular: " + c.get<std::string>("message");
    CHECK_THROWS_WITH_AS(sl::spsolve_triangular(Z, ones({2})), doctest::Contains(msg.c_str()),
                         cusci::linalg::lin_alg_error);
  }
}

TEST_CASE("is_sptriangular and spbandwidth give SciPy's answers") {
  for (const auto& c : cases_of("structure")) {
    CAPTURE(c.name());
    const sparse::csr_matrix D(asarray(garray(c.get<std::string>("dense"))));
    const sparse::spmatrix A = in_format(D, c.get<std::string>("format"));
    warning_capture wc;
    const auto tri = sl::is_sptriangular(A);
    const auto bw = sl::spbandwidth(A);
    CHECK(tri.first == c.get<bool>("lower"));
    CHECK(tri.second == c.get<bool>("upper"));
    CHECK(bw.first == c.get<std::int64_t>("below"));
    CHECK(bw.second == c.get<std::int64_t>("above"));
    CHECK(category_list(wc.warnings()) == c.get<std::vector<std::string>>("warnings"));
  }
  for (const auto& c : cases_of("structure_matrix")) {
    CAPTURE(c.name());
    const sparse::csc_matrix A = matrix(c.get<std::string>("matrix"));
    for (const sparse::spmatrix& M : {sparse::spmatrix(A), sparse::spmatrix(A.tocsr()), sparse::spmatrix(A.tocoo())}) {
      CHECK(sl::is_sptriangular(M) == std::make_pair(c.get<bool>("lower"), c.get<bool>("upper")));
      CHECK(sl::spbandwidth(M) == std::make_pair(c.get<std::int64_t>("below"), c.get<std::int64_t>("above")));
    }
  }
  const sparse::csr_matrix E(sparse::shape2{3, 3});
  CHECK(sl::is_sptriangular(E) == std::make_pair(true, true));
  CHECK_THROWS_AS(sl::spbandwidth(E), value_error);
}

TEST_CASE("expm gives SciPy's matrix exponential") {
  const auto cs = cases_of("expm");
  REQUIRE(cs.size() >= 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const std::string name = c.get<std::string>("matrix");
    sparse::spmatrix A0 = name == "rand_small_upper" ? sparse::triu(matrix("rand_small"), 0, "csc")
                                                    : sparse::spmatrix(matrix(name));
    const sparse::spmatrix A = in_format(sparse::multiply(A0, scalar(c.get<double>("scale"))), c.get<std::string>("format"));
    warning_capture wc;
    const sparse::spmatrix X = sl::expm(A);
    CHECK(sparse::to_string(X.format()) == c.get<std::string>("x_format"));
    CHECK(dtype_name(X.dtype()) == c.get<std::string>("x_dtype"));
    check_solution(X.toarray(), c);
    std::set<std::string> got;
    for (const auto& w : wc.warnings()) got.insert(w.category + ": " + w.message);
    const auto expected = c.get<std::vector<std::string>>("warnings");
    CHECK(got == std::set<std::string>(expected.begin(), expected.end()));
  }
  for (const auto& c : cases_of("expm_small")) {
    const sparse::csr_matrix A(full({1, 1}, 2, dtype::int64));
    const sparse::spmatrix X = sl::expm(A);
    CHECK(sparse::to_string(X.format()) == c.get<std::string>("x_format"));
    CHECK(dtype_name(X.dtype()) == c.get<std::string>("x_dtype"));
    CHECK(X.toarray().item<double>() == doctest::Approx(c.get<double>("value")).epsilon(1e-15));
  }
  const sparse::csr_matrix E(sparse::shape2{0, 0});
  CHECK(sl::expm(E).shape() == sparse::shape2{0, 0});
}

TEST_CASE("SciPy's errors, raised before any device work") {
  const sparse::csc_matrix R(ones({2, 3}));
  const sparse::csc_matrix E = sparse::identity(3, dtype::float64, "csc").get<sparse::csc_matrix>();
  for (const auto& c : cases_of("error")) {
    CAPTURE(c.name());
    const std::string what = c.get<std::string>("what");
    const std::string msg = c.get<std::string>("message");
    // SciPy's text, after the name of the cusci function (and parameter).
    const doctest::Contains has(msg.c_str());
    if (what == "spsolve_nonsquare") CHECK_THROWS_WITH_AS(sl::spsolve(R, ones({2})), has, value_error);
    if (what == "spsolve_mismatch") CHECK_THROWS_WITH_AS(sl::spsolve(E, ones({2})), has, value_error);
    if (what == "spsolve_permc") CHECK_THROWS_WITH_AS(sl::spsolve(E, ones({3}), "FOO"), has, value_error);
    if (what == "splu_nonsquare") CHECK_THROWS_WITH_AS(sl::splu(R), has, value_error);
    if (what == "splu_permc") CHECK_THROWS_WITH_AS(sl::splu(E, {.permc_spec = "bad"}), has, value_error);
    if (what == "spilu_droprule") CHECK_THROWS_WITH_AS(sl::spilu(E, {.drop_rule = "bogus"}), has, value_error);
    if (what == "solve_trans") CHECK_THROWS_WITH_AS(sl::splu(E).solve(ones({3}), 'X'), has, value_error);
    if (what == "solve_size") CHECK_THROWS_WITH_AS(sl::splu(E).solve(ones({4})), has, value_error);
    if (what == "solve_cast") CHECK_THROWS_WITH_AS(sl::splu(E).solve(ones({3}, dtype::complex128)), has, type_error);
    if (what == "solve_cast32")
      CHECK_THROWS_WITH_AS(sl::splu(E.astype(dtype::float32)).solve(ones({3})), has, type_error);
    if (what == "tri_nonsquare")
      CHECK_THROWS_WITH_AS(sl::spsolve_triangular(sparse::csr_matrix(ones({2, 3})), ones({2})), has, value_error);
    if (what == "tri_mismatch") CHECK_THROWS_WITH_AS(sl::spsolve_triangular(E.tocsr(), ones({2})), has, value_error);
    if (what == "expm_nonsquare") CHECK_THROWS_WITH_AS(sl::expm(R), has, value_error);
    if (what == "bandwidth_empty")
      CHECK_THROWS_WITH_AS(sl::spbandwidth(sparse::csr_matrix(sparse::shape2{3, 3})), has, value_error);
  }
}

// Host tests of cusci::sparse::linalg's direct solvers (no GPU): the option parsers and defaults,
// use_solver, and the host SuperLU factorization through the internal header against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_direct.py) on the generated matrices: perm_r and perm_c exactly,
// SuperLU's nnz exactly, L and U to rounding (the system SuperLU against SciPy's bundled copy: the same
// algorithm, BLAS rounding in the supernode updates).

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "cusci/sparse/linalg/direct.hpp"
#include "direct_test_util.hpp"
#include "linalg/direct_detail.hpp"

using namespace cusci;
using namespace cusci::direct_test;
namespace sl = cusci::sparse::linalg;

TEST_CASE("permc_spec and drop_rule parse SciPy's strings") {
  CHECK(sl::colperm_from_string("NATURAL") == sl::colperm::natural);
  CHECK(sl::colperm_from_string("MMD_ATA") == sl::colperm::mmd_ata);
  CHECK(sl::colperm_from_string("MMD_AT_PLUS_A") == sl::colperm::mmd_at_plus_a);
  CHECK(sl::colperm_from_string("COLAMD") == sl::colperm::colamd);
  CHECK(sl::colperm_from_string("colamd") == sl::colperm::colamd);        // case-insensitive, as SciPy
  CHECK(sl::colperm_from_string("mmd at plus a") == sl::colperm::mmd_at_plus_a);
  CHECK_THROWS_WITH_AS(sl::colperm_from_string("FOO"),
                       doctest::Contains("cusci::sparse::linalg::colperm_from_string: invalid value for 'ColPerm' "
                                         "parameter"),
                       value_error);
  CHECK_THROWS_AS(sl::colperm_from_string(""), value_error);
  CHECK(sl::drop_rule_from_string("basic") == 0x0001);
  CHECK(sl::drop_rule_from_string("basic,area") == (0x0001 | 0x0008));
  CHECK(sl::drop_rule_from_string("BASIC, AREA") == (0x0001 | 0x0008));
  CHECK(sl::drop_rule_from_string("secondary") == 0x000E);
  CHECK(sl::drop_rule_from_string("dynamic,interp") == (0x0010 | 0x0100));
  CHECK_THROWS_WITH_AS(sl::drop_rule_from_string("bogus"),
                       doctest::Contains("cusci::sparse::linalg::drop_rule_from_string: invalid value for "
                                         "'ILU_DropRule' parameter"),
                       value_error);
  CHECK_THROWS_AS(sl::drop_rule_from_string("basic,,area"), value_error);
}

TEST_CASE("options default to SciPy's None") {
  const sl::splu_options o;
  CHECK_FALSE(o.permc_spec.has_value());
  CHECK_FALSE(o.diag_pivot_thresh.has_value());
  CHECK_FALSE(o.relax.has_value());
  CHECK_FALSE(o.panel_size.has_value());
  const sl::spilu_options i;
  CHECK_FALSE(i.drop_tol.has_value());
  CHECK_FALSE(i.fill_factor.has_value());
  CHECK_FALSE(i.drop_rule.has_value());
  const sl::detail::factor_options f;
  CHECK(f.ColPerm == sl::colperm::colamd);
  CHECK(f.DiagPivotThresh == 1.0);
  CHECK(f.ILU_DropTol == 1e-4);
  CHECK(f.ILU_FillFactor == 10.0);
  CHECK(f.ILU_DropRule == (0x0001 | 0x0008));
}

TEST_CASE("use_solver records the preferences") {
  const auto before = sl::solver_preferences();
  CHECK(before.useUmfpack.value_or(false));
  sl::use_solver({.useUmfpack = false});
  CHECK_FALSE(sl::solver_preferences().useUmfpack.value());
  CHECK_FALSE(sl::solver_preferences().assumeSortedIndices.value());
  sl::use_solver({.assumeSortedIndices = true});
  CHECK(sl::solver_preferences().assumeSortedIndices.value());
  CHECK_FALSE(sl::solver_preferences().useUmfpack.value());
  sl::use_solver({.useUmfpack = true, .assumeSortedIndices = false});
}

namespace {

struct host_matrix {
  std::int64_t n = 0;
  std::vector<int> colptr, rowind;
  host_array data;
};

host_matrix generated(const std::string& name) {
  host_matrix m;
  const auto ptr = gvec<std::int64_t>(name + "_indptr");
  m.n = static_cast<std::int64_t>(ptr.size()) - 1;
  m.colptr.assign(ptr.begin(), ptr.end());
  m.rowind = gvec<std::int32_t>(name + "_indices");
  m.data = garray(name + "_data");
  return m;
}

sl::detail::host_lu factor(const host_matrix& m, dtype dt, const sl::detail::factor_options& o) {
  const host_array v = m.data.astype(dt);
  std::vector<unsigned char> bytes(v.nbytes());
  if (!bytes.empty()) std::memcpy(bytes.data(), v.data(), v.nbytes());
  return sl::detail::superlu_factor(dt, m.n, m.colptr, m.rowind, bytes, o);
}

void check_factor(const sl::detail::host_lu& lu, const case_t& c, dtype dt) {
  REQUIRE(lu.info == 0);
  CHECK(lu.perm_r == gvec<int>(c.get<std::string>("perm_r")));
  CHECK(lu.perm_c == gvec<int>(c.get<std::string>("perm_c")));
  CHECK(lu.nnz_store == c.get<std::int64_t>("nnz"));
  if (!c.get_or<bool>("with_factors", false) && !c.has("L_indptr")) return;
  const double tol = (dt == dtype::float32 || dt == dtype::complex64) ? 1e-4 : 1e-10;
  for (const char* tag : {"L", "U"}) {
    CAPTURE(tag);
    const bool is_l = std::string(tag) == "L";
    const auto& ptr = is_l ? lu.L_colptr : lu.U_colptr;
    const auto& ind = is_l ? lu.L_rowind : lu.U_rowind;
    const auto& dat = is_l ? lu.L_data : lu.U_data;
    host_array mine(dt, {static_cast<std::int64_t>(ind.size())});
    if (!dat.empty()) std::memcpy(mine.data(), dat.data(), dat.size());
    const auto ref_ptr = gvec<std::int64_t>(c.get<std::string>(std::string(tag) + "_indptr"));
    const auto ref_ind = gvec<std::int64_t>(c.get<std::string>(std::string(tag) + "_indices"));
    const host_array ref_dat = garray(c.get<std::string>(std::string(tag) + "_data"));
    const std::vector<std::int64_t> p64(ptr.begin(), ptr.end()), i64(ind.begin(), ind.end());
    const auto a = dense_of_csc(lu.n, p64, i64, mine);
    const auto e = dense_of_csc(lu.n, ref_ptr, ref_ind, ref_dat);
    double worst = 0, scale = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      worst = std::max(worst, std::abs(a[k] - e[k]));
      scale = std::max(scale, std::abs(e[k]));
    }
    CHECK(worst <= tol * scale);
  }
}

}  // namespace

TEST_CASE("host SuperLU factorization gives SciPy's permutations, nnz and factors") {
  if (!sl::has_superlu()) {
    sl::detail::factor_options o;
    CHECK_THROWS_AS(sl::detail::superlu_factor(dtype::float64, 1, {0, 1}, {0}, std::vector<unsigned char>(8), o),
                    not_implemented_error);
    return;
  }
  int checked = 0;
  for (const char* fn : {"splu", "spilu"}) {
    for (const auto& c : cases_of(fn)) {
      const std::string name = c.get<std::string>("matrix");
      if (!is_generated(name)) continue;
      CAPTURE(c.name());
      const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
      sl::detail::factor_options o;
      o.ilu = std::string(fn) == "spilu";
      if (o.ilu) o.DiagPivotThresh = 0.1;
      const std::string order = c.get<std::string>("permc_spec");
      o.ColPerm = sl::colperm_from_string(order);
      if (order == "NATURAL") o.SymmetricMode = true;
      check_factor(factor(generated(name), dt, o), c, dt);
      ++checked;
    }
  }
  CHECK(checked >= 14);
}

TEST_CASE("host SuperLU factorization honours SciPy's options") {
  if (!sl::has_superlu()) return;
  int checked = 0;
  for (const char* fn : {"splu_options", "spilu_options"}) {
    for (const auto& c : cases_of(fn)) {
      if (!is_generated(c.get<std::string>("matrix")) || c.expects_error()) continue;
      CAPTURE(c.name());
      const auto kw = c.params().at("kwargs");
      sl::detail::factor_options o;
      o.ilu = std::string(fn) == "spilu_options";
      if (o.ilu) o.DiagPivotThresh = 0.1;
      if (kw.contains("permc_spec")) o.ColPerm = sl::colperm_from_string(kw.at("permc_spec").as_string());
      if (kw.contains("diag_pivot_thresh")) o.DiagPivotThresh = kw.at("diag_pivot_thresh").as_double();
      if (kw.contains("relax")) o.Relax = static_cast<int>(kw.at("relax").as_int64());
      if (kw.contains("panel_size")) o.PanelSize = static_cast<int>(kw.at("panel_size").as_int64());
      if (kw.contains("drop_tol")) o.ILU_DropTol = kw.at("drop_tol").as_double();
      if (kw.contains("fill_factor")) o.ILU_FillFactor = kw.at("fill_factor").as_double();
      if (kw.contains("drop_rule")) o.ILU_DropRule = sl::drop_rule_from_string(kw.at("drop_rule").as_string());
      if (kw.contains("options")) {
        const auto d = kw.at("options");
        if (d.contains("SymmetricMode")) o.SymmetricMode = d.at("SymmetricMode").as_bool();
        if (d.contains("ILU_MILU")) o.ILU_MILU = d.at("ILU_MILU").as_string() == "SMILU_2" ? 2 : 0;
        if (d.contains("ILU_Norm")) o.ILU_Norm = d.at("ILU_Norm").as_string() == "ONE_NORM" ? 0 : 2;
        if (d.contains("ILU_FillTol")) o.ILU_FillTol = d.at("ILU_FillTol").as_double();
      }
      check_factor(factor(generated(c.get<std::string>("matrix")), dtype::float64, o), c, dtype::float64);
      ++checked;
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("host SuperLU reports a numerically singular matrix through info") {
  if (!sl::has_superlu()) return;
  // [[1, 2], [2, 4]]: structurally fine, numerically singular.
  host_matrix m;
  m.n = 2;
  m.colptr = {0, 2, 4};
  m.rowind = {0, 1, 0, 1};
  m.data = host_array::from(std::vector<double>{1, 2, 2, 4});
  const auto lu = factor(m, dtype::float64, {});
  CHECK(lu.info == 2);
}

// GPU tests of cusci::distributed's cg, bicgstab and gmres and their preconditioners (jacobi,
// block_jacobi_ilu0), against SciPy 1.18.1 (tests/golden/gen_distributed_solvers.py) and against
// cusci's one-GPU solvers (cusci::sparse::linalg::cg / bicgstab / gmres, run here on the same problem
// with the same options), on the self communicator and on local groups of 1 to 4 ranks (one device,
// a thread a rank): 2-D and 3-D Poisson, a nonsymmetric convection-diffusion matrix and 1138_bus,
// float64 and float32; x0, rtol / atol, restart, the iteration limits, b = 0, the callbacks, the
// history, and the errors (atol < 0, b of another partition or dtype, M of another partition, a zero
// diagonal for jacobi, restart / maxiter out of range).
//
// Each solve checks: every rank returns the same info and iteration count; info as SciPy's (the one-GPU
// solver's for block ILU); the gathered x against spsolve's within a bound from the condition number
// and the true relative residual against the tolerance; the iteration count against the one-GPU
// solver's (equal up to SciPy's own rounding spread on the problem, it_hi - it_lo: the ranks' partial
// sums change the dot products' rounding, as a 4-eps perturbation of b does) and against SciPy's count
// (within that spread and one more iteration); and, when the count equals the one-GPU solver's, x
// against the one-GPU x within the rounding sensitivity xtol_same. The doctest checks run on the main
// thread after run_ranks: each rank only records what it saw.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/device.hpp"
#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/matrix.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/distributed/vector.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov.hpp"
#include "cusci/sparse/linalg/preconditioners.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/stream.hpp"
#include "golden.hpp"
#include "testing.hpp"

using namespace cusci;
namespace dist = cusci::distributed;
namespace sl = cusci::sparse::linalg;
namespace t = cusci::testing;
using case_t = t::golden_case;

namespace {

const std::string kModule = "distributed_solvers";

ndarray dev(const std::string& name) { return asarray(t::golden(kModule, name)); }

std::vector<double> host_doubles(const ndarray& a) {
  host_array h = to_host(a).astype(dtype::float64);
  const double* p = h.data_as<double>();
  return std::vector<double>(p, p + h.size());
}
std::vector<double> host_doubles(const host_array& a) {
  host_array h = a.astype(dtype::float64);
  const double* p = h.data_as<double>();
  return std::vector<double>(p, p + h.size());
}
double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s) / std::max(norm2(b), 1e-300);
}

// ---- the problems ---------------------------------------------------------------------------------

/// A case's system in its dtype, with what the checks need on the host.
struct problem {
  sparse::csr_matrix A;  // global, the case's dtype
  ndarray b;             // [n], the case's dtype
  std::optional<ndarray> x0;
  std::vector<std::int64_t> indptr;  // host, for the partition by stored entries
  std::vector<double> b_host;
  std::int64_t n = 0;
};

const sparse::csr_matrix& matrix64(const case_t& c) {
  static std::map<std::string, sparse::csr_matrix> cache;
  const std::string name = c.get<std::string>("matrix");
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  sparse::csr_matrix A;
  if (c.get<std::string>("source") == "mtx") {
    A = io::mmread(t::example_matrix(name)).tocsr();
  } else {
    const auto sh = c.get<std::vector<std::int64_t>>("shape");
    A = sparse::csr_matrix(dev(name + "_data"), dev(name + "_indices"), dev(name + "_indptr"),
                           sparse::shape2{sh[0], sh[1]});
  }
  return cache.emplace(name, std::move(A)).first->second;
}

problem problem_of(const case_t& c) {
  problem p;
  const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
  const sparse::csr_matrix& B = matrix64(c);
  p.A = sparse::csr_matrix(B.data().astype(dt), B.indices(), B.indptr(), B.shape());
  p.n = B.shape()[0];
  ndarray b64 = dev(c.get<std::string>("b"));
  p.b = b64.astype(dt);
  p.b_host = host_doubles(b64);
  if (c.has("x0")) p.x0 = dev(c.get<std::string>("x0")).astype(dt);
  host_array ip = to_host(B.indptr()).astype(dtype::int64);
  p.indptr.assign(ip.data_as<std::int64_t>(), ip.data_as<std::int64_t>() + ip.size());
  device_synchronize();  // the rank threads read these arrays on their own streams
  return p;
}

/// norm(b - A x) / norm(b) in float64 on the host (A from the float64 original).
double true_residual(const case_t& c, const problem& p, const std::vector<double>& x) {
  const sparse::csr_matrix& B = matrix64(c);
  const std::vector<double> data = host_doubles(B.data());
  host_array ind = to_host(B.indices()).astype(dtype::int64);
  const std::int64_t* ci = ind.data_as<std::int64_t>();
  double rr = 0;
  for (std::int64_t i = 0; i < p.n; ++i) {
    double ax = 0;
    for (std::int64_t k = p.indptr[i]; k < p.indptr[i + 1]; ++k) ax += data[k] * x[ci[k]];
    const double r = p.b_host[i] - ax;
    rr += r * r;
  }
  return std::sqrt(rr) / std::max(norm2(p.b_host), 1e-300);
}

// ---- the solves -------------------------------------------------------------------------------------

enum class pre { none, jacobi, ilu };
const char* pre_name(pre p) { return p == pre::none ? "none" : p == pre::jacobi ? "jacobi" : "block_jacobi_ilu0"; }

/// What one rank saw.
struct outcome {
  std::int64_t info = 0, iterations = 0, callbacks = 0;
  std::vector<double> history;
  std::vector<double> prn;  // gmres: the callback's values
  std::vector<double> x;    // the gathered solution (rank 0)
};

/// A run configuration: the self communicator, or a local group of `nranks`, rows split equally or by
/// stored entries.
struct config {
  bool self = false;
  int nranks = 1;
  bool by_nnz = false;
  std::string name() const {
    if (self) return "self";
    return std::to_string(nranks) + (nranks == 1 ? " rank" : " ranks") + (by_nnz ? " (by nnz)" : "");
  }
};

dist::row_partition partition_of(const problem& p, int nranks, bool by_nnz) {
  return by_nnz ? dist::partition_rows_by_nnz(p.indptr, nranks) : dist::partition_rows(p.n, nranks);
}

/// The case's solve on this rank (collective).
outcome solve_rank(const dist::communicator& comm, const case_t& c, const problem& p, pre M, bool by_nnz) {
  outcome out;
  const dist::row_partition part = partition_of(p, comm.size(), by_nnz);
  const dist::csr_matrix A = dist::csr_matrix::from_global(comm, part, p.A);
  const dist::vector b = dist::vector::from_global(comm, part, p.b);
  std::optional<dist::vector> x0;
  if (p.x0) x0 = dist::vector::from_global(comm, part, *p.x0);
  std::optional<dist::preconditioner> P;
  if (M == pre::jacobi) P = dist::jacobi(A);
  if (M == pre::ilu) P = dist::block_jacobi_ilu0(A);
  const double rtol = c.get_or<double>("solver_rtol", 1e-5), atol = c.get_or<double>("solver_atol", 0.0);
  std::optional<std::int64_t> maxiter;
  if (c.has("maxiter")) maxiter = c.get<std::int64_t>("maxiter");
  dist::solve_result r;
  const std::string f = c.func();
  if (f == "gmres") {
    dist::gmres_options o{.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = P};
    if (c.has("restart")) o.restart = c.get<std::int64_t>("restart");
    o.callback = [&out](double v) {
      ++out.callbacks;
      out.prn.push_back(v);
    };
    r = dist::gmres(A, b, o);
  } else {
    dist::cg_options o{.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = P};
    o.callback = [&out](const dist::vector&) { ++out.callbacks; };
    r = f == "cg" ? dist::cg(A, b, o) : dist::bicgstab(A, b, o);
  }
  out.info = r.info;
  out.iterations = r.iterations;
  out.history = r.history.residual_norms;
  const ndarray xg = dist::gather(r.x);
  if (comm.rank() == 0) out.x = host_doubles(xg);
  return out;
}

/// The solve on configuration `cf`: every rank's outcome.
std::vector<outcome> run_config(const config& cf, const std::function<outcome(const dist::communicator&, bool)>& fn) {
  if (cf.self) return {fn(dist::self_communicator(), false)};
  std::vector<outcome> outs(static_cast<std::size_t>(cf.nranks));
  const std::vector<dist::communicator> comms = dist::local_group(cf.nranks);
  dist::run_ranks(comms, [&](const dist::communicator& comm) { outs[comm.rank()] = fn(comm, cf.by_nnz); });
  return outs;
}

/// The one-GPU solver on the same problem (the preconditioner: sparse::linalg::jacobi, ilu0).
outcome one_gpu(const case_t& c, const problem& p, pre M) {
  outcome out;
  std::optional<sl::linear_operator> P;
  if (M == pre::jacobi) P = sl::jacobi(p.A);
  if (M == pre::ilu) P = sl::ilu0(p.A);
  const double rtol = c.get_or<double>("solver_rtol", 1e-5), atol = c.get_or<double>("solver_atol", 0.0);
  std::optional<std::int64_t> maxiter;
  if (c.has("maxiter")) maxiter = c.get<std::int64_t>("maxiter");
  const std::string f = c.func();
  ndarray x;
  if (f == "cg") {
    sl::cg_options o{.x0 = p.x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = P};
    o.callback = [&out](const ndarray&) { ++out.callbacks; };
    const sl::cg_result r = sl::cg(p.A, p.b, o);
    out.info = r.info;
    out.iterations = r.iterations;
    x = r.x;
  } else if (f == "bicgstab") {
    sl::bicgstab_options o{.x0 = p.x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = P};
    o.callback = [&out](const ndarray&) { ++out.callbacks; };
    const sl::krylov_result r = sl::bicgstab(p.A, p.b, o);
    out.info = r.info;
    out.iterations = r.iterations;
    out.history = r.history.residual_norms;
    x = r.x;
  } else {
    sl::gmres_options o{.x0 = p.x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = P};
    if (c.has("restart")) o.restart = c.get<std::int64_t>("restart");
    o.callback_type = sl::gmres_callback_type::pr_norm;
    o.callback = [&out](const ndarray& v) {
      ++out.callbacks;
      out.prn.push_back(v.item<double>());
    };
    const sl::krylov_result r = sl::gmres(p.A, p.b, o);
    out.info = r.info;
    out.iterations = r.iterations;
    out.history = r.history.residual_norms;
    x = r.x;
  }
  out.x = host_doubles(x);
  return out;
}

bool single(const case_t& c) { return c.get<std::string>("dtype") == "float32"; }

// Iterations of two runs that differ only by rounding: the count may move within SciPy's own spread on
// the problem (it_hi - it_lo, measured over 4-eps perturbations of b), and in float32 by one more (the
// vector updates' float32 rounding amplifies the scalars' differences).
std::int64_t rounding_slack(const case_t& c) {
  return c.get<std::int64_t>("it_hi") - c.get<std::int64_t>("it_lo") + (single(c) ? 1 : 0);
}

// Against SciPy: cg and bicgstab within SciPy's range widened by its spread on either side (at least one
// iteration): the 8 perturbed runs sample the rounding spread, and cusci's float64 sums of float64
// products in another order than NumPy's are one more sample (CG on 1138_bus: SciPy 2236..2259, cusci
// 2264); a float32 run moves further (cusci sums the dot products in float64, SciPy in the dtype), up
// to max(2, 5%); gmres within 3% (at
// least 1), as the one-GPU gmres test allows: cusci orthogonalises with classical Gram-Schmidt and the
// DGKS second pass, SciPy with modified Gram-Schmidt, which changes presid by a few ulps a step and can
// move the step at which ptol is crossed.
bool near_scipy(const case_t& c, std::int64_t it) {
  const std::int64_t lo = c.get<std::int64_t>("it_lo"), hi = c.get<std::int64_t>("it_hi");
  std::int64_t s = std::max<std::int64_t>(1, hi - lo);
  if (single(c)) s = std::max<std::int64_t>(2, (5 * hi + 99) / 100);
  if (c.func() == "gmres") s = std::max<std::int64_t>(s, (3 * hi + 99) / 100);
  return it >= lo - s && it <= hi + s;
}

void check_solve(const case_t& c, const problem& p, pre M, const config& cf, const std::vector<outcome>& outs,
                 const outcome& ref) {
  INFO("case " << c.name() << ", M " << std::string(pre_name(M)) << ", " << cf.name());
  REQUIRE(!outs.empty());
  const outcome& o = outs[0];
  for (const outcome& q : outs) {  // the ranks stay in step
    CHECK(q.info == o.info);
    CHECK(q.iterations == o.iterations);
    CHECK(q.callbacks == o.callbacks);
    CHECK(q.history == o.history);
  }
  const bool b0 = !c.has("x_ref");
  const std::int64_t info = c.get<std::int64_t>("info");
  const bool scipy_ref = M != pre::ilu;
  const bool one_rank = cf.self || cf.nranks == 1;
  // info: SciPy's (the one-GPU solver's for block ILU, which converges where the case does).
  CHECK(o.info == (scipy_ref ? info : ref.info));
  if (!scipy_ref) CHECK(o.info == info);
  // Iterations and callbacks.
  CHECK(o.callbacks == o.iterations);
  if (b0) {
    CHECK(o.iterations == 0);
    CHECK(o.history.size() == (c.func() == "gmres" ? 1u : 0u));
    CHECK(norm2(o.x) == 0.0);
    return;
  }
  // History: the starting residual and one entry an iteration; bicgstab's early end (norm(s) below the
  // tolerance in the middle of an iteration, which does not count) adds norm(s), as the one-GPU solver.
  const std::size_t hs = static_cast<std::size_t>(o.iterations) + 1;
  if (c.func() == "bicgstab") CHECK((o.history.size() == hs || o.history.size() == hs + 1));
  else CHECK(o.history.size() == hs);
  const bool compare_one_gpu = scipy_ref || one_rank;
  if (compare_one_gpu && c.func() != "cg" && o.iterations == ref.iterations)
    CHECK(o.history.size() == ref.history.size());
  if (compare_one_gpu) {
    CHECK_MESSAGE(std::abs(o.iterations - ref.iterations) <= rounding_slack(c),
                  "iterations " << o.iterations << " vs one-GPU " << ref.iterations);
    if (info > 0) CHECK(o.iterations == ref.iterations);  // the limits are exact
  } else {
    MESSAGE("case " << c.name() << ", block_jacobi_ilu0 on " << cf.name() << ": " << o.iterations
                    << " iterations (one rank: " << ref.iterations << ")");
  }
  if (scipy_ref)
    CHECK_MESSAGE(near_scipy(c, o.iterations), "iterations " << o.iterations << " vs SciPy "
                                                              << c.get<std::int64_t>("callbacks") << " ("
                                                              << c.get<std::int64_t>("it_lo") << ".."
                                                              << c.get<std::int64_t>("it_hi") << ")");
  // x: against the one-GPU x where both took as many iterations (rounding only apart).
  if (compare_one_gpu && o.iterations == ref.iterations)
    CHECK_MESSAGE(rel_diff(o.x, ref.x) <= c.get<double>("xtol_same"),
                  "x differs from the one-GPU x by " << rel_diff(o.x, ref.x));
  const double bnorm = norm2(p.b_host);
  const double thr = std::max(c.get_or<double>("solver_rtol", 1e-5), c.get_or<double>("solver_atol", 0.0) / bnorm);
  if (info > 0 || c.get<double>("resid") > thr) return;  // SciPy did not converge either (maxiter 0)
  // x: the true residual meets the tolerance (recursive and true residuals of cg / bicgstab agree to
  // rounding; float32 loosens it tenfold), and the error against spsolve's x is within cond * that.
  const double res = true_residual(c, p, o.x);
  const double res_tol = (single(c) ? 10.0 : 1.01) * thr + (single(c) ? 1e-5 : 1e-13);
  CHECK_MESSAGE(res <= res_tol, "relative residual " << res << " above " << res_tol);
  const std::vector<double> xref = host_doubles(c.array("x_ref"));
  const double err = rel_diff(o.x, xref), bound = c.get<double>("cond") * res_tol;
  if (bound < 1) CHECK_MESSAGE(err <= bound, "error " << err << " against spsolve's x, bound cond * tol " << bound);
  // gmres: the callback's pr_norm values are the history's, and SciPy's to rounding (pr_norm at the
  // rounding floor has no digits to compare).
  if (c.func() == "gmres") {
    REQUIRE(o.prn.size() == static_cast<std::size_t>(o.iterations));
    for (std::size_t i = 0; i < o.prn.size(); ++i) CHECK(o.prn[i] == o.history[i + 1]);
    if (scipy_ref && c.has("prnorm")) {
      const std::vector<double> sp = host_doubles(c.array("prnorm"));
      const std::size_t k = std::min(sp.size(), o.prn.size());
      const double tol = single(c) ? 1e-2 : 1e-6, floor = single(c) ? 1e-6 : 1e-14;
      for (std::size_t i = 0; i < k; ++i)
        if (sp[i] > floor)
          CHECK_MESSAGE(std::abs(o.prn[i] - sp[i]) <= tol * sp[i],
                        "pr_norm[" << i << "] " << o.prn[i] << " vs SciPy " << sp[i]);
    }
  }
}

/// The configurations a case runs on: the main sweep on all, the option cases on fewer.
std::vector<config> configs_of(const case_t& c) {
  const std::string name = c.name();
  const bool main_sweep = name.rfind("cg_", 0) == 0 || name.rfind("bicgstab_", 0) == 0 || name.rfind("gmres_", 0) == 0;
  const bool option_case = name.find("_x0") != std::string::npos || name.find("_rtol") != std::string::npos ||
                           name.find("_atol") != std::string::npos || name.find("_restart") != std::string::npos ||
                           name.find("_maxiter") != std::string::npos || name.find("_b0") != std::string::npos ||
                           name.find("_f32") != std::string::npos;
  if (main_sweep && !option_case)
    return {{.self = true}, {.nranks = 1}, {.nranks = 2}, {.nranks = 3, .by_nnz = true}, {.nranks = 4}};
  return {{.self = true}, {.nranks = 3}};
}

}  // namespace

TEST_CASE("distributed cg, bicgstab, gmres: SciPy's and the one-GPU solvers' iterations on 1 to 4 ranks") {
  std::size_t unit = 0;
  for (const case_t& c : t::cases(kModule)) {
    if (c.expects_error()) continue;
    if (!t::in_shard(unit++)) continue;
    const problem p = problem_of(c);
    std::vector<pre> pres{c.get<std::string>("M") == "jacobi" ? pre::jacobi : pre::none};
    if (c.get_or<bool>("ilu", false)) pres.push_back(pre::ilu);
    for (pre M : pres) {
      const outcome ref = one_gpu(c, p, M);
      for (const config& cf : configs_of(c)) {
        const auto outs = run_config(cf, [&](const dist::communicator& comm, bool by_nnz) {
          return solve_rank(comm, c, p, M, by_nnz);
        });
        check_solve(c, p, M, cf, outs, ref);
      }
    }
  }
}

TEST_CASE("distributed solvers: SciPy's errors (atol < 0)") {
  for (const case_t& c : t::cases(kModule)) {
    if (!c.expects_error()) continue;
    INFO("case " << c.name());
    const problem p = problem_of(c);
    for (const config& cf : {config{.self = true}, config{.nranks = 2}}) {
      t::check_error(c, [&] {
        run_config(cf, [&](const dist::communicator& comm, bool by_nnz) {
          return solve_rank(comm, c, p, pre::none, by_nnz);
        });
      });
    }
  }
}

namespace {

/// The 1-D Laplacian tridiag(-1, 2, -1) of order n (float64) with diagonal entry `zero_row` set to 0
/// (none when negative).
sparse::csr_matrix laplacian_1d(std::int64_t n, std::int64_t zero_row = -1) {
  std::vector<std::int32_t> ptr{0}, ind;
  std::vector<double> val;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min<std::int64_t>(n - 1, i + 1); ++j) {
      ind.push_back(static_cast<std::int32_t>(j));
      val.push_back(i == j ? (i == zero_row ? 0.0 : 2.0) : -1.0);
    }
    ptr.push_back(static_cast<std::int32_t>(ind.size()));
  }
  sparse::csr_matrix A(asarray(val), asarray(ind), asarray(ptr), sparse::shape2{n, n});
  device_synchronize();
  return A;
}

}  // namespace

TEST_CASE("distributed solvers: argument errors on every rank") {
  const std::int64_t n = 40;
  const sparse::csr_matrix L = laplacian_1d(n);
  const ndarray b64 = ones({n}, dtype::float64), b32 = ones({n}, dtype::float32);
  device_synchronize();
  // A fresh group each time: run_ranks aborts the group's communicators when a rank throws.
  auto on_ranks = [&](const std::function<void(const dist::csr_matrix&, const dist::vector&)>& fn) {
    const std::vector<dist::communicator> comms = dist::local_group(2);
    dist::run_ranks(comms, [&](const dist::communicator& comm) {
      const dist::csr_matrix A = dist::csr_matrix::from_global(comm, dist::partition_rows(n, 2), L);
      const dist::vector b = dist::vector::from_global(comm, A.partition(), b64);
      fn(A, b);
    });
  };
  // b of another partition (and x0, M of another partition).
  const dist::row_partition other(std::vector<std::int64_t>{0, 7, n});
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector&) {
                    const dist::vector b = dist::vector::from_global(A.comm(), other, b64);
                    dist::cg(A, b);
                  }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
                    dist::gmres(A, b, {.x0 = dist::vector::from_global(A.comm(), other, b64)});
                  }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
                    const dist::csr_matrix B = dist::csr_matrix::from_global(A.comm(), other, L);
                    dist::bicgstab(A, b, {.M = dist::jacobi(B)});
                  }),
                  value_error);
  // b of another dtype than A: type_error.
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector&) {
                    dist::cg(A, dist::vector::from_global(A.comm(), A.partition(), b32));
                  }),
                  type_error);
  // atol < 0, rtol NaN, maxiter < 0, restart < 1, gmres maxiter < 1.
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) { dist::cg(A, b, {.atol = -1.0}); }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
                    dist::bicgstab(A, b, {.rtol = std::nan("")});
                  }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) { dist::cg(A, b, {.maxiter = -1}); }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
                    dist::gmres(A, b, {.restart = 0});
                  }),
                  value_error);
  CHECK_THROWS_AS(on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
                    dist::gmres(A, b, {.maxiter = 0});
                  }),
                  value_error);
  // An empty preconditioner.
  CHECK_THROWS_AS(dist::preconditioner().apply(dist::vector()), value_error);
  // And the same set-up solves.
  on_ranks([&](const dist::csr_matrix& A, const dist::vector& b) {
    const dist::solve_result r = dist::cg(A, b, {.rtol = 1e-10});
    if (r.info != 0) throw runtime_error("cg on the 1-D Laplacian did not converge");
  });
}

TEST_CASE("distributed jacobi: a zero diagonal entry raises on the rank that owns it, naming the global row") {
  const std::int64_t n = 30, zero_row = 17;
  const sparse::csr_matrix L = laplacian_1d(n, zero_row);
  const std::vector<dist::communicator> comms = dist::local_group(3);
  std::vector<std::string> errors(3);
  dist::run_ranks(comms, [&](const dist::communicator& comm) {
    const dist::csr_matrix A = dist::csr_matrix::from_global(comm, dist::partition_rows(n, 3), L);
    try {
      dist::jacobi(A);
    } catch (const value_error& e) {
      errors[static_cast<std::size_t>(comm.rank())] = e.what();
    }
  });
  // Rows [0, 10), [10, 20), [20, 30): rank 1 owns row 17.
  CHECK(errors[0].empty());
  CHECK(errors[2].empty());
  CHECK(errors[1].find("row 17") != std::string::npos);
  CHECK(errors[1].find("cusci::distributed::jacobi") != std::string::npos);
}

TEST_CASE("distributed preconditioners: apply is rank-local and equals the one-GPU operators") {
  const case_t* conv = nullptr;
  for (const case_t& c : t::cases(kModule))
    if (c.name() == "bicgstab_convdiff_none") conv = &c;
  REQUIRE(conv != nullptr);
  const problem p = problem_of(*conv);
  const std::vector<double> z_jac = host_doubles(sl::jacobi(p.A).matvec(p.b));
  const std::vector<double> z_ilu = host_doubles(sl::ilu0(p.A).matvec(p.b));
  for (int nranks : {1, 3}) {
    INFO(nranks << " ranks");
    std::vector<double> got_jac, got_ilu;
    const std::vector<dist::communicator> comms = dist::local_group(nranks);
    dist::run_ranks(comms, [&](const dist::communicator& comm) {
      const dist::csr_matrix A = dist::csr_matrix::from_global(comm, dist::partition_rows(p.n, nranks), p.A);
      const dist::vector b = dist::vector::from_global(comm, A.partition(), p.b);
      const dist::preconditioner J = dist::jacobi(A), I = dist::block_jacobi_ilu0(A);
      const ndarray zj = dist::gather(J.apply(b)), zi = dist::gather(I.apply(b));
      if (comm.rank() == 0) {
        got_jac = host_doubles(zj);
        got_ilu = host_doubles(zi);
      }
    });
    CHECK(rel_diff(got_jac, z_jac) <= 1e-15);
    // One rank: block ILU(0) is ILU(0) of A. More ranks: the blocks' ILU(0), a different operator.
    if (nranks == 1) CHECK(rel_diff(got_ilu, z_ilu) <= 1e-13);
    else CHECK(rel_diff(got_ilu, z_ilu) > 0.0);
  }
}

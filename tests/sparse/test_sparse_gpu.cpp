// GPU tests of cusci::sparse against SciPy goldens (tests/golden/gen_sparse.py): COO/CSR construction
// and conversion, SpMV/SpMM over value and index dtypes and layouts, Matrix Market files, and cg.

#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;
namespace sl = cusci::sparse::linalg;

namespace {

ndarray dev(const std::string& name, std::optional<dtype> dt = {}) {
  host_array h = t::golden("sparse", name);
  return asarray(dt ? h.astype(*dt) : h);
}

std::vector<t::golden_case> rows_of(const std::string& func) { return t::cases("sparse", func); }

sparse::shape2 shape_of(const t::golden_case& r) {
  return {r.get<std::int64_t>("rows"), r.get<std::int64_t>("cols")};
}

std::string example_file(const std::string& f) { return std::string(CUSCI_EXAMPLE_DATA) + "/" + f; }
// A real matrix of examples/data.
std::string matrix_file(const std::string& f) { return example_file(f); }

// ||a - b|| <= tol * ||b|| in float64.
void check_relnorm(const ndarray& a, const host_array& b, double tol) {
  host_array ha = to_host(a).astype(dtype::float64), hb = b.astype(dtype::float64);
  REQUIRE(ha.size() == hb.size());
  double num = 0, den = 0;
  for (std::int64_t i = 0; i < ha.size(); ++i) {
    const double d = ha.data_as<double>()[i] - hb.data_as<double>()[i];
    num += d * d;
    den += hb.data_as<double>()[i] * hb.data_as<double>()[i];
  }
  CHECK_MESSAGE(std::sqrt(num) <= tol * std::sqrt(den) + 1e-300,
                "relative error " << std::sqrt(num) / std::sqrt(den) << " > " << tol);
}

}  // namespace

TEST_CASE("coo_matrix from triplets: tocsr / toarray / tocoo vs SciPy") {
  for (const auto& r : rows_of("coo_tocsr")) {
    const std::string c = r.name();
    const dtype vt = dtype_from_string(r.get<std::string>("dtype"));
    const double tol = r.rtol();
    for (dtype in_it : {dtype::int32, dtype::int64}) {
      for (dtype it : {dtype::int32, dtype::int64}) {
        CAPTURE(c);
        CAPTURE(dtype_name(in_it));
        CAPTURE(dtype_name(it));
        sparse::coo_matrix A(dev(c + "_data", vt), dev(c + "_row", in_it), dev(c + "_col", in_it), shape_of(r), it);
        CHECK(A.index_dtype() == it);
        CHECK(A.dtype() == vt);
        CHECK(A.nnz() == t::golden("sparse", c + "_data").size());
        sparse::csr_matrix C = A.tocsr();
        CHECK(C.shape() == shape_of(r));
        CHECK(C.index_dtype() == it);
        t::check_allclose(C.indptr(), t::golden("sparse", c + "_indptr").astype(it), 0, 0);
        t::check_allclose(C.indices(), t::golden("sparse", c + "_indices").astype(it), 0, 0);
        t::check_allclose(C.data(), t::golden("sparse", c + "_csrdata"), tol, tol);
        if (r.get<bool>("dense")) {
          t::check_allclose(A.toarray(), t::golden("sparse", c + "_dense"), tol, tol);
          t::check_allclose(C.toarray(), t::golden("sparse", c + "_dense"), tol, tol);
        }
        // csr -> coo -> csr is the identity on canonical matrices.
        sparse::coo_matrix B = C.tocoo();
        CHECK(B.nnz() == C.nnz());
        sparse::csr_matrix C2 = B.tocsr();
        t::check_allclose(C2.indptr(), to_host(C.indptr()), 0, 0);
        t::check_allclose(C2.indices(), to_host(C.indices()), 0, 0);
        t::check_allclose(C2.data(), to_host(C.data()), 0, 0);
        // The validated csr constructor accepts SciPy's arrays.
        sparse::csr_matrix C3(dev(c + "_csrdata", vt), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r), it);
        CHECK(C3.nnz() == C.nnz());
      }
    }
  }
}

TEST_CASE("coo_matrix from strided views and the default index dtype") {
  const std::string c = "coo_dup_f64";
  ndarray d = dev(c + "_data"), row = dev(c + "_row"), col = dev(c + "_col");
  // Interleave into (n, 2) arrays and take column 0: a strided view of the same values.
  auto strided = [](const ndarray& a) {
    // Built on the host, then viewed on the device (public API only).
    host_array h = to_host(a), ht(a.dtype(), {a.size(), 2});
    for (std::int64_t i = 0; i < a.size(); ++i)
      std::memcpy(static_cast<char*>(ht.data()) + 2 * i * a.itemsize(),
                  static_cast<const char*>(h.data()) + i * a.itemsize(), a.itemsize());
    return asarray(ht)[{slice{}, std::int64_t{0}}];
  };
  sparse::coo_matrix A(strided(d), strided(row), strided(col), {6, 5});
  CHECK(A.index_dtype() == dtype::int32);
  t::check_allclose(A.tocsr().data(), t::golden("sparse", c + "_csrdata"), 1e-13, 1e-13);
  t::check_allclose(A.toarray(), t::golden("sparse", c + "_dense"), 1e-13, 1e-13);
}

TEST_CASE("constructors: out-of-range indices and bad indptr throw value_error") {
  ndarray d = asarray(std::vector<double>{1, 2, 3});
  ndarray r = asarray(std::vector<std::int64_t>{0, 1, 3});
  ndarray c = asarray(std::vector<std::int64_t>{0, 1, 2});
  CHECK_THROWS_WITH_AS(sparse::coo_matrix(d, r, c, {3, 3}), doctest::Contains("axis 0 index 3 exceeds matrix dimension 3"),
                       value_error);
  CHECK_THROWS_WITH_AS(sparse::coo_matrix(d, c, r, {3, 3}),
                       doctest::Contains("axis 1 index 3 exceeds matrix dimension 3"), value_error);
  ndarray neg = asarray(std::vector<std::int32_t>{0, -1, 2});
  CHECK_THROWS_WITH_AS(sparse::coo_matrix(d, neg, c, {3, 3}), doctest::Contains("negative axis 0 index: -1"),
                       value_error);
  ndarray ind = asarray(std::vector<std::int32_t>{0, 1, 2});
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d, ind, asarray(std::vector<std::int32_t>{1, 1, 2, 3}), {3, 3}),
                       doctest::Contains("index pointer should start with 0"), value_error);
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d, ind, asarray(std::vector<std::int32_t>{0, 2, 1, 3}), {3, 3}),
                       doctest::Contains("non-decreasing"), value_error);
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d, ind, asarray(std::vector<std::int32_t>{0, 1, 2, 4}), {3, 3}),
                       doctest::Contains("Last value of index pointer"), value_error);
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d, ind, asarray(std::vector<std::int32_t>{0, 1, 2, 3}), {3, 2}),
                       doctest::Contains("indices must be < 2"), value_error);
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d, neg, asarray(std::vector<std::int32_t>{0, 1, 2, 3}), {3, 3}),
                       doctest::Contains("indices must be >= 0"), value_error);
  // As SciPy, indptr[-1] < len(data) uses the first indptr[-1] entries.
  sparse::csr_matrix P(d, ind, asarray(std::vector<std::int32_t>{0, 1, 2, 2}), {3, 3});
  CHECK(P.nnz() == 2);
  // int64 indices beyond int32 are rejected before truncation could hide them.
  ndarray big = asarray(std::vector<std::int64_t>{0, 1, 4294967296LL});
  CHECK_THROWS_AS(sparse::coo_matrix(d, c, big, {3, 3}, dtype::int32), value_error);
}

TEST_CASE("SpMV / SpMM vs SciPy over value dtypes, index dtypes and layouts") {
  for (const auto& r : rows_of("spmv")) {
    const std::string c = r.name();
    for (dtype it : {dtype::int32, dtype::int64}) {
      for (dtype vt : {dtype::float32, dtype::float64}) {
        CAPTURE(c);
        CAPTURE(dtype_name(it));
        CAPTURE(dtype_name(vt));
        const std::string tag = vt == dtype::float32 ? "f32" : "f64";
        const double tol = vt == dtype::float32 ? 2e-5 : 1e-12;
        sparse::csr_matrix A(dev(c + "_data", vt), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r), it);
        ndarray x = dev(c + "_x", vt), X = dev(c + "_X", vt);
        host_array y = t::golden("sparse", c + "_y_" + tag), Y = t::golden("sparse", c + "_Y_" + tag);
        t::check_allclose(A.dot(x), y, tol, tol);
        t::check_allclose(A * x, y, tol, tol);
        t::check_allclose(A.dot(x), y, tol, tol);  // second call: cached descriptors
        t::check_allclose(A.dot(X), Y, tol, tol);
        t::check_allclose(A.dot(X.copy(order::F)), Y, tol, tol);  // F-order x
        // x[:, 1:2] (strided [n, 1]) gives Y[:, 1:2].
        ndarray col1 = X[{slice{}, slice{1, 2}}];
        host_array Yc = to_host(asarray(Y)[{slice{}, slice{1, 2}}]);
        t::check_allclose(A.dot(col1), Yc, tol, tol);
        t::check_allclose(A.dot(X[{slice{}, std::int64_t{1}}]), to_host(asarray(Y)[{slice{}, std::int64_t{1}}]), tol,
                          tol);
        // COO gives the same.
        t::check_allclose(A.tocoo().dot(x), y, tol, tol);
        // A second stream reuses nothing from the first (its own plan).
        {
          cusci::stream s2(true);
          cusci::stream_guard g(s2);
          t::check_allclose(A.dot(x), y, tol, tol);
        }
      }
      // float32 matrix, float64 vector -> float64 (NumPy promotion).
      sparse::csr_matrix A32(dev(c + "_data", dtype::float32), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r),
                             it);
      t::check_allclose(A32.dot(dev(c + "_x")), t::golden("sparse", c + "_y_mixed"), 1e-12, 1e-12);
      // integer x is converted as NumPy would (float64 matrix @ int64 vector -> float64).
      sparse::csr_matrix A64(dev(c + "_data"), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r), it);
      CHECK(A64.dot(zeros({shape_of(r)[1]}, dtype::int64)).dtype() == dtype::float64);
    }
  }
}

// Internal switch of cusci::sparse (sparse/src/detail.hpp): 0 automatic, 1 cuSPARSE, 2 CSR-stream kernel,
// 3 and 4 the CSR-stream kernel with other tuning parameters, 5 the CSR-vector kernel.
namespace cusci::sparse::detail {
void set_spmv_backend(int backend);
}  // namespace cusci::sparse::detail

TEST_CASE("SpMV with each kernel (cuSPARSE, CSR-stream, CSR-vector) vs SciPy") {
  struct restore {
    ~restore() { sparse::detail::set_spmv_backend(0); }
  } guard;
  for (int backend : {1, 2, 3, 4, 5}) {
    sparse::detail::set_spmv_backend(backend);
    for (const auto& r : rows_of("spmv")) {
      const std::string c = r.name();
      for (dtype it : {dtype::int32, dtype::int64}) {
        for (dtype vt : {dtype::float32, dtype::float64}) {
          CAPTURE(backend);
          CAPTURE(c);
          CAPTURE(dtype_name(it));
          CAPTURE(dtype_name(vt));
          const double tol = vt == dtype::float32 ? 2e-5 : 1e-12;
          sparse::csr_matrix A(dev(c + "_data", vt), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r), it);
          host_array y = t::golden("sparse", c + "_y_" + std::string(vt == dtype::float32 ? "f32" : "f64"));
          t::check_allclose(A.dot(dev(c + "_x", vt)), y, tol, tol);
          // x as a strided view (column 1 of X) against Y[:, 1].
          host_array Y1 = to_host(asarray(t::golden("sparse", c + "_Y_" + std::string(vt == dtype::float32 ? "f32"
                                                                                                            : "f64")))
                                      [{slice{}, std::int64_t{1}}]);
          t::check_allclose(A.dot(dev(c + "_X", vt)[{slice{}, std::int64_t{1}}]), Y1, tol, tol);
        }
      }
    }
  }
}

TEST_CASE("dot: dimension mismatch and bad x") {
  const auto r = rows_of("spmv").front();
  const std::string c = r.name();
  sparse::csr_matrix A(dev(c + "_data"), dev(c + "_indices"), dev(c + "_indptr"), shape_of(r));
  const std::int64_t n = shape_of(r)[1];
  CHECK_THROWS_WITH_AS(A.dot(zeros({n + 1})), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_AS(A.dot(zeros({n + 1, 2})), value_error);
  CHECK_THROWS_AS(A.dot(zeros({n, 2, 2})), value_error);
  CHECK_THROWS_AS(A.dot(zeros({})), value_error);   // 0-d: SciPy's scalar multiplication, not a product
  CHECK_THROWS_AS(A.dot(zeros({0})), value_error);  // n = 5 columns
  CHECK_THROWS_AS(A.tocoo().dot(zeros({n + 1})), value_error);
  CHECK_THROWS_AS(A.tocsc().dot(zeros({n - 1, 3})), value_error);
  // A complex x into a real matrix is no error: NumPy's promotion gives a complex128 result
  // (SciPy: csr_matrix(float64) @ complex128 vector), whose real part is A @ real(x).
  const ndarray yc = A.dot(dev(c + "_x").astype(dtype::complex128));
  CHECK(yc.dtype() == dtype::complex128);
  t::check_allclose(cusci::real(yc), t::golden("sparse", c + "_y_f64"), 1e-12, 1e-12);
  t::check_allclose(cusci::imag(yc), to_host(zeros({shape_of(r)[0]})), 0, 0);
}

TEST_CASE("mmread of real matrices -> SpMV vs SciPy") {
  for (const auto& r : rows_of("mmread_spmv")) {
    const std::string c = r.name();
    CAPTURE(c);
    sparse::coo_matrix A = io::mmread(matrix_file(r.get<std::string>("matrix")));
    CHECK(A.shape() == shape_of(r));
    CHECK(A.dtype() == dtype::float64);
    CHECK(A.index_dtype() == dtype::int32);
    t::check_allclose(A.row(), t::golden("sparse", c + "_row").astype(dtype::int32), 0, 0);
    t::check_allclose(A.data(), t::golden("sparse", c + "_data"), 0, 0);
    t::check_allclose(A.tocsr().dot(dev(c + "_x")), t::golden("sparse", c + "_y"), 1e-12, 1e-12);
  }
}

TEST_CASE("mmread of examples/data/bcsstk16.mtx.gz -> SpMV vs SciPy") {
  const std::string p = example_file("bcsstk16.mtx.gz");
  if (!std::filesystem::exists(p)) {
    MESSAGE("skipped: " << p << " not present");
    return;
  }
  sparse::csr_matrix A = io::mmread(p).tocsr();
  CHECK(A.shape() == sparse::shape2{4884, 4884});
  t::check_allclose(A.dot(dev("mm_bcsstk16_x")), t::golden("sparse", "mm_bcsstk16_y"), 1e-12, 1e-9);
}

TEST_CASE("mmwrite -> mmread round trip on the device") {
  sparse::coo_matrix A = io::mmread(matrix_file("west0479.mtx"));
  const std::string p = "/tmp/cusci_sparse_gpu_" + std::to_string(static_cast<long>(::getpid())) + ".mtx";
  io::mmwrite(p, A, {.comment = "round trip"});
  sparse::coo_matrix B = io::mmread(p);
  t::check_allclose(B.data(), to_host(A.data()), 0, 0);
  t::check_allclose(B.row(), to_host(A.row()), 0, 0);
  t::check_allclose(B.col(), to_host(A.col()), 0, 0);
  // csr overload, symmetric matrix written as symmetric: same canonical CSR after reading back.
  sparse::csr_matrix S = io::mmread(matrix_file("1138_bus.mtx")).tocsr();
  io::mmwrite(p, S, {.symmetry = io::mm_symmetry::symmetric});
  CHECK(io::mmread_host(p).symmetry == io::mm_symmetry::symmetric);
  sparse::csr_matrix S2 = io::mmread(p).tocsr();
  t::check_allclose(S2.indptr(), to_host(S.indptr()), 0, 0);
  t::check_allclose(S2.data(), to_host(S.data()), 0, 0);
  std::remove(p.c_str());
}

TEST_CASE("cg vs SciPy: iterations, info and solution") {
  for (const auto& r : rows_of("cg")) {
    const std::string c = r.name();
    CAPTURE(c);
    const std::string mat = r.get<std::string>("matrix");
    const dtype vt = dtype_from_string(r.get<std::string>("dtype"));
    if (mat == "bcsstk16.mtx.gz" && !std::filesystem::exists(example_file(mat))) {
      MESSAGE("skipped: bcsstk16.mtx.gz not present");
      continue;
    }
    sparse::csr_matrix A = [&]() {
      if (mat == "poisson30")
        return sparse::csr_matrix(dev("poisson30_data", vt), dev("poisson30_indices"), dev("poisson30_indptr"),
                                  shape_of(r));
      std::string p = mat == "bcsstk16.mtx.gz" ? example_file(mat) : matrix_file(mat);
      sparse::csr_matrix B = io::mmread(p).tocsr();
      return sparse::csr_matrix(B.data().astype(vt), B.indices(), B.indptr(), B.shape());
    }();
    sl::cg_options o;
    o.rtol = r.get<double>("solver_rtol");
    if (r.has("maxiter")) o.maxiter = r.get<std::int64_t>("maxiter");
    if (r.get_or<std::string>("M", "none") == "jacobi") o.M = sl::jacobi(A);
    if (r.get<bool>("x0")) o.x0 = dev(c + "_x0");
    std::int64_t calls = 0;
    o.callback = [&](const ndarray& xk) {
      ++calls;
      CHECK(xk.shape() == shape_t{shape_of(r)[0]});
    };
    sl::cg_result res = sl::cg(A, dev(c + "_b"), o);
    const std::int64_t iters = r.get<std::int64_t>("iters"), info = r.get<std::int64_t>("info");
    CHECK(res.x.dtype() == vt);
    CHECK(res.x.shape() == shape_t{shape_of(r)[0]});
    CHECK(calls == res.iterations);
    if (info > 0) {
      CHECK(res.info == info);
      CHECK(res.iterations == iters);
    } else {
      CHECK(res.info == 0);
      const std::int64_t slack = std::max<std::int64_t>(2, iters / 30);
      CHECK_MESSAGE(std::abs(res.iterations - iters) <= slack, "iterations " << res.iterations << " vs SciPy " << iters);
    }
    check_relnorm(res.x, t::golden("sparse", c + "_x"), r.rtol() * (info > 0 ? 1.0 : 100.0));
    // A as a generic linear_operator (user matvec) gives the same answer.
    if (mat == "poisson30") {
      sl::linear_operator L(A.shape(), A.dtype(), [A](const ndarray& v) { return A.dot(v); });
      sl::cg_result r2 = sl::cg(L, dev(c + "_b"), o);
      CHECK(std::abs(r2.iterations - iters) <= 2);
      check_relnorm(r2.x, t::golden("sparse", c + "_x"), r.rtol() * 100.0);
      // A CSR M (not recognized as diagonal) goes through the general-preconditioner path.
      if (r.get_or<std::string>("M", "none") == "jacobi") {
        const std::int64_t n = A.shape()[0];
        std::vector<std::int32_t> idx(n), ptr(n + 1);
        for (std::int64_t i = 0; i <= n; ++i) {
          if (i < n) idx[i] = static_cast<std::int32_t>(i);
          ptr[i] = static_cast<std::int32_t>(i);
        }
        sparse::csr_matrix D(*sl::jacobi(A).diagonal_values(), asarray(idx), asarray(ptr), A.shape());
        sl::cg_options o2 = o;
        o2.M = D;
        sl::cg_result r3 = sl::cg(A, dev(c + "_b"), o2);
        CHECK(std::abs(r3.iterations - iters) <= 2);
        check_relnorm(r3.x, t::golden("sparse", c + "_x"), r.rtol() * 100.0);
      }
    }
  }
}

TEST_CASE("cg: b == 0, b as [n, 1], maxiter <= 0, float32 b with float64 A") {
  sparse::csr_matrix A(dev("poisson30_data"), dev("poisson30_indices"), dev("poisson30_indptr"), {900, 900});
  // SciPy returns (b, 0) for b == 0 even with a nonzero x0.
  sparse::csr_matrix bus = io::mmread(matrix_file("1138_bus.mtx")).tocsr();
  sl::cg_result z = sl::cg(bus, dev("cg_1138_zero_b_b"), {.x0 = ones({1138})});
  CHECK(z.info == 0);
  t::check_allclose(z.x, t::golden("sparse", "cg_1138_zero_b_x"), 0, 0);
  ndarray b = dev("cg_poisson_f64_b");
  sl::cg_result col = sl::cg(A, b.reshape({900, 1}), {.rtol = 1e-8});
  CHECK(col.x.shape() == shape_t{900});
  check_relnorm(col.x, t::golden("sparse", "cg_poisson_f64_x"), 1e-6);
  sl::cg_result none = sl::cg(A, b, {.maxiter = 0});
  CHECK(none.info == 0);  // SciPy: the loop never runs and returns (x0, maxiter) = (0, 0)
  CHECK(none.iterations == 0);
  sl::cg_result f = sl::cg(A, b.astype(dtype::float32), {.maxiter = 3});
  CHECK(f.x.dtype() == dtype::float64);
  CHECK(f.info == 3);
}

TEST_CASE("default constructors give empty (0, 0) float64 matrices; .T() is sparse::transpose") {
  const sparse::coo_matrix c;
  const sparse::csr_matrix r;
  const sparse::csc_matrix k;
  const sparse::dia_matrix d;
  const sparse::bsr_matrix b;
  for (const sparse::spmatrix& m : {sparse::spmatrix(c), sparse::spmatrix(r), sparse::spmatrix(k), sparse::spmatrix(d),
                                    sparse::spmatrix(b)}) {
    CHECK(m.shape() == sparse::shape2{0, 0});
    CHECK(m.nnz() == 0);
    CHECK(m.dtype() == dtype::float64);
    CHECK(m.toarray().size() == 0);
  }
  // A 3 x 4 matrix with entries at (0, 1), (2, 3), (1, 0).
  const sparse::coo_matrix A(asarray(std::vector<double>{1.0, 2.0, 3.0}),
                             {asarray(std::vector<std::int32_t>{0, 2, 1}), asarray(std::vector<std::int32_t>{1, 3, 0})},
                             {.shape = sparse::shape2{3, 4}});
  const ndarray dense = A.toarray();
  const ndarray want = dense.T();
  const sparse::csr_matrix R = A.tocsr();
  const sparse::csc_matrix RT = R.T();
  const sparse::csr_matrix RTT = RT.T();
  const sparse::coo_matrix AT = A.T();
  CHECK(RT.shape() == sparse::shape2{4, 3});
  CHECK(to_host(RT.toarray()).to_vector<double>() == to_host(want.copy()).to_vector<double>());
  CHECK(to_host(RTT.toarray()).to_vector<double>() == to_host(dense).to_vector<double>());
  CHECK(to_host(AT.toarray()).to_vector<double>() == to_host(want.copy()).to_vector<double>());
  CHECK(to_host(A.todia().T().toarray()).to_vector<double>() == to_host(want.copy()).to_vector<double>());
  CHECK(to_host(A.tobsr().T().toarray()).to_vector<double>() == to_host(want.copy()).to_vector<double>());
  CHECK(to_host(sparse::spmatrix(A).T().toarray()).to_vector<double>() == to_host(want.copy()).to_vector<double>());
}

// Distributed vectors and the row-partitioned CSR matrix (cusci/distributed/vector.hpp, matrix.hpp)
// against SciPy (tests/golden/gen_distributed_matrix.py): for every matrix, 1 to 4 ranks of a local
// group and the self communicator, each construction path (from_global with equal rows and with equal
// entries, from_rows, read_matrix_market), float32 and float64: the halo plan equals plan_halos', the
// gathered product A.dot(x) equals SciPy's A @ x, dot, norm and the diagonal equal NumPy's. Bad input:
// non-square matrices, partitions of another size or rank count, vectors of another partition or
// communicator, missing and malformed Matrix Market files.
//
// Each rank runs on its own thread (run_ranks) and stores what it computed; the checks run on the test's
// thread afterwards.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/matrix.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/distributed/vector.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/matrix.hpp"
#include "testing.hpp"

namespace t = cusci::testing;
namespace dist = cusci::distributed;
using namespace cusci;

namespace {

const std::string kModule = "distributed_matrix";

template <class T>
std::vector<T> vec(const host_array& a) {
  return a.astype(dtype_of<T>).template to_vector<T>();
}

/// One golden matrix with its references.
struct golden_matrix {
  std::string name;
  std::int64_t n = 0, canonical_nnz = 0;
  std::vector<std::int64_t> indptr;
  std::vector<std::int32_t> indices;
  std::vector<double> data;
  host_array x, y, y32, diag;
  double rtol = 0, atol = 0, rtol32 = 0, atol32 = 0, xy = 0, xy32 = 0, dot_atol = 0, norm = 0, norm32 = 0;
  std::string mtx;  // path of a Matrix Market file holding the matrix, or empty

  explicit golden_matrix(const t::golden_case& c)
      : name(c.name()), n(c.get<std::int64_t>("n")), canonical_nnz(c.get<std::int64_t>("canonical_nnz")),
        indptr(vec<std::int64_t>(c.array("indptr"))), indices(vec<std::int32_t>(c.array("indices"))),
        data(vec<double>(c.array("data"))), x(c.array("x")), y(c.array("y")), y32(c.array("y32")),
        diag(c.array("diag")), rtol(c.rtol()), atol(c.atol()), rtol32(c.get<double>("rtol32")),
        atol32(c.get<double>("atol32")), xy(c.get<double>("xy")), xy32(c.get<double>("xy32")),
        dot_atol(c.get<double>("dot_atol")), norm(c.get<double>("norm")), norm32(c.get<double>("norm32")) {
    if (c.has("mtx")) {
      const std::string f = c.get<std::string>("mtx");
      mtx = c.get<std::string>("mtx_source") == "example"
                ? std::string(CUSCI_EXAMPLE_DATA) + "/" + f
                : t::golden_file(kModule, f);
    }
  }

  /// The whole matrix on the current device, from the stored arrays (duplicates and order kept).
  sparse::csr_matrix global(dtype dt) const {
    sparse::csr_matrix A(asarray(data), asarray(indices), asarray(indptr), {.shape = sparse::shape2{n, n}});
    return dt == dtype::float64 ? A : A.astype(dt);
  }

  /// Rows [b, e) with global columns, on the current device.
  sparse::csr_matrix rows(std::int64_t b, std::int64_t e, dtype dt) const {
    const std::int64_t lo = indptr[static_cast<std::size_t>(b)], hi = indptr[static_cast<std::size_t>(e)];
    std::vector<std::int64_t> p(indptr.begin() + b, indptr.begin() + e + 1);
    for (auto& v : p) v -= lo;
    std::vector<std::int32_t> ind(indices.begin() + lo, indices.begin() + hi);
    std::vector<double> val(data.begin() + lo, data.begin() + hi);
    sparse::csr_matrix R(asarray(val), asarray(ind), asarray(p), {.shape = sparse::shape2{e - b, n}});
    return dt == dtype::float64 ? R : R.astype(dt);
  }
};

/// What one rank computed.
struct rank_result {
  dist::halo h;
  dist::row_partition part;
  host_array y, y_stream, y_again, y_cast, diag;
  double xy = 0, nx = 0;
  std::int64_t local_nnz = 0;
  sparse::shape2 diag_shape{}, offd_shape{};
  bool canonical = false;
  dtype index_dtype = dtype::int64, value_dtype = dtype::int64;
};

enum class path { global_rows, global_nnz, rows, matrix_market };

const char* path_name(path p) {
  switch (p) {
    case path::global_rows: return "from_global (equal rows)";
    case path::global_nnz: return "from_global (equal entries)";
    case path::rows: return "from_rows";
    case path::matrix_market: return "read_matrix_market";
  }
  return "";
}

/// Builds the matrix on every rank the way `p` says, and runs the products and reductions.
std::vector<rank_result> run(const golden_matrix& g, const std::vector<dist::communicator>& comms, path p, dtype dt) {
  const int P = static_cast<int>(comms.size());
  std::vector<rank_result> out(static_cast<std::size_t>(P));
  // Inputs made on the test's thread, read by every rank.
  const sparse::csr_matrix A = g.global(dt);
  const ndarray x = asarray(g.x).astype(dt), yref = asarray(dt == dtype::float64 ? g.y : g.y32).astype(dt);
  const ndarray x_other = asarray(g.x);  // float64: cast to A's dtype by the product when A is float32
  const dist::row_partition equal = dist::partition_rows(g.n, P);
  synchronize();
  dist::run_ranks(comms, [&](const dist::communicator& c) {
    rank_result& r = out[static_cast<std::size_t>(c.rank())];
    dist::csr_matrix M;
    switch (p) {
      case path::global_rows: M = dist::csr_matrix::from_global(c, equal, A); break;
      case path::global_nnz: M = dist::csr_matrix::from_global(c, A); break;
      case path::rows:
        M = dist::csr_matrix::from_rows(c, equal, g.rows(equal.begin(c.rank()), equal.end(c.rank()), dt));
        break;
      case path::matrix_market: M = dist::csr_matrix::read_matrix_market(c, g.mtx); break;
    }
    r.h = M.halo_plan();
    r.part = M.partition();
    r.local_nnz = M.local_nnz();
    r.diag_shape = M.diagonal_block().shape();
    r.offd_shape = M.offdiagonal_block().shape();
    r.canonical = M.diagonal_block().has_canonical_format() && M.offdiagonal_block().has_canonical_format();
    r.index_dtype = M.diagonal_block().index_dtype();
    r.value_dtype = M.dtype();
    const dist::vector xv = dist::vector::from_global(c, M.partition(), x);
    r.y = to_host(dist::gather(M.dot(xv)));
    {
      // The next products on a non-blocking stream of the rank's own: the buffers of the product
      // before (on the default stream) must be free before they are reused.
      const cusci::stream st(true);
      const stream_guard sg(st);
      dist::vector y2 = dist::vector::zeros(c, M.partition(), M.dtype());
      M.dot(xv, y2);
      r.y_stream = to_host(dist::gather(y2));
      M.dot(xv, y2);  // into the same vector again
      r.y_again = to_host(dist::gather(y2));
    }
    // x of the other float dtype: cast to A's.
    r.y_cast = to_host(dist::gather(M.dot(dist::vector::from_global(c, M.partition(), x_other))));
    r.diag = to_host(dist::gather(M.diagonal()));
    r.xy = dist::dot(xv, dist::vector::from_global(c, M.partition(), yref));
    r.nx = dist::norm(xv);
  });
  return out;
}

void check_halo(const dist::halo& got, const dist::halo& want) {
  CHECK(got.rank == want.rank);
  CHECK(got.nlocal == want.nlocal);
  CHECK(got.ghosts == want.ghosts);
  CHECK(got.recv_ranks == want.recv_ranks);
  CHECK(got.recv_offsets == want.recv_offsets);
  CHECK(got.send_ranks == want.send_ranks);
  CHECK(got.send_offsets == want.send_offsets);
  CHECK(got.send_rows == want.send_rows);
}

void check_results(const golden_matrix& g, const std::vector<rank_result>& res, path p, dtype dt) {
  const int P = static_cast<int>(res.size());
  const dist::row_partition want_part =
      p == path::global_nnz ? dist::partition_rows_by_nnz(g.indptr, P) : dist::partition_rows(g.n, P);
  const std::vector<dist::local_rows> plans =
      dist::plan_halos(want_part, g.indptr, std::span<const std::int32_t>(g.indices));
  const bool f64 = dt == dtype::float64;
  const host_array& yref = f64 ? g.y : g.y32;
  const double rt = f64 ? g.rtol : g.rtol32, at = f64 ? g.atol : g.atol32;
  double dmax = 1.0;
  for (const double d : vec<double>(g.diag)) dmax = std::max(dmax, std::fabs(d));
  std::int64_t nnz = 0;
  for (int r = 0; r < P; ++r) {
    CAPTURE(r);
    const rank_result& rr = res[static_cast<std::size_t>(r)];
    CHECK(rr.part.offsets() == want_part.offsets());
    check_halo(rr.h, plans[static_cast<std::size_t>(r)].h);
    const std::int64_t nl = want_part.size(r);
    CHECK(rr.diag_shape == sparse::shape2{nl, nl});
    CHECK(rr.offd_shape == sparse::shape2{nl, static_cast<std::int64_t>(rr.h.ghosts.size())});
    CHECK(rr.canonical);
    CHECK(rr.index_dtype == dtype::int32);
    CHECK(rr.value_dtype == dt);
    nnz += rr.local_nnz;
    // every rank gathers the whole vectors
    for (const host_array* y : {&rr.y, &rr.y_stream, &rr.y_again, &rr.y_cast}) {
      CHECK(y->dtype() == dt);
      t::check_allclose(*y, yref, rt, at, false);
    }
    CHECK(rr.diag.dtype() == dt);
    t::check_allclose(rr.diag, g.diag, rt, rt * dmax, false);
    CHECK(std::fabs(rr.xy - (f64 ? g.xy : g.xy32)) <= g.dot_atol);
    CHECK(std::fabs(rr.nx - (f64 ? g.norm : g.norm32)) <= 1e-12 * std::max(1.0, g.norm));
  }
  CHECK(nnz == g.canonical_nnz);
}

/// A file in a scratch folder of this process.
std::string scratch(const std::string& name, const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cusci_distributed_matrix_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// fn on every communicator of a new local group of P ranks (run_ranks rethrows a rank's exception).
void on_ranks(int P, const std::function<void(const dist::communicator&)>& fn) {
  const std::vector<dist::communicator> comms = dist::local_group(P);
  dist::run_ranks(comms, fn);
}

}  // namespace

TEST_CASE("distributed csr_matrix and vectors reproduce SciPy: 1 to 4 ranks, every construction path, float32 and float64") {
  const std::vector<t::golden_case> cs = t::cases(kModule, "matrix");
  REQUIRE(cs.size() >= 8);
  std::size_t unit = 0;
  for (const auto& c : cs) {
    const golden_matrix g(c);
    CAPTURE(g.name);
    for (const int P : {0, 1, 2, 3, 4}) {  // 0: the self communicator
      if (!t::in_shard(unit++)) continue;
      CAPTURE(P);
      const std::vector<dist::communicator> comms =
          P == 0 ? std::vector<dist::communicator>{dist::self_communicator()} : dist::local_group(P);
      for (const dtype dt : {dtype::float64, dtype::float32}) {
        for (const path p : {path::global_rows, path::global_nnz, path::rows, path::matrix_market}) {
          if (p == path::matrix_market && (g.mtx.empty() || dt != dtype::float64)) continue;
          const std::string how = std::string(path_name(p)) + ", " + std::string(dtype_name(dt));
          CAPTURE(how);
          check_results(g, run(g, comms, p, dt), p, dt);
        }
      }
    }
  }
}

TEST_CASE("read_matrix_market with a given partition; dot into the vector it reads from") {
  const std::vector<t::golden_case> cs = t::cases(kModule, "matrix");
  for (const auto& c : cs) {
    const golden_matrix g(c);
    if (g.name != "poisson2d_12" && g.name != "random_200") continue;
    CAPTURE(g.name);
    for (const int P : {2, 3}) {
      CAPTURE(P);
      const dist::row_partition part = dist::partition_rows_by_nnz(g.indptr, P);
      const ndarray x = asarray(g.x);
      std::vector<host_array> y(static_cast<std::size_t>(P));
      std::vector<dist::halo> h(static_cast<std::size_t>(P));
      on_ranks(P, [&](const dist::communicator& comm) {
        const dist::csr_matrix A = dist::csr_matrix::read_matrix_market(comm, g.mtx, part);
        h[static_cast<std::size_t>(comm.rank())] = A.halo_plan();
        dist::vector v = dist::vector::from_global(comm, part, x);
        A.dot(v, v);  // y aliases x: computed aside, then copied
        y[static_cast<std::size_t>(comm.rank())] = to_host(dist::gather(v));
      });
      const std::vector<dist::local_rows> plans = dist::plan_halos(part, g.indptr, std::span<const std::int32_t>(g.indices));
      for (int r = 0; r < P; ++r) {
        CAPTURE(r);
        check_halo(h[static_cast<std::size_t>(r)], plans[static_cast<std::size_t>(r)].h);
        t::check_allclose(y[static_cast<std::size_t>(r)], g.y, g.rtol, g.atol);
      }
    }
  }
}

TEST_CASE("distributed vectors: construction, gather, dot and norm on blocks of unequal size") {
  // 7 entries over 3 ranks: blocks of 3, 2, 2 (gather pads them to 3).
  const std::vector<double> xs{1.0, -2.0, 3.0, 0.5, 4.0, -1.0, 2.0};
  const std::vector<double> ys{2.0, 1.0, -1.0, 8.0, 0.25, 3.0, -0.5};
  double want_dot = 0, want_nn = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    want_dot += xs[i] * ys[i];
    want_nn += xs[i] * xs[i];
  }
  const ndarray xg = asarray(xs), yg = asarray(ys), xi = asarray(std::vector<std::int32_t>{1, -2, 3, 0, 4, -1, 2});
  std::vector<double> dots(3), norms(3), mixed(3);
  std::vector<host_array> gathered(3), gathered_int(3), zeros(3);
  std::vector<dtype> int_dtype(3);
  on_ranks(3, [&](const dist::communicator& comm) {
    const auto r = static_cast<std::size_t>(comm.rank());
    const dist::row_partition part = dist::partition_rows(7, 3);
    const dist::vector x = dist::vector::from_global(comm, part, xg);
    const dist::vector y = dist::vector::from_global(comm, part, yg);
    dots[r] = dist::dot(x, y);
    norms[r] = dist::norm(x.copy());
    const dist::vector y32(comm, part, y.local().astype(dtype::float32));
    mixed[r] = dist::dot(x, y32);
    gathered[r] = to_host(dist::gather(x));
    const dist::vector xint = dist::vector::from_global(comm, part, xi);  // integers: float64
    int_dtype[r] = xint.dtype();
    gathered_int[r] = to_host(dist::gather(xint));
    zeros[r] = to_host(dist::gather(dist::vector::zeros(comm, part, dtype::float32)));
  });
  for (std::size_t r = 0; r < 3; ++r) {
    CAPTURE(r);
    CHECK(dots[r] == doctest::Approx(want_dot).epsilon(1e-15));
    CHECK(norms[r] == doctest::Approx(std::sqrt(want_nn)).epsilon(1e-15));
    CHECK(mixed[r] == doctest::Approx(want_dot).epsilon(1e-15));
    t::check_allclose(gathered[r], host_array::from(xs), 0, 0);
    CHECK(int_dtype[r] == dtype::float64);
    t::check_allclose(gathered_int[r], host_array::from(std::vector<double>{1, -2, 3, 0, 4, -1, 2}), 0, 0);
    t::check_allclose(zeros[r], host_array::from(std::vector<float>(7, 0.0f)), 0, 0);
  }
}

TEST_CASE("distributed csr_matrix and vectors: bad input names the function and the parameter") {
  namespace sp = cusci::sparse;
  const dist::communicator self = dist::self_communicator();
  const sp::csr_matrix rect(zeros({3, 4}));
  CHECK_THROWS_WITH_AS(dist::csr_matrix::from_global(self, dist::partition_rows(3, 1), rect),
                       doctest::Contains("cusci::distributed::csr_matrix::from_global: A must be square, got shape (3, 4)"),
                       value_error);
  CHECK_THROWS_AS(dist::csr_matrix::from_global(self, rect), value_error);
  const sp::csr_matrix sq(eye(4));
  CHECK_THROWS_WITH_AS(dist::csr_matrix::from_global(self, dist::partition_rows(5, 1), sq),
                       doctest::Contains("part must have A.shape[0] = 4 rows, got 5"), value_error);
  CHECK_THROWS_WITH_AS(dist::csr_matrix::from_global(self, dist::partition_rows(4, 2), sq),
                       doctest::Contains("part must have comm.size() = 1 ranks, got 2"), value_error);
  CHECK_THROWS_AS(dist::csr_matrix::from_global(self, dist::partition_rows(4, 1), sq.astype(dtype::complex128)),
                  type_error);
  CHECK_THROWS_AS(dist::csr_matrix::from_global(dist::communicator{}, dist::partition_rows(4, 1), sq), value_error);
  CHECK_THROWS_WITH_AS(dist::csr_matrix::from_rows(self, dist::partition_rows(4, 1), rect),
                       doctest::Contains("rows must have shape (part.size(0), part.nrows()) = (4, 4), got (3, 4)"),
                       value_error);
  // integer values become float64
  CHECK(dist::csr_matrix::from_global(self, dist::partition_rows(4, 1), sq.astype(dtype::int32)).dtype() ==
        dtype::float64);

  const dist::csr_matrix A = dist::csr_matrix::from_global(self, dist::partition_rows(4, 1), sq);
  // a vector of another communicator, of another partition, an output of another dtype
  const dist::communicator other = dist::self_communicator();
  CHECK_THROWS_WITH_AS(A.dot(dist::vector::zeros(other, dist::partition_rows(4, 1), dtype::float64)),
                       doctest::Contains("A and x must share one communicator"), value_error);
  CHECK_THROWS_WITH_AS(A.dot(dist::vector::zeros(self, dist::partition_rows(5, 1), dtype::float64)),
                       doctest::Contains("A and x must have the same partition"), value_error);
  dist::vector y32 = dist::vector::zeros(self, dist::partition_rows(4, 1), dtype::float32);
  CHECK_THROWS_AS(A.dot(dist::vector::zeros(self, dist::partition_rows(4, 1), dtype::float64), y32), type_error);
  CHECK_THROWS_AS(dist::csr_matrix().dot(y32), value_error);
  // on two ranks: x split differently from A (every rank throws before any collective)
  CHECK_THROWS_AS(on_ranks(2,
                           [&](const dist::communicator& comm) {
                             const dist::csr_matrix B = dist::csr_matrix::from_global(comm, dist::partition_rows(4, 2), sq);
                             const dist::row_partition skew(std::vector<std::int64_t>{0, 1, 4});
                             (void)B.dot(dist::vector::zeros(comm, skew, dtype::float64));
                           }),
                  value_error);

  // vectors
  CHECK_THROWS_WITH_AS(dist::vector(self, dist::partition_rows(4, 1), zeros({3})),
                       doctest::Contains("cusci::distributed::vector: local must have part.size(0) = 4 entries, got 3"),
                       value_error);
  CHECK_THROWS_AS(dist::vector(self, dist::partition_rows(4, 1), zeros({4}, dtype::int32)), type_error);
  CHECK_THROWS_AS(dist::vector(self, dist::partition_rows(4, 1), zeros({2, 2})), value_error);
  CHECK_THROWS_AS(dist::vector(self, dist::partition_rows(4, 2), zeros({4})), value_error);
  CHECK_THROWS_AS(dist::vector::zeros(self, dist::partition_rows(4, 1), dtype::int64), type_error);
  CHECK_THROWS_AS(dist::vector::from_global(self, dist::partition_rows(4, 1), zeros({5})), value_error);
  CHECK_THROWS_AS(dist::vector::from_global(self, dist::partition_rows(4, 1), zeros({4}, dtype::complex64)), type_error);
  CHECK_THROWS_WITH_AS(dist::dot(dist::vector::zeros(self, dist::partition_rows(4, 1), dtype::float64),
                                 dist::vector::zeros(other, dist::partition_rows(4, 1), dtype::float64)),
                       doctest::Contains("cusci::distributed::dot: x and y must share one communicator"), value_error);
  CHECK_THROWS_AS(dist::dot(dist::vector::zeros(self, dist::partition_rows(4, 1), dtype::float64),
                            dist::vector::zeros(self, dist::partition_rows(3, 1), dtype::float64)),
                  value_error);
  CHECK_THROWS_AS(dist::gather(dist::vector{}), value_error);
}

TEST_CASE("read_matrix_market: unreadable, malformed and unsupported files") {
  const dist::communicator self = dist::self_communicator();
  auto read = [&](const std::string& path) { return dist::csr_matrix::read_matrix_market(self, path); };
  CHECK_THROWS_WITH_AS(read("/nonexistent/cusci_distributed.mtx"), doctest::Contains("cannot open"), cusci::error);
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  CHECK_THROWS_AS(read(scratch("no_banner.mtx", "3 3 1\n1 1 1.0\n")), value_error);
  CHECK_THROWS_AS(read(scratch("bad_size.mtx", banner + "3 3\n")), value_error);
  CHECK_THROWS_WITH_AS(read(scratch("few.mtx", banner + "3 3 2\n1 1 1.0\n")),
                       doctest::Contains("expected 2 entries, found 1"), value_error);
  CHECK_THROWS_WITH_AS(read(scratch("many.mtx", banner + "3 3 1\n1 1 1.0\n2 2 2.0\n")),
                       doctest::Contains("many.mtx:4: more entries than the 1 declared in the size line"),
                       value_error);
  CHECK_THROWS_WITH_AS(read(scratch("row.mtx", banner + "% a comment\n3 3 1\n4 1 1.0\n")),
                       doctest::Contains("row.mtx:4: row index 4 out of range [1, 3]"), value_error);
  CHECK_THROWS_WITH_AS(read(scratch("col.mtx", banner + "3 3 1\n1 0 1.0\n")),
                       doctest::Contains("column index 0 out of range"), value_error);
  CHECK_THROWS_WITH_AS(read(scratch("value.mtx", banner + "3 3 1\n1 1 x\n")),
                       doctest::Contains("expected a real value, got 'x'"), value_error);
  CHECK_THROWS_WITH_AS(read(scratch("tokens.mtx", banner + "3 3 1\n1 1\n")),
                       doctest::Contains("expected 3 values (real field), got 2"), value_error);
  CHECK_THROWS_AS(read(scratch("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")),
                  value_error);
  CHECK_THROWS_WITH_AS(read(scratch("rect.mtx", banner + "2 3 1\n1 1 1.0\n")),
                       doctest::Contains("the matrix must be square, got shape (2, 3)"), value_error);
  CHECK_THROWS_AS(read(scratch("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1.0 2.0\n")),
                  type_error);
  CHECK_THROWS_AS(read(std::string(CUSCI_EXAMPLE_DATA) + "/young1c.mtx"), type_error);  // complex
  CHECK_THROWS_AS(read(std::string(CUSCI_EXAMPLE_DATA) + "/lp_e226.mtx"), value_error);  // 223 x 472
  CHECK_THROWS_WITH_AS(
      dist::csr_matrix::read_matrix_market(self, scratch("ok.mtx", banner + "3 3 1\n1 1 1.0\n"), dist::partition_rows(4, 1)),
      doctest::Contains("part must have the file's row count = 3 rows, got 4"), value_error);
  // comments and blank lines among the entries, CRLF line ends, '+' signs, a last line without '\n'
  const dist::csr_matrix B = dist::csr_matrix::read_matrix_market(
      self, scratch("ok2.mtx", "%%MatrixMarket matrix coordinate real symmetric\r\n%c\r\n3 3 3\r\n1 1 +2.5\r\n\r\n"
                               "  % indented comment\r\n3 1 -1e0\r\n2 2 4"));
  t::check_allclose(to_host(B.diagonal().local()), host_array::from(std::vector<double>{2.5, 4.0, 0.0}), 0, 0);
  CHECK(B.local_nnz() == 4);
  std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                              ("cusci_distributed_matrix_" + std::to_string(::getpid())));
}

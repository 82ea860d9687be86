// Row partitions and halo plans (cusci/distributed/partition.hpp): every plan is carried out on the host
// (each rank multiplies its rows by [x_owned, x_ghosts], the ghosts delivered by the owners' send lists)
// and must give SciPy's A @ x (tests/golden/gen_distributed_partition.py).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/distributed/partition.hpp"
#include "cusci/error.hpp"
#include "golden.hpp"

using namespace cusci;
namespace dist = cusci::distributed;

namespace {

const std::string kModule = "distributed_partition";

template <class T>
std::vector<T> vec(const host_array& a) {
  const T* p = a.data_as<T>();
  return std::vector<T>(p, p + a.size());
}

/// y = A x through the plans of every rank; also checks each plan's invariants and that every ghost
/// arrives from its owner's send list.
std::vector<double> product_by_plan(const dist::row_partition& part, const std::vector<dist::local_rows>& plans,
                                    const std::vector<std::int64_t>& indptr, const std::vector<double>& data,
                                    const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(part.nrows()), 0.0);
  REQUIRE(static_cast<int>(plans.size()) == part.nranks());
  for (int r = 0; r < part.nranks(); ++r) {
    CAPTURE(r);
    const dist::halo& h = plans[static_cast<std::size_t>(r)].h;
    const std::int64_t b = part.begin(r), e = part.end(r);
    CHECK(h.rank == r);
    CHECK(h.nlocal == e - b);
    // ghosts: sorted, unique, owned elsewhere; grouped by ascending owner
    for (std::size_t g = 0; g < h.ghosts.size(); ++g) {
      CHECK((h.ghosts[g] < b || h.ghosts[g] >= e));
      if (g > 0) CHECK(h.ghosts[g - 1] < h.ghosts[g]);
    }
    REQUIRE(h.recv_offsets.size() == h.recv_ranks.size() + 1);
    REQUIRE(h.send_offsets.size() == h.send_ranks.size() + 1);
    CHECK(h.recv_offsets.back() == static_cast<std::int64_t>(h.ghosts.size()));
    CHECK(h.send_offsets.back() == static_cast<std::int64_t>(h.send_rows.size()));
    for (std::size_t i = 0; i < h.recv_ranks.size(); ++i) {
      CHECK(h.recv_ranks[i] != r);
      if (i > 0) CHECK(h.recv_ranks[i - 1] < h.recv_ranks[i]);
      for (std::int64_t g = h.recv_offsets[i]; g < h.recv_offsets[i + 1]; ++g)
        CHECK(part.owner(h.ghosts[static_cast<std::size_t>(g)]) == h.recv_ranks[i]);
    }
    for (const std::int64_t row : h.send_rows) CHECK((row >= 0 && row < h.nlocal));
    // [x_owned, x_ghosts], the ghosts taken from what their owners send to r
    std::vector<double> xl(static_cast<std::size_t>(h.nlocal) + h.ghosts.size(), std::nan(""));
    for (std::int64_t i = 0; i < h.nlocal; ++i) xl[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(b + i)];
    for (std::size_t i = 0; i < h.recv_ranks.size(); ++i) {
      const int s = h.recv_ranks[i];
      const dist::halo& hs = plans[static_cast<std::size_t>(s)].h;
      std::size_t j = 0;
      while (j < hs.send_ranks.size() && hs.send_ranks[j] != r) ++j;
      REQUIRE(j < hs.send_ranks.size());
      REQUIRE(hs.send_offsets[j + 1] - hs.send_offsets[j] == h.recv_offsets[i + 1] - h.recv_offsets[i]);
      for (std::int64_t k = 0; k < hs.send_offsets[j + 1] - hs.send_offsets[j]; ++k) {
        const std::int64_t row = hs.send_rows[static_cast<std::size_t>(hs.send_offsets[j] + k)];
        const std::size_t g = static_cast<std::size_t>(h.recv_offsets[i] + k);
        CHECK(part.begin(s) + row == h.ghosts[g]);
        xl[static_cast<std::size_t>(h.nlocal) + g] = x[static_cast<std::size_t>(part.begin(s) + row)];
      }
    }
    // every rank r sends to is one that receives from r
    for (const int q : h.send_ranks) {
      const auto& rq = plans[static_cast<std::size_t>(q)].h.recv_ranks;
      CHECK(std::find(rq.begin(), rq.end(), r) != rq.end());
    }
    const std::vector<std::int64_t>& li = plans[static_cast<std::size_t>(r)].indices;
    REQUIRE(static_cast<std::int64_t>(li.size()) == indptr[static_cast<std::size_t>(e)] - indptr[static_cast<std::size_t>(b)]);
    for (std::int64_t row = b; row < e; ++row) {
      double acc = 0.0;
      for (std::int64_t k = indptr[static_cast<std::size_t>(row)]; k < indptr[static_cast<std::size_t>(row) + 1]; ++k) {
        const std::int64_t l = li[static_cast<std::size_t>(k - indptr[static_cast<std::size_t>(b)])];
        REQUIRE((l >= 0 && l < static_cast<std::int64_t>(xl.size())));
        acc += data[static_cast<std::size_t>(k)] * xl[static_cast<std::size_t>(l)];
      }
      y[static_cast<std::size_t>(row)] = acc;
    }
  }
  return y;
}

}  // namespace

TEST_CASE("partition_rows: equal blocks, the first nrows % nranks one row larger") {
  CHECK(dist::partition_rows(10, 3).offsets() == std::vector<std::int64_t>{0, 4, 7, 10});
  CHECK(dist::partition_rows(10, 1).offsets() == std::vector<std::int64_t>{0, 10});
  CHECK(dist::partition_rows(2, 4).offsets() == std::vector<std::int64_t>{0, 1, 2, 2, 2});
  CHECK(dist::partition_rows(0, 2).offsets() == std::vector<std::int64_t>{0, 0, 0});
  const dist::row_partition p = dist::partition_rows(2, 4);
  CHECK(p.nranks() == 4);
  CHECK(p.nrows() == 2);
  CHECK(p.owner(0) == 0);
  CHECK(p.owner(1) == 1);
  CHECK(p.size(3) == 0);
  // empty blocks own nothing: the owner of a row is the rank whose block holds it
  const dist::row_partition q(std::vector<std::int64_t>{0, 3, 3, 5});
  CHECK(q.owner(2) == 0);
  CHECK(q.owner(3) == 2);
  CHECK(q.owner(4) == 2);
  CHECK_THROWS_AS(dist::partition_rows(-1, 2), value_error);
  CHECK_THROWS_AS(dist::partition_rows(5, 0), value_error);
  CHECK_THROWS_AS(p.owner(2), index_error);
  CHECK_THROWS_AS(p.owner(-1), index_error);
  CHECK_THROWS_AS(p.begin(4), index_error);
  CHECK_THROWS_AS(dist::row_partition(std::vector<std::int64_t>{0}), value_error);
  CHECK_THROWS_AS(dist::row_partition(std::vector<std::int64_t>{1, 3}), value_error);
  CHECK_THROWS_AS(dist::row_partition(std::vector<std::int64_t>{0, 3, 2}), value_error);
}

TEST_CASE("partition_rows_by_nnz: blocks of about equal stored entries") {
  // rows of 10, 1, 1, 1, 1, 1, 1, 4 entries (nnz 20)
  const std::vector<std::int64_t> indptr{0, 10, 11, 12, 13, 14, 15, 16, 20};
  const dist::row_partition p = dist::partition_rows_by_nnz(indptr, 2);
  CHECK(p.offsets() == std::vector<std::int64_t>{0, 1, 8});
  const dist::row_partition p4 = dist::partition_rows_by_nnz(indptr, 4);
  CHECK(p4.offsets() == std::vector<std::int64_t>{0, 1, 1, 6, 8});
  for (int r = 0; r < 4; ++r) {  // at most the share plus one row's entries
    const std::int64_t nz = indptr[static_cast<std::size_t>(p4.end(r))] - indptr[static_cast<std::size_t>(p4.begin(r))];
    CHECK(nz <= 20 / 4 + 10);
  }
  CHECK(dist::partition_rows_by_nnz(std::vector<std::int64_t>{0}, 3).offsets() == std::vector<std::int64_t>{0, 0, 0, 0});
  CHECK_THROWS_AS(dist::partition_rows_by_nnz(std::vector<std::int64_t>{}, 2), value_error);
  CHECK_THROWS_AS(dist::partition_rows_by_nnz(std::vector<std::int64_t>{1, 2}, 2), value_error);
  CHECK_THROWS_AS(dist::partition_rows_by_nnz(std::vector<std::int64_t>{0, 3, 2}, 2), value_error);
  CHECK_THROWS_AS(dist::partition_rows_by_nnz(indptr, 0), value_error);
}

TEST_CASE("plan_halos reproduces SciPy's A @ x for 1 to 9 ranks, blocks by rows and by entries") {
  const auto& cs = testing::cases(kModule);
  REQUIRE(cs.size() >= 5);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const std::int64_t n = c.get<std::int64_t>("n");
    const std::vector<std::int64_t> indptr = vec<std::int64_t>(c.array("indptr"));
    const std::vector<double> data = vec<double>(c.array("data"));
    const std::vector<double> x = vec<double>(c.array("x"));
    const std::vector<double> expected = vec<double>(c.array("expected"));
    const bool i32 = c.get<std::string>("index_dtype") == "int32";
    const std::vector<std::int32_t> ind32 = i32 ? vec<std::int32_t>(c.array("indices")) : std::vector<std::int32_t>{};
    const std::vector<std::int64_t> ind64 = i32 ? std::vector<std::int64_t>{} : vec<std::int64_t>(c.array("indices"));
    REQUIRE(static_cast<std::int64_t>(indptr.size()) == n + 1);
    for (const int P : {1, 2, 3, 4, 7, 9}) {
      for (const bool by_nnz : {false, true}) {
        CAPTURE(P);
        CAPTURE(by_nnz);
        const dist::row_partition part = by_nnz ? dist::partition_rows_by_nnz(indptr, P) : dist::partition_rows(n, P);
        REQUIRE(part.nrows() == n);
        const std::vector<dist::local_rows> plans =
            i32 ? dist::plan_halos(part, indptr, std::span<const std::int32_t>(ind32))
                : dist::plan_halos(part, indptr, std::span<const std::int64_t>(ind64));
        const std::vector<double> y = product_by_plan(part, plans, indptr, data, x);
        REQUIRE(y.size() == expected.size());
        for (std::size_t i = 0; i < y.size(); ++i) {
          CAPTURE(i);
          CHECK(std::fabs(y[i] - expected[i]) <= c.atol() + c.rtol() * std::fabs(expected[i]));
        }
        if (P == 1) {  // one rank: no halo
          CHECK(plans[0].h.ghosts.empty());
          CHECK(plans[0].h.send_ranks.empty());
        }
      }
    }
  }
}

TEST_CASE("plan_halos: bad input names the function and the parameter") {
  const dist::row_partition part = dist::partition_rows(3, 2);
  const std::vector<std::int64_t> indptr{0, 1, 2, 3};
  const std::vector<std::int64_t> ok{0, 1, 2};
  CHECK(dist::plan_halos(part, indptr, std::span<const std::int64_t>(ok)).size() == 2);
  const std::vector<std::int64_t> short_ptr{0, 1, 2};
  CHECK_THROWS_WITH_AS(dist::plan_halos(part, short_ptr, std::span<const std::int64_t>(ok)),
                       doctest::Contains("cusci::distributed::plan_halos: indptr"), value_error);
  const std::vector<std::int64_t> too_few{0, 1};
  CHECK_THROWS_WITH_AS(dist::plan_halos(part, indptr, std::span<const std::int64_t>(too_few)),
                       doctest::Contains("indices must have"), value_error);
  const std::vector<std::int64_t> out_of_range{0, 3, 1};
  CHECK_THROWS_WITH_AS(dist::plan_halos(part, indptr, std::span<const std::int64_t>(out_of_range)),
                       doctest::Contains("column index 3"), index_error);
  const std::vector<std::int32_t> negative{0, -1, 1};
  CHECK_THROWS_AS(dist::plan_halos(part, indptr, std::span<const std::int32_t>(negative)), index_error);
  const std::vector<std::int64_t> decreasing{0, 2, 1, 3};
  CHECK_THROWS_AS(dist::plan_halos(part, decreasing, std::span<const std::int64_t>(ok)), value_error);
}

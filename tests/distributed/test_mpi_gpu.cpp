// from_mpi (cusci/distributed/mpi.hpp) over the processes mpiexec started: ctest runs it as
// `mpiexec -n 1`, scripts/mpirun-tests -n N with one process a GPU. Each process is one rank of an NCCL
// communicator; the test checks the ranks, an all-reduce, a ring exchange with uneven counts, a
// broadcast and a barrier, with small integer values whose results are exact. Exits 77 (skipped) when
// no GPU is visible, before MPI starts; the exit code is the worst over the processes.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/distributed/mpi.hpp"

using namespace cusci;
namespace dist = cusci::distributed;

namespace {
std::vector<double> host_values(const ndarray& a) { return to_host(a).astype(dtype::float64).to_vector<double>(); }
}  // namespace

TEST_CASE("from_mpi: one NCCL rank a process; all-reduce, ring exchange, broadcast, barrier") {
  int world = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  INFO("rank " << me << " of " << world);
  if (!dist::have_nccl()) {
    CHECK_THROWS_AS(dist::from_mpi(), not_implemented_error);
    return;
  }
  const dist::communicator c = dist::from_mpi();
  CHECK(c.rank() == me);
  CHECK(c.size() == world);
  CHECK(c.backend() == dist::communicator::kind::nccl);
  const device_guard on(c.device());
  const cudaStream_t s = get_current_stream();
  const std::int64_t p = world, r = me;

  // all-reduce: rank r holds (r + 1)(i + 1)
  std::vector<double> x(5), sum(5), mx(5);
  for (std::int64_t i = 0; i < 5; ++i) {
    x[static_cast<std::size_t>(i)] = static_cast<double>((r + 1) * (i + 1));
    sum[static_cast<std::size_t>(i)] = static_cast<double>(p * (p + 1) / 2 * (i + 1));
    mx[static_cast<std::size_t>(i)] = static_cast<double>(p * (i + 1));
  }
  CHECK(host_values(c.allreduce(asarray(x))) == sum);
  CHECK(host_values(c.allreduce(asarray(x).astype(dtype::int64), dist::reduce_op::max)) == mx);

  // ring: r sends r + 1 values 100 r + k to r + 1 and receives from r - 1
  const int next = static_cast<int>((r + 1) % p), prev = static_cast<int>((r + p - 1) % p);
  std::vector<double> out(static_cast<std::size_t>(r + 1)), want(static_cast<std::size_t>(prev + 1));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = 100.0 * static_cast<double>(r) + static_cast<double>(k);
  for (std::size_t k = 0; k < want.size(); ++k) want[k] = 100.0 * prev + static_cast<double>(k);
  const ndarray send = asarray(out);
  ndarray recv = zeros({prev + 1}, dtype::float64);
  const std::vector<dist::message> sends{{next, send.data(), out.size()}}, recvs{{prev, recv.data(), want.size()}};
  c.exchange(sends, recvs, dtype::float64, s);
  CHECK(host_values(recv) == want);

  // broadcast from the last rank
  ndarray b = full({3}, r == p - 1 ? 7 : -1, dtype::int32);
  c.broadcast(b.data(), 3, dtype::int32, static_cast<int>(p - 1), s);
  CHECK(host_values(b) == std::vector<double>{7, 7, 7});
  c.barrier();
}

int main(int argc, char** argv) {
  if (device_count() == 0) {
    std::printf("no CUDA device visible: skipping GPU tests\n");
    return 77;
  }
  MPI_Init(&argc, &argv);
  int rc = 0;
  {
    doctest::Context ctx(argc, argv);
    rc = ctx.run();
  }
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}

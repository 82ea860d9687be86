// cusci::distributed benchmark (family distributed, ids D1..D3): the conjugate gradient method on the 3-D
// Poisson matrix spread over every visible GPU, and the timeline of its distributed product.
//
// Input: the 7-point 3-D Poisson matrix of an N^3 grid (6 on the diagonal, -1 at each grid neighbour,
// Dirichlet boundary), float64; N from the first argument or CUSCI_BENCH_N (default 256: n = 16,777,216
// rows, nnz = 117,047,296). Each rank generates only its own rows (equal blocks of rows, partition_rows)
// on the host, uploads them and builds the distributed matrix with csr_matrix::from_rows: no process
// ever holds the whole matrix (except the single rank, whose rows are the matrix). b = ones.
//
// Ranks: one per visible GPU through NCCL (init_all, one thread a rank; CUDA_VISIBLE_DEVICES chooses them)
// when cusci was built with NCCL, else (or with CUSCI_BENCH_SELF=1) one rank on the self communicator.
//
// Cases (one JSON line each, printed by the main thread; times are medians; "ms" is what the id's case
// measures):
//   D1   distributed cg, no preconditioner, rtol 1e-8, maxiter CUSCI_BENCH_ITERS (default 200; the
//        tolerance is not reached in that many iterations on this matrix, so every run does all of them):
//        host wall time between two barriers over the iterations done, per iteration. Traffic model
//        (all ranks together): MA + 13 V an iteration, MA = 12 nnz + 4 (n + ranks) bytes (float64
//        values, int32 column indices and row pointers), V = 8 n bytes (a pass over a float64 vector):
//        p = z + beta p (3V), q = A p (MA + 2V), p.q (2V), x += alpha p, r -= alpha q with r.r (6V).
//        "roof_pct": that traffic over the time against 4.8 TB/s (the H200's HBM3e) times the ranks.
//   D2   the distributed product y = A x (collective; halo exchange overlapped with the diagonal block's
//        product), CUDA-event time on each rank after a barrier, the slowest rank's; with its timeline,
//        each part timed alone the same way (slowest rank): "local_ms" the diagonal block's product
//        (sparse::csr_matrix::dot of diagonal_block()), "offd_ms" the off-diagonal block's product
//        (the ghost columns), "exchange_ms" the halo exchange alone (communicator::exchange of the
//        halo plan's messages), "exposed_exchange_ms" = max(0, ms - local_ms - offd_ms) (the part of
//        the exchange the overlap did not hide), "hidden_pct" = 100 (1 - exposed / exchange_ms).
//        Traffic MA + 2V (one pass over the matrix, x read, y written).
//   D3   (one rank only) the one-GPU cusci::sparse::linalg::cg on the same matrix and options, per
//        iteration, for the distributed solver's overhead ("dist_over_one_gpu" = D1 / D3). Traffic
//        MA + 11 V (its p.q is fused into the product).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cusci/device.hpp"
#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/matrix.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/distributed/vector.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

using namespace cusci;
namespace dist = cusci::distributed;

namespace {

constexpr double kHbmGbps = 4800.0;  // H200 HBM3e, per GPU

std::int64_t env_int(const char* name, std::int64_t fallback) {
  const char* e = std::getenv(name);
  if (e == nullptr || *e == '\0') return fallback;
  const long long v = std::atoll(e);
  return v > 0 ? v : fallback;
}

/// Rows [begin, end) of the 7-point Poisson matrix of an N^3 grid (global column indices, in increasing
/// order), as an [end - begin, N^3] CSR matrix on the current device.
sparse::csr_matrix poisson3d_rows(std::int64_t N, std::int64_t begin, std::int64_t end) {
  const std::int64_t n = N * N * N, m = end - begin, plane = N * N;
  std::vector<std::int64_t> indptr(static_cast<std::size_t>(m) + 1, 0);
  std::vector<std::int32_t> indices;
  std::vector<double> data;
  indices.reserve(static_cast<std::size_t>(7 * m));
  data.reserve(static_cast<std::size_t>(7 * m));
  for (std::int64_t g = begin; g < end; ++g) {
    const std::int64_t k = g % N, j = (g / N) % N, i = g / plane;
    auto add = [&](std::int64_t col, double v) {
      indices.push_back(static_cast<std::int32_t>(col));
      data.push_back(v);
    };
    if (i > 0) add(g - plane, -1.0);
    if (j > 0) add(g - N, -1.0);
    if (k > 0) add(g - 1, -1.0);
    add(g, 6.0);
    if (k < N - 1) add(g + 1, -1.0);
    if (j < N - 1) add(g + N, -1.0);
    if (i < N - 1) add(g + plane, -1.0);
    indptr[static_cast<std::size_t>(g - begin) + 1] = static_cast<std::int64_t>(indices.size());
  }
  const std::int64_t nnz = static_cast<std::int64_t>(indices.size());
  ndarray ptr = nnz <= 0x7fffffff ? asarray(std::vector<std::int32_t>(indptr.begin(), indptr.end())) : asarray(indptr);
  return sparse::csr_matrix(asarray(data), asarray(indices), ptr, sparse::shape2{m, n});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Median CUDA-event milliseconds of fn on the current stream, each run after a barrier of all ranks.
double time_collective(const dist::communicator& comm, int runs, const std::function<void()>& fn) {
  fn();  // warm-up
  comm.barrier();
  std::vector<double> ms;
  event start, stop;
  for (int i = 0; i < runs; ++i) {
    comm.barrier();
    start.record();
    fn();
    stop.record();
    ms.push_back(get_elapsed_time(start, stop));
  }
  return median(ms);
}

/// What each rank measured.
struct rank_times {
  double cg_ms_per_it = 0;
  std::int64_t cg_iterations = 0;
  double product = 0, local = 0, offd = 0, exchange = 0;
  double one_gpu_ms_per_it = 0;
  std::int64_t nnz = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (bench::no_device()) return 77;
  const std::int64_t N = argc > 1 ? std::max<std::int64_t>(2, std::atoll(argv[1])) : env_int("CUSCI_BENCH_N", 256);
  const std::int64_t iters = env_int("CUSCI_BENCH_ITERS", 200);
  const int runs = static_cast<int>(env_int("CUSCI_BENCH_RUNS", 20));
  const std::int64_t n = N * N * N;
  if (n > 0x7fffffff) {  // the row generator writes int32 column indices
    std::printf("{\"error\":\"N = %lld: N^3 must stay below 2^31\"}\n", static_cast<long long>(N));
    return 1;
  }

  std::vector<dist::communicator> comms;
  const char* force_self = std::getenv("CUSCI_BENCH_SELF");
  if (dist::have_nccl() && !(force_self != nullptr && *force_self == '1')) {
    std::vector<int> devices;
    for (int d = 0; d < device_count(); ++d) devices.push_back(d);
    comms = dist::init_all(devices);
  } else {
    comms.push_back(dist::self_communicator(0));
  }
  const int nranks = static_cast<int>(comms.size());
  std::vector<rank_times> times(static_cast<std::size_t>(nranks));

  dist::run_ranks(comms, [&](const dist::communicator& comm) {
    rank_times& tm = times[static_cast<std::size_t>(comm.rank())];
    const dist::row_partition part = dist::partition_rows(n, comm.size());
    const int r = comm.rank();
    std::optional<sparse::csr_matrix> rows(poisson3d_rows(N, part.begin(r), part.end(r)));
    const dist::csr_matrix A = dist::csr_matrix::from_rows(comm, part, *rows);
    if (comm.size() > 1) rows.reset();  // the single rank keeps its rows (the whole matrix) for D3
    tm.nnz = A.local_nnz();
    const dist::vector b(comm, part, ones({part.size(r)}, dtype::float64));

    // D1: cg, per iteration (host wall time between barriers).
    const dist::cg_options opt{.rtol = 1e-8, .maxiter = iters};
    dist::cg(A, b, {.rtol = 1e-8, .maxiter = 3});  // warm-up
    std::vector<double> per_it;
    for (int rep = 0; rep < 3; ++rep) {
      comm.barrier();
      const auto t0 = std::chrono::steady_clock::now();
      const dist::solve_result res = dist::cg(A, b, opt);
      synchronize();
      comm.barrier();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      tm.cg_iterations = res.iterations;
      per_it.push_back(ms / static_cast<double>(std::max<std::int64_t>(res.iterations, 1)));
    }
    tm.cg_ms_per_it = median(per_it);

    // D2: the product and its parts.
    const dist::vector x(comm, part, ones({part.size(r)}, dtype::float64));
    dist::vector y = dist::vector::zeros(comm, part, dtype::float64);
    tm.product = time_collective(comm, runs, [&] { A.dot(x, y); });
    tm.local = time_collective(comm, runs, [&] { (void)A.diagonal_block().dot(x.local()); });
    const dist::halo& h = A.halo_plan();
    const std::int64_t nghost = static_cast<std::int64_t>(h.ghosts.size());
    const ndarray ghosts = ones({nghost}, dtype::float64);
    if (nghost > 0) tm.offd = time_collective(comm, runs, [&] { (void)A.offdiagonal_block().dot(ghosts); });
    // The exchange alone: the halo plan's messages, from a send buffer to the ghost buffer.
    const std::int64_t nsend = static_cast<std::int64_t>(h.send_rows.size());
    const ndarray send = ones({std::max<std::int64_t>(1, nsend)}, dtype::float64);
    ndarray recv = empty({std::max<std::int64_t>(1, nghost)}, dtype::float64);
    std::vector<dist::message> sends, recvs;
    for (std::size_t i = 0; i < h.send_ranks.size(); ++i)
      sends.push_back({h.send_ranks[i], static_cast<double*>(send.data()) + h.send_offsets[i],
                       static_cast<std::size_t>(h.send_offsets[i + 1] - h.send_offsets[i])});
    for (std::size_t i = 0; i < h.recv_ranks.size(); ++i)
      recvs.push_back({h.recv_ranks[i], static_cast<double*>(recv.data()) + h.recv_offsets[i],
                       static_cast<std::size_t>(h.recv_offsets[i + 1] - h.recv_offsets[i])});
    tm.exchange =
        time_collective(comm, runs, [&] { comm.exchange(sends, recvs, dtype::float64, get_current_stream()); });

    // D3: the one-GPU solver on the same matrix (one rank: its rows are the matrix).
    if (comm.size() == 1) {
      const sparse::linalg::cg_options o1{.rtol = 1e-8, .maxiter = iters};
      sparse::linalg::cg(*rows, b.local(), {.rtol = 1e-8, .maxiter = 3});
      std::vector<double> one;
      for (int rep = 0; rep < 3; ++rep) {
        synchronize();
        const auto t0 = std::chrono::steady_clock::now();
        const auto res = sparse::linalg::cg(*rows, b.local(), o1);
        synchronize();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        one.push_back(ms / static_cast<double>(std::max<std::int64_t>(res.iterations, 1)));
      }
      tm.one_gpu_ms_per_it = median(one);
    }
  });

  // The slowest rank's times (a collective's time is its slowest rank's).
  rank_times w;
  std::int64_t nnz = 0;
  for (const rank_times& t : times) {
    w.cg_ms_per_it = std::max(w.cg_ms_per_it, t.cg_ms_per_it);
    w.product = std::max(w.product, t.product);
    w.local = std::max(w.local, t.local);
    w.offd = std::max(w.offd, t.offd);
    w.exchange = std::max(w.exchange, t.exchange);
    nnz += t.nnz;
  }
  w.cg_iterations = times[0].cg_iterations;
  w.one_gpu_ms_per_it = times[0].one_gpu_ms_per_it;
  const double MA = 12.0 * static_cast<double>(nnz) + 4.0 * static_cast<double>(n + nranks);
  const double V = 8.0 * static_cast<double>(n);
  const double roof = kHbmGbps * nranks;
  auto gbps = [](double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0; };
  const std::string tag = "poisson3d_" + std::to_string(N);

  const double g1 = gbps(MA + 13 * V, w.cg_ms_per_it);
  std::printf("{\"id\":\"D1\",\"case\":\"distributed cg_%s_%lldit_noprecond\",\"ranks\":%d,\"n\":%lld,\"nnz\":%lld,"
              "\"iters\":%lld,\"ms\":%.5f,\"gbps\":%.1f,\"roof_pct\":%.1f}\n",
              tag.c_str(), static_cast<long long>(iters), nranks, static_cast<long long>(n),
              static_cast<long long>(nnz), static_cast<long long>(w.cg_iterations), w.cg_ms_per_it, g1,
              100.0 * g1 / roof);
  const double exposed = std::max(0.0, w.product - w.local - w.offd);
  const double hidden = w.exchange > 0 ? 100.0 * (1.0 - std::min(exposed, w.exchange) / w.exchange) : 100.0;
  const double g2 = gbps(MA + 2 * V, w.product);
  std::printf("{\"id\":\"D2\",\"case\":\"distributed spmv_%s (overlapped halo exchange)\",\"ranks\":%d,\"n\":%lld,"
              "\"ms\":%.5f,\"local_ms\":%.5f,\"offd_ms\":%.5f,\"exchange_ms\":%.5f,\"exposed_exchange_ms\":%.5f,"
              "\"hidden_pct\":%.1f,\"gbps\":%.1f,\"roof_pct\":%.1f}\n",
              tag.c_str(), nranks, static_cast<long long>(n), w.product, w.local, w.offd, w.exchange, exposed,
              hidden, g2, 100.0 * g2 / roof);
  if (nranks == 1) {
    const double g3 = gbps(MA + 11 * V, w.one_gpu_ms_per_it);
    std::printf("{\"id\":\"D3\",\"case\":\"one-GPU sparse::linalg::cg_%s_%lldit_noprecond\",\"ranks\":1,\"n\":%lld,"
                "\"ms\":%.5f,\"gbps\":%.1f,\"roof_pct\":%.1f,\"dist_over_one_gpu\":%.3f}\n",
                tag.c_str(), static_cast<long long>(iters), static_cast<long long>(n), w.one_gpu_ms_per_it, g3,
                100.0 * g3 / kHbmGbps, w.one_gpu_ms_per_it > 0 ? w.cg_ms_per_it / w.one_gpu_ms_per_it : 0.0);
  }
  std::fflush(stdout);
  return 0;
}

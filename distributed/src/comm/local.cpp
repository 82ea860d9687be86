// The local group (local_group): several ranks in one process on one device, one thread each. A
// collective publishes each rank's arguments in a shared slot and meets the other ranks at a host
// barrier; each rank then does its own part on its stream with device copies (or the all-reduce
// kernel) from the other ranks' buffers, synchronizes, and meets them at a second barrier, so that no
// rank reuses a buffer another is still reading. Every rank checks all slots the same way after the
// first barrier, so a mismatch (different collectives, counts, dtypes, unpaired messages) makes every
// rank throw the same value_error and the group stays usable. A rank that fails otherwise inside a
// collective aborts the group; a rank that throws before reaching one is aborted by run_ranks.

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "comm/comm_impl.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cusci::distributed::detail {
namespace {

enum class collective { allreduce, exchange, broadcast, allgather, barrier };

const char* name_of(collective c) {
  switch (c) {
    case collective::allreduce: return "allreduce";
    case collective::exchange: return "exchange";
    case collective::broadcast: return "broadcast";
    case collective::allgather: return "allgather";
    case collective::barrier: return "barrier";
  }
  return "?";
}

const char* name_of(reduce_op op) { return op == reduce_op::sum ? "sum" : op == reduce_op::max ? "max" : "min"; }

/// One rank's arguments to the collective in progress.
struct slot {
  collective what = collective::barrier;
  cusci::dtype dt = cusci::dtype::float64;
  std::size_t count = 0;
  reduce_op op = reduce_op::sum;
  int root = 0;
  const void* send = nullptr;
  void* recv = nullptr;  // broadcast: the buffer
  std::vector<message> sends{}, recvs{};
};

/// What the ranks of one local group share.
class group {
 public:
  explicit group(int nranks) : slots(static_cast<std::size_t>(nranks)) {}

  /// Written by each rank before the first barrier of a collective, read by all between the two.
  std::vector<slot> slots;

  /// Returns once every rank has called wait() as often; throws runtime_error once the group is aborted.
  void wait() {
    std::unique_lock lock(m_);
    if (aborted_) throw runtime_error(another_rank_failed);
    const std::uint64_t gen = generation_;
    if (++arrived_ == static_cast<int>(slots.size())) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != gen || aborted_; });
    if (generation_ == gen) throw runtime_error(another_rank_failed);
  }

  void abort() noexcept {
    {
      std::lock_guard lock(m_);
      aborted_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  bool aborted_ = false;
};

/// Empty when all ranks called the same collective with matching arguments, else the message of the
/// value_error every rank throws.
std::string mismatch(const std::vector<slot>& slots) {
  const slot& a = slots[0];
  const std::string fn = std::string("cusci::distributed::communicator::") + name_of(a.what);
  for (std::size_t r = 1; r < slots.size(); ++r) {
    const slot& b = slots[r];
    const std::string ranks = "(rank 0: ", rank_r = ", rank " + std::to_string(r) + ": ";
    if (b.what != a.what)
      return "cusci::distributed::communicator: the ranks of a local group called different collectives " + ranks +
             name_of(a.what) + rank_r + name_of(b.what) + ")";
    if (a.what == collective::barrier) continue;
    if (b.dt != a.dt)
      return fn + ": the ranks passed different dtypes " + ranks + std::string(dtype_name(a.dt)) + rank_r +
             std::string(dtype_name(b.dt)) + ")";
    if (a.what != collective::exchange && b.count != a.count)
      return fn + ": the ranks passed different counts " + ranks + std::to_string(a.count) + rank_r +
             std::to_string(b.count) + ")";
    if (a.what == collective::allreduce && b.op != a.op)
      return fn + ": the ranks passed different reduce_ops " + ranks + name_of(a.op) + rank_r + name_of(b.op) + ")";
    if (a.what == collective::broadcast && b.root != a.root)
      return fn + ": the ranks passed different roots " + ranks + std::to_string(a.root) + rank_r +
             std::to_string(b.root) + ")";
  }
  if (a.what != collective::exchange) return {};
  std::vector<std::span<const message>> sends, recvs;
  for (const slot& s : slots) {
    sends.emplace_back(s.sends);
    recvs.emplace_back(s.recvs);
  }
  return pairing_error(fn.c_str(), sends, recvs);
}

void copy(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
  if (dst != src && bytes > 0) CUSCI_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
}

bool overlap(const void* a, const void* b, std::size_t bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return bytes > 0 && x < y + bytes && y < x + bytes;
}

class local_impl final : public communicator::impl {
 public:
  local_impl(std::shared_ptr<group> g, int rank, int device)
      : impl(communicator::kind::local, rank, static_cast<int>(g->slots.size()), device), g_(std::move(g)) {}

  void allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op op,
                 cudaStream_t s) override {
    const std::size_t bytes = count * itemsize(dt);
    memory_ptr scratch;  // the result, while recv overlaps a buffer the other ranks still read
    run({.what = collective::allreduce, .dt = dt, .count = count, .op = op, .send = send, .recv = recv}, s, [&] {
      std::vector<const void*> srcs;
      for (const slot& sl : g_->slots) srcs.push_back(sl.send);
      const bool in_place = std::any_of(srcs.begin(), srcs.end(), [&](const void* p) { return overlap(p, recv, bytes); });
      if (in_place) scratch = cusci::malloc(bytes, s);
      reduce_buffers(srcs, in_place ? scratch->ptr() : recv, count, dt, op, s);
    });
    if (scratch) {
      copy(recv, scratch->ptr(), bytes, s);
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    }
  }

  void exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                cudaStream_t s) override {
    slot mine{.what = collective::exchange, .dt = dt};
    mine.sends.assign(sends.begin(), sends.end());
    mine.recvs.assign(recvs.begin(), recvs.end());
    run(std::move(mine), s, [&] {
      // The k-th receive from q is filled by the k-th send of q to this rank.
      std::vector<std::vector<const message*>> from(g_->slots.size());
      for (std::size_t q = 0; q < g_->slots.size(); ++q)
        for (const message& m : g_->slots[q].sends)
          if (m.peer == rank) from[q].push_back(&m);
      std::vector<std::size_t> next(g_->slots.size(), 0);
      for (const message& m : recvs) {
        const message* src = from[static_cast<std::size_t>(m.peer)][next[static_cast<std::size_t>(m.peer)]++];
        copy(m.buffer, src->buffer, m.count * itemsize(dt), s);
      }
    });
  }

  void broadcast(void* buffer, std::size_t count, cusci::dtype dt, int root, cudaStream_t s) override {
    run({.what = collective::broadcast, .dt = dt, .count = count, .root = root, .recv = buffer}, s, [&] {
      if (rank != root) copy(buffer, g_->slots[static_cast<std::size_t>(root)].recv, count * itemsize(dt), s);
    });
  }

  void allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) override {
    const std::size_t bytes = count * itemsize(dt);
    run({.what = collective::allgather, .dt = dt, .count = count, .send = send, .recv = recv}, s, [&] {
      for (std::size_t q = 0; q < g_->slots.size(); ++q) copy(static_cast<char*>(recv) + q * bytes, g_->slots[q].send, bytes, s);
    });
  }

  void barrier(cudaStream_t s) override { run({.what = collective::barrier}, s, [] {}); }

  void abort() noexcept override { g_->abort(); }

 private:
  /// The frame of every collective (see the file comment); `part` is this rank's work on `s`.
  template <class Part>
  void run(slot mine, cudaStream_t s, Part&& part) {
    bool consistent = false;  // a mismatch every rank has seen: no need to abort the group
    try {
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));  // this rank's data is ready for the others
      g_->slots[static_cast<std::size_t>(rank)] = std::move(mine);
      g_->wait();
      if (const std::string err = mismatch(g_->slots); !err.empty()) {
        consistent = true;
        g_->wait();  // nobody rewrites a slot while another rank still checks them
        throw value_error(err);
      }
      part();
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    } catch (...) {
      if (!consistent) g_->abort();
      throw;
    }
    g_->wait();
  }

  std::shared_ptr<group> g_;
};

}  // namespace

std::vector<communicator> make_local_group(int nranks, int device) {
  auto g = std::make_shared<group>(nranks);
  std::vector<communicator> comms;
  for (int r = 0; r < nranks; ++r) comms.emplace_back(std::make_shared<local_impl>(g, r, device));
  return comms;
}

}  // namespace cusci::distributed::detail

#pragma once
/// @file distributed/communicator.hpp
/// The ranks a distributed matrix and its solvers run on, and the collectives they use: sum/max
/// all-reduce, grouped point-to-point exchange, broadcast and a barrier (docs/distributed.md).
///
/// Programs are written SPMD: every rank calls the same cusci::distributed functions in the same
/// order with its own communicator, as MPI programs do. Three ways to obtain the communicators:
///   - `self_communicator()`: one rank on the current device (no NCCL); a distributed program run this
///     way does what the one-GPU code does;
///   - `init_all(devices)` (NCCL's `ncclCommInitAll`): one process driving several GPUs, a rank per
///     GPU, each rank's code run on its own thread (`run_ranks`);
///   - `from_mpi` (cusci/distributed/mpi.hpp, target cusci::distributed_mpi): one process per GPU
///     started by `mpirun`, the NCCL communicator bootstrapped through MPI (`init_rank` with a
///     unique id broadcast by MPI).
/// And, for tests and one-GPU machines, `local_group(nranks, device)`: several ranks in one process on
/// one device, exchanging through device copies and a host barrier instead of NCCL (which refuses two
/// ranks on one GPU). It is a stand-in to check partitioning, halo exchanges and solvers, not a
/// transport: it synchronizes the host at every collective.
///
/// Stream behaviour: collectives taking a `cudaStream_t` are enqueued on it (NCCL: asynchronous; the
/// local group: returns once the collective has completed). The ndarray forms use the current stream.
/// A communicator is used by one thread at a time (its rank's thread). Copies share the underlying
/// communicator, which is destroyed with the last copy.

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::distributed {

/// Reduction of an all-reduce.
enum class reduce_op { sum, max, min };

/// One message of an `exchange`: `count` elements at device address `buffer`, to or from `peer`.
struct message {
  int peer = 0;
  void* buffer = nullptr;
  std::size_t count = 0;
};

/// NCCL's unique id (ncclUniqueId): made by one rank with `get_unique_id()`, sent to the others (for
/// example with MPI_Bcast), then passed by every rank to `init_rank`.
struct unique_id {
  std::array<char, 128> bytes{};
};

class communicator {
 public:
  /// The backend a communicator runs on.
  enum class kind { self, nccl, local };

  /// An invalid communicator (valid() false); every other member throws cusci::value_error on it.
  communicator() = default;

  bool valid() const noexcept { return static_cast<bool>(impl_); }
  int rank() const;
  int size() const;
  /// The CUDA device this rank's work runs on.
  int device() const;
  kind backend() const;
  /// "self", "nccl" or "local".
  std::string_view backend_name() const;

  /// recv[i] = op over ranks of send[i], i < count, for `count` elements of dtype dt (float32, float64,
  /// complex64, complex128 (sum only), int32, int64) at device addresses on this rank's device;
  /// send == recv is allowed. Enqueued on `s` (a stream of this rank's device).
  /// @throws cusci::type_error for another dtype or complex with max/min; cusci::value_error for a
  ///         null buffer with count > 0, or (local group) ranks passing different arguments;
  ///         cusci::runtime_error naming NCCL's error, or when another rank failed.
  void allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op op,
                 cudaStream_t s) const;
  /// The all-reduce of a contiguous device array on this rank's device, returned as a new array of
  /// the same shape, dtype and order, allocated from the pool (current stream of this rank's device).
  /// @throws as the pointer form; cusci::value_error for a non-contiguous x or one on another device.
  ndarray allreduce(const ndarray& x, reduce_op op = reduce_op::sum) const;

  /// Grouped point-to-point: every message of `sends` goes to its peer, every message of `recvs` is
  /// received from its peer; elements of dtype dt (any fixed-size dtype). The messages between two
  /// ranks pair up in order: the k-th send from r to q fills the k-th receive of q from r, and their
  /// counts must agree. Enqueued on `s` (NCCL: one ncclGroupStart/End around ncclSend/ncclRecv).
  /// Buffers of one exchange must not overlap.
  /// @throws cusci::index_error for a peer outside [0, size()); cusci::value_error for a null buffer
  ///         with count > 0, or (self, local group) messages that do not pair up; cusci::runtime_error.
  void exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                cudaStream_t s) const;

  /// Copies `count` elements at `buffer` on rank `root` to `buffer` on every rank. Enqueued on `s`.
  /// @throws cusci::index_error for a root outside [0, size()); cusci::value_error, cusci::runtime_error
  ///         as allreduce.
  void broadcast(void* buffer, std::size_t count, cusci::dtype dt, int root, cudaStream_t s) const;

  /// recv[r * count + i] = send of rank r [i] on every rank (recv holds size() * count elements;
  /// send may be recv + rank() * count). Enqueued on `s`. @throws as allreduce (any dtype).
  void allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) const;

  /// Blocks the calling thread until every rank has reached the barrier (and its device work enqueued
  /// before on the current stream has completed). NCCL: an all-reduce of one int32, then a stream
  /// synchronization. @throws cusci::runtime_error when another rank failed.
  void barrier() const;

  /// The backend (internal: defined in distributed/src/comm/comm_impl.hpp).
  struct impl;
  /// Wraps a backend (used by cusci's constructors above and below).
  explicit communicator(std::shared_ptr<impl> p) : impl_(std::move(p)) {}
  /// The backend. @throws cusci::value_error on an invalid communicator.
  impl& get() const;

 private:
  std::shared_ptr<impl> impl_;
};

/// One rank on `device` (default: the current device): the collectives are copies (or nothing);
/// barrier() synchronizes the current stream.
/// @throws cusci::index_error for a device outside [0, device_count()).
communicator self_communicator(int device = -1);

/// Whether cusci was built with NCCL's header (init_all, init_rank and get_unique_id need it). NCCL's
/// library (libnccl.so.2) is loaded on first use, by the first of those calls: where it cannot be
/// loaded, that call throws cusci::cuda_error "cusci: cannot load libnccl.so.2 (...)".
bool have_nccl() noexcept;

/// A communicator of `devices.size()` ranks in this process, rank i on devices[i] (NCCL's
/// ncclCommInitAll). Run each rank's code on its own thread (run_ranks).
/// @throws cusci::value_error for an empty list or a repeated device (NCCL allows one rank a GPU);
///         cusci::index_error for a device outside [0, device_count()); cusci::not_implemented_error
///         when cusci was built without NCCL; cusci::runtime_error naming NCCL's error.
std::vector<communicator> init_all(std::span<const int> devices);

/// NCCL's unique id, made by one rank and shared with the others before init_rank.
/// @throws cusci::not_implemented_error without NCCL; cusci::runtime_error.
unique_id get_unique_id();

/// This process's rank of an NCCL communicator of `nranks` ranks (ncclCommInitRank), on `device` (-1:
/// the current device). Collective: every rank calls it with the same id. The caller's current device
/// is unchanged. @throws cusci::value_error for nranks < 1 or rank outside [0, nranks);
/// cusci::index_error for a device outside [0, device_count()); as get_unique_id.
communicator init_rank(const unique_id& id, int nranks, int rank, int device);

/// `nranks` ranks in this process sharing `device` (default: the current one), exchanging through
/// device copies and a host barrier (see the file comment). Run each rank on its own thread
/// (run_ranks). Every collective synchronizes the rank's stream and returns once done. The ranks must
/// call the same collectives in the same order with matching arguments (dtype, count, op, root; each
/// exchange message paired with one of the same count): a mismatch makes every rank throw the same
/// cusci::value_error, after which the group is still usable. An all-reduce sums in rank order, so
/// every rank gets the same bits; its recv may be its send (a scratch buffer from the pool is used).
/// A rank failing inside a collective aborts the group (the others throw cusci::runtime_error).
/// @throws cusci::value_error for nranks < 1; cusci::index_error for a bad device.
std::vector<communicator> local_group(int nranks, int device = -1);

/// Runs fn(comm) for each communicator on a thread of its own and waits for all; rethrows the first
/// exception any rank threw, after every thread has ended. On its thread, a rank's device is made
/// current, and a new (blocking) stream of its own is made the current stream (stream_guard) while fn
/// runs; run_ranks synchronizes that stream when fn returns and destroys it, so everything fn enqueued
/// has completed when run_ranks returns. (Not the per-thread default stream: its one handle names every
/// thread's stream, and the pool, which caches freed blocks by stream handle, would hand a block freed
/// by one rank to another rank of the same device while the first rank's work on it may still run.)
/// When a rank throws, the communicators are aborted (local group: the other ranks' waiting and later
/// collectives throw cusci::runtime_error "cusci::distributed: another rank failed"; NCCL:
/// ncclCommAbort, and their later collectives throw the same), so that no rank waits forever for one
/// that has gone; aborted communicators stay unusable. Several communicators of one group may be run
/// (all of its ranks, or those of this process).
/// @throws cusci::value_error for an invalid communicator, the same rank twice or an empty fn; what a
///         rank threw.
void run_ranks(std::span<const communicator> comms, const std::function<void(const communicator&)>& fn);

}  // namespace cusci::distributed

#pragma once
// Internal interface of the communicators (communicator.hpp): the backend base class behind
// communicator::impl and the helpers the backends share. Never installed.
//
// The public members (communicator.cpp) check every argument, make the communicator's device current
// and then call the backend, so a backend sees only valid arguments: peers and roots in range, dtypes
// the collective supports, no null buffer with a non-zero count.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cusci/distributed/communicator.hpp"
#include "cusci/dtype.hpp"

namespace cusci::distributed {

/// One rank of a communicator: the backends derive from it (self.cpp, nccl.cpp, local.cpp).
struct communicator::impl {
  impl(communicator::kind backend_, int rank_, int size_, int device_)
      : backend(backend_), rank(rank_), size(size_), device(device_) {}
  virtual ~impl() = default;
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  const communicator::kind backend;
  const int rank, size, device;

  virtual void allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op op,
                         cudaStream_t s) = 0;
  virtual void exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                        cudaStream_t s) = 0;
  virtual void broadcast(void* buffer, std::size_t count, cusci::dtype dt, int root, cudaStream_t s) = 0;
  virtual void allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) = 0;
  /// Waits for the work enqueued on `s`, then for every rank.
  virtual void barrier(cudaStream_t s) = 0;
  /// Makes the ranks' waiting and later collectives throw cusci::runtime_error (run_ranks calls it when
  /// a rank threw). Thread-safe and idempotent; may be called while another thread is inside a
  /// collective of this rank.
  virtual void abort() noexcept {}
};

namespace detail {

/// The message of the runtime_error a rank throws once its group has been aborted.
inline constexpr const char* another_rank_failed = "cusci::distributed: another rank failed";

/// Empty when the messages of an exchange pair up (the k-th send from r to q and the k-th receive of
/// q from r exist together and have the same count), else the message of the value_error, naming
/// `function`. sends[r] and recvs[r] are rank r's lists.
std::string pairing_error(const char* function, std::span<const std::span<const message>> sends,
                          std::span<const std::span<const message>> recvs);

/// out[i] = srcs[0][i] op srcs[1][i] op ... op srcs[n-1][i] for i < count, combined left to right
/// in the order of `srcs` (so the result does not depend on timing); `out` may be one of the sources
/// only as srcs[0]. dt: float32, float64, int32, int64, complex64 and complex128 (sum only).
/// max/min propagate NaN. Enqueued on `s` (local_reduce.cu).
void reduce_buffers(std::span<const void* const> srcs, void* out, std::size_t count, cusci::dtype dt,
                    reduce_op op, cudaStream_t s);

/// The backends' constructors.
std::shared_ptr<communicator::impl> make_self(int device);
std::vector<communicator> make_local_group(int nranks, int device);

}  // namespace detail
}  // namespace cusci::distributed

// The NCCL backend: init_all (ncclCommInitAll), get_unique_id / init_rank (ncclGetUniqueId /
// ncclCommInitRank) and the collectives on an ncclComm_t. Compiled with CUSCI_HAVE_NCCL when CMake found
// NCCL (comm.cmake); without it the three constructors check their arguments, then throw
// not_implemented_error.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "comm/comm_impl.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"

#ifdef CUSCI_HAVE_NCCL
#include <nccl.h>

#include <atomic>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/memory.hpp"
#endif

namespace cusci::distributed {
namespace {

void check_device(const char* fn, const char* what, int device) {
  const int n = device_count();
  CUSCI_EXPECTS(device >= 0 && device < n, index_error,
                std::string(fn) + ": " + what + " must be in [0, " + std::to_string(n) + "), got " + std::to_string(device));
}

[[maybe_unused]] std::string without_nccl(const char* fn) {
  return std::string(fn) + ": cusci was built without NCCL (have_nccl() is false); use self_communicator or "
                           "local_group, or rebuild cusci where CMake finds NCCL (nccl.h)";
}

#ifdef CUSCI_HAVE_NCCL
static_assert(sizeof(ncclUniqueId) == sizeof(unique_id::bytes), "ncclUniqueId is not 128 bytes");

void nccl_check(ncclResult_t r, const char* fn, const char* call) {
  if (r == ncclSuccess) return;
  std::string what = std::string(fn) + ": " + call + " failed: " + CUSCI_LAZY(ncclGetErrorString)(r);
  if (const char* last = CUSCI_LAZY(ncclGetLastError)(nullptr); last && *last) what += std::string(" (") + last + ")";
  throw runtime_error(what);
}

/// The element type and count NCCL reduces for `count` elements of dt (a complex sum is a sum of
/// reals); dt is one the public member accepts.
std::pair<ncclDataType_t, std::size_t> nccl_type(cusci::dtype dt, std::size_t count) {
  switch (dt) {
    case dtype::float32: return {ncclFloat32, count};
    case dtype::float64: return {ncclFloat64, count};
    case dtype::int32: return {ncclInt32, count};
    case dtype::int64: return {ncclInt64, count};
    case dtype::complex64: return {ncclFloat32, 2 * count};
    case dtype::complex128: return {ncclFloat64, 2 * count};
    default: break;
  }
  throw type_error("cusci::distributed: no NCCL all-reduce for dtype " + std::string(dtype_name(dt)));
}

ncclRedOp_t nccl_op(reduce_op op) {
  return op == reduce_op::sum ? ncclSum : op == reduce_op::max ? ncclMax : ncclMin;
}

class nccl_impl final : public communicator::impl {
 public:
  nccl_impl(ncclComm_t comm, int rank, int size, int device)
      : impl(communicator::kind::nccl, rank, size, device), comm_(comm) {}

  ~nccl_impl() override {
    if (aborted_.load()) return;  // ncclCommAbort freed it
    int previous = -1;
    const bool restore = cudaGetDevice(&previous) == cudaSuccess && previous != device;
    if (cudaSetDevice(device) != cudaSuccess) cudaGetLastError();
    CUSCI_LAZY(ncclCommDestroy)(comm_);  // never throws; waits for this rank's pending operations
    if (restore) cudaSetDevice(previous);
  }

  void allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op op,
                 cudaStream_t s) override {
    alive();
    const auto [type, n] = nccl_type(dt, count);
    nccl_check(CUSCI_LAZY(ncclAllReduce)(send, recv, n, type, nccl_op(op), comm_, s), "cusci::distributed::communicator::allreduce",
               "ncclAllReduce");
  }

  void exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                cudaStream_t s) override {
    constexpr const char* fn = "cusci::distributed::communicator::exchange";
    alive();
    const std::size_t size = itemsize(dt);
    nccl_check(CUSCI_LAZY(ncclGroupStart)(), fn, "ncclGroupStart");
    // Empty messages pair with empty messages (equal counts), so leaving them all out keeps the others
    // paired in order.
    ncclResult_t r = ncclSuccess;
    const char* failed = "ncclSend";
    for (const message& m : sends)
      if (r == ncclSuccess && m.count > 0) r = CUSCI_LAZY(ncclSend)(m.buffer, m.count * size, ncclUint8, m.peer, comm_, s);
    if (r == ncclSuccess) failed = "ncclRecv";
    for (const message& m : recvs)
      if (r == ncclSuccess && m.count > 0) r = CUSCI_LAZY(ncclRecv)(m.buffer, m.count * size, ncclUint8, m.peer, comm_, s);
    const ncclResult_t end = CUSCI_LAZY(ncclGroupEnd)();  // always closes the group
    nccl_check(r, fn, failed);
    nccl_check(end, fn, "ncclGroupEnd");
  }

  void broadcast(void* buffer, std::size_t count, cusci::dtype dt, int root, cudaStream_t s) override {
    alive();
    nccl_check(CUSCI_LAZY(ncclBroadcast)(buffer, buffer, count * itemsize(dt), ncclUint8, root, comm_, s),
               "cusci::distributed::communicator::broadcast", "ncclBroadcast");
  }

  void allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) override {
    alive();
    nccl_check(CUSCI_LAZY(ncclAllGather)(send, recv, count * itemsize(dt), ncclUint8, comm_, s),
               "cusci::distributed::communicator::allgather", "ncclAllGather");
  }

  void barrier(cudaStream_t s) override {
    alive();
    memory_ptr flag = cusci::malloc(sizeof(int), s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(flag->ptr(), 0, sizeof(int), s));
    nccl_check(CUSCI_LAZY(ncclAllReduce)(flag->ptr(), flag->ptr(), 1, ncclInt32, ncclSum, comm_, s),
               "cusci::distributed::communicator::barrier", "ncclAllReduce");
    CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  }

  void abort() noexcept override {
    if (!aborted_.exchange(true)) CUSCI_LAZY(ncclCommAbort)(comm_);  // also ends the operations other threads wait for
  }

 private:
  void alive() const {
    if (aborted_.load()) throw runtime_error(detail::another_rank_failed);
  }

  ncclComm_t comm_;
  std::atomic<bool> aborted_{false};
};
#endif

}  // namespace

bool have_nccl() noexcept {
#ifdef CUSCI_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

std::vector<communicator> init_all(std::span<const int> devices) {
  constexpr const char* fn = "cusci::distributed::init_all";
  CUSCI_NVTX_SCOPE(fn);
  CUSCI_EXPECTS(!devices.empty(), value_error, std::string(fn) + ": devices must not be empty");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    check_device(fn, ("devices[" + std::to_string(i) + "]").c_str(), devices[i]);
    for (std::size_t j = 0; j < i; ++j)
      CUSCI_EXPECTS(devices[j] != devices[i], value_error,
                    std::string(fn) + ": devices: device " + std::to_string(devices[i]) +
                        " appears twice (NCCL allows one rank a GPU; local_group runs several ranks on one)");
  }
#ifdef CUSCI_HAVE_NCCL
  const int n = static_cast<int>(devices.size());
  std::vector<ncclComm_t> handles(devices.size());
  {
    const device_guard keep(get_device_id());  // restores the caller's device
    nccl_check(CUSCI_LAZY(ncclCommInitAll)(handles.data(), n, devices.data()), fn, "ncclCommInitAll");
  }
  std::vector<communicator> comms;
  int owned = 0;
  try {
    comms.reserve(devices.size());
    for (; owned < n; ++owned)
      comms.emplace_back(std::make_shared<nccl_impl>(handles[static_cast<std::size_t>(owned)], owned, n, devices[static_cast<std::size_t>(owned)]));
  } catch (...) {
    for (int r = owned; r < n; ++r) CUSCI_LAZY(ncclCommDestroy)(handles[static_cast<std::size_t>(r)]);
    throw;
  }
  return comms;
#else
  throw not_implemented_error(without_nccl(fn));
#endif
}

unique_id get_unique_id() {
  constexpr const char* fn = "cusci::distributed::get_unique_id";
  CUSCI_NVTX_SCOPE(fn);
#ifdef CUSCI_HAVE_NCCL
  ncclUniqueId id;
  nccl_check(CUSCI_LAZY(ncclGetUniqueId)(&id), fn, "ncclGetUniqueId");
  unique_id out;
  std::copy(id.internal, id.internal + sizeof(id.internal), out.bytes.begin());
  return out;
#else
  throw not_implemented_error(without_nccl(fn));
#endif
}

communicator init_rank(const unique_id& id, int nranks, int rank, int device) {
  constexpr const char* fn = "cusci::distributed::init_rank";
  CUSCI_NVTX_SCOPE(fn);
  CUSCI_EXPECTS(nranks >= 1, value_error, std::string(fn) + ": nranks must be at least 1, got " + std::to_string(nranks));
  CUSCI_EXPECTS(rank >= 0 && rank < nranks, value_error,
                std::string(fn) + ": rank must be in [0, nranks) = [0, " + std::to_string(nranks) + "), got " +
                    std::to_string(rank));
  if (device == -1) device = get_device_id();
  check_device(fn, "device", device);
#ifdef CUSCI_HAVE_NCCL
  ncclUniqueId nid;
  std::copy(id.bytes.begin(), id.bytes.end(), nid.internal);
  ncclComm_t comm = nullptr;
  {
    const device_guard on(device);
    nccl_check(CUSCI_LAZY(ncclCommInitRank)(&comm, nranks, nid, rank), fn, "ncclCommInitRank");
  }
  try {
    return communicator(std::make_shared<nccl_impl>(comm, rank, nranks, device));
  } catch (...) {
    CUSCI_LAZY(ncclCommDestroy)(comm);
    throw;
  }
#else
  (void)id;
  throw not_implemented_error(without_nccl(fn));
#endif
}

}  // namespace cusci::distributed

// communicator's members (argument checks, then the backend on the communicator's device),
// self_communicator, local_group and run_ranks (communicator.hpp).

#include "cusci/distributed/communicator.hpp"

#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "comm/comm_impl.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::distributed {
namespace {

communicator::impl& checked(const communicator& c, const char* fn) {
  CUSCI_EXPECTS(c.valid(), value_error,
                std::string(fn) + ": the communicator is invalid (default-constructed); obtain one from "
                                  "self_communicator, init_all, init_rank, from_mpi or local_group");
  return c.get();
}

/// A device address for `count` elements: non-null unless count is 0. Returns count * itemsize(dt)
/// (checked: out_of_memory for a count no allocation can hold).
std::size_t check_buffer(const char* fn, const std::string& what, const void* p, std::size_t count, cusci::dtype dt) {
  CUSCI_EXPECTS(p || count == 0, value_error,
                std::string(fn) + ": " + what + " is null with a count of " + std::to_string(count) + " elements");
  return cusci::detail::checked_bytes(count, itemsize(dt), fn);
}

void check_peer(const char* fn, const std::string& what, int peer, int size) {
  CUSCI_EXPECTS(peer >= 0 && peer < size, index_error,
                std::string(fn) + ": " + what + " must be in [0, size()) = [0, " + std::to_string(size) + "), got " +
                    std::to_string(peer));
}

void check_reduce_dtype(const char* fn, cusci::dtype dt, reduce_op op) {
  switch (dt) {
    case dtype::float32:
    case dtype::float64:
    case dtype::int32:
    case dtype::int64: return;
    case dtype::complex64:
    case dtype::complex128:
      CUSCI_EXPECTS(op == reduce_op::sum, type_error,
                    std::string(fn) + ": dt " + std::string(dtype_name(dt)) +
                        " supports reduce_op::sum only (complex numbers have no order), got " +
                        (op == reduce_op::max ? "max" : "min"));
      return;
    default: break;
  }
  throw type_error(std::string(fn) + ": dt must be float32, float64, complex64, complex128, int32 or int64, got " +
                   std::string(dtype_name(dt)));
}

/// A device id for the constructors: -1 is the current device.
int pick_device(const char* fn, int device) {
  if (device == -1) return get_device_id();
  const int n = device_count();
  CUSCI_EXPECTS(device >= 0 && device < n, index_error,
                std::string(fn) + ": device must be in [0, " + std::to_string(n) + ") or -1 (the current one), got " +
                    std::to_string(device));
  return device;
}

}  // namespace

communicator::impl& communicator::get() const {
  CUSCI_EXPECTS(impl_, value_error,
                "cusci::distributed::communicator: the communicator is invalid (default-constructed)");
  return *impl_;
}

int communicator::rank() const { return get().rank; }
int communicator::size() const { return get().size; }
int communicator::device() const { return get().device; }
communicator::kind communicator::backend() const { return get().backend; }

std::string_view communicator::backend_name() const {
  switch (get().backend) {
    case kind::self: return "self";
    case kind::nccl: return "nccl";
    case kind::local: return "local";
  }
  return "?";
}

void communicator::allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op op,
                             cudaStream_t s) const {
  constexpr const char* fn = "cusci::distributed::communicator::allreduce";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  check_reduce_dtype(fn, dt, op);
  check_buffer(fn, "send", send, count, dt);
  check_buffer(fn, "recv", recv, count, dt);
  const device_guard on(I.device);
  I.allreduce(send, recv, count, dt, op, s);
}

ndarray communicator::allreduce(const ndarray& x, reduce_op op) const {
  constexpr const char* fn = "cusci::distributed::communicator::allreduce";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  check_reduce_dtype(fn, x.dtype(), op);
  CUSCI_EXPECTS(x.is_c_contiguous() || x.is_f_contiguous(), value_error,
                std::string(fn) + ": x must be contiguous (C or F order); copy it first");
  CUSCI_EXPECTS(x.size() == 0 || x.device() == I.device, value_error,
                std::string(fn) + ": x is on device " + std::to_string(x.device()) + " but this rank's device is " +
                    std::to_string(I.device));
  const device_guard on(I.device);
  ndarray out = empty(x.shape(), x.dtype(), x.is_c_contiguous() ? order::C : order::F);
  allreduce(x.data(), out.data(), static_cast<std::size_t>(x.size()), x.dtype(), op, get_current_stream());
  return out;
}

void communicator::exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                            cudaStream_t s) const {
  constexpr const char* fn = "cusci::distributed::communicator::exchange";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  for (const auto& [list, name] : {std::pair{sends, "sends"}, std::pair{recvs, "recvs"}})
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string what = std::string(name) + "[" + std::to_string(k) + "]";
      check_peer(fn, what + ".peer", list[k].peer, I.size);
      check_buffer(fn, what + ".buffer", list[k].buffer, list[k].count, dt);
    }
  const device_guard on(I.device);
  I.exchange(sends, recvs, dt, s);
}

void communicator::broadcast(void* buffer, std::size_t count, cusci::dtype dt, int root, cudaStream_t s) const {
  constexpr const char* fn = "cusci::distributed::communicator::broadcast";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  check_peer(fn, "root", root, I.size);
  check_buffer(fn, "buffer", buffer, count, dt);
  const device_guard on(I.device);
  I.broadcast(buffer, count, dt, root, s);
}

void communicator::allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) const {
  constexpr const char* fn = "cusci::distributed::communicator::allgather";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  check_buffer(fn, "send", send, count, dt);
  const auto nranks = static_cast<std::size_t>(I.size);
  check_buffer(fn, "recv", recv, cusci::detail::checked_bytes(count, nranks, fn), dt);
  const device_guard on(I.device);
  I.allgather(send, recv, count, dt, s);
}

void communicator::barrier() const {
  constexpr const char* fn = "cusci::distributed::communicator::barrier";
  CUSCI_NVTX_SCOPE(fn);
  impl& I = checked(*this, fn);
  const device_guard on(I.device);
  I.barrier(get_current_stream());
}

communicator self_communicator(int device) {
  CUSCI_NVTX_SCOPE("cusci::distributed::self_communicator");
  return communicator(detail::make_self(pick_device("cusci::distributed::self_communicator", device)));
}

std::vector<communicator> local_group(int nranks, int device) {
  constexpr const char* fn = "cusci::distributed::local_group";
  CUSCI_NVTX_SCOPE(fn);
  CUSCI_EXPECTS(nranks >= 1, value_error, std::string(fn) + ": nranks must be at least 1, got " + std::to_string(nranks));
  return detail::make_local_group(nranks, pick_device(fn, device));
}

void run_ranks(std::span<const communicator> comms, const std::function<void(const communicator&)>& fn) {
  constexpr const char* name = "cusci::distributed::run_ranks";
  CUSCI_NVTX_SCOPE(name);
  CUSCI_EXPECTS(static_cast<bool>(fn), value_error, std::string(name) + ": fn is empty");
  for (std::size_t i = 0; i < comms.size(); ++i) {
    checked(comms[i], name);
    for (std::size_t j = 0; j < i; ++j)
      CUSCI_EXPECTS(&comms[j].get() != &comms[i].get(), value_error,
                    std::string(name) + ": comms[" + std::to_string(j) + "] and comms[" + std::to_string(i) +
                        "] are the same rank (each rank runs on one thread)");
  }
  std::mutex m;
  std::exception_ptr first;
  // The first exception is kept; every rank is aborted, so that none waits for the one that failed.
  const auto fail = [&] {
    {
      const std::lock_guard lock(m);
      if (!first) first = std::current_exception();
    }
    for (const communicator& c : comms) c.get().abort();
  };
  const auto rank_main = [&](const communicator& c) {
    std::optional<stream> st;
    try {
      set_device(c.device());
      // A stream of its own, not the per-thread default stream: that one handle names every thread's
      // stream, and the pool, which caches freed blocks by stream handle, would hand a block one rank
      // freed to another rank while the first rank's work on it may still run.
      st.emplace();
      const stream_guard on(*st);
      fn(c);
      st->synchronize();
    } catch (...) {
      fail();
      if (st && cudaStreamSynchronize(st->handle()) != cudaSuccess) cudaGetLastError();  // aborted work ends
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(comms.size());
  try {
    for (const communicator& c : comms) threads.emplace_back(rank_main, std::cref(c));
  } catch (...) {  // no thread for a rank: end the others
    fail();
  }
  for (std::thread& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace cusci::distributed

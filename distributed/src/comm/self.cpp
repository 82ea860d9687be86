// The one-rank communicator (self_communicator): every collective is a device copy or nothing; and the
// message pairing check the local group shares.

#include <cuda_runtime_api.h>

#include <string>

#include "comm/comm_impl.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::distributed::detail {

std::string pairing_error(const char* function, std::span<const std::span<const message>> sends,
                          std::span<const std::span<const message>> recvs) {
  const std::size_t p = sends.size();
  // counts[r * p + q]: the counts of the messages from r to q, in order, as sent and as received.
  std::vector<std::vector<std::size_t>> sent(p * p), received(p * p);
  for (std::size_t r = 0; r < p; ++r) {
    for (const message& m : sends[r]) sent[r * p + static_cast<std::size_t>(m.peer)].push_back(m.count);
    for (const message& m : recvs[r]) received[static_cast<std::size_t>(m.peer) * p + r].push_back(m.count);
  }
  for (std::size_t r = 0; r < p; ++r)
    for (std::size_t q = 0; q < p; ++q) {
      const auto& a = sent[r * p + q];
      const auto& b = received[r * p + q];
      const std::string from = "rank " + std::to_string(r), to = "rank " + std::to_string(q);
      for (std::size_t k = 0; k < a.size() && k < b.size(); ++k)
        if (a[k] != b[k])
          return std::string(function) + ": message " + std::to_string(k) + " from " + from + " to " + to + " has " +
                 std::to_string(a[k]) + " elements as sent but " + std::to_string(b[k]) + " as received";
      if (a.size() != b.size())
        return std::string(function) + ": " + from + " sends " + std::to_string(a.size()) + " messages to " + to +
               " but " + to + " receives " + std::to_string(b.size()) + " from " + from;
    }
  return {};
}

namespace {

void copy(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
  if (dst != src && bytes > 0) CUSCI_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
}

class self_impl final : public communicator::impl {
 public:
  explicit self_impl(int device) : impl(communicator::kind::self, 0, 1, device) {}

  void allreduce(const void* send, void* recv, std::size_t count, cusci::dtype dt, reduce_op,
                 cudaStream_t s) override {
    copy(recv, send, count * itemsize(dt), s);
  }

  void exchange(std::span<const message> sends, std::span<const message> recvs, cusci::dtype dt,
                cudaStream_t s) override {
    const std::span<const message> all_sends[] = {sends}, all_recvs[] = {recvs};
    const std::string err = pairing_error("cusci::distributed::communicator::exchange", all_sends, all_recvs);
    CUSCI_EXPECTS(err.empty(), value_error, err);
    for (std::size_t k = 0; k < sends.size(); ++k) copy(recvs[k].buffer, sends[k].buffer, sends[k].count * itemsize(dt), s);
  }

  void broadcast(void*, std::size_t, cusci::dtype, int, cudaStream_t) override {}

  void allgather(const void* send, void* recv, std::size_t count, cusci::dtype dt, cudaStream_t s) override {
    copy(recv, send, count * itemsize(dt), s);
  }

  void barrier(cudaStream_t s) override { CUSCI_CUDA_TRY(cudaStreamSynchronize(s)); }
};

}  // namespace

std::shared_ptr<communicator::impl> make_self(int device) { return std::make_shared<self_impl>(device); }

}  // namespace cusci::distributed::detail

// Distributed vectors (vector.hpp): construction, the all-gather of the blocks and the float64 dot
// product and norm (a rank's partial sum, then an all-reduce of one float64).

#include "cusci/distributed/vector.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "matrix/common.hpp"
#include "matrix/matrix_kernels.hpp"

namespace cusci::distributed {

using cusci::detail::msg;
using cusci::detail::shape_str;

vector::vector(communicator comm, row_partition part, ndarray local)
    : comm_(std::move(comm)), part_(std::move(part)), local_(std::move(local)) {
  constexpr const char* fn = "cusci::distributed::vector";
  detail::check_comm_partition(fn, comm_, part_);
  const int r = comm_.rank();
  CUSCI_EXPECTS(local_.ndim() == 1, value_error, msg(fn, "local must be 1-D, got shape " + shape_str(local_.shape())));
  detail::check_float(fn, "local", local_.dtype());
  CUSCI_EXPECTS(local_.shape(0) == part_.size(r), value_error,
                msg(fn, "local must have part.size(" + std::to_string(r) + ") = " + std::to_string(part_.size(r)) +
                            " entries, got " + std::to_string(local_.shape(0))));
  CUSCI_EXPECTS(local_.is_c_contiguous(), value_error, msg(fn, "local must be contiguous"));
  CUSCI_EXPECTS(local_.size() == 0 || local_.device() == comm_.device(), value_error,
                msg(fn, "local must live on the rank's device " + std::to_string(comm_.device()) + ", got device " +
                            std::to_string(local_.device())));
}

vector vector::zeros(const communicator& comm, const row_partition& part, cusci::dtype dt) {
  CUSCI_NVTX_SCOPE("cusci::distributed::vector::zeros");
  constexpr const char* fn = "cusci::distributed::vector::zeros";
  detail::check_comm_partition(fn, comm, part);
  detail::check_float(fn, "dt", dt);
  const device_guard g(comm.device());
  return vector(comm, part, cusci::zeros({part.size(comm.rank())}, dt));
}

vector vector::from_global(const communicator& comm, const row_partition& part, const ndarray& global) {
  CUSCI_NVTX_SCOPE("cusci::distributed::vector::from_global");
  constexpr const char* fn = "cusci::distributed::vector::from_global";
  detail::check_comm_partition(fn, comm, part);
  CUSCI_EXPECTS(global.ndim() == 1 && global.shape(0) == part.nrows(), value_error,
                msg(fn, "global must have shape (" + std::to_string(part.nrows()) + ",), got " +
                            shape_str(global.shape())));
  CUSCI_EXPECTS(!is_complex(global.dtype()), type_error,
                msg(fn, "complex vectors are not supported, got " + std::string(dtype_name(global.dtype()))));
  const int r = comm.rank();
  const device_guard g(comm.device());
  ndarray block = global[{slice{part.begin(r), part.end(r)}}];
  ndarray local = to_device(block, comm.device(), true);
  if (local.dtype() != dtype::float32 && local.dtype() != dtype::float64) local = local.astype(dtype::float64);
  return vector(comm, part, std::move(local));
}

vector vector::copy() const {
  CUSCI_NVTX_SCOPE("cusci::distributed::vector::copy");
  const device_guard g(comm_.device());
  return vector(comm_, part_, local_.copy());
}

ndarray gather(const vector& x) {
  CUSCI_NVTX_SCOPE("cusci::distributed::gather");
  constexpr const char* fn = "cusci::distributed::gather";
  CUSCI_EXPECTS(x.comm().valid(), value_error, msg(fn, "x is an empty vector"));
  const communicator& comm = x.comm();
  const row_partition& part = x.partition();
  const int P = part.nranks();
  const dtype dt = x.dtype();
  const std::size_t isz = itemsize(dt);
  std::int64_t widest = 0;
  for (int r = 0; r < P; ++r) widest = std::max(widest, part.size(r));
  const device_guard g(comm.device());
  const cudaStream_t s = get_current_stream();
  if (widest == 0) return empty({0}, dt);  // every rank knows it: no collective
  // Blocks padded to the widest one, gathered, then compacted.
  ndarray send = x.local();
  if (send.shape(0) != widest) {
    send = empty({widest}, dt);
    CUSCI_CUDA_TRY(cudaMemsetAsync(send.data(), 0, send.nbytes(), s));
    if (x.local().size() > 0)
      CUSCI_CUDA_TRY(cudaMemcpyAsync(send.data(), x.local().data(), x.local().nbytes(), cudaMemcpyDeviceToDevice, s));
  }
  ndarray all = empty({static_cast<std::int64_t>(P) * widest}, dt);
  comm.allgather(send.data(), all.data(), static_cast<std::size_t>(widest), dt, s);
  if (static_cast<std::int64_t>(P) * widest == part.nrows()) return all;  // equal blocks: nothing to compact
  ndarray out = empty({part.nrows()}, dt);
  auto* dst = static_cast<char*>(out.data());
  const auto* src = static_cast<const char*>(all.data());
  for (int r = 0; r < P; ++r) {
    if (part.size(r) == 0) continue;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(dst + static_cast<std::size_t>(part.begin(r)) * isz,
                                   src + static_cast<std::size_t>(r) * static_cast<std::size_t>(widest) * isz,
                                   static_cast<std::size_t>(part.size(r)) * isz, cudaMemcpyDeviceToDevice, s));
  }
  return out;
}

double dot(const vector& x, const vector& y) {
  CUSCI_NVTX_SCOPE("cusci::distributed::dot");
  constexpr const char* fn = "cusci::distributed::dot";
  CUSCI_EXPECTS(x.comm().valid() && y.comm().valid(), value_error, msg(fn, "x and y must not be empty vectors"));
  detail::check_same_layout(fn, "x", "y", x.comm(), x.partition(), y.comm(), y.partition());
  const device_guard g(x.comm().device());
  const cudaStream_t s = get_current_stream();
  // Mixed float32/float64 operands: the float32 one is widened (NumPy's promotion).
  const dtype dt = promote_types(x.dtype(), y.dtype());
  const ndarray a = x.local().astype(dt, false), b = y.local().astype(dt, false);
  device_buffer<double> sum(1, s);
  detail::local_dot(dt, a.size(), a.data(), b.data(), sum.data(), s);
  x.comm().allreduce(sum.data(), sum.data(), 1, dtype::float64, reduce_op::sum, s);
  double h = 0.0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, sum.data(), sizeof(double), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

double norm(const vector& x) {
  CUSCI_NVTX_SCOPE("cusci::distributed::norm");
  return std::sqrt(dot(x, x));
}

}  // namespace cusci::distributed

// The distributed solvers' preconditioners: Jacobi (1 / diag(A) of the rank's rows) and block Jacobi
// with the ILU(0) factors of each rank's diagonal block (cusci::sparse::linalg::ilu0). Both are
// rank-local: made and applied without communication.

#include <cctype>
#include <cstdint>
#include <string>

#include "cusci/detail/nvtx.hpp"
#include "cusci/distributed/solvers.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "solvers/common.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed {

namespace {

std::shared_ptr<preconditioner::impl> base_impl(const char* fn, const csr_matrix& A) {
  CUSCI_EXPECTS(A.comm().valid(), value_error, std::string(fn) + ": A is an empty matrix (no communicator)");
  auto m = std::make_shared<preconditioner::impl>();
  m->comm = A.comm();
  m->part = A.partition();
  m->dt = A.dtype();
  return m;
}

// ilu0's message names a row of the diagonal block ("... row 12 ..."): the same message with the
// global row and the rank added.
std::string with_global_row(const std::string& msg, std::int64_t begin, int rank) {
  const std::string key = "row ";
  std::size_t pos = msg.rfind(key);
  while (pos != std::string::npos) {
    std::size_t q = pos + key.size();
    std::size_t e = q;
    while (e < msg.size() && std::isdigit(static_cast<unsigned char>(msg[e]))) ++e;
    if (e > q) {
      const std::int64_t local = std::stoll(msg.substr(q, e - q));
      return msg.substr(0, q) + std::to_string(begin + local) + " (rank " + std::to_string(rank) + "'s row " +
             std::to_string(local) + ")" + msg.substr(e);
    }
    if (pos == 0) break;
    pos = msg.rfind(key, pos - 1);
  }
  return msg + " (rank " + std::to_string(rank) + ", rows from " + std::to_string(begin) + ")";
}

}  // namespace

const preconditioner::impl& preconditioner::get() const {
  CUSCI_EXPECTS(impl_ != nullptr, value_error,
                "cusci::distributed::preconditioner: empty preconditioner (make it with jacobi or block_jacobi_ilu0)");
  return *impl_;
}

preconditioner jacobi(const csr_matrix& A) {
  static constexpr const char* fn = "cusci::distributed::jacobi";
  CUSCI_NVTX_SCOPE(fn);
  auto m = base_impl(fn, A);
  const int rank = A.comm().rank();
  const std::int64_t nlocal = A.partition().size(rank);
  cudaStream_t st = get_current_stream();
  const vector d = A.diagonal();
  m->dinv = empty({nlocal}, A.dtype());
  if (nlocal > 0) {
    device_buffer<unsigned long long> first(1, st);
    CUSCI_CUDA_TRY(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), st));
    solver_detail::reciprocal(A.dtype(), nlocal, d.local().data(), m->dinv.data(), first.data(), st);
    unsigned long long h = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, first.data(), sizeof(h), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    if (h < static_cast<unsigned long long>(nlocal)) {
      const std::int64_t row = A.partition().begin(rank) + static_cast<std::int64_t>(h);
      throw value_error(std::string(fn) + ": A has a zero diagonal entry in row " + std::to_string(row) + " (rank " +
                        std::to_string(rank) + "'s row " + std::to_string(h) +
                        "): diag(A)^-1 does not exist");
    }
  }
  preconditioner p;
  p.kind_ = preconditioner::kind::jacobi;
  p.impl_ = std::move(m);
  return p;
}

preconditioner block_jacobi_ilu0(const csr_matrix& A) {
  static constexpr const char* fn = "cusci::distributed::block_jacobi_ilu0";
  CUSCI_NVTX_SCOPE(fn);
  auto m = base_impl(fn, A);
  const int rank = A.comm().rank();
  if (A.partition().size(rank) > 0) {
    try {
      m->ilu = sparse::linalg::ilu0(A.diagonal_block());
    } catch (const runtime_error& e) {
      throw runtime_error(std::string(fn) + ": " + with_global_row(e.what(), A.partition().begin(rank), rank));
    }
  }
  preconditioner p;
  p.kind_ = preconditioner::kind::block_jacobi_ilu0;
  p.impl_ = std::move(m);
  return p;
}

vector preconditioner::apply(const vector& r) const {
  static constexpr const char* fn = "cusci::distributed::preconditioner::apply";
  const impl& m = get();
  CUSCI_EXPECTS(r.comm().valid() && solver_detail::same_comm(m.comm, r.comm()) &&
                    r.partition().offsets() == m.part.offsets(),
                value_error,
                std::string(fn) + ": r must have the partition and communicator of the matrix M was made from");
  const std::int64_t nlocal = r.local().size();
  if (kind_ == kind::jacobi) {
    ndarray z = empty({nlocal}, r.dtype());
    const ndarray d = m.dinv.astype(r.dtype(), false);
    solver_detail::diag_mul(r.dtype(), nlocal, d.data(), r.local().data(), z.data(), get_current_stream());
    return vector(r.comm(), r.partition(), z);
  }
  if (!m.ilu) return vector(r.comm(), r.partition(), empty({nlocal}, r.dtype()));
  ndarray z = m.ilu->matvec(r.local()).astype(r.dtype(), false);
  return vector(r.comm(), r.partition(), z);
}

}  // namespace cusci::distributed

#pragma once
// What the distributed solvers share (common.cpp): the preconditioner's rank-local data, the argument
// checks, the scalar area (device float64 slots, their all-reduce over the communicator and the pinned
// mirror the host reads once an iteration), the convergence history and vector helpers. Host only.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <cuda_runtime_api.h>

#include "cusci/distributed/solvers.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/linalg/preconditioners.hpp"
#include "cusci/stream.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed {

/// A preconditioner's rank-local data: its communicator and partition (those of the matrix it was made
/// from), and either the reciprocal diagonal (Jacobi) or the ILU(0) factors of the diagonal block.
struct preconditioner::impl {
  communicator comm;
  row_partition part;
  cusci::dtype dt = cusci::dtype::float64;
  ndarray dinv;  ///< jacobi: [nlocal], 1 / diag(A) in A's dtype
  std::optional<sparse::linalg::incomplete_factorization> ilu;  ///< block_jacobi_ilu0 (none for nlocal 0)
};

namespace solver_detail {

/// True when a and b are the same communicator (copies of one share it).
bool same_comm(const communicator& a, const communicator& b);

/// The checks every solver makes before any device work (see solvers.hpp): A valid; b and x0 on A's
/// communicator and partition; b of A's dtype; M made from a matrix of A's partition; atol >= 0 and
/// rtol not NaN. Throws value_error / type_error naming `fn` and the parameter.
void check_solve(const char* fn, const csr_matrix& A, const vector& b, const std::optional<vector>& x0,
                 const std::optional<preconditioner>& M, double rtol, double atol);

/// The scalars of a solve: `slots` float64 values on the device (zeroed), all-reduced in place over
/// the communicator, and their pinned mirror, which the host reads after wait().
class scalar_area {
 public:
  scalar_area(const communicator& comm, std::size_t slots, cudaStream_t st);
  scalar_area(const scalar_area&) = delete;
  scalar_area& operator=(const scalar_area&) = delete;
  ~scalar_area();

  double* dev() const noexcept { return dev_.data(); }
  /// Sums slots [first, first + count) over the ranks, in place (collective; enqueued on the stream).
  void allreduce(std::size_t first, std::size_t count);
  /// Copies slots [first, first + count) to the same places of the mirror and records the event.
  void post(std::size_t first, std::size_t count);
  /// Blocks until the last post has completed; returns the mirror.
  const double* wait();
  /// Copies v to slots [first, first + v.size()) through pinned staging (rewritten only after a later
  /// wait()).
  void upload(std::size_t first, const std::vector<double>& v);

 private:
  communicator comm_;
  cudaStream_t st_;
  std::size_t n_;
  device_buffer<double> dev_;
  memory_ptr mirror_, staging_;
  event ev_{true};
  bool pending_ = false;
};

/// The residual norms a solver reads and when (sparse::linalg::convergence_history).
class history_log {
 public:
  void add(double v);
  sparse::linalg::convergence_history take() { return std::move(h_); }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  sparse::linalg::convergence_history h_;
};

/// How a solver applies M: mode 0 identity, 1 the reciprocal diagonal fused into its passes, 2
/// preconditioner::apply.
struct precond_use {
  int mode = 0;
  ndarray d;  ///< mode 1: 1 / diag(A) in the system's dtype
  const preconditioner* M = nullptr;
};
precond_use use_preconditioner(const std::optional<preconditioner>& M, cusci::dtype xt);

/// A vector on A's communicator and partition over `local` (shared, no copy).
vector wrap(const csr_matrix& A, const ndarray& local);

/// Device address of a local block, or nullptr for an unallocated one (the kernels take either).
inline const void* ptr(const ndarray& a) { return a.data(); }
inline void* mptr(const ndarray& a) { return a.data(); }

}  // namespace solver_detail
}  // namespace cusci::distributed

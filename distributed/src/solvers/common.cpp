// What the distributed solvers share: argument checks, the scalar area, the history (common.hpp).

#include "solvers/common.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "cusci/error.hpp"

namespace cusci::distributed::solver_detail {

namespace {

std::string offsets_text(const row_partition& p) {
  std::ostringstream os;
  os << "[";
  const auto& o = p.offsets();
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (i > 0) os << ", ";
    if (i == 6 && o.size() > 8) {
      os << "..., " << o.back();
      break;
    }
    os << o[i];
  }
  os << "]";
  return os.str();
}

void check_vector(const char* fn, const char* name, const csr_matrix& A, const vector& v) {
  CUSCI_EXPECTS(v.comm().valid(), value_error, std::string(fn) + ": " + name + " is an empty vector (no communicator)");
  CUSCI_EXPECTS(same_comm(A.comm(), v.comm()), value_error,
                std::string(fn) + ": " + name + " is on another communicator than A");
  CUSCI_EXPECTS(v.partition().offsets() == A.partition().offsets(), value_error,
                std::string(fn) + ": " + name + " has another partition than A: row offsets " +
                    offsets_text(v.partition()) + ", A's " + offsets_text(A.partition()));
}

}  // namespace

bool same_comm(const communicator& a, const communicator& b) {
  return a.valid() && b.valid() && &a.get() == &b.get();
}

void check_solve(const char* fn, const csr_matrix& A, const vector& b, const std::optional<vector>& x0,
                 const std::optional<preconditioner>& M, double rtol, double atol) {
  CUSCI_EXPECTS(A.comm().valid(), value_error, std::string(fn) + ": A is an empty matrix (no communicator)");
  check_vector(fn, "b", A, b);
  CUSCI_EXPECTS(b.dtype() == A.dtype(), type_error,
                std::string(fn) + ": b must have A's dtype (" + std::string(dtype_name(A.dtype())) + "), got " +
                    std::string(dtype_name(b.dtype())) + "; the distributed solvers compute in A's dtype");
  if (x0) check_vector(fn, "x0", A, *x0);
  if (M) {
    const preconditioner::impl& m = M->get();
    CUSCI_EXPECTS(same_comm(A.comm(), m.comm) && m.part.offsets() == A.partition().offsets(), value_error,
                  std::string(fn) + ": matrix and preconditioner have different partitions or communicators");
  }
  if (!(atol >= 0.0)) {
    std::ostringstream os;
    os << fn << ": called with invalid `atol`=" << atol << "; if set, `atol` must be a real, non-negative number.";
    throw value_error(os.str());
  }
  CUSCI_EXPECTS(!std::isnan(rtol), value_error, std::string(fn) + ": rtol must be a number, got nan");
}

scalar_area::scalar_area(const communicator& comm, std::size_t slots, cudaStream_t st)
    : comm_(comm), st_(st), n_(slots), dev_(slots, st), mirror_(pinned_malloc(slots * sizeof(double))),
      staging_(pinned_malloc(slots * sizeof(double))) {
  CUSCI_CUDA_TRY(cudaMemsetAsync(dev_.data(), 0, slots * sizeof(double), st_));
}

scalar_area::~scalar_area() {
  // A copy into the pinned mirror or from the staging area may still be pending (an exception left
  // the solver): let it finish before the pinned blocks go back (unchecked: destructors do not throw).
  (void)cudaStreamSynchronize(st_);
}

void scalar_area::allreduce(std::size_t first, std::size_t count) {
  if (count == 0) return;
  comm_.allreduce(dev_.data() + first, dev_.data() + first, count, cusci::dtype::float64, reduce_op::sum, st_);
}

void scalar_area::post(std::size_t first, std::size_t count) {
  double* m = static_cast<double*>(mirror_->ptr());
  CUSCI_CUDA_TRY(cudaMemcpyAsync(m + first, dev_.data() + first, count * sizeof(double), cudaMemcpyDeviceToHost, st_));
  ev_.record(st_);
  pending_ = true;
}

const double* scalar_area::wait() {
  if (pending_) ev_.synchronize();
  pending_ = false;
  return static_cast<const double*>(mirror_->ptr());
}

void scalar_area::upload(std::size_t first, const std::vector<double>& v) {
  if (v.empty()) return;
  double* h = static_cast<double*>(staging_->ptr()) + first;
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = v[i];
  CUSCI_CUDA_TRY(cudaMemcpyAsync(dev_.data() + first, h, v.size() * sizeof(double), cudaMemcpyHostToDevice, st_));
}

void history_log::add(double v) {
  h_.residual_norms.push_back(v);
  h_.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count());
}

precond_use use_preconditioner(const std::optional<preconditioner>& M, cusci::dtype xt) {
  precond_use u;
  if (!M) return u;
  u.M = &*M;
  const preconditioner::impl& m = M->get();
  if (M->type() == preconditioner::kind::jacobi) {
    u.mode = 1;
    u.d = m.dinv.astype(xt, false);
  } else {
    u.mode = 2;
  }
  return u;
}

vector wrap(const csr_matrix& A, const ndarray& local) { return vector(A.comm(), A.partition(), local); }

}  // namespace cusci::distributed::solver_detail

// cusci::linalg::cholesky: argument handling and choice of kernel or library path.

#include "cusci/linalg/cholesky.hpp"

#include <string>

#include "cusci/memory.hpp"
#include "common/detail.hpp"
#include "common/shapes.hpp"
#include "common/host_helpers.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::linalg {

ndarray cholesky(const ndarray& a, const cholesky_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cholesky");
  using namespace detail;
  const std::string fn = "cusci::linalg::cholesky";
  operand ad = atleast(a, 2);
  const std::size_t nd = ad.shape.size();
  const std::int64_t n = ad.shape[nd - 1];
  if (ad.shape[nd - 2] != n)
    throw value_error(fn + ": a must be a square matrix or a batch of square matrices (shape (..., M, M)), got shape " +
                      shape_str(ad.shape));
  const dtype dt = lapack_dtype(a.dtype());  // SciPy's LAPACK type: float16 and small integers -> float32
  const shape_t batch(ad.shape.begin(), ad.shape.end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (n == 0 || nbatch == 0) return cusci::empty(ad.shape, dt);

  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  ad = atleast(ac, 2);
  const batch_view av = broadcast_view(ac.data(), ad, batch);

  ndarray c = cusci::empty(ad.shape, dt);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  clear_status(status.data());
  status_flags flags;
  std::vector<int> infos;
  if (n <= small_max_n) {
    small_cholesky(dt, av, nbatch, static_cast<int>(n), o.lower, o.check_finite, c.data(), info.data(),
                   status.data());
    flags = read_status(status.data());
    if (flags.failed && !flags.nonfinite) infos = read_info(info.data(), nbatch);
  } else {
    // c (C order) holds the Hermitian matrix; read column-major it is its conjugate, whose potrf with
    // the opposite triangle is, read back in C order, the requested factor.
    gather(dt, av, nbatch, n, n, fill_mode::her, o.lower, o.check_finite, false, c.data(), status.data());
    lib_potrf(dt, nbatch, n, c.data(), info.data(), !o.lower);
    zero_triangle(dt, c.data(), nbatch, n, !o.lower);
    flags = read_status(status.data());
    infos = read_info(info.data(), nbatch);
    for (int v : infos) flags.failed |= v != 0;
  }
  if (flags.nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
  if (flags.failed) {
    std::size_t s = 0;
    while (s < infos.size() && infos[s] == 0) ++s;
    const int v = s < infos.size() ? infos[s] : 0;
    throw lin_alg_error(fn + ": Internal potrf return info = [" + std::to_string(v) + "] for slices [" +
                        std::to_string(s) + "]. (the leading minor of order " + std::to_string(v) +
                        " is not positive definite)");
  }
  return c;
}

}  // namespace cusci::linalg

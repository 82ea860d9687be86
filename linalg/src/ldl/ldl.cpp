// cusci::linalg::ldl: argument handling, the host ?hetrf path (complex Hermitian input) and the calls into
// ldl_kernels.cu (cuSOLVER ?sytrf and SciPy's pivot post-processing on the device).

#include "cusci/linalg/ldl.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "ldl/ldl_detail.hpp"

// LAPACK's Hermitian Bunch-Kaufman factorization (Fortran, LP64 integers, hidden string lengths last).
extern "C" {
void chetrf_(const char* uplo, const int* n, std::complex<float>* a, const int* lda, int* ipiv,
             std::complex<float>* work, const int* lwork, int* info, std::size_t uplo_len);
void zhetrf_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* ipiv,
             std::complex<double>* work, const int* lwork, int* info, std::size_t uplo_len);
}

namespace cusci::linalg {
namespace {

const char* complex_diag_message =
    "scipy.linalg.ldl():\nThe imaginary parts of the diagonalare ignored. Use \"hermitian=False\" for "
    "factorization ofcomplex symmetric arrays.";

/// ?hetrf on the host, one matrix after the other; returns how many matrices have a diagonal entry with a
/// nonzero imaginary part (SciPy warns for each).
template <class C>
int host_hetrf(std::vector<C>& a, std::vector<int>& ipiv, std::int64_t nbatch, int n, bool lower) {
  const char uplo = lower ? 'L' : 'U';
  int info = 0, lwork = -1;
  C q(0);
  if constexpr (sizeof(C) == 8) chetrf_(&uplo, &n, a.data(), &n, ipiv.data(), &q, &lwork, &info, 1);
  else zhetrf_(&uplo, &n, a.data(), &n, ipiv.data(), &q, &lwork, &info, 1);
  lwork = std::max(1, static_cast<int>(q.real()));
  std::vector<C> work(static_cast<std::size_t>(lwork));
  int imag_diag = 0;
  for (std::int64_t b = 0; b < nbatch; ++b) {
    C* ab = a.data() + b * n * n;
    bool im = false;
    for (int i = 0; i < n; ++i) im |= ab[i * n + i].imag() != 0;
    imag_diag += im;
    if constexpr (sizeof(C) == 8)
      chetrf_(&uplo, &n, ab, &n, ipiv.data() + b * n, work.data(), &lwork, &info, 1);
    else
      zhetrf_(&uplo, &n, ab, &n, ipiv.data() + b * n, work.data(), &lwork, &info, 1);
    if (info < 0)
      throw value_error("cusci::linalg::ldl: HETRF exited with the internal error \"illegal value in argument number " +
                        std::to_string(-info) + "\"");
  }
  return imag_diag;
}

}  // namespace

ldl_result ldl(const ndarray& a, const ldl_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::ldl");
  using namespace detail;
  const std::string fn = "cusci::linalg::ldl";
  operand ad = atleast(a, 2);
  const std::size_t nd = ad.shape.size();
  const std::int64_t n = ad.shape[nd - 1];
  if (ad.shape[nd - 2] != n)
    throw value_error(fn + ": The input array \"a\" should be square (shape (..., N, N)), got shape " +
                      shape_str(ad.shape));
  const dtype dt = cusci::linalg::detail::lapack_dtype(a.dtype());
  const shape_t batch(ad.shape.begin(), ad.shape.end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (nbatch == 0) throw value_error(fn + ": `ldl` does not support zero-size batches (got shape " +
                                     shape_str(ad.shape) + ")");
  const bool herm_host = is_complex(dt) && o.hermitian;
  shape_t pshape = batch;
  pshape.push_back(n);
  if (n == 0) return {cusci::empty(ad.shape, dt), cusci::empty(ad.shape, dt), cusci::empty(pshape, dtype::int64)};

  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  ad = atleast(ac, 2);
  const batch_view av = broadcast_view(ac.data(), ad, batch);
  const std::size_t isz = itemsize(dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  memory_ptr F = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * isz);
  device_buffer<int> ipiv(static_cast<std::size_t>(nbatch * n));
  gather(dt, av, nbatch, n, n, fill_mode::full, false, o.check_finite, true, F->ptr(), status.data());
  int imag_diag = 0;
  if (herm_host) {
    if (read_status(status.data()).nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
    CUSCI_EXPECTS(n <= 46340, value_error, fn + ": matrix order " + std::to_string(n) + " is too large for LAPACK");
    cudaStream_t s = get_current_stream();
    const std::size_t count = static_cast<std::size_t>(nbatch * n * n);
    std::vector<int> hp(static_cast<std::size_t>(nbatch * n));
    auto run = [&](auto zero) {
      using C = decltype(zero);
      std::vector<C> h(count);
      CUSCI_CUDA_TRY(cudaMemcpyAsync(h.data(), F->ptr(), count * sizeof(C), cudaMemcpyDeviceToHost, s));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
      imag_diag = host_hetrf<C>(h, hp, nbatch, static_cast<int>(n), o.lower);
      CUSCI_CUDA_TRY(cudaMemcpyAsync(F->ptr(), h.data(), count * sizeof(C), cudaMemcpyHostToDevice, s));
      CUSCI_CUDA_TRY(cudaMemcpyAsync(ipiv.data(), hp.data(), hp.size() * sizeof(int), cudaMemcpyHostToDevice, s));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));  // the host vectors die here
    };
    if (dt == dtype::complex64) run(std::complex<float>{});
    else run(std::complex<double>{});
  } else {
    ldl_sytrf(dt, nbatch, n, F->ptr(), ipiv.data(), o.lower);
  }
  ndarray lu = cusci::empty(ad.shape, dt), d = cusci::empty(ad.shape, dt), perm = cusci::empty(pshape, dtype::int64);
  ldl_post(dt, F->ptr(), ipiv.data(), nbatch, n, o.lower, herm_host, lu.data(), d.data(),
           static_cast<std::int64_t*>(perm.data()), status.data());
  const status_flags flags = read_status(status.data());  // synchronizes
  if (flags.nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
  if (flags.failed)
    throw value_error(fn + ": While parsing the permutation array in \"scipy.linalg.ldl\", invalid entries found. "
                           "The array syntax is invalid.");
  for (int i = 0; i < imag_diag; ++i) warn("ComplexWarning", fn, complex_diag_message);
  return {lu, d, perm};
}

}  // namespace cusci::linalg

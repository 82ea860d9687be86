// The dense building blocks of eigs and lobpcg (see eigs_blas.hpp): typed cuBLAS calls chosen by
// dtype at run time, coefficient uploads, and the dense LU of the shift-invert operators.

#include "linalg/eigs_blas.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <memory>
#include <string>
#include <type_traits>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::linalg::eig_detail {
namespace {

cublasOperation_t op_of(char c) {
  return c == 'N' ? CUBLAS_OP_N : c == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

int checked_int(std::int64_t v, const char* what) {
  CUSCI_EXPECTS(v >= 0 && v <= 0x7fffffff, value_error,
                std::string("cusci::sparse::linalg: ") + what + " exceeds the 32-bit range of cuBLAS");
  return static_cast<int>(v);
}

/// cuBLAS' pointer mode set to device for one scope, restored after.
class device_pointer_mode {
 public:
  explicit device_pointer_mode(cublasHandle_t h) : h_(h) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h_, &old_));
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h_, CUBLAS_POINTER_MODE_DEVICE));
  }
  ~device_pointer_mode() { CUSCI_LAZY(cublasSetPointerMode)(h_, old_); }
  device_pointer_mode(const device_pointer_mode&) = delete;
  device_pointer_mode& operator=(const device_pointer_mode&) = delete;

 private:
  cublasHandle_t h_;
  cublasPointerMode_t old_ = CUBLAS_POINTER_MODE_HOST;
};

template <class T>
constexpr cudaDataType cuda_type() {
  if constexpr (std::is_same_v<T, float>) return CUDA_R_32F;
  else if constexpr (std::is_same_v<T, double>) return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return CUDA_C_32F;
  else return CUDA_C_64F;
}

}  // namespace

void gemm(dtype t, char opa, char opb, std::int64_t m, std::int64_t n, std::int64_t k, cplx alpha, const void* A,
          std::int64_t lda, const void* B, std::int64_t ldb, cplx beta, void* C, std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  cublasHandle_t h = cusci::detail::cublas_handle();
  const int im = checked_int(m, "m"), in = checked_int(n, "n"), ik = checked_int(k, "k");
  const int ia = checked_int(lda, "lda"), ib = checked_int(ldb, "ldb"), ic = checked_int(ldc, "ldc");
  const cublasOperation_t oa = op_of(opa), ob = op_of(opb);
  switch (t) {
    case dtype::float32: {
      const float a = static_cast<float>(alpha.real()), b = static_cast<float>(beta.real());
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSgemm)(h, oa, ob, im, in, ik, &a, static_cast<const float*>(A), ia,
                                               static_cast<const float*>(B), ib, &b, static_cast<float*>(C), ic));
      break;
    }
    case dtype::float64: {
      const double a = alpha.real(), b = beta.real();
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasDgemm)(h, oa, ob, im, in, ik, &a, static_cast<const double*>(A), ia,
                                               static_cast<const double*>(B), ib, &b, static_cast<double*>(C), ic));
      break;
    }
    case dtype::complex64: {
      const cuComplex a = make_cuComplex(static_cast<float>(alpha.real()), static_cast<float>(alpha.imag()));
      const cuComplex b = make_cuComplex(static_cast<float>(beta.real()), static_cast<float>(beta.imag()));
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasCgemm)(h, oa, ob, im, in, ik, &a, static_cast<const cuComplex*>(A), ia,
                                               static_cast<const cuComplex*>(B), ib, &b, static_cast<cuComplex*>(C),
                                               ic));
      break;
    }
    case dtype::complex128: {
      const cuDoubleComplex a = make_cuDoubleComplex(alpha.real(), alpha.imag());
      const cuDoubleComplex b = make_cuDoubleComplex(beta.real(), beta.imag());
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasZgemm)(h, oa, ob, im, in, ik, &a, static_cast<const cuDoubleComplex*>(A), ia,
                                               static_cast<const cuDoubleComplex*>(B), ib, &b,
                                               static_cast<cuDoubleComplex*>(C), ic));
      break;
    }
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
}

void nrm2_device(dtype t, std::int64_t n, const void* x, void* result) {
  cublasHandle_t h = cusci::detail::cublas_handle();
  const int in = checked_int(n, "n");
  device_pointer_mode pm(h);
  switch (t) {
    case dtype::float32:
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSnrm2)(h, in, static_cast<const float*>(x), 1, static_cast<float*>(result)));
      break;
    case dtype::float64:
      CUSCI_CUBLAS_TRY(
          CUSCI_LAZY(cublasDnrm2)(h, in, static_cast<const double*>(x), 1, static_cast<double*>(result)));
      break;
    case dtype::complex64:
      CUSCI_CUBLAS_TRY(
          CUSCI_LAZY(cublasScnrm2)(h, in, static_cast<const cuComplex*>(x), 1, static_cast<float*>(result)));
      break;
    case dtype::complex128:
      CUSCI_CUBLAS_TRY(
          CUSCI_LAZY(cublasDznrm2)(h, in, static_cast<const cuDoubleComplex*>(x), 1, static_cast<double*>(result)));
      break;
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
}

void scal(dtype t, std::int64_t n, cplx alpha, void* x) {
  if (n == 0) return;
  cublasHandle_t h = cusci::detail::cublas_handle();
  const int in = checked_int(n, "n");
  switch (t) {
    case dtype::float32: {
      const float a = static_cast<float>(alpha.real());
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSscal)(h, in, &a, static_cast<float*>(x), 1));
      break;
    }
    case dtype::float64: {
      const double a = alpha.real();
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasDscal)(h, in, &a, static_cast<double*>(x), 1));
      break;
    }
    case dtype::complex64: {
      const cuComplex a = make_cuComplex(static_cast<float>(alpha.real()), static_cast<float>(alpha.imag()));
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasCscal)(h, in, &a, static_cast<cuComplex*>(x), 1));
      break;
    }
    case dtype::complex128: {
      const cuDoubleComplex a = make_cuDoubleComplex(alpha.real(), alpha.imag());
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasZscal)(h, in, &a, static_cast<cuDoubleComplex*>(x), 1));
      break;
    }
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
}

void axpy(dtype t, std::int64_t n, cplx alpha, const void* x, void* y) {
  if (n == 0) return;
  cublasHandle_t h = cusci::detail::cublas_handle();
  const int in = checked_int(n, "n");
  switch (t) {
    case dtype::float32: {
      const float a = static_cast<float>(alpha.real());
      CUSCI_CUBLAS_TRY(
          CUSCI_LAZY(cublasSaxpy)(h, in, &a, static_cast<const float*>(x), 1, static_cast<float*>(y), 1));
      break;
    }
    case dtype::float64: {
      const double a = alpha.real();
      CUSCI_CUBLAS_TRY(
          CUSCI_LAZY(cublasDaxpy)(h, in, &a, static_cast<const double*>(x), 1, static_cast<double*>(y), 1));
      break;
    }
    case dtype::complex64: {
      const cuComplex a = make_cuComplex(static_cast<float>(alpha.real()), static_cast<float>(alpha.imag()));
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasCaxpy)(h, in, &a, static_cast<const cuComplex*>(x), 1,
                                               static_cast<cuComplex*>(y), 1));
      break;
    }
    case dtype::complex128: {
      const cuDoubleComplex a = make_cuDoubleComplex(alpha.real(), alpha.imag());
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasZaxpy)(h, in, &a, static_cast<const cuDoubleComplex*>(x), 1,
                                               static_cast<cuDoubleComplex*>(y), 1));
      break;
    }
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
}

std::vector<cplx> to_cplx(const void* p, dtype t, std::int64_t count) {
  std::vector<cplx> out(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    switch (t) {
      case dtype::float32: out[i] = cplx(static_cast<const float*>(p)[i], 0.0); break;
      case dtype::float64: out[i] = cplx(static_cast<const double*>(p)[i], 0.0); break;
      case dtype::complex64: {
        const std::complex<float> v = static_cast<const std::complex<float>*>(p)[i];
        out[i] = cplx(v.real(), v.imag());
        break;
      }
      case dtype::complex128: out[i] = static_cast<const cplx*>(p)[i]; break;
      default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
    }
  }
  return out;
}

ndarray upload(const std::vector<cplx>& v, dtype t, const shape_t& shape) {
  const std::size_t n = v.size();
  switch (t) {
    case dtype::float32: {
      std::vector<float> h(n);
      for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>(v[i].real());
      return asarray(h, shape);
    }
    case dtype::float64: {
      std::vector<double> h(n);
      for (std::size_t i = 0; i < n; ++i) h[i] = v[i].real();
      return asarray(h, shape);
    }
    case dtype::complex64: {
      std::vector<std::complex<float>> h(n);
      for (std::size_t i = 0; i < n; ++i)
        h[i] = std::complex<float>(static_cast<float>(v[i].real()), static_cast<float>(v[i].imag()));
      return asarray(h, shape);
    }
    case dtype::complex128: return asarray(v, shape);
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
}

ndarray contiguous_as(const ndarray& a, dtype t) {
  ndarray x = a;
  if (is_complex(x.dtype()) && !is_complex(t)) x = real(x);
  x = x.astype(t, false);
  if (!x.is_c_contiguous()) x = x.copy();
  if (x.ndim() != 1) x = x.reshape({x.size()});
  return x;
}

std::function<ndarray(const ndarray&)> dense_lu_solver(const ndarray& A, const char* fn) {
  const dtype t = A.dtype();
  const std::int64_t n = A.shape(0);
  // Row-major A is the column-major A^T: factor A^T, solve with trans 'T' ((A^T)^T x = b).
  ndarray lu = A.copy();
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  cusolverDnParams_t prm = nullptr;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&prm));
  std::shared_ptr<void> prm_keep(prm, [](void* p) { CUSCI_LAZY(cusolverDnDestroyParams)(static_cast<cusolverDnParams_t>(p)); });
  cudaDataType dt = CUDA_R_64F;
  switch (t) {
    case dtype::float32: dt = cuda_type<float>(); break;
    case dtype::float64: dt = cuda_type<double>(); break;
    case dtype::complex64: dt = cuda_type<std::complex<float>>(); break;
    case dtype::complex128: dt = cuda_type<cplx>(); break;
    default: throw type_error(std::string(fn) + ": unsupported dtype " + std::string(dtype_name(t)));
  }
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(
      CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm, n, n, dt, lu.data(), n, dt, &dev, &hst));
  memory_ptr ws = cusci::malloc(dev > 0 ? dev : 1);
  std::vector<unsigned char> hws(hst > 0 ? hst : 1);
  auto ipiv = std::make_shared<device_buffer<std::int64_t>>(static_cast<std::size_t>(n > 0 ? n : 1));
  device_buffer<int> info(1);
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm, n, n, dt, lu.data(), n, ipiv->data(), dt, ws->ptr(), dev,
                                                  hws.data(), hst, info.data()));
  int hinfo = 0;
  cudaStream_t st = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&hinfo, info.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  CUSCI_EXPECTS(hinfo == 0, runtime_error, std::string(fn) + ": Factor is exactly singular");
  auto solve_one = [lu, ipiv, prm_keep, dt, n](const ndarray& b) {
    ndarray x = contiguous_as(b, lu.dtype());
    x = x.copy();
    cusolverDnHandle_t hh = cusci::detail::cusolver_dn_handle();
    device_buffer<int> inf(1);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrs)(hh, static_cast<cusolverDnParams_t>(prm_keep.get()), CUBLAS_OP_T,
                                                    n, 1, dt, lu.data(), n, ipiv->data(), dt, x.data(), n,
                                                    inf.data()));
    return x;
  };
  return [solve_one, t](const ndarray& b) -> ndarray {
    if (!is_complex(t) && is_complex(b.dtype())) {
      const dtype ct = t == dtype::float32 ? dtype::complex64 : dtype::complex128;
      ndarray re = solve_one(real(b)), im = solve_one(imag(b));
      return add(re.astype(ct), multiply(im.astype(ct), scalar(cplx(0.0, 1.0))));
    }
    return solve_one(b);
  };
}

bool sygvd(dtype t, std::int64_t k, const std::vector<cplx>& a, const std::vector<cplx>& b, std::vector<double>& w,
           std::vector<cplx>& vectors) {
  if (k == 0) {
    w.clear();
    vectors.clear();
    return true;
  }
  const int ik = checked_int(k, "k");
  // Column-major copies: element (i, j) at j * k + i.
  std::vector<cplx> acm(static_cast<std::size_t>(k * k)), bcm(static_cast<std::size_t>(k * k));
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = 0; j < k; ++j) {
      acm[j * k + i] = a[i * k + j];
      bcm[j * k + i] = b[i * k + j];
    }
  ndarray da = upload(acm, t, {k * k}), db = upload(bcm, t, {k * k});
  const dtype rt = real_dtype(t);
  ndarray dw = empty({k}, rt);
  device_buffer<int> info(1);
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  const cusolverEigType_t it = CUSOLVER_EIG_TYPE_1;
  const cusolverEigMode_t jobz = CUSOLVER_EIG_MODE_VECTOR;
  const cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;
  int lwork = 0;
  switch (t) {
    case dtype::float32: {
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnSsygvd_bufferSize)(h, it, jobz, uplo, ik, da.data_as<float>(), ik,
                                                                 db.data_as<float>(), ik, dw.data_as<float>(), &lwork));
      device_buffer<float> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnSsygvd)(h, it, jobz, uplo, ik, da.data_as<float>(), ik,
                                                      db.data_as<float>(), ik, dw.data_as<float>(), work.data(), lwork,
                                                      info.data()));
      break;
    }
    case dtype::float64: {
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnDsygvd_bufferSize)(h, it, jobz, uplo, ik, da.data_as<double>(), ik,
                                                                 db.data_as<double>(), ik, dw.data_as<double>(),
                                                                 &lwork));
      device_buffer<double> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnDsygvd)(h, it, jobz, uplo, ik, da.data_as<double>(), ik,
                                                      db.data_as<double>(), ik, dw.data_as<double>(), work.data(),
                                                      lwork, info.data()));
      break;
    }
    case dtype::complex64: {
      auto* pa = reinterpret_cast<cuComplex*>(da.data());
      auto* pb = reinterpret_cast<cuComplex*>(db.data());
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnChegvd_bufferSize)(h, it, jobz, uplo, ik, pa, ik, pb, ik,
                                                                 dw.data_as<float>(), &lwork));
      device_buffer<cuComplex> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnChegvd)(h, it, jobz, uplo, ik, pa, ik, pb, ik, dw.data_as<float>(),
                                                      work.data(), lwork, info.data()));
      break;
    }
    case dtype::complex128: {
      auto* pa = reinterpret_cast<cuDoubleComplex*>(da.data());
      auto* pb = reinterpret_cast<cuDoubleComplex*>(db.data());
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnZhegvd_bufferSize)(h, it, jobz, uplo, ik, pa, ik, pb, ik,
                                                                 dw.data_as<double>(), &lwork));
      device_buffer<cuDoubleComplex> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnZhegvd)(h, it, jobz, uplo, ik, pa, ik, pb, ik, dw.data_as<double>(),
                                                      work.data(), lwork, info.data()));
      break;
    }
    default: throw type_error("cusci::sparse::linalg: unsupported dtype " + std::string(dtype_name(t)));
  }
  int hinfo = 0;
  cudaStream_t st = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&hinfo, info.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
  const host_array hv = to_host(da), hw = to_host(dw);  // synchronize
  if (hinfo != 0) return false;
  const std::vector<cplx> v = to_cplx(hv.data(), t, k * k), wc = to_cplx(hw.data(), rt, k);
  w.resize(static_cast<std::size_t>(k));
  vectors.assign(static_cast<std::size_t>(k * k), 0.0);
  for (std::int64_t j = 0; j < k; ++j) {
    w[j] = wc[j].real();
    for (std::int64_t i = 0; i < k; ++i) vectors[i * k + j] = v[j * k + i];
  }
  return true;
}

}  // namespace cusci::sparse::linalg::eig_detail

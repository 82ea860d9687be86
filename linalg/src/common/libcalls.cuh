#pragma once
// Host-side helpers around the cuSOLVER / cuBLAS calls of cusci::linalg's .cu translation units (nvcc only;
// internal): the cudaDataType of an element type, the scoped cusolverDnParams_t, the pool-backed workspace of
// the 64-bit cuSOLVER API and a scoped cuBLAS host pointer mode.

#include <cublas_v2.h>
#include <cuda/std/complex>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cusci::linalg::detail {

/// The cudaDataType of float, double, cuda::std::complex<float> and cuda::std::complex<double>.
template <class T> constexpr cudaDataType cuda_type();
template <> constexpr cudaDataType cuda_type<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType cuda_type<double>() { return CUDA_R_64F; }
template <> constexpr cudaDataType cuda_type<cuda::std::complex<float>>() { return CUDA_C_32F; }
template <> constexpr cudaDataType cuda_type<cuda::std::complex<double>>() { return CUDA_C_64F; }

/// cusolverDnParams_t owned for the duration of one call.
class solver_params {
 public:
  solver_params() { CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&p_)); }
  ~solver_params() { CUSCI_LAZY(cusolverDnDestroyParams)(p_); }
  solver_params(const solver_params&) = delete;
  solver_params& operator=(const solver_params&) = delete;
  cusolverDnParams_t get() const { return p_; }

 private:
  cusolverDnParams_t p_ = nullptr;
};

/// Device workspace from the pool plus host workspace, sized by a *_bufferSize query.
struct workspace {
  memory_ptr device;
  std::vector<unsigned char> host;
  std::size_t device_bytes = 0;
  workspace(std::size_t dev, std::size_t hst) : device(cusci::malloc(dev)), host(hst), device_bytes(dev) {}
  void* dptr() const { return device ? device->ptr() : nullptr; }
  void* hptr() { return host.empty() ? nullptr : host.data(); }
};

/// Host pointer mode for the scope (the cached cuBLAS handle is shared; the previous mode is restored).
struct host_pointer_mode {
  cublasHandle_t h;
  cublasPointerMode_t old = CUBLAS_POINTER_MODE_HOST;
  explicit host_pointer_mode(cublasHandle_t hh) : h(hh) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h, &old));
    if (old != CUBLAS_POINTER_MODE_HOST)
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h, CUBLAS_POINTER_MODE_HOST));
  }
  ~host_pointer_mode() { CUSCI_LAZY(cublasSetPointerMode)(h, old); }
  host_pointer_mode(const host_pointer_mode&) = delete;
  host_pointer_mode& operator=(const host_pointer_mode&) = delete;
};

/// Device array of nbatch pointers ptrs[b] = base + b * stride_bytes (pool memory; filled on the current
/// stream): the pointer arrays of cuBLAS's / cuSOLVER's batched calls. Defined in dense.cu.
device_buffer<void*> pointer_array(void* base, std::int64_t stride_bytes, std::int64_t nbatch);

}  // namespace cusci::linalg::detail

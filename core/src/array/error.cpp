// Construction of the CUDA-library exceptions: API call, status name, message, file:line.
#include "cusci/error.hpp"
#include "cusci/detail/lazy_libs.hpp"

#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>

namespace cusci::detail {
namespace {
std::string where(const char* api_call, const char* file, int line) {
  return std::string(api_call) + " at " + file + ":" + std::to_string(line);
}

const char* cusolver_status_name(int s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "CUSOLVER_STATUS_UNKNOWN";
  }
}

const char* cufft_status_name(int s) {
  switch (s) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_MISSING_DEPENDENCY: return "CUFFT_MISSING_DEPENDENCY";
    case CUFFT_NVRTC_FAILURE: return "CUFFT_NVRTC_FAILURE";
    case CUFFT_NVJITLINK_FAILURE: return "CUFFT_NVJITLINK_FAILURE";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_STATUS_UNKNOWN";
  }
}
}  // namespace

void throw_cuda_error(int status, const char* api_call, const char* file, int line) {
  auto e = static_cast<cudaError_t>(status);
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " +
                    where(api_call, file, line);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    // The usual first failure on a machine without a GPU (or with a driver older than the runtime):
    // say so plainly before the runtime's words.
    msg = "cusci: no usable CUDA GPU is visible (no device, or a driver older than the CUDA runtime cusci "
          "was built with); cusci::is_available() and cusci::device_count() tell this without throwing. " +
          msg;
  }
  if (e == cudaErrorMemoryAllocation) {
    // Clear the sticky-free error state so the program can go on.
    cudaGetLastError();
    throw out_of_memory(msg, 0, 0, 0, 0);
  }
  throw cuda_error(msg, status);
}

void throw_cublas_error(int status, const char* api_call, const char* file, int line) {
  throw cublas_error(std::string("cuBLAS error ") +
                         CUSCI_LAZY(cublasGetStatusName)(static_cast<cublasStatus_t>(status)) + " (" +
                         CUSCI_LAZY(cublasGetStatusString)(static_cast<cublasStatus_t>(status)) + ") in " +
                         where(api_call, file, line),
                     status);
}

void throw_cusparse_error(int status, const char* api_call, const char* file, int line) {
  throw cusparse_error(std::string("cuSPARSE error ") +
                           CUSCI_LAZY(cusparseGetErrorName)(static_cast<cusparseStatus_t>(status)) + " (" +
                           CUSCI_LAZY(cusparseGetErrorString)(static_cast<cusparseStatus_t>(status)) + ") in " +
                           where(api_call, file, line),
                       status);
}

void throw_cusolver_error(int status, const char* api_call, const char* file, int line) {
  throw cusolver_error(std::string("cuSOLVER error ") + cusolver_status_name(status) + " in " +
                           where(api_call, file, line),
                       status);
}

void throw_cufft_error(int status, const char* api_call, const char* file, int line) {
  throw cufft_error(std::string("cuFFT error ") + cufft_status_name(status) + " in " + where(api_call, file, line),
                    status);
}

}  // namespace cusci::detail

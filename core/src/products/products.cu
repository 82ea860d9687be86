/// @file products.cu
/// matmul, dot, vdot, inner, outer, tensordot and einsum (NumPy semantics). Floating and complex
/// products go through cuBLAS (GemmEx family, DotEx); integer and bool matrix products through a
/// tiled shared-memory kernel that reads any strides. Layers: public functions (argument checks,
/// promotion, shape rules) -> `matmul_core` (layout analysis, batch collapse, choice of cuBLAS entry)
/// -> kernels.

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/products.hpp"
#include "cusci/reduction.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "common/shape_text.hpp"

namespace cusci {

namespace {

std::atomic<bool> g_allow_tf32{false};

using i64 = std::int64_t;
// NumPy writes the shapes of matmul's and dot's errors without spaces: "(2,3)".
using detail::compact_shape_str;

// float16 joins the dtype list in a separate change; test for the enumerator without naming it
// directly so that this file compiles before and after.
template <class E = dtype>
constexpr bool is_half_dtype(E t) {
  if constexpr (requires { E::float16; }) return t == E::float16;
  else return (void)t, false;
}

bool is_blas_dtype(dtype t) { return is_inexact(t) || is_half_dtype(t); }

/// cuBLAS data type, compute type and the alpha = 1 / beta = 0 scalars for a BLAS dtype.
/// The scalars are read by cuBLAS on the host (host pointer mode) as the type of the computation:
/// cuDoubleComplex is double2, declared 16-byte aligned, and cuBLAS loads it with aligned vector
/// instructions on some paths (e.g. complex128 GEMMs with a 1-column operand), so storage aligned
/// to 8 only (two doubles after two 4-byte enums) faults on the host. Hence alignas(16).
struct blas_types {
  alignas(16) double one[2] = {0, 0};   // storage for alpha (float, double, cuComplex or cuDoubleComplex)
  alignas(16) double zero[2] = {0, 0};  // storage for beta
  cudaDataType data;
  cublasComputeType_t compute;
};

// The exported (extern "C") GEMMs, which take the compute type as cublasComputeType_t: cublas_api.h
// overloads their names in C++ (an inline one taking cudaDataType), so CUSCI_LAZY_AS names the type.
using gemm_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                      const void*, cudaDataType, int, const void*, cudaDataType, int, const void*,
                                      void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using gemm_strided_batched_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                      int, const void*, const void*, cudaDataType, int, long long,
                                                      const void*, cudaDataType, int, long long, const void*, void*,
                                                      cudaDataType, int, long long, int, cublasComputeType_t,
                                                      cublasGemmAlgo_t);
using gemm_batched_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                              const void*, const void* const[], cudaDataType, int, const void* const[],
                                              cudaDataType, int, const void*, void* const[], cudaDataType, int, int,
                                              cublasComputeType_t, cublasGemmAlgo_t);
static_assert(alignof(blas_types) >= 16, "cuBLAS complex128 scalars need 16-byte alignment");

blas_types blas_types_for(dtype t) {
  blas_types b{};
  auto set_f = [&] {
    float o = 1.0f;
    std::memcpy(b.one, &o, sizeof o);
  };
  auto set_d = [&] { b.one[0] = 1.0; };
  switch (t) {
    case dtype::float32:
      b.data = CUDA_R_32F;
      b.compute = g_allow_tf32.load() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      set_f();
      return b;
    case dtype::float64: b.data = CUDA_R_64F; b.compute = CUBLAS_COMPUTE_64F; set_d(); return b;
    case dtype::complex64: b.data = CUDA_C_32F; b.compute = CUBLAS_COMPUTE_32F; set_f(); return b;
    case dtype::complex128: b.data = CUDA_C_64F; b.compute = CUBLAS_COMPUTE_64F; set_d(); return b;
    default: break;
  }
  if (is_half_dtype(t)) {
    b.data = CUDA_R_16F;
    b.compute = CUBLAS_COMPUTE_32F;  // float32 accumulation, alpha/beta in float
    set_f();
    return b;
  }
  throw type_error("cusci: internal: no cuBLAS type for dtype " + std::string(dtype_name(t)));
}

/// A row-major matrix X [r, c] with element strides (sr, sc) seen as the column-major cuBLAS operand
/// op(S) = X^T [c, r]: either S = X^T stored with leading dimension `ld` (op N) or S = X stored with
/// leading dimension `ld` (op T). False when neither layout fits (no unit stride, or overlapping).
bool as_blas_operand(i64 r, i64 c, i64 sr, i64 sc, cublasOperation_t& op, i64& ld) {
  const i64 c1 = std::max<i64>(1, c), r1 = std::max<i64>(1, r);
  if ((c <= 1 || sc == 1) && (r <= 1 || sr >= c1)) {
    op = CUBLAS_OP_N;
    ld = r <= 1 ? c1 : sr;
    return true;
  }
  if ((r <= 1 || sr == 1) && (c <= 1 || sc >= r1)) {
    op = CUBLAS_OP_T;
    ld = c <= 1 ? r1 : sc;
    return true;
  }
  return false;
}

constexpr i64 int_max = INT_MAX;

void check_int(i64 v, const char* what) {
  if (v > int_max)
    throw value_error(std::string("cusci::matmul: ") + what + " " + std::to_string(v) +
                      " exceeds the 32-bit limit of cuBLAS (2147483647)");
}

// ----------------------------------------------------------------------------------------------
// Kernels

/// Pointer arrays for cublasGemmBatchedEx: batch item z uses A at a + ia.offset(z), B at
/// b + ib.offset(z) and C at c + z * c_stride (bytes). cuBLAS' "A" is our B (see matmul_core).
__global__ void fill_pointer_arrays(const char* a, const char* b, char* c, detail::strided_indexer ia,
                                    detail::strided_indexer ib, i64 c_stride, i64 batch, const void** pa,
                                    const void** pb, void** pc) {
  for (i64 z = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; z < batch;
       z += static_cast<i64>(gridDim.x) * blockDim.x) {
    pa[z] = a + ia.offset(z);
    pb[z] = b + ib.offset(z);
    pc[z] = c + z * c_stride;
  }
}

template <class T> struct int_acc { using type = std::uint64_t; };
template <> struct int_acc<bool> { using type = bool; };

template <class T>
__device__ __forceinline__ typename int_acc<T>::type to_acc(T v) {
  if constexpr (std::is_same_v<T, bool>) return v;
  else if constexpr (std::is_signed_v<T>) return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  else return static_cast<std::uint64_t>(v);
}

constexpr int int_tile = 16;

/// C[z] = A[z] @ B[z] for integer / bool T. A[z] element (i, p) at a + ia.offset(z) + i*sar + p*sac
/// (strides in elements after the byte offset); B likewise; C contiguous [batch, n, m]. Products
/// accumulate modulo 2^64 (or as or-of-ands for bool) and are cast to T at the end, which gives the
/// same value as NumPy's accumulation in T. Every loop bound is uniform across a block, so the
/// barriers are reached by all its threads.
template <class T>
__global__ void __launch_bounds__(int_tile* int_tile)
    int_matmul_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, i64 n, i64 m, i64 k,
                      i64 sar, i64 sac, i64 sbr, i64 sbc, detail::strided_indexer ia, detail::strided_indexer ib,
                      i64 batch) {
  using Acc = typename int_acc<T>::type;
  __shared__ Acc ta[int_tile][int_tile + 1];
  __shared__ Acc tb[int_tile][int_tile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const i64 tiles_n = (n + int_tile - 1) / int_tile, tiles_m = (m + int_tile - 1) / int_tile;
  for (i64 z = blockIdx.z; z < batch; z += gridDim.z) {
    const T* az = reinterpret_cast<const T*>(reinterpret_cast<const char*>(a) + ia.offset(z));
    const T* bz = reinterpret_cast<const T*>(reinterpret_cast<const char*>(b) + ib.offset(z));
    T* cz = c + z * n * m;
    for (i64 tn = blockIdx.y; tn < tiles_n; tn += gridDim.y) {
      for (i64 tm = blockIdx.x; tm < tiles_m; tm += gridDim.x) {
        const i64 row = tn * int_tile + ty, col = tm * int_tile + tx;
        Acc acc = Acc(0);
        for (i64 p0 = 0; p0 < k; p0 += int_tile) {
          ta[ty][tx] = (row < n && p0 + tx < k) ? to_acc(az[row * sar + (p0 + tx) * sac]) : Acc(0);
          tb[ty][tx] = (p0 + ty < k && col < m) ? to_acc(bz[(p0 + ty) * sbr + col * sbc]) : Acc(0);
          __syncthreads();
#pragma unroll
          for (int q = 0; q < int_tile; ++q) {
            if constexpr (std::is_same_v<T, bool>) acc = acc || (ta[ty][q] && tb[q][tx]);
            else acc += ta[ty][q] * tb[q][tx];
          }
          __syncthreads();
        }
        if (row < n && col < m) cz[row * m + col] = static_cast<T>(acc);
      }
    }
  }
}

/// Element strides of `a` (byte strides / itemsize); false when a stride is not a multiple.
bool element_strides(const ndarray& a, shape_t& out) {
  const i64 is = static_cast<i64>(a.itemsize());
  out.resize(a.ndim());
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.strides()[d] % is != 0) return false;
    out[d] = a.strides()[d] / is;
  }
  return true;
}

/// Sets the handle's pointer mode for the scope and restores the previous one on exit. The handle
/// is shared by every module on this thread: the mode a call relies on is always set explicitly
/// (host for the GEMMs' alpha/beta, device for the dot results) rather than assumed.
struct pointer_mode_guard {
  cublasHandle_t h;
  cublasPointerMode_t old = CUBLAS_POINTER_MODE_HOST;
  pointer_mode_guard(cublasHandle_t hh, cublasPointerMode_t mode) : h(hh) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h, &old));
    if (old != mode) CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h, mode));
  }
  ~pointer_mode_guard() { CUSCI_LAZY(cublasSetPointerMode)(h, old); }
  pointer_mode_guard(const pointer_mode_guard&) = delete;
  pointer_mode_guard& operator=(const pointer_mode_guard&) = delete;
};

/// The core of matmul: a [batch_a..., n, k], b [batch_b..., k, m] with ndim >= 2, the same dtype,
/// k already checked; out [batch..., n, m] C-contiguous preallocated (size > 0, k > 0).
void matmul_core(ndarray a, ndarray b, ndarray& out) {
  const dtype t = a.dtype();
  const int nd = out.ndim();
  const int nb = nd - 2;
  const i64 n = out.shape()[nd - 2], m = out.shape()[nd - 1], k = a.shape()[a.ndim() - 1];
  const i64 is = static_cast<i64>(a.itemsize());
  const bool blas = is_blas_dtype(t);

  // Matrix layouts: BLAS needs one unit stride per matrix; otherwise copy to C order.
  cublasOperation_t opa = CUBLAS_OP_N, opb = CUBLAS_OP_N;
  i64 lda = 0, ldb = 0;
  shape_t sa, sb;
  auto prepare = [&](ndarray& x, i64 r, i64 cc, cublasOperation_t& op, i64& ld, shape_t& es) {
    bool ok = element_strides(x, es);
    if (ok && blas) {
      const int xd = x.ndim();
      ok = as_blas_operand(r, cc, es[xd - 2], es[xd - 1], op, ld);
    }
    if (!ok) {
      x = x.copy();
      element_strides(x, es);
      if (blas) as_blas_operand(r, cc, es[x.ndim() - 2], es[x.ndim() - 1], op, ld);
    }
  };
  prepare(a, n, k, opa, lda, sa);
  prepare(b, k, m, opb, ldb, sb);

  // Batch strides (bytes), right-aligned to the broadcast batch shape; 0 where broadcast.
  shape_t bshape(out.shape().begin(), out.shape().begin() + nb);
  shape_t bsa(nb, 0), bsb(nb, 0), bsc(nb, 0);
  {
    const int offa = nb - (a.ndim() - 2), offb = nb - (b.ndim() - 2);
    for (int d = 0; d < nb; ++d) {
      if (d >= offa && a.shape()[d - offa] != 1) bsa[d] = a.strides()[d - offa];
      if (d >= offb && b.shape()[d - offb] != 1) bsb[d] = b.strides()[d - offb];
      bsc[d] = out.strides()[d];
    }
  }
  i64 batch = 1;
  for (i64 s : bshape) batch *= s;
  detail::coalesce(bshape, {&bsa, &bsb, &bsc});

  cudaStream_t stream = get_current_stream();
  if (!blas) {
    detail::dispatch_integer(t, "cusci: internal", "integer kernel called with a non-integer dtype", [&](auto tag) {
      using T = typename decltype(tag)::type;
      // The kernel addresses batches through indexers over the uncoalesced-equivalent batch shape.
      const detail::strided_indexer ia = detail::make_indexer(bshape, bsa);
      const detail::strided_indexer ib = detail::make_indexer(bshape, bsb);
      const int ar = a.ndim(), br = b.ndim();
      dim3 block(int_tile, int_tile);
      const i64 tm = (m + int_tile - 1) / int_tile, tn = (n + int_tile - 1) / int_tile;
      dim3 grid(static_cast<unsigned>(std::min<i64>(tm, 65535)), static_cast<unsigned>(std::min<i64>(tn, 65535)),
                static_cast<unsigned>(std::min<i64>(batch, 65535)));
      int_matmul_kernel<T><<<grid, block, 0, stream>>>(a.data_as<const T>(), b.data_as<const T>(), out.data_as<T>(), n,
                                                       m, k, sa[ar - 2], sa[ar - 1], sb[br - 2], sb[br - 1], ia, ib,
                                                       batch);
      CUSCI_CHECK_LAUNCH();
    });
    return;
  }

  blas_types bt = blas_types_for(t);
  cublasHandle_t h = detail::cublas_handle();
  const pointer_mode_guard mode(h, CUBLAS_POINTER_MODE_HOST);  // alpha/beta are host scalars
  check_int(m, "dimension");
  check_int(n, "dimension");
  check_int(k, "dimension");
  check_int(lda, "leading dimension");
  check_int(ldb, "leading dimension");
  // cuBLAS works column-major: out^T [m, n] = op(B^T) [m, k] * op(A^T) [k, n].
  const int ldc = static_cast<int>(std::max<i64>(1, m));

  if (bshape.empty()) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY_AS(cublasGemmEx, gemm_ex_fn)(
        h, opb, opa, (int)m, (int)n, (int)k, bt.one, b.data(), bt.data, (int)ldb, a.data(), bt.data, (int)lda, bt.zero,
        out.data(), bt.data, ldc, bt.compute, CUBLAS_GEMM_DEFAULT));
    return;
  }
  if (bshape.size() == 1 && bsa[0] >= 0 && bsb[0] >= 0) {
    const i64 za = bsa[0] / is, zb = bsb[0] / is, zc = bsc[0] / is;
    // A broadcast right operand whose batch folds into the rows of a (row-major a): one GEMM.
    if (zb == 0 && opa == CUBLAS_OP_N && zc == n * m && za >= 0 && (n == 1 ? za >= std::max<i64>(1, k) : za == n * lda)) {
      const i64 rows = n * bshape[0];
      const i64 lda2 = n == 1 ? za : lda;
      check_int(rows, "dimension");
      check_int(lda2, "leading dimension");
      CUSCI_CUBLAS_TRY(CUSCI_LAZY_AS(cublasGemmEx, gemm_ex_fn)(
          h, opb, opa, (int)m, (int)rows, (int)k, bt.one, b.data(), bt.data, (int)ldb, a.data(), bt.data, (int)lda2,
          bt.zero, out.data(), bt.data, ldc, bt.compute, CUBLAS_GEMM_DEFAULT));
      return;
    }
    check_int(bshape[0], "batch count");
    CUSCI_CUBLAS_TRY(CUSCI_LAZY_AS(cublasGemmStridedBatchedEx, gemm_strided_batched_ex_fn)(
        h, opb, opa, (int)m, (int)n, (int)k, bt.one, b.data(), bt.data, (int)ldb, zb, a.data(), bt.data, (int)lda, za,
        bt.zero, out.data(), bt.data, ldc, zc, (int)bshape[0], bt.compute, CUBLAS_GEMM_DEFAULT));
    return;
  }
  // General batch layout: pointer arrays built on the device.
  check_int(batch, "batch count");
  device_buffer<void*> ptrs(static_cast<std::size_t>(3 * batch), stream);
  const void** pa = const_cast<const void**>(ptrs.data());
  const void** pb = const_cast<const void**>(ptrs.data() + batch);
  void** pc = ptrs.data() + 2 * batch;
  fill_pointer_arrays<<<detail::grid_for(batch), 256, 0, stream>>>(
      static_cast<const char*>(a.data()), static_cast<const char*>(b.data()), static_cast<char*>(out.data()),
      detail::make_indexer(bshape, bsa), detail::make_indexer(bshape, bsb), n * m * is, batch, pa, pb, pc);
  CUSCI_CHECK_LAUNCH();
  CUSCI_CUBLAS_TRY(CUSCI_LAZY_AS(cublasGemmBatchedEx, gemm_batched_ex_fn)(
      h, opb, opa, (int)m, (int)n, (int)k, bt.one, pb, bt.data, (int)ldb, pa, bt.data, (int)lda, bt.zero, pc, bt.data,
      ldc, (int)batch, bt.compute, CUBLAS_GEMM_DEFAULT));
}

/// A 1-D view with a positive element stride, copying when needed.
ndarray as_blas_vector(const ndarray& x, i64& inc) {
  shape_t es;
  if (element_strides(x, es) && (x.shape()[0] <= 1 || es[0] > 0)) {
    inc = x.shape()[0] <= 1 ? 1 : es[0];
    if (inc <= int_max) return x;
  }
  inc = 1;
  return x.copy();
}

/// Inner product of two 1-D arrays of the same dtype and length (conjugating x when `conj`).
ndarray vector_dot(const ndarray& x, const ndarray& y, bool conj) {
  const dtype t = x.dtype();
  const i64 n = x.shape()[0];
  if (n == 0) return zeros({}, t);
  if (!is_blas_dtype(t)) {
    if (t == dtype::bool_) {
      reduce_options o;
      o.dtype = dtype::int64;
      return not_equal(sum(multiply(x, y), {}, o), scalar(0));
    }
    reduce_options o;
    o.dtype = t;
    return sum(multiply(x, y), {}, o);
  }
  check_int(n, "vector length");
  i64 incx = 1, incy = 1;
  const ndarray xv = as_blas_vector(x, incx), yv = as_blas_vector(y, incy);
  ndarray out = empty({}, t);
  const blas_types bt = blas_types_for(t);
  // Execution type: float for float16/float32/complex64, double otherwise.
  const cudaDataType exec = (t == dtype::float64) ? CUDA_R_64F
                            : (t == dtype::complex128) ? CUDA_C_64F
                            : (t == dtype::complex64) ? CUDA_C_32F
                                                      : CUDA_R_32F;
  cublasHandle_t h = detail::cublas_handle();
  const pointer_mode_guard guard(h, CUBLAS_POINTER_MODE_DEVICE);  // the result is written on the device
  if (conj && is_complex(t))
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasDotcEx)(h, (int)n, xv.data(), bt.data, (int)incx, yv.data(), bt.data, (int)incy,
                                              out.data(), bt.data, exec));
  else
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasDotEx)(h, (int)n, xv.data(), bt.data, (int)incx, yv.data(), bt.data, (int)incy,
                                             out.data(), bt.data, exec));
  return out;
}

using detail::normalize_axis;

}  // namespace

void set_allow_tf32(bool allow) noexcept { g_allow_tf32.store(allow); }
bool get_allow_tf32() noexcept { return g_allow_tf32.load(); }

ndarray matmul(const ndarray& a0, const ndarray& b0) {
  detail::check_same_device("cusci::matmul", {&a0, &b0});
  const char* sig = "(n?,k),(k,m?)->(n?,m?)";
  for (int i = 0; i < 2; ++i) {
    const ndarray& x = i == 0 ? a0 : b0;
    if (x.ndim() == 0)
      throw value_error(std::string("matmul: Input operand ") + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature " + sig + " requires 1)");
  }
  const dtype t = promote_types(a0.dtype(), b0.dtype());
  ndarray a = a0.ndim() == 1 ? a0.expand_dims(0) : a0;
  ndarray b = b0.ndim() == 1 ? b0.expand_dims(1) : b0;
  const i64 k = a.shape()[a.ndim() - 1], kb = b.shape()[b.ndim() - 2];
  if (k != kb)
    throw value_error(std::string("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature ") +
                      sig + " (size " + std::to_string(kb) + " is different from " + std::to_string(k) + ")");
  const shape_t ba(a.shape().begin(), a.shape().end() - 2), bb(b.shape().begin(), b.shape().end() - 2);
  shape_t batch;
  try {
    batch = broadcast_shapes(ba, bb);
  } catch (const value_error&) {
    throw value_error("matmul: operands could not be broadcast together: batch shapes " + compact_shape_str(ba) +
                      " and " + compact_shape_str(bb) + " (operand shapes " + compact_shape_str(a0.shape()) + " and " +
                      compact_shape_str(b0.shape()) + ")");
  }
  const i64 n = a.shape()[a.ndim() - 2], m = b.shape()[b.ndim() - 1];
  shape_t oshape = batch;
  oshape.push_back(n);
  oshape.push_back(m);
  ndarray out;
  if (k == 0) {
    out = zeros(oshape, t);
  } else {
    out = empty(oshape, t);
    if (out.size() > 0) matmul_core(a.astype(t, false), b.astype(t, false), out);
  }
  // Remove the axes added for 1-D operands.
  shape_t final_shape = batch;
  if (a0.ndim() != 1) final_shape.push_back(n);
  if (b0.ndim() != 1) final_shape.push_back(m);
  if (final_shape.size() != oshape.size()) out = out.reshape(final_shape);
  return out;
}

namespace {

/// NumPy's dot/inner error for contracted dimensions that differ.
[[noreturn]] void throw_not_aligned(const ndarray& a, const ndarray& b, int ka, int kb) {
  throw value_error("shapes " + compact_shape_str(a.shape()) + " and " + compact_shape_str(b.shape()) +
                    " not aligned: " + std::to_string(a.shape()[ka]) + " (dim " + std::to_string(ka) + ") != " +
                    std::to_string(b.shape()[kb]) + " (dim " + std::to_string(kb) + ")");
}

}  // namespace

ndarray dot(const ndarray& a, const ndarray& b) {
  detail::check_same_device("cusci::dot", {&a, &b});
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int ka = a.ndim() - 1, kb = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (a.shape()[ka] != b.shape()[kb])
    throw_not_aligned(a, b, ka, kb);
  if (a.ndim() == 1 && b.ndim() == 1) {
    const dtype t = promote_types(a.dtype(), b.dtype());
    return vector_dot(a.astype(t, false), b.astype(t, false), false);
  }
  if (b.ndim() <= 2) return matmul(a, b);  // N-D @ 1-D and N-D @ 2-D agree with matmul
  return tensordot(a, b, std::pair<std::vector<int>, std::vector<int>>({a.ndim() - 1}, {b.ndim() - 2}));
}

ndarray vdot(const ndarray& a, const ndarray& b) {
  detail::check_same_device("cusci::vdot", {&a, &b});
  if (a.size() != b.size()) throw value_error("vdot: vectors have different lengths (" + std::to_string(a.size()) +
                                              " and " + std::to_string(b.size()) + ")");
  const dtype t = promote_types(a.dtype(), b.dtype());
  return vector_dot(a.astype(t, false).reshape({a.size()}), b.astype(t, false).reshape({b.size()}), true);
}

ndarray inner(const ndarray& a, const ndarray& b) {
  detail::check_same_device("cusci::inner", {&a, &b});
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int ka = a.ndim() - 1, kb = b.ndim() - 1;
  if (a.shape()[ka] != b.shape()[kb])
    throw_not_aligned(a, b, ka, kb);
  if (a.ndim() == 1 && b.ndim() == 1) {
    const dtype t = promote_types(a.dtype(), b.dtype());
    return vector_dot(a.astype(t, false), b.astype(t, false), false);
  }
  return tensordot(a, b, std::pair<std::vector<int>, std::vector<int>>({-1}, {-1}));
}

ndarray outer(const ndarray& a, const ndarray& b) {
  detail::check_same_device("cusci::outer", {&a, &b});
  return multiply(a.reshape({a.size(), 1}), b.reshape({1, b.size()}));
}

ndarray tensordot(const ndarray& a, const ndarray& b, const tensordot_axes& axes) {
  detail::check_same_device("cusci::tensordot", {&a, &b});
  std::vector<int> xa, xb;
  if (const int* n = std::get_if<int>(&axes)) {
    if (*n < 0 || *n > a.ndim() || *n > b.ndim())
      throw value_error("cusci::tensordot: axes must be in [0, min(a.ndim, b.ndim)] = [0, " +
                        std::to_string(std::min(a.ndim(), b.ndim())) + "], got " + std::to_string(*n));
    for (int i = 0; i < *n; ++i) {
      xa.push_back(a.ndim() - *n + i);
      xb.push_back(i);
    }
  } else {
    const auto& p = std::get<1>(axes);
    if (p.first.size() != p.second.size())
      throw value_error("shape-mismatch for sum: tensordot got " + std::to_string(p.first.size()) + " axes for a and " +
                        std::to_string(p.second.size()) + " for b");
    for (int x : p.first) xa.push_back(normalize_axis(x, a.ndim(), "cusci::tensordot"));
    for (int x : p.second) xb.push_back(normalize_axis(x, b.ndim(), "cusci::tensordot"));
  }
  std::vector<bool> used_a(a.ndim(), false), used_b(b.ndim(), false);
  i64 K = 1;
  for (std::size_t i = 0; i < xa.size(); ++i) {
    if (used_a[xa[i]] || used_b[xb[i]]) throw value_error("cusci::tensordot: repeated axis in axes");
    used_a[xa[i]] = used_b[xb[i]] = true;
    if (a.shape()[xa[i]] != b.shape()[xb[i]])
      throw value_error("shape-mismatch for sum: a.shape[" + std::to_string(xa[i]) + "] = " +
                        std::to_string(a.shape()[xa[i]]) + " != b.shape[" + std::to_string(xb[i]) +
                        "] = " + std::to_string(b.shape()[xb[i]]));
    K *= a.shape()[xa[i]];
  }
  std::vector<int> pa, pb;
  shape_t fshape;
  i64 Na = 1, Nb = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (!used_a[d]) {
      pa.push_back(d);
      fshape.push_back(a.shape()[d]);
      Na *= a.shape()[d];
    }
  for (int x : xb) pb.push_back(x);
  for (int x : xa) pa.push_back(x);
  for (int d = 0; d < b.ndim(); ++d)
    if (!used_b[d]) {
      pb.push_back(d);
      fshape.push_back(b.shape()[d]);
      Nb *= b.shape()[d];
    }
  const ndarray a2 = (a.ndim() ? a.transpose(pa) : a).reshape({Na, K});
  const ndarray b2 = (b.ndim() ? b.transpose(pb) : b).reshape({K, Nb});
  return matmul(a2, b2).reshape(fshape);
}

// ------------------------------------------------------------------------------------------------
// einsum

namespace {

struct labeled {
  ndarray a;
  std::vector<int> labels;  // one per axis; ellipsis axes use labels 1..31, letters their char code
};

bool is_label_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

[[noreturn]] void einsum_error(const std::string& msg) { throw value_error("cusci::einsum: " + msg); }

/// Parses one term into labels; `ell` receives the number of ellipsis axes (-1 when none).
std::vector<int> parse_term(const std::string& term, int ndim, int& ell_pos, bool is_output) {
  std::vector<int> out;
  ell_pos = -1;
  for (std::size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (c == '.') {
      if (term.compare(i, 3, "...") != 0) einsum_error("invalid subscript '.' (an ellipsis is '...') in \"" + term + "\"");
      if (ell_pos >= 0) einsum_error("more than one ellipsis in \"" + term + "\"");
      ell_pos = static_cast<int>(out.size());
      i += 2;
    } else if (is_label_char(c)) {
      out.push_back(static_cast<unsigned char>(c));
    } else {
      einsum_error(std::string("invalid subscript '") + c + "' in \"" + term + "\" (labels are letters a-z, A-Z)");
    }
  }
  if (!is_output) {
    const int n_explicit = static_cast<int>(out.size());
    if (ell_pos < 0 && n_explicit != ndim)
      einsum_error("operand has " + std::to_string(ndim) + " dimensions but the subscripts \"" + term + "\" give " +
                   std::to_string(n_explicit));
    if (ell_pos >= 0 && n_explicit > ndim)
      einsum_error("operand has " + std::to_string(ndim) + " dimensions, fewer than the " + std::to_string(n_explicit) +
                   " labels of \"" + term + "\"");
  }
  return out;
}

/// Diagonal view for repeated labels of one operand (strides of equal labels add), no copy.
labeled take_diagonals(const labeled& x) {
  std::vector<int> labels;
  shape_t shape, strides;
  for (int d = 0; d < x.a.ndim(); ++d) {
    auto it = std::find(labels.begin(), labels.end(), x.labels[d]);
    if (it == labels.end()) {
      labels.push_back(x.labels[d]);
      shape.push_back(x.a.shape()[d]);
      strides.push_back(x.a.strides()[d]);
    } else {
      const std::size_t j = static_cast<std::size_t>(it - labels.begin());
      strides[j] += x.a.strides()[d];
    }
  }
  if (labels.size() == x.labels.size()) return x;
  return {ndarray(x.a.memory(), x.a.dtype(), shape, strides, x.a.offset(), x.a.device()), labels};
}

/// Sums `x` over its labels not in `keep`; result dtype t.
labeled sum_out(const labeled& x, const std::vector<int>& keep, dtype t) {
  std::vector<int> axes, labels;
  for (int d = 0; d < static_cast<int>(x.labels.size()); ++d) {
    if (std::find(keep.begin(), keep.end(), x.labels[d]) == keep.end()) axes.push_back(d);
    else labels.push_back(x.labels[d]);
  }
  if (axes.empty()) return x;
  reduce_options o;
  o.dtype = t;
  return {sum(x.a, axis_arg(axes), o), labels};
}

bool has(const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }

/// Contracts two labeled operands, keeping the labels in `keep` (output labels and labels of the
/// operands still to come).
labeled contract(labeled x, labeled y, const std::vector<int>& keep, dtype t) {
  std::vector<int> kx = keep, ky = keep;
  kx.insert(kx.end(), y.labels.begin(), y.labels.end());
  ky.insert(ky.end(), x.labels.begin(), x.labels.end());
  x = sum_out(x, kx, t);
  y = sum_out(y, ky, t);
  std::vector<int> batch, contr, fx, fy;
  for (int l : x.labels) {
    if (has(y.labels, l)) (has(keep, l) ? batch : contr).push_back(l);
    else fx.push_back(l);
  }
  for (int l : y.labels)
    if (!has(x.labels, l)) fy.push_back(l);
  auto pos = [](const labeled& z, int l) {
    return static_cast<int>(std::find(z.labels.begin(), z.labels.end(), l) - z.labels.begin());
  };
  std::vector<int> px, py;
  i64 B = 1, K = 1, FX = 1, FY = 1;
  shape_t rshape;
  std::vector<int> rlabels;
  for (int l : batch) {
    px.push_back(pos(x, l));
    py.push_back(pos(y, l));
    B *= x.a.shape()[pos(x, l)];
    rshape.push_back(x.a.shape()[pos(x, l)]);
    rlabels.push_back(l);
  }
  for (int l : fx) {
    px.push_back(pos(x, l));
    FX *= x.a.shape()[pos(x, l)];
    rshape.push_back(x.a.shape()[pos(x, l)]);
    rlabels.push_back(l);
  }
  for (int l : contr) {
    px.push_back(pos(x, l));
    py.push_back(pos(y, l));
    K *= x.a.shape()[pos(x, l)];
  }
  for (int l : fy) {
    py.push_back(pos(y, l));
    FY *= y.a.shape()[pos(y, l)];
    rshape.push_back(y.a.shape()[pos(y, l)]);
    rlabels.push_back(l);
  }
  const ndarray x3 = (x.a.ndim() ? x.a.transpose(px) : x.a).reshape({B, FX, K});
  const ndarray y3 = (y.a.ndim() ? y.a.transpose(py) : y.a).reshape({B, K, FY});
  return {matmul(x3, y3).reshape(rshape), rlabels};
}

}  // namespace

ndarray einsum(const std::string& subscripts0, const std::vector<ndarray>& operands) {
  if (operands.empty()) einsum_error("at least one operand is required");
  for (std::size_t i = 1; i < operands.size(); ++i)
    detail::check_same_device("cusci::einsum", {&operands[0], &operands[i]});
  std::string s;
  for (char c : subscripts0)
    if (c != ' ') s.push_back(c);
  const auto arrow = s.find("->");
  const bool explicit_out = arrow != std::string::npos;
  const std::string lhs = explicit_out ? s.substr(0, arrow) : s;
  const std::string rhs = explicit_out ? s.substr(arrow + 2) : std::string();
  if (explicit_out && rhs.find("->") != std::string::npos) einsum_error("more than one '->' in \"" + subscripts0 + "\"");
  if (rhs.find(',') != std::string::npos) einsum_error("the output subscripts contain ','");
  std::vector<std::string> terms;
  {
    std::size_t st = 0;
    for (;;) {
      const auto c = lhs.find(',', st);
      terms.push_back(lhs.substr(st, c == std::string::npos ? std::string::npos : c - st));
      if (c == std::string::npos) break;
      st = c + 1;
    }
  }
  if (terms.size() != operands.size())
    einsum_error("the subscripts give " + std::to_string(terms.size()) + " operands but " +
                 std::to_string(operands.size()) + " were passed");
  dtype t = operands[0].dtype();
  for (const auto& o : operands) t = promote_types(t, o.dtype());

  // Labels per operand, ellipsis axes right-aligned onto labels 1..max_ell.
  std::vector<labeled> ops;
  int max_ell = 0;
  std::vector<std::vector<int>> raw(operands.size());
  std::vector<int> ellpos(operands.size());
  for (std::size_t i = 0; i < operands.size(); ++i) {
    raw[i] = parse_term(terms[i], operands[i].ndim(), ellpos[i], false);
    if (ellpos[i] >= 0) max_ell = std::max(max_ell, operands[i].ndim() - static_cast<int>(raw[i].size()));
  }
  if (max_ell > 31) einsum_error("more than 31 broadcast (ellipsis) dimensions");
  std::vector<i64> size_of(128, -1);
  for (std::size_t i = 0; i < operands.size(); ++i) {
    std::vector<int> labels = raw[i];
    if (ellpos[i] >= 0) {
      const int ne = operands[i].ndim() - static_cast<int>(raw[i].size());
      std::vector<int> el;
      for (int e = 0; e < ne; ++e) el.push_back(max_ell - ne + 1 + e);
      labels.insert(labels.begin() + ellpos[i], el.begin(), el.end());
    }
    const ndarray& a = operands[i];
    for (int d = 0; d < a.ndim(); ++d) {
      const int l = labels[d];
      const i64 n = a.shape()[d];
      if (size_of[l] < 0 || (l < 32 && size_of[l] == 1)) size_of[l] = n;
      else if (n != size_of[l] && !(l < 32 && n == 1)) {
        if (l < 32)
          einsum_error("operands could not be broadcast together: ellipsis dimension of length " + std::to_string(n) +
                       " against " + std::to_string(size_of[l]));
        einsum_error(std::string("size of label '") + static_cast<char>(l) + "' for operand " + std::to_string(i) + " (" +
                     std::to_string(n) + ") does not match previous terms (" + std::to_string(size_of[l]) + ")");
      }
    }
    ops.push_back({a.astype(t, false), labels});
  }
  // Broadcast ellipsis axes of length 1 (stride 0 views), then diagonals of repeated labels.
  for (auto& x : ops) {
    shape_t shape = x.a.shape(), strides = x.a.strides();
    bool changed = false;
    for (int d = 0; d < x.a.ndim(); ++d)
      if (x.labels[d] < 32 && shape[d] == 1 && size_of[x.labels[d]] != 1) {
        shape[d] = size_of[x.labels[d]];
        strides[d] = 0;
        changed = true;
      }
    if (changed) x.a = ndarray(x.a.memory(), x.a.dtype(), shape, strides, x.a.offset(), x.a.device());
    x = take_diagonals(x);
  }
  // Output labels.
  std::vector<int> out_labels;
  if (explicit_out) {
    int oe = -1;
    std::vector<int> r = parse_term(rhs, 0, oe, true);
    if (oe >= 0) {
      std::vector<int> el;
      for (int e = 1; e <= max_ell; ++e) el.push_back(e);
      r.insert(r.begin() + oe, el.begin(), el.end());
    }
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (std::find(r.begin(), r.begin() + i, r[i]) != r.begin() + i)
        einsum_error(std::string("output subscript '") + static_cast<char>(r[i]) + "' appears more than once");
      if (size_of[r[i]] < 0)
        einsum_error(std::string("output subscript '") + static_cast<char>(r[i]) + "' does not appear in the inputs");
    }
    out_labels = r;
  } else {
    std::vector<int> count(128, 0);
    for (const auto& v : raw)
      for (int l : v) ++count[l];
    for (int e = 1; e <= max_ell; ++e) out_labels.push_back(e);
    for (int l = 0; l < 128; ++l)
      if (l >= 32 && count[l] == 1) out_labels.push_back(l);
  }
  // Pairwise contraction, left to right.
  labeled acc = ops[0];
  for (std::size_t i = 1; i < ops.size(); ++i) {
    std::vector<int> keep = out_labels;
    for (std::size_t j = i + 1; j < ops.size(); ++j) keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    acc = contract(acc, ops[i], keep, t);
  }
  acc = sum_out(acc, out_labels, t);
  std::vector<int> perm;
  for (int l : out_labels)
    perm.push_back(static_cast<int>(std::find(acc.labels.begin(), acc.labels.end(), l) - acc.labels.begin()));
  ndarray r = perm.empty() ? acc.a : acc.a.transpose(perm);
  // A fresh C-contiguous result (never a view of an operand).
  bool aliases = false;
  for (const auto& o : operands) aliases = aliases || (o.memory() && r.memory() == o.memory());
  if (!r.is_c_contiguous() || aliases) r = r.copy();
  return r;
}

}  // namespace cusci

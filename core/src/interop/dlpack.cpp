/// @file dlpack.cpp
/// DLPack import/export (format: dmlc/dlpack's dlpack.h; exchange rules: the Python array API
/// standard's `from_dlpack`). No device work: only pointers, shapes and ownership change hands.
///
/// Import: the producer's tensor is owned by a shared guard whose destruction calls the producer's
/// deleter; the guard is held by the release callback of the ndarray's memory block, so the deleter
/// runs when the last view of the array is gone (or at once if the import is rejected).
/// Export: a heap context holds a copy of the ndarray (one more reference to its memory), the shape
/// and stride arrays and the DLPack struct; the deleter deletes the context.

#include "cusci/dlpack.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include CUSCI_DLPACK_HEADER

#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/detail/nvtx.hpp"

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
#define CUSCI_DLPACK_VERSIONED 1
#else
#define CUSCI_DLPACK_VERSIONED 0
#endif

namespace cusci {
namespace {

// DLPack's kDLBool (added in DLPack 0.8; older headers such as Debian 12's 0.6 lack the name).
constexpr std::uint8_t dl_code_bool = 6;
constexpr std::uint8_t dl_code_int = 0, dl_code_uint = 1, dl_code_float = 2, dl_code_complex = 5;

/// DLPack's (type code, bits) for a cusci dtype, derived from the dtype's kind and size so that every
/// dtype of the list (float16 included once it exists) maps without a per-dtype table.
void dl_type_of(dtype t, std::uint8_t& code, std::uint8_t& bits) {
  bits = static_cast<std::uint8_t>(itemsize(t) * 8);
  if (is_bool(t)) code = dl_code_bool;
  else if (is_signed_integer(t)) code = dl_code_int;
  else if (is_unsigned_integer(t)) code = dl_code_uint;
  else if (is_complex(t)) code = dl_code_complex;
  else code = dl_code_float;  // float16, float32, float64
}

std::string code_name(std::uint8_t code) {
  switch (code) {
    case 0: return "kDLInt";
    case 1: return "kDLUInt";
    case 2: return "kDLFloat";
    case 3: return "kDLOpaqueHandle";
    case 4: return "kDLBfloat";
    case 5: return "kDLComplex";
    case 6: return "kDLBool";
    default: return "type code " + std::to_string(code);
  }
}

dtype dtype_of_dl(const DLDataType& t, const char* fn) {
  if (t.lanes != 1)
    throw value_error(std::string(fn) + ": vector types are not supported: lanes must be 1, got " +
                      std::to_string(t.lanes));
  for (int i = 0; i < n_dtypes; ++i) {
    const auto d = static_cast<dtype>(i);
    std::uint8_t c, b;
    dl_type_of(d, c, b);
    if (c == t.code && b == t.bits) return d;
  }
  throw type_error(std::string(fn) + ": unsupported DLPack dtype " + code_name(t.code) + " with " +
                   std::to_string(t.bits) + " bits (cusci has bool, int8..int64, uint8..uint64, float32, float64, "
                   "complex64, complex128 and float16 where available)");
}

std::string device_type_name(int t) {
  switch (t) {
    case 1: return "kDLCPU";
    case 2: return "kDLCUDA";
    case 3: return "kDLCUDAHost";
    case 4: return "kDLOpenCL";
    case 7: return "kDLVulkan";
    case 8: return "kDLMetal";
    case 10: return "kDLROCM";
    case 13: return "kDLCUDAManaged";
    default: return "device type " + std::to_string(t);
  }
}

/// Builds the ndarray viewing `t`; `guard` owns the producer's tensor (its deleter runs when the last
/// copy of the guard is gone). Throws without keeping the guard on invalid input.
ndarray wrap_tensor(const DLTensor& t, std::shared_ptr<void> guard, const char* fn) {
  const std::string f = fn;
  const dtype dt = dtype_of_dl(t.dtype, fn);
  const std::int64_t isz = static_cast<std::int64_t>(itemsize(dt));
  if (t.ndim < 0) throw value_error(f + ": ndim must be >= 0, got " + std::to_string(t.ndim));
  if (t.ndim > 0 && t.shape == nullptr) throw value_error(f + ": shape is null for ndim " + std::to_string(t.ndim));
  const std::size_t nd = static_cast<std::size_t>(t.ndim);
  shape_t shape(nd), estrides(nd);
  bool empty = false;
  for (std::size_t d = 0; d < nd; ++d) {
    shape[d] = t.shape[d];
    if (shape[d] < 0)
      throw value_error(f + ": dimension " + std::to_string(d) + " is negative (" + std::to_string(shape[d]) + ")");
    empty = empty || shape[d] == 0;
  }
  // NumPy's shape rules (at most 64 dimensions, the product within int64 even beside a zero
  // dimension) before any product below is formed.
  (void)detail::checked_size(shape, f, static_cast<std::size_t>(isz));
  if (t.strides) {
    for (std::size_t d = 0; d < nd; ++d) estrides[d] = t.strides[d];
  } else {  // null strides: compact row-major (allowed by DLPack before 1.2)
    std::int64_t s = 1;
    for (std::size_t d = nd; d-- > 0;) {
      estrides[d] = s;
      s *= shape[d] > 0 ? shape[d] : 1;
    }
  }
  // Element offsets of the lowest and highest addressed elements, relative to element 0, checked
  // against overflow of byte offsets.
  __int128 lo = 0, hi = 0;
  if (!empty) {
    for (std::size_t d = 0; d < nd; ++d) {
      const __int128 ext = static_cast<__int128>(shape[d] - 1) * estrides[d];
      if (ext < 0) lo += ext;
      else hi += ext;
    }
  }
  constexpr __int128 lim = std::numeric_limits<std::int64_t>::max() / 16;
  if (lo < -lim || hi > lim) throw value_error(f + ": the tensor's strides address more memory than fits in 64 bits");
  shape_t bstrides(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    const __int128 b = static_cast<__int128>(estrides[d]) * isz;
    if (b < -lim || b > lim) throw value_error(f + ": stride " + std::to_string(estrides[d]) + " is too large");
    bstrides[d] = static_cast<std::int64_t>(b);
  }
  const int dev_type = static_cast<int>(t.device.device_type);
  int device = 0;
  if (dev_type == kDLCUDA || dev_type == kDLCUDAManaged) {
    const int n = device_count();
    if (!(t.device.device_id >= 0 && t.device.device_id < n))
      throw value_error(f + ": device_id " + std::to_string(t.device.device_id) + " of the " +
                        device_type_name(dev_type) + " tensor is not a visible CUDA device (there are " +
                        std::to_string(n) + ")");
    device = t.device.device_id;
  } else if (dev_type == kDLCUDAHost) {
    device = get_device_id();
  } else if (dev_type == kDLCPU) {
    throw value_error(f + ": the tensor is in CPU memory (kDLCPU); cusci arrays live in CUDA device memory, "
                      "copy host data with cusci::asarray");
  } else {
    throw value_error(f + ": unsupported device " + device_type_name(dev_type) +
                      " (expected kDLCUDA, kDLCUDAManaged or kDLCUDAHost)");
  }
  char* elem0 = static_cast<char*>(t.data);
  if (!empty && elem0 == nullptr) throw value_error(f + ": data is null for a non-empty tensor");
  if (elem0) elem0 += t.byte_offset;
  const std::int64_t lo_b = static_cast<std::int64_t>(lo) * isz;
  const std::size_t span = empty ? 0 : static_cast<std::size_t>((hi - lo + 1) * isz);
  void* base = empty ? static_cast<void*>(elem0) : static_cast<void*>(elem0 + lo_b);
  // The release callback owns the guard: destroying the block's callback drops the producer's tensor.
  auto mem = std::make_shared<memory_block>(base, span, device, nullptr,
                                            [g = std::move(guard)](memory_block&) noexcept {});
  return ndarray(std::move(mem), dt, std::move(shape), std::move(bstrides), empty ? 0 : -lo_b, device);
}

/// Shape and element strides of an export, with non-null storage even for 0-d arrays.
struct export_layout {
  std::vector<std::int64_t> shape, strides;
};

export_layout layout_of(const ndarray& a, const char* fn) {
  export_layout l;
  const std::size_t nd = static_cast<std::size_t>(a.ndim());
  l.shape.assign(nd > 0 ? nd : 1, 0);
  l.strides.assign(nd > 0 ? nd : 1, 0);
  const auto isz = static_cast<std::int64_t>(a.itemsize());
  for (std::size_t d = 0; d < nd; ++d) {
    l.shape[d] = a.shape()[d];
    const std::int64_t s = a.strides()[d];
    if (s % isz != 0)
      throw value_error(std::string(fn) + ": stride " + std::to_string(s) + " bytes of axis " + std::to_string(d) +
                        " is not a multiple of the itemsize " + std::to_string(isz) +
                        "; DLPack strides count elements (copy the array first)");
    l.strides[d] = s / isz;
  }
  return l;
}

void fill_tensor(DLTensor& t, const ndarray& a, export_layout& l) {
  t.data = a.data();
  t.device.device_type = kDLCUDA;
  t.device.device_id = a.device();
  t.ndim = a.ndim();
  std::uint8_t code, bits;
  dl_type_of(a.dtype(), code, bits);
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = l.shape.data();
  t.strides = l.strides.data();
  t.byte_offset = 0;
}

struct export_ctx {
  ndarray keep;  // one reference to the exported memory
  export_layout layout;
  DLManagedTensor tensor{};
};

void export_deleter(DLManagedTensor* self) {
  if (self) delete static_cast<export_ctx*>(self->manager_ctx);
}

#if CUSCI_DLPACK_VERSIONED
struct export_ctx_versioned {
  ndarray keep;
  export_layout layout;
  DLManagedTensorVersioned tensor{};
};

void export_deleter_versioned(DLManagedTensorVersioned* self) {
  if (self) delete static_cast<export_ctx_versioned*>(self->manager_ctx);
}
#endif

}  // namespace

ndarray from_dlpack(DLManagedTensor* tensor) {
  CUSCI_NVTX_SCOPE("cusci::from_dlpack");
  constexpr const char* fn = "cusci::from_dlpack";
  if (tensor == nullptr) throw value_error(std::string(fn) + ": tensor is null");
  // From here on the tensor is owned: the guard calls its deleter on every exit path.
  std::shared_ptr<void> guard(nullptr, [tensor](void*) {
    if (tensor->deleter) tensor->deleter(tensor);
  });
  return wrap_tensor(tensor->dl_tensor, std::move(guard), fn);
}

DLManagedTensor* to_dlpack(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::to_dlpack");
  auto ctx = std::make_unique<export_ctx>();
  ctx->keep = a;
  ctx->layout = layout_of(a, "cusci::to_dlpack");
  fill_tensor(ctx->tensor.dl_tensor, a, ctx->layout);
  ctx->tensor.manager_ctx = ctx.get();
  ctx->tensor.deleter = &export_deleter;
  return &ctx.release()->tensor;
}

bool dlpack_versioned_supported() noexcept { return CUSCI_DLPACK_VERSIONED != 0; }

#if CUSCI_DLPACK_VERSIONED

ndarray from_dlpack_versioned(DLManagedTensorVersioned* tensor, bool allow_read_only) {
  CUSCI_NVTX_SCOPE("cusci::from_dlpack_versioned");
  constexpr const char* fn = "cusci::from_dlpack_versioned";
  if (tensor == nullptr) throw value_error(std::string(fn) + ": tensor is null");
  std::shared_ptr<void> guard(nullptr, [tensor](void*) {
    if (tensor->deleter) tensor->deleter(tensor);
  });
  if (tensor->version.major != 1)
    throw value_error(std::string(fn) + ": DLPack major version " + std::to_string(tensor->version.major) +
                      " is not supported (cusci reads major version 1)");
  if ((tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) && !allow_read_only)
    throw value_error(std::string(fn) +
                      ": the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and cusci arrays are writable; "
                      "pass allow_read_only = true to view it anyway, or copy it in the producer");
  return wrap_tensor(tensor->dl_tensor, std::move(guard), fn);
}

DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::to_dlpack_versioned");
  auto ctx = std::make_unique<export_ctx_versioned>();
  ctx->keep = a;
  ctx->layout = layout_of(a, "cusci::to_dlpack_versioned");
  fill_tensor(ctx->tensor.dl_tensor, a, ctx->layout);
  ctx->tensor.version.major = DLPACK_MAJOR_VERSION;
  ctx->tensor.version.minor = DLPACK_MINOR_VERSION;
  ctx->tensor.flags = 0;
  ctx->tensor.manager_ctx = ctx.get();
  ctx->tensor.deleter = &export_deleter_versioned;
  return &ctx.release()->tensor;
}

#else

ndarray from_dlpack_versioned(DLManagedTensorVersioned*, bool) {
  CUSCI_NVTX_SCOPE("cusci::from_dlpack_versioned");
  throw not_implemented_error(
      "cusci::from_dlpack_versioned: cusci was built against a dlpack.h without DLManagedTensorVersioned "
      "(DLPack < 1.0); rebuild with DLPack >= 1.0 (-DCUSCI_DLPACK_INCLUDE_DIR=...). The tensor was not deleted.");
}

DLManagedTensorVersioned* to_dlpack_versioned(const ndarray&) {
  CUSCI_NVTX_SCOPE("cusci::to_dlpack_versioned");
  throw not_implemented_error(
      "cusci::to_dlpack_versioned: cusci was built against a dlpack.h without DLManagedTensorVersioned "
      "(DLPack < 1.0); rebuild with DLPack >= 1.0 (-DCUSCI_DLPACK_INCLUDE_DIR=...)");
}

#endif

}  // namespace cusci

#pragma once
/// @file dlpack.hpp
/// Zero-copy exchange of device arrays with other libraries through DLPack (PyTorch, CuPy, JAX,
/// TensorFlow, RAPIDS, ... any producer or consumer of `DLManagedTensor`).
///
/// This header does not need dlpack.h: the DLPack structs are only forward-declared here. Code that
/// builds or reads the structs includes <dlpack/dlpack.h> itself (Debian: `apt-get install
/// libdlpack-dev`; CuPy ships a copy).
///
/// Ownership rules (DLPack's):
/// - `from_dlpack(t)` takes ownership of `t` in every case: the returned ndarray (and every view of
///   it) holds the producer's tensor and calls `t->deleter(t)` exactly once, when the last view is
///   gone; if `from_dlpack` throws, it calls the deleter before throwing (a tensor handed to cusci
///   is never leaked and never to be deleted by the caller).
/// - `to_dlpack(a)` returns a tensor that holds a reference to `a`'s memory; the consumer calls its
///   deleter exactly once, which drops that reference (the memory goes back to cusci's pool once no
///   cusci array uses it either).
///
/// Streams: DLPack's C structs carry no stream. The exchange itself never launches or waits for
/// device work; the caller orders the producer's and the consumer's work (synchronize the producer's
/// stream, or make the consumer's stream wait on an event), as the Python `__dlpack__(stream=...)`
/// protocol does. The memory of an imported tensor is released (deleter) when the last view goes
/// away on the host, without waiting for queued kernels that still use it: keep the array alive (or
/// synchronize) until work using it has finished.

#include <cstdint>

#include "cusci/ndarray.hpp"

struct DLManagedTensor;
struct DLManagedTensorVersioned;

namespace cusci {

/// Wraps a DLPack tensor in device memory as an ndarray without copying: same data pointer (plus
/// `byte_offset`), shape, strides (DLPack's element strides become byte strides; a null `strides`
/// means C-contiguous) and dtype. The ndarray's memory block spans the elements actually addressed.
///
/// @param tensor  DLPack tensor [any shape, ndim >= 0, any strides incl. negative or zero, size 0
///                allowed] on a device of type kDLCUDA or kDLCUDAManaged (device_id = the CUDA device)
///                or kDLCUDAHost (pinned host memory, mapped into the device's address space by
///                unified addressing; the array is placed on the current device). dtypes: kDLBool 8
///                bits -> bool_; kDLInt 8/16/32/64 -> int8..int64; kDLUInt 8/16/32/64 -> uint8..uint64
///                (a bool tensor exported as kDLUInt 8 by an old producer arrives as uint8: use
///                `astype(dtype::bool_)`); kDLFloat 16/32/64 -> float16 (when cusci has float16) /
///                float32 / float64; kDLComplex 64/128 -> complex64 / complex128. `lanes` must be 1.
///                Ownership passes to cusci (see the file comment), also when this function throws.
/// @return an ndarray viewing the tensor's memory, on its device.
/// Host only, never synchronizes.
/// @throws cusci::value_error for a null tensor, a CPU or other non-CUDA device (copy CPU data with
///         `asarray` instead), a device id out of range, a negative ndim or dimension, more than 64
///         dimensions or a shape whose size overflows ("array is too big", as NumPy), lanes != 1,
///         a null data pointer with a non-empty shape; cusci::type_error for a dtype cusci lacks
///         (bfloat16, float8, int128, ...).
/// CuPy: `cupy.from_dlpack(x)` (which rejects CPU tensors too); NumPy: `np.from_dlpack`.
ndarray from_dlpack(DLManagedTensor* tensor);

/// Exports `a` as a DLPack tensor without copying: kDLCUDA on `a.device()`, `data` = the address of
/// element 0 (`a.data()`), `byte_offset` = 0, shape and strides in elements (always a non-null
/// strides array; negative and zero strides kept), dtype codes as listed for `from_dlpack` (bool_ as
/// kDLBool 8 bits). The tensor holds a reference to `a`'s memory until its deleter runs; the
/// consumer must call the deleter exactly once.
/// @param a  array [any shape] of any dtype, any layout.
/// @return a new tensor (allocated on the host); never null.
/// Host only, never synchronizes.
/// @throws cusci::value_error when a byte stride is not a multiple of the itemsize (such views cannot
///         be expressed in DLPack).
/// CuPy: `cupy.ndarray.toDlpack()` / `__dlpack__()`.
DLManagedTensor* to_dlpack(const ndarray& a);

/// True when cusci was built against a dlpack.h of major version >= 1, i.e. the versioned functions
/// below work; false when they throw cusci::not_implemented_error (Debian 12's libdlpack-dev is
/// DLPack 0.6). Never throws.
bool dlpack_versioned_supported() noexcept;

/// `from_dlpack` for a DLPack 1.x versioned tensor. The version's major number must be 1 (DLPack's
/// rule: a consumer may not read a tensor of another major version; such a tensor is deleted and
/// rejected). Flags: DLPACK_FLAG_BITMASK_IS_COPIED is accepted; DLPACK_FLAG_BITMASK_READ_ONLY is
/// rejected unless `allow_read_only` is true (cusci arrays have no read-only flag: writing to the
/// result is then the caller's fault); DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED is irrelevant to
/// the byte-sized dtypes cusci accepts.
/// @param tensor  as for `from_dlpack`; ownership passes to cusci in every case.
/// @param allow_read_only  accept read-only tensors.
/// Host only, never synchronizes.
/// @throws as `from_dlpack`; cusci::value_error for a major version other than 1 or a read-only
///         tensor without `allow_read_only`; cusci::not_implemented_error when
///         `dlpack_versioned_supported()` is false (then, and only then, the tensor is NOT deleted:
///         cusci cannot read its layout, so the caller keeps ownership).
/// CuPy: `cupy.from_dlpack(x)` with a versioned capsule (CuPy: read-only tensors are copied or
/// refused as `copy` says; cusci never copies).
ndarray from_dlpack_versioned(DLManagedTensorVersioned* tensor, bool allow_read_only = false);

/// `to_dlpack` as a DLPack 1.x versioned tensor: version = the dlpack.h cusci was built with (major
/// 1), flags 0 (writable, not a copy).
/// @throws as `to_dlpack`; cusci::not_implemented_error when `dlpack_versioned_supported()` is false.
/// CuPy: `cupy.ndarray.__dlpack__(max_version=(1, 0))`.
DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a);

}  // namespace cusci

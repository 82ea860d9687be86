#pragma once
// Device passes of cusci::ndimage's binary morphology (binary_kernels.cu), called by binary.cpp.
// Host C++ only: raw device pointers and a plain geometry struct, no CUDA types.
//
// Images are C-contiguous byte arrays holding 0 or 1 (cusci's bool arrays). A structure is a list of
// points: per-axis offsets d (erosion form: the output element i reads i + d).

#include <cstdint>

namespace cusci::ndimage::detail {

/// Most axes a binary pass handles (as cusci's other kernels).
inline constexpr int binary_max_axes = 16;

/// Shape of the image and extent of the structure's offsets.
struct binary_geometry {
  int ndim = 0;
  std::int64_t size = 0;                     // elements of the image
  std::int64_t shape[binary_max_axes] = {};  // image shape (C order)
  std::int64_t lo[binary_max_axes] = {};     // smallest offset along each axis (<= 0 not required)
  std::int64_t hi[binary_max_axes] = {};     // largest offset along each axis
  int points = 0;                            // structure points
};

/// Whether binary_pass runs the plane kernel for this geometry (then it needs no device offset table).
bool binary_plane_fits(const binary_geometry& g);

/// One pass: out[i] = in[i] where mask[i] == 0 (mask may be null); otherwise AND (use_or false) or OR
/// (use_or true) over the points of in[i + d], elements outside the image reading `border`.
/// `offsets`: device int64 [points * (ndim + 1)]: per point the flat offset, then ndim per-axis
/// offsets (may be null when binary_plane_fits(g)); `host_offsets`: the same table in host memory (the plane kernel takes its points as
/// launch parameters). `changed` (may be null): set to 1 when some out[i] != in[i]. `prev` (may be null): when
/// it points to 0 the pass does nothing (the previous pass changed nothing). in and out must not
/// overlap. Enqueued on the current stream.
void binary_pass(const std::uint8_t* in, std::uint8_t* out, const std::uint8_t* mask, const binary_geometry& g,
                 const std::int64_t* host_offsets, const std::int64_t* offsets, bool use_or, bool border, int* changed, const int* prev);

/// Most passes one binary_fused_passes launch may perform for this geometry (8, or 4 when the
/// structure reaches 2 elements along the last or second-to-last axis); 0 when the fused path does
/// not apply (binary_plane_fits false, an offset beyond +-2 along those axes, or a grid too large).
int binary_fused_max_passes(const binary_geometry& g);

/// `passes` (1 .. binary_fused_max_passes(g)) consecutive binary passes in one launch, each as
/// binary_pass without flags, the same `mask` at every pass: exactly the result of running them one
/// by one (temporal blocking on shared-memory tiles, see binary_kernels.cu). in and out must not
/// overlap. Enqueued on the current stream.
void binary_fused_passes(const std::uint8_t* in, std::uint8_t* out, const std::uint8_t* mask, const binary_geometry& g,
                         const std::int64_t* host_offsets, bool use_or, bool border, int passes);

/// out[i] = a[i] && !b[i] over n bytes (binary_hit_or_miss). Current stream.
void bytes_and_not(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int64_t n);

/// out[i] = !in[i] over n bytes (binary_fill_holes); in may equal out. Current stream.
void bytes_not(const std::uint8_t* in, std::uint8_t* out, std::int64_t n);

}  // namespace cusci::ndimage::detail

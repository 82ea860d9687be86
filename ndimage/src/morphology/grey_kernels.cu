// Grey morphology with a non-flat structuring element: the structure-values policy on the footprint
// engine (engine/footprint_engine.cuh: its plan, tiles, halo staging and boundary maps), with its
// own kernels because SciPy's NI_MinOrMaxFilter with `structure` mixes types: the first tap's sum is a
// double, every later tap's sum is computed in the input dtype (integers wrap, float32 rounds in
// float32) and compared as a double, and the winner is stored into the output dtype, which may differ
// from the input's.
//
// Kernels (one per input dtype and extremum; the output dtype is a run-time switch at the store):
//  - tiled (arrays of 1 to 3 dims whose halo tile fits 48 KiB): a block of 256 threads stages its
//    tile of outputs plus the footprint's halo once in shared memory in the input dtype (several
//    loads in flight per thread, boundary maps only for tiles that touch an edge), then each output
//    runs the footprint's taps from shared memory: per tap one shared load, one add of the tap's
//    structure value in the input dtype, one conversion to double and one compare.
//  - generic (any other array): one thread per output, every tap mapped per axis and read through
//    the cache.
// The taps (offsets into the tile, or per-axis indices) and their structure values travel in the
// kernel parameters (constant bank, read uniformly by a warp: broadcast) up to fp_param_taps taps,
// in device buffers beyond.
//
// Expected cost on the H200 (sm_90, ~4.1 TB/s, 132 SMs): the tiled kernel reads each input about
// (1 + halo overhead) times (a 32 x 32 tile with a 3 x 3 halo: 1.13) and writes each output once, so
// float32 -> float32 moves about 8.5 bytes per output: 4096^2 outputs in about 35 us at the copy
// roofline. The arithmetic, n_taps double conversions, adds and compares per output (FP64 runs at
// half the FP32 rate on the H200), stays under that up to about 9-25 taps; larger structures become
// compute bound at about n_taps * 3 FP64 operations per output (a 7 x 7 structure on 4096^2:
// ~2.5 G FP64 operations, ~0.1 ms).

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "engine/cast.cuh"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"
#include "morphology/grey_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

/// The structure values of the taps, passed by value with the tap list (see fp_tap_list).
struct grey_weight_list {
  double v[fp_param_taps];
};

/// The structure values of a kernel: p.weights in device memory, or (p.weights null) the by-value
/// list.
__device__ __forceinline__ const double* grey_weights(const fp_params& p, const grey_weight_list& wl) {
  return p.weights != nullptr ? p.weights : wl.v;
}

/// A structure value as the kernels receive it: tap 0's as a double, every later tap's as SciPy's
/// `(_type)ss[k]` (the x86-64 conversion to the input type T) stored in the slot's first sizeof(T)
/// bytes.
template <class T>
__device__ __forceinline__ T weight_as(const double& slot) {
  T v;
  memcpy(&v, &slot, sizeof(T));
  return v;
}

/// `value + (T)ss` in T's arithmetic as SciPy's C code computes it: floats round in T, integers
/// (after C's promotions, then the conversion back to T) wrap modulo 2^bits.
template <class T>
__device__ __forceinline__ T grey_add(T v, T w) {
  if constexpr (std::is_floating_point_v<T>) {
    return v + w;
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(v) + static_cast<U>(w)));
  }
}

/// The policy: SciPy's loop of NI_MinOrMaxFilter with structure values (already negated for the
/// minimum), as compiled: the running result is a double, starting at value(0) + ss[0] in double;
/// each later tap is value(k) + (T)ss[k] computed in the input type T (grey_add) and replaces the
/// result when it compares strictly smaller (Min) or larger as a double.
template <bool Min, class T>
struct grey_structure_policy {
  template <class Get>
  __device__ __forceinline__ static double reduce(const Get& get, int n, const double* w) {
    double r = static_cast<double>(get(0)) + w[0];
    for (int k = 1; k < n; ++k) {
      const double t = static_cast<double>(grey_add<T>(get(k), weight_as<T>(w[k])));
      if constexpr (Min) {
        if (t < r) r = t;
      } else {
        if (t > r) r = t;
      }
    }
    return r;
  }
};

template <bool Min, class T>
__global__ void __launch_bounds__(footprint_threads)
    grey_tiled_kernel(const __grid_constant__ fp_params p, const __grid_constant__ fp_tap_list tl,
                      const __grid_constant__ grey_weight_list wl, T cval, int out_code, std::int64_t n_blocks) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int HX = p.halo[2], HY = p.halo[1];
  const int TX = p.tile[2], TY = p.tile[1], TZ = p.tile[0];
  const int n_out = TX * TY * TZ;
  const std::int32_t* taps = fp_taps(p, tl);
  const double* w = grey_weights(p, wl);
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
    __syncthreads();  // the previous tile's reads of s are done
    stage_halo<T>(s, p.halo, z0, y0, x0, p.shape, p.shift, p.mode, p.in, p.in_st, cval,
                  [](const char* ptr) { return *reinterpret_cast<const T*>(ptr); });
    __syncthreads();
    for (int q = threadIdx.x; q < n_out; q += blockDim.x) {
      const int ox = q % TX;
      const int t = q / TX;
      const int oy = t % TY;
      const int oz = t / TY;
      const std::int64_t x = x0 + ox, y = y0 + oy, z = z0 + oz;
      if (x >= p.shape[2] || y >= p.shape[1] || z >= p.shape[0]) continue;
      const T* c = s + (oz * HY + oy) * HX + ox;
      // (A named lambda with its return type: nvcc 13's front end fails on the unnamed form here.)
      auto get = [&](int k) -> T { return c[taps[k]]; };
      const double v = grey_structure_policy<Min, T>::reduce(get, p.n_taps, w);
      weighted_store<any_out>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2], v, out_code);
    }
  }
}

template <bool Min, class T>
__global__ void __launch_bounds__(footprint_threads)
    grey_generic_kernel(const __grid_constant__ fp_params p, const __grid_constant__ fp_tap_list tl,
                        const __grid_constant__ grey_weight_list wl, T cval, int out_code, std::int64_t n_total) {
  const std::int32_t* taps = fp_taps(p, tl);
  const double* w = grey_weights(p, wl);
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[footprint_max_dims];
    std::int64_t rem = t, out_off = 0;
    for (int d = p.ndim - 1; d >= 0; --d) {
      coord[d] = rem % p.shape[d];
      rem /= p.shape[d];
      out_off += coord[d] * p.out_st[d];
    }
    auto get = [&](int k) -> T {
      const std::int32_t* tap = taps + static_cast<std::int64_t>(k) * p.ndim;
      std::int64_t off = 0;
      for (int d = 0; d < p.ndim; ++d) {
        const std::int64_t i = fp_index(coord[d] + tap[d] - p.shift[d], p.shape[d], p.mode[d]);
        if (i < 0) return cval;
        off += i * p.in_st[d];
      }
      return *reinterpret_cast<const T*>(p.in + off);
    };
    weighted_store<any_out>(p.out + out_off, grey_structure_policy<Min, T>::reduce(get, p.n_taps, w), out_code);
  }
}

template <bool Min, class T>
void grey_launch(const ndarray& in, const ndarray& out, const footprint_spec& f, T cval) {
  const footprint_plan plan = make_footprint_plan(in, out, f, sizeof(T));
  CUSCI_EXPECTS(static_cast<int>(plan.weights.size()) == plan.n_taps, runtime_error,
                "cusci::ndimage: internal error: grey morphology needs one structure value per tap");
  cudaStream_t stream = get_current_stream();
  fp_params p{};
  fp_tap_list tl{};
  grey_weight_list wl{};
  // The minimum adds the negated structure (SciPy: ss[k] = -structure[k], then value + ss[k]).
  std::vector<double> w(plan.weights);
  if (Min)
    for (auto& v : w) v = -v;
  // Taps after the first: SciPy's (_type)ss[k], kept as T's bytes in the slot (see weight_as).
  for (std::size_t k = 1; k < w.size(); ++k) {
    const T wt = x86_cast<T>(w[k]);
    double slot = 0.0;
    std::memcpy(&slot, &wt, sizeof(T));
    w[k] = slot;
  }
  device_buffer<std::int32_t> taps;
  device_buffer<double> weights;
  if (plan.taps.size() <= static_cast<std::size_t>(fp_param_taps)) {
    for (std::size_t k = 0; k < plan.taps.size(); ++k) tl.v[k] = plan.taps[k];
  } else {
    // From pageable memory: the call returns once the host data is staged.
    taps = device_buffer<std::int32_t>(plan.taps.size(), stream);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(taps.data(), plan.taps.data(), plan.taps.size() * sizeof(std::int32_t),
                                   cudaMemcpyHostToDevice, stream));
  }
  if (w.size() <= static_cast<std::size_t>(fp_param_taps)) {
    for (std::size_t k = 0; k < w.size(); ++k) wl.v[k] = w[k];
  } else {
    weights = device_buffer<double>(w.size(), stream);
    CUSCI_CUDA_TRY(
        cudaMemcpyAsync(weights.data(), w.data(), w.size() * sizeof(double), cudaMemcpyHostToDevice, stream));
  }
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.ndim = plan.ndim;
  for (int d = 0; d < footprint_max_dims; ++d) {
    p.shape[d] = plan.shape[d];
    p.in_st[d] = plan.in_strides[d];
    p.out_st[d] = plan.out_strides[d];
    p.shift[d] = plan.shift[d];
    p.mode[d] = plan.mode[d];
  }
  p.n_taps = plan.n_taps;
  p.taps = taps.data();        // nullptr when the taps are in tl
  p.weights = weights.data();  // nullptr when the weights are in wl
  for (int a = 0; a < 3; ++a) {
    p.tile[a] = plan.tile[a];
    p.halo[a] = plan.halo[a];
    p.n_tiles[a] = plan.n_tiles[a];
  }
  const int out_code = static_cast<int>(out.dtype());
  if (plan.tiled) {
    const std::int64_t n_blocks = plan.n_tiles[0] * plan.n_tiles[1] * plan.n_tiles[2];
    grey_tiled_kernel<Min, T>
        <<<blocks_for(n_blocks), footprint_threads, plan.smem_bytes, stream>>>(p, tl, wl, cval, out_code, n_blocks);
  } else {
    const std::int64_t n = out.size();
    grey_generic_kernel<Min, T><<<blocks_for((n + footprint_threads - 1) / footprint_threads), footprint_threads, 0,
                                  stream>>>(p, tl, wl, cval, out_code, n);
  }
  CUSCI_CHECK_LAUNCH();
}

template <bool Min>
void grey_run(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval) {
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return grey_launch<Min, std::uint8_t>(in, out, f, x86_cast<std::uint8_t>(cval));
    case dtype::int8: return grey_launch<Min, std::int8_t>(in, out, f, x86_cast<std::int8_t>(cval));
    case dtype::int16: return grey_launch<Min, std::int16_t>(in, out, f, x86_cast<std::int16_t>(cval));
    case dtype::uint16: return grey_launch<Min, std::uint16_t>(in, out, f, x86_cast<std::uint16_t>(cval));
    case dtype::int32: return grey_launch<Min, std::int32_t>(in, out, f, x86_cast<std::int32_t>(cval));
    case dtype::uint32: return grey_launch<Min, std::uint32_t>(in, out, f, x86_cast<std::uint32_t>(cval));
    case dtype::int64: return grey_launch<Min, std::int64_t>(in, out, f, x86_cast<std::int64_t>(cval));
    case dtype::uint64: return grey_launch<Min, std::uint64_t>(in, out, f, x86_cast<std::uint64_t>(cval));
    case dtype::float32: return grey_launch<Min, float>(in, out, f, x86_cast<float>(cval));
    case dtype::float64: return grey_launch<Min, double>(in, out, f, x86_cast<double>(cval));
    default: break;
  }
  throw type_error("cusci::ndimage: dtype " + std::string(dtype_name(in.dtype())) +
                   " is not supported by the grey morphology kernels");
}

}  // namespace

void grey_structure_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval, bool minimum) {
  if (out.size() == 0) return;
  switch (out.dtype()) {
    case dtype::bool_:
    case dtype::uint8:
    case dtype::int8:
    case dtype::int16:
    case dtype::uint16:
    case dtype::int32:
    case dtype::uint32:
    case dtype::int64:
    case dtype::uint64:
    case dtype::float32:
    case dtype::float64: break;
    default:
      throw type_error("cusci::ndimage: output dtype " + std::string(dtype_name(out.dtype())) +
                       " is not supported by the grey morphology kernels");
  }
  if (minimum) grey_run<true>(in, out, f, cval);
  else grey_run<false>(in, out, f, cval);
}

}  // namespace cusci::ndimage::detail

// The local group's all-reduce kernel: every rank combines all ranks' send buffers (on one device) in
// rank order, so each rank computes the same bits.

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "comm/comm_impl.hpp"
#include "cusci/error.hpp"

namespace cusci::distributed::detail {
namespace {

constexpr int max_sources = 32;  // sources per launch, passed by value (256 bytes of parameters)
constexpr int block = 256;
constexpr std::size_t max_grid = 4096;  // grid-stride beyond

template <class T>
struct sources {
  const T* p[max_sources];
};

template <reduce_op Op, class T>
__device__ __forceinline__ T combine(T a, T b) {
  if constexpr (Op == reduce_op::sum) {
    return a + b;
  } else {
    bool take_b = Op == reduce_op::max ? b > a : b < a;
    if constexpr (std::is_floating_point_v<T>) take_b = take_b || b != b;  // NaN propagates
    return take_b ? b : a;
  }
}

/// out[i] = (accumulate ? out[i] op src[0][i] : src[0][i]) op src[1][i] op ... op src[n-1][i].
template <reduce_op Op, class T>
__global__ void k_reduce_sources(sources<T> src, int n, bool accumulate, T* out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    T v = accumulate ? combine<Op>(out[i], src.p[0][i]) : src.p[0][i];
    for (int k = 1; k < n; ++k) v = combine<Op>(v, src.p[k][i]);
    out[i] = v;
  }
}

template <class T>
void launch(std::span<const void* const> srcs, void* out, std::size_t count, reduce_op op, cudaStream_t s) {
  const unsigned grid = static_cast<unsigned>(std::min(max_grid, (count + block - 1) / block));
  for (std::size_t first = 0; first < srcs.size(); first += max_sources) {
    const int n = static_cast<int>(std::min<std::size_t>(max_sources, srcs.size() - first));
    sources<T> p{};
    for (int k = 0; k < n; ++k) p.p[k] = static_cast<const T*>(srcs[first + k]);
    T* o = static_cast<T*>(out);
    switch (op) {
      case reduce_op::sum: k_reduce_sources<reduce_op::sum><<<grid, block, 0, s>>>(p, n, first > 0, o, count); break;
      case reduce_op::max: k_reduce_sources<reduce_op::max><<<grid, block, 0, s>>>(p, n, first > 0, o, count); break;
      case reduce_op::min: k_reduce_sources<reduce_op::min><<<grid, block, 0, s>>>(p, n, first > 0, o, count); break;
    }
    CUSCI_CHECK_LAUNCH();
  }
}

}  // namespace

void reduce_buffers(std::span<const void* const> srcs, void* out, std::size_t count, cusci::dtype dt,
                    reduce_op op, cudaStream_t s) {
  if (count == 0 || srcs.empty()) return;
  switch (dt) {
    case dtype::float32: return launch<float>(srcs, out, count, op, s);
    case dtype::float64: return launch<double>(srcs, out, count, op, s);
    case dtype::int32: return launch<std::int32_t>(srcs, out, count, op, s);
    case dtype::int64: return launch<std::int64_t>(srcs, out, count, op, s);
    // A complex sum is the sum of the real and imaginary parts (the public members allow sum only).
    case dtype::complex64: return launch<float>(srcs, out, 2 * count, op, s);
    case dtype::complex128: return launch<double>(srcs, out, 2 * count, op, s);
    default: break;
  }
  throw type_error("cusci::distributed: no all-reduce for dtype " + std::string(dtype_name(dt)));
}

}  // namespace cusci::distributed::detail

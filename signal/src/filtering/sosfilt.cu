// sosfilt: cascaded second-order sections, all sections fused in one pass per sample (the state of
// the cascade, 2 per section, lives in registers), parallelised over the batch and over time by the
// chunked recurrence of recurrence.cuh. Cascades longer than 16 sections run in groups of 16 (the
// output of one group feeds the next: the same arithmetic, in the same order, as one cascade).

#include <algorithm>
#include <string>

#include "cusci/signal/filtering.hpp"
#include "cusci/stream.hpp"
#include "filtering/filter_common.hpp"
#include "filtering/recurrence.cuh"

namespace cusci::signal {
namespace detail {
namespace {

// Sections s < ns of a cascade of at most MS, computed in CT (float64 or complex128) whatever the data
// type T, in SciPy's operation order (_sosfilt.pyx):
//   x_new = b0 x + z0;  z0 = b1 x - a1 x_new + z1;  z1 = b2 x - a2 x_new;  x = x_new.
template <class T, class CT, int MS, class In = T>
struct sos_policy {
  using value_type = T;
  using input_type = In;
  using compute_type = CT;
  static constexpr int width = is_complex_t<CT>::value ? 2 : 1;  // doubles per state entry
  struct params {
    CT c[MS][5];  // b0 b1 b2 a1 a2
    int ns;
  };
  CT z[MS][2];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int s = 0; s < MS; ++s) z[s][0] = z[s][1] = CT(0);
  }
  __device__ __forceinline__ void load(const double* st, int D) {
#pragma unroll
    for (int s = 0; s < MS; ++s)
      if (2 * s * width < D) {
        z[s][0] = load_state<CT>(st + 2 * s * width);
        z[s][1] = load_state<CT>(st + (2 * s + 1) * width);
      }
  }
  __device__ __forceinline__ void store(double* st, int D) const {
#pragma unroll
    for (int s = 0; s < MS; ++s)
      if (2 * s * width < D) {
        store_state(st + 2 * s * width, z[s][0]);
        store_state(st + (2 * s + 1) * width, z[s][1]);
      }
  }
  __device__ __forceinline__ void store_out(T* st, int D) const {
#pragma unroll
    for (int s = 0; s < MS; ++s)
      if (2 * s * width < D) {
        st[2 * s] = static_cast<T>(z[s][0]);
        st[2 * s + 1] = static_cast<T>(z[s][1]);
      }
  }
  __device__ __forceinline__ CT step(CT x, const params& p) {
#pragma unroll
    for (int s = 0; s < MS; ++s) {
      if (s < p.ns) {
        const CT xn = p.c[s][0] * x + z[s][0];
        z[s][0] = p.c[s][1] * x - p.c[s][3] * xn + z[s][1];
        z[s][1] = p.c[s][2] * x - p.c[s][4] * xn;
        x = xn;
      }
    }
    return x;
  }
};

// A group of ns <= MS sections (sos rows of 6 coefficients). zi / zf: the group's first state, rows
// zi_ld doubles / zf_ld elements apart. x is read as In (T, or float32 data for a float64 result).
template <class T, class CT, int MS, class In>
void run_sos(const cplx* sos, int ns, const In* x, T* y, std::int64_t nb, std::int64_t N, const double* zi,
             std::int64_t zi_ld, T* zf, std::int64_t zf_ld, cudaStream_t stream) {
  using P = sos_policy<T, CT, MS, In>;
  typename P::params prm{};
  prm.ns = ns;
  for (int s = 0; s < ns; ++s) {
    prm.c[s][0] = to_compute<CT>(sos[6 * s + 0]);
    prm.c[s][1] = to_compute<CT>(sos[6 * s + 1]);
    prm.c[s][2] = to_compute<CT>(sos[6 * s + 2]);
    prm.c[s][3] = to_compute<CT>(sos[6 * s + 4]);
    prm.c[s][4] = to_compute<CT>(sos[6 * s + 5]);
  }
  // Columns of the zero-input one-step transition matrix of the cascade (state order z[s][0], z[s][1]).
  const int K = 2 * ns;
  std::vector<cplx> Ac(static_cast<std::size_t>(K) * K);
  for (int j = 0; j < K; ++j) {
    std::vector<cplx> z(static_cast<std::size_t>(K), 0.0);
    z[j] = 1.0;
    cplx u = 0.0;
    for (int s = 0; s < ns; ++s) {
      const cplx* c = sos + 6 * s;
      const cplx xn = c[0] * u + z[2 * s];
      const cplx z0 = c[1] * u - c[4] * xn + z[2 * s + 1];
      const cplx z1 = c[2] * u - c[5] * xn;
      z[2 * s] = z0;
      z[2 * s + 1] = z1;
      u = xn;
    }
    for (int i = 0; i < K; ++i) Ac[static_cast<std::size_t>(i) * K + j] = z[i];
  }
  run_recurrence<P>(prm, K * P::width, real_transition(Ac, K, P::width == 2), x, y, nb, N, zi, zi_ld, zf, zf_ld,
                    stream);
}

template <class T, class CT, class In>
void run_sos_any(const cplx* sos, int ns, const In* x, T* y, std::int64_t nb, std::int64_t N, const double* zi,
                 std::int64_t zi_ld, T* zf, std::int64_t zf_ld, cudaStream_t stream) {
  if (ns <= 1) return run_sos<T, CT, 1, In>(sos, ns, x, y, nb, N, zi, zi_ld, zf, zf_ld, stream);
  if (ns <= 2) return run_sos<T, CT, 2, In>(sos, ns, x, y, nb, N, zi, zi_ld, zf, zf_ld, stream);
  if (ns <= 4) return run_sos<T, CT, 4, In>(sos, ns, x, y, nb, N, zi, zi_ld, zf, zf_ld, stream);
  if (ns <= 8) return run_sos<T, CT, 8, In>(sos, ns, x, y, nb, N, zi, zi_ld, zf, zf_ld, stream);
  if constexpr (!is_complex_t<CT>::value)
    return run_sos<T, CT, 16, In>(sos, ns, x, y, nb, N, zi, zi_ld, zf, zf_ld, stream);
}

// Cascades longer than one group (16 real sections, 8 complex: 32 real state components) run group by
// group, the output of one feeding the next; the intermediate signal is kept in T. The first group reads
// the input as In (T, or float32 data for a float64 result).
template <class T, class CT, class In = T>
void sosfilt_typed(const std::vector<cplx>& sos, int n_sections, const ndarray& xc, ndarray& yc, const double* zi,
                   T* zf) {
  constexpr int width = is_complex_t<CT>::value ? 2 : 1;
  constexpr int group = max_state / (2 * width);
  cudaStream_t stream = get_current_stream();
  const std::int64_t N = xc.shape().back();
  const std::int64_t nb = xc.size() / N;
  const std::int64_t ld = 2LL * n_sections;
  T* out = yc.data_as<T>();
  for (int s0 = 0; s0 < n_sections; s0 += group) {
    const int ns = std::min(group, n_sections - s0);
    const double* zg = zi ? zi + 2 * s0 * width : nullptr;
    T* zfg = zf ? zf + 2 * s0 : nullptr;
    // Later groups filter the output in place (each chunk reads a sample before writing it).
    if (s0 == 0)
      run_sos_any<T, CT, In>(sos.data(), ns, xc.data_as<In>(), out, nb, N, zg, ld * width, zfg, ld, stream);
    else
      run_sos_any<T, CT, T>(sos.data() + 6 * s0, ns, out, out, nb, N, zg, ld * width, zfg, ld, stream);
  }
}

struct sos_out {
  ndarray y, zf;
};

sos_out sosfilt_impl(const array_like& sos_in, const ndarray& x, const array_like* zi, int axis_in) {
  const std::string F = "cusci::signal::sosfilt";
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, F + ": x must be at least 1-D");
  CUSCI_EXPECTS(sos_in.ndim() <= 2, value_error, F + ": sos array must be 2D");
  const shape_t ss = sos_in.shape();
  const int n_sections = ss.size() == 2 ? static_cast<int>(ss[0]) : 1;
  const std::int64_t m = ss.empty() ? 1 : ss.back();
  CUSCI_EXPECTS(m == 6, value_error, F + ": sos array must be shape (n_sections, 6)");
  const std::vector<cplx> sos = sos_in.to_host().astype(dtype::complex128).to_vector<cplx>();
  for (int s = 0; s < n_sections; ++s)
    CUSCI_EXPECTS(sos[6 * s + 3] == 1.0, value_error, F + ": sos[:, 3] should be all ones");
  std::vector<dtype> dts{sos_in.dtype(), x.dtype()};
  if (zi) dts.push_back(zi->dtype());
  const dtype dt = filter_result_dtype(dts, F);
  const int axis = normalize_axis(axis_in, x.ndim(), F);
  CUSCI_EXPECTS(x.shape(axis) > 0 || x.size() > 0, value_error,
                F + ": cannot filter along an axis of length 0 (x.shape=" + shape_str(x.shape()) + ")");

  std::vector<int> zperm;  // (n_sections, ..., 2 at axis+1, ...) -> (batch..., n_sections, 2)
  ndarray zi64;
  if (zi) {
    shape_t expected{n_sections};
    for (int d = 0; d < x.ndim(); ++d) expected.push_back(d == axis ? 2 : x.shape()[static_cast<std::size_t>(d)]);
    ndarray zd = zi->to_device();
    CUSCI_EXPECTS(zd.shape() == expected, value_error,
                  F + ": Invalid zi shape. With axis=" + std::to_string(axis_in) + ", an input with shape " +
                      shape_str(x.shape()) + ", and an sos array with " + std::to_string(n_sections) +
                      " sections, zi must have shape " + shape_str(expected) + ", got " + shape_str(zd.shape()) + ".");
    for (int d = 0; d < x.ndim(); ++d)
      if (d != axis) zperm.push_back(d + 1);
    zperm.push_back(0);
    zperm.push_back(axis + 1);
    zi64 = contiguous_as(zd.transpose(zperm), is_complex(dt) ? dtype::complex128 : dtype::float64);
  }
  // float32 data with a float64 result (float64 sections, as every design returns) is read as float32 by
  // the filter itself rather than converted first: one pass and half the input traffic fewer.
  const bool widen = dt == dtype::float64 && x.dtype() == dtype::float32;
  const ndarray xc = canonical(x, axis, widen ? dtype::float32 : dt);
  const std::int64_t N = xc.shape().back();
  ndarray yc = empty(xc.shape(), dt);
  ndarray zfc;
  if (zi) {
    shape_t zs(xc.shape().begin(), xc.shape().end() - 1);
    zs.push_back(n_sections);
    zs.push_back(2);
    zfc = empty(zs, dt);
  }
  if (n_sections == 0) {
    yc = xc.astype(dt);  // an empty cascade is the identity
  } else if (N > 0 && xc.size() > 0 && widen) {
    sosfilt_typed<double, double, float>(sos, n_sections, xc, yc, zi ? static_cast<const double*>(zi64.data()) : nullptr,
                                         zi ? zfc.data_as<double>() : nullptr);
  } else if (N > 0 && xc.size() > 0) {
    const double* zip = zi ? static_cast<const double*>(zi64.data()) : nullptr;
    dispatch_filter(dt, [&](auto tag, auto ctag) {
      using T = typename decltype(tag)::type;
      using CT = typename decltype(ctag)::type;
      sosfilt_typed<T, CT>(sos, n_sections, xc, yc, zip, zi ? zfc.data_as<T>() : nullptr);
    });
  }
  sos_out out;
  out.y = move_last_axis_to(yc, axis);
  if (zi) out.zf = zfc.transpose(inverse_perm(zperm));
  return out;
}

}  // namespace
}  // namespace detail

ndarray sosfilt(const array_like& sos, const ndarray& x, const sosfilt_options& opts) {
  return detail::sosfilt_impl(sos, x, nullptr, opts.axis).y;
}

filter_result sosfilt(const array_like& sos, const ndarray& x, const array_ref& zi, const sosfilt_options& opts) {
  auto r = detail::sosfilt_impl(sos, x, &zi, opts.axis);
  return {r.y, r.zf};
}

}  // namespace cusci::signal

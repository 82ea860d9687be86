// The cuFFT calls of the fourier family: batched 1-D transforms of contiguous rows through core's plan
// cache (plans keyed by everything they depend on, work areas from the pool, bound to the current
// stream). core's own transforms (cusci/fft.hpp) allocate their outputs; these run in place or into
// buffers the caller laid out (hilbert's real-to-complex into the front of the output rows).
#include <cufft.h>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "fourier/fourier_detail.hpp"

namespace cusci::signal::detail {

namespace {
cusci::detail::fft_plan_lease plan_1d(int type, std::int64_t n, std::int64_t batch, std::int64_t idist,
                                      std::int64_t odist, bool embed) {
  cusci::detail::fft_plan_key k;
  k.rank = 1;
  k.n[0] = n;
  k.batch = batch;
  k.type = type;
  k.istride = k.ostride = 1;
  if (embed) {
    k.inembed[0] = idist;
    k.onembed[0] = odist;
    k.idist = idist;
    k.odist = odist;
  }
  return cusci::detail::acquire_fft_plan(k);
}
}  // namespace

void fft_c2c_rows(void* data, std::int64_t n, std::int64_t batch, bool dbl, int direction) {
  if (n <= 1 || batch <= 0) return;  // a length-1 transform is the identity
  auto l = plan_1d(dbl ? CUFFT_Z2Z : CUFFT_C2C, n, batch, n, n, false);
  if (dbl) {
    auto* p = static_cast<cufftDoubleComplex*>(data);
    CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecZ2Z)(l.handle, p, p, direction));
  } else {
    auto* p = static_cast<cufftComplex*>(data);
    CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2C)(l.handle, p, p, direction));
  }
}

void fft_r2c_rows(const void* in, void* out, std::int64_t n, std::int64_t batch, std::int64_t in_pitch,
                  std::int64_t out_pitch, bool dbl) {
  if (n <= 0 || batch <= 0) return;
  if (n == 1) {
    r2c_length1(in, out, batch, in_pitch, out_pitch, dbl);
    return;
  }
  // The basic layout is (n, n/2 + 1); anything else goes through the advanced layout.
  const bool embed = batch > 1 && (in_pitch != n || out_pitch != n / 2 + 1);
  auto l = plan_1d(dbl ? CUFFT_D2Z : CUFFT_R2C, n, batch, in_pitch, out_pitch, embed);
  if (dbl)
    CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecD2Z)(l.handle, static_cast<cufftDoubleReal*>(const_cast<void*>(in)),
                                             static_cast<cufftDoubleComplex*>(out)));
  else
    CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecR2C)(l.handle, static_cast<cufftReal*>(const_cast<void*>(in)),
                                             static_cast<cufftComplex*>(out)));
}

void fft_c2r_rows(void* in, void* out, std::int64_t n, std::int64_t batch, bool dbl) {
  if (n <= 0 || batch <= 0) return;
  if (n == 1) {
    c2r_length1(in, out, batch, dbl);
    return;
  }
  auto l = plan_1d(dbl ? CUFFT_Z2D : CUFFT_C2R, n, batch, 0, 0, false);
  if (dbl)
    CUSCI_CUFFT_TRY(
        CUSCI_LAZY(cufftExecZ2D)(l.handle, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out)));
  else
    CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2R)(l.handle, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)));
}

}  // namespace cusci::signal::detail

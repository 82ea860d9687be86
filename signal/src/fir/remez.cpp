// Parks-McClellan equiripple FIR design (cusci::signal::remez), host, double precision.
//
// The algorithm is McClellan, Parks & Rabiner's FIR design program ("A computer program for designing
// optimum FIR linear phase digital filters", IEEE Trans. Audio Electroacoust. 21(6), 1973), in the form
// SciPy 1.18 runs it (scipy/signal/_sigtoolsmodule: the dense-grid set-up of `pre_remez`, the exchange
// loop of `remez`, the argument checks of `_remez`). To give SciPy's taps to rounding, every step is
// taken in the same order with the same arithmetic: the grid, the barycentric Lagrange weights (computed
// in `jet` interleaved groups), the search for the extremal frequencies with its look-ahead at both ends,
// the IDFT of the best approximation on the Chebyshev nodes (its cos calls included: when the bands do not
// cover [0, 1/2] the change of variable back amplifies a last-place difference in those cosines up to
// ~1e-8 in the taps) and that change of variable. Only the cost differs from the program: cos(2 pi f) is
// computed once per grid point, the error at a grid point once per iteration (a point and a neighbour
// together, each sum still in the program's order) and the weights eight nodes at a time, so the search
// sees the same doubles and takes the same decisions. Arrays are 1-based, as in the program, so that the
// index arithmetic can be read against it.

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/fir_design.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = kPi + kPi;
const char* const kFn = "cusci::signal::remez";

// Outcome of the design, as the program's status codes.
enum class remez_status { ok, failed };

struct remez_workspace {
  // Exchange-loop arrays, each dimsize + 1 long (index 0 unused).
  std::vector<double> a, p, q, ad, x, y;
  // Per grid point (ngrid + 2 long, 1-based): cos(2 pi f), the weighted error of the current
  // approximation and the iteration that computed it (0: none yet).
  std::vector<double> xgrid, err;
  std::vector<int> err_iter;
  // The nodes in the order of the interleaved products of the barycentric weights, the inverse
  // permutation, and the (zero) corrections of barycentric_weights.
  std::vector<int> weight_order, weight_pos;
  std::vector<double> weight_one;
};

// 1 / prod over the interleaved groups of 2 (x_k - x_j), j != k: the barycentric weights of all n nodes.
// The products run over `stride` interleaved subsets of the nodes (products of fewer terms, no overflow),
// j in the order start, start + stride, ... for start = 1..stride; `order` lists that sequence and `pos`
// its inverse. kWeightLanes nodes are taken at a time, independent products each in the same order as
// alone. The factor of the node itself, 2 (x_k - x_k) = +0, becomes an exact 1 by adding `one`
// (n x kWeightLanes, all zero on entry and on return) where it occurs.
constexpr int kWeightLanes = 8;
void barycentric_weights(int n, const int* order, const int* pos, double* one, const double* x, double* ad) {
  constexpr int L = kWeightLanes;
  for (int k0 = 1; k0 <= n; k0 += L) {
    const int lanes = n - k0 + 1 < L ? n - k0 + 1 : L;
    double xk2[L], prod[L];
    for (int i = 0; i < L; ++i) {
      xk2[i] = 2.0 * x[i < lanes ? k0 + i : k0];
      prod[i] = 1.0;
    }
    for (int i = 0; i < lanes; ++i) one[pos[k0 + i] * L + i] = 1.0;
    // 2 (x_k - x_j) as 2 x_k - 2 x_j: the same double (scaling by 2 is exact).
    for (int t = 0; t < n; ++t) {
      const double xj2 = 2.0 * x[order[t]];
      const double* o = one + t * L;
      for (int i = 0; i < L; ++i) prod[i] *= (xk2[i] - xj2) + o[i];
    }
    for (int i = 0; i < lanes; ++i) {
      one[pos[k0 + i] * L + i] = 0.0;
      ad[k0 + i] = 1.0 / prod[i];
    }
  }
}

// The current approximation at abscissa xf = cos(2 pi f) (barycentric Lagrange interpolation through
// the n nodes).
double response_at(double xf, int n, const double* x, const double* y, const double* ad) {
  double num = 0.0, den = 0.0;
  for (int j = 1; j <= n; ++j) {
    const double c = ad[j] / (xf - x[j]);
    den += c;
    num += c * y[j];
  }
  return num / den;
}

// The weighted error of the current approximation on the dense grid, computed on demand and kept for
// the rest of the iteration (the search visits many points twice). A point not yet known is computed
// together with its neighbour in the direction of the search, two independent sums of the same terms
// in the same order (the compiler pairs them in one vector register).
class grid_error {
 public:
  grid_error(int ngrid, int n, const double* des, const double* wt, remez_workspace& ws)
      : ngrid_(ngrid), n_(n), des_(des), wt_(wt), xg_(ws.xgrid.data()), x_(ws.x.data()), y_(ws.y.data()),
        ad_(ws.ad.data()), err_(ws.err.data()), iter_(ws.err_iter.data()) {}
  void new_iteration() { ++tag_; }
  double at(int l, int m) {
    if (iter_[l] == tag_) return err_[l];
    if (m < 1 || m > ngrid_ || iter_[m] == tag_) {
      store(l, response_at(xg_[l], n_, x_, y_, ad_));
      return err_[l];
    }
    const double xf[2] = {xg_[l], xg_[m]};
    double num[2] = {0.0, 0.0}, den[2] = {0.0, 0.0};
    for (int j = 1; j <= n_; ++j) {
      const double xj = x_[j], aj = ad_[j], yj = y_[j];
      for (int i = 0; i < 2; ++i) {
        const double c = aj / (xf[i] - xj);
        den[i] += c;
        num[i] += c * yj;
      }
    }
    store(l, num[0] / den[0]);
    store(m, num[1] / den[1]);
    return err_[l];
  }

 private:
  void store(int l, double r) {
    err_[l] = (r - des_[l]) * wt_[l];
    iter_[l] = tag_;
  }
  int ngrid_, n_;
  const double *des_, *wt_, *xg_, *x_, *y_, *ad_;
  double* err_;
  int* iter_;
  int tag_ = 0;
};

// The Remez exchange on the dense grid (ngrid points of grid/des/wt), nfcns cosines, initial extremal
// indices iext[1..nfcns+1]. On success alpha[1..nfcns] holds the cosine coefficients of the best
// approximation. Returns failed when the deviation stops increasing (SciPy's "Failure to converge").
remez_status exchange(double* des, double* grid, const double* edge, double* wt, int ngrid, int nbands, int* iext,
                      double* alpha, int nfcns, int itrmax, remez_workspace& ws, int* niter_out) {
  double* a = ws.a.data();
  double* p = ws.p.data();
  double* q = ws.q.data();
  double* ad = ws.ad.data();
  double* x = ws.x.data();
  double* y = ws.y.data();

  int k, k1, kkk, kn, knz, klow, kup, nz, nzz, nm1, cn, j, jchnge = 0, jet, jm1, jp1, l, luck = 0, nu, nut, nut1 = 0,
                                                                 niter;
  double ynz = 0.0, comp = 0.0, devl, fsh, y1 = 0.0, err, dtemp, delf, dnum, dden, aa = 0.0, bb = 0.0, ft,
         xe, xt, dev;

  devl = -1.0;
  nz = nfcns + 1;
  nzz = nfcns + 2;
  niter = 0;

  // Per design: cos(2 pi f) on the grid, the error cache, the order of the weight products.
  ws.xgrid.resize(static_cast<std::size_t>(ngrid) + 2);
  ws.err.assign(static_cast<std::size_t>(ngrid) + 2, 0.0);
  ws.err_iter.assign(static_cast<std::size_t>(ngrid) + 2, 0);
  const double* xg = ws.xgrid.data();
  for (k = 0; k <= ngrid + 1; ++k) ws.xgrid[k] = std::cos(kTwoPi * grid[k]);
  jet = (nfcns - 1) / 15 + 1;
  ws.weight_order.clear();
  for (int start = 1; start <= jet; ++start)
    for (j = start; j <= nz; j += jet) ws.weight_order.push_back(j);
  ws.weight_pos.assign(static_cast<std::size_t>(nz) + 1, 0);
  for (j = 0; j < nz; ++j) ws.weight_pos[ws.weight_order[j]] = j;
  ws.weight_one.assign(static_cast<std::size_t>(nz) * kWeightLanes, 0.0);
  grid_error e(ngrid, nz, des, wt, ws);

  for (;;) {
  iteration:
    iext[nzz] = ngrid + 1;
    ++niter;
    if (niter > itrmax) break;

    for (j = 1; j <= nz; ++j) x[j] = xg[iext[j]];
    barycentric_weights(nz, ws.weight_order.data(), ws.weight_pos.data(), ws.weight_one.data(), x, ad);
    e.new_iteration();

    dnum = 0.0;
    dden = 0.0;
    k = 1;
    for (j = 1; j <= nz; ++j) {
      l = iext[j];
      dnum += ad[j] * des[l];
      dden += static_cast<double>(k) * ad[j] / wt[l];
      k = -k;
    }
    dev = dnum / dden;
    nu = 1;
    if (dev > 0.0) nu = -1;
    dev = -static_cast<double>(nu) * dev;
    k = nu;
    for (j = 1; j <= nz; ++j) {
      l = iext[j];
      y[j] = des[l] + static_cast<double>(k) * dev / wt[l];
      k = -k;
    }
    if (dev <= devl) {
      *niter_out = niter;
      return remez_status::failed;
    }
    devl = dev;
    jchnge = 0;
    k1 = iext[1];
    knz = iext[nz];
    klow = 0;
    nut = -nu;
    j = 1;

    // Search for the extremal frequencies of the current approximation.
  next_extremum:
    if (j == nzz) ynz = comp;
    if (j >= nzz) goto ends;
    kup = iext[j + 1];
    l = iext[j] + 1;
    nut = -nut;
    if (j == 2) y1 = comp;
    comp = dev;
    if (l >= kup) goto search_down;
    err = e.at(l, l - 2);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto search_down;
    comp = static_cast<double>(nut) * err;
  climb_up:
    if (++l >= kup) goto take_up;
    err = e.at(l, l + 1);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto take_up;
    comp = static_cast<double>(nut) * err;
    goto climb_up;
  take_up:
    iext[j++] = l - 1;
    klow = l - 1;
    ++jchnge;
    goto next_extremum;

  search_down:
    --l;
  step_down:
    if (--l <= klow) goto no_lower;
    err = e.at(l, l - 1);
    if ((static_cast<double>(nut) * err - comp) > 0.0) goto found_down;
    if (jchnge <= 0) goto step_down;
    goto keep;
  found_down:
    comp = static_cast<double>(nut) * err;
  climb_down:
    if (--l <= klow) goto take_down;
    err = e.at(l, l - 1);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto take_down;
    comp = static_cast<double>(nut) * err;
    goto climb_down;
  take_down:
    klow = iext[j];
    iext[j] = l + 1;
    ++j;
    ++jchnge;
    goto next_extremum;

  no_lower:
    l = iext[j] + 1;
    if (jchnge > 0) goto take_up;
  step_up:
    if (++l >= kup) goto keep;
    err = e.at(l, l + 1);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto step_up;
    comp = static_cast<double>(nut) * err;
    goto climb_up;
  keep:
    klow = iext[j++];
    goto next_extremum;

    // Look for an extremum below the first one and above the last one.
  ends:
    if (j > nzz) goto after_high;
    if (k1 > iext[1]) k1 = iext[1];
    if (knz < iext[nz]) knz = iext[nz];
    nut1 = nut;
    nut = -nu;
    l = 0;
    kup = k1;
    comp = ynz * (1.00001);
    luck = 1;
  low_end:
    if (++l >= kup) goto low_none;
    err = e.at(l, l + 1);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto low_end;
    comp = static_cast<double>(nut) * err;
    j = nzz;
    goto climb_up;
  low_none:
    luck = 6;
    goto high_end_start;
  after_high:
    if (luck > 9) goto shift_down;
    if (comp > y1) y1 = comp;
    k1 = iext[nzz];
  high_end_start:
    l = ngrid + 1;
    klow = knz;
    nut = -nut1;
    comp = y1 * (1.00001);
  high_end:
    if (--l <= klow) goto high_none;
    err = e.at(l, l - 1);
    if ((static_cast<double>(nut) * err - comp) <= 0.0) goto high_end;
    j = nzz;
    comp = static_cast<double>(nut) * err;
    luck = luck + 10;
    goto climb_down;
  high_none:
    if (luck == 6) goto check_done;
    for (j = 1; j <= nfcns; ++j) iext[nzz - j] = iext[nz - j];
    iext[1] = k1;
    goto iteration;
  shift_down:
    kn = iext[nzz];
    for (j = 1; j <= nfcns; ++j) iext[j] = iext[j + 1];
    iext[nz] = kn;
    goto iteration;
  check_done:
    if (jchnge <= 0) break;
  }

  // Coefficients of the best approximation by an inverse DFT of its values at the Chebyshev nodes
  // (mapped onto [grid[1], grid[ngrid]] when the bands do not cover all of [0, 1/2]).
  nm1 = nfcns - 1;
  fsh = 1.0e-06;
  x[nzz] = -2.0;
  cn = 2 * nfcns - 1;
  delf = 1.0 / cn;
  l = 1;
  kkk = 0;
  if (edge[1] == 0.0 && edge[2 * nbands] == 0.5) kkk = 1;
  if (nfcns <= 3) kkk = 1;
  if (kkk != 1) {
    dtemp = std::cos(kTwoPi * grid[1]);
    dnum = std::cos(kTwoPi * grid[ngrid]);
    aa = 2.0 / (dtemp - dnum);
    bb = -(dtemp + dnum) / (dtemp - dnum);
  }
  for (j = 1; j <= nfcns; ++j) {
    ft = (j - 1) * delf;
    xt = std::cos(kTwoPi * ft);
    if (kkk != 1) {
      xt = (xt - bb) / aa;
      ft = std::acos(xt) / kTwoPi;
    }
    for (;;) {
      xe = x[l];
      if (xt > xe) {
        if ((xt - xe) < fsh) {
          a[j] = y[l];
        } else {
          a[j] = response_at(std::cos(kTwoPi * ft), nz, x, y, ad);
        }
        break;
      }
      if ((xe - xt) < fsh) {
        a[j] = y[l];
        break;
      }
      ++l;
    }
    if (l > 1) l = l - 1;
  }
  dden = kTwoPi / cn;
  for (j = 1; j <= nfcns; ++j) {
    dtemp = 0.0;
    dnum = (j - 1) * dden;
    if (nm1 >= 1)
      for (k = 1; k <= nm1; ++k) dtemp += a[k + 1] * std::cos(dnum * k);
    alpha[j] = 2.0 * dtemp + a[1];
  }
  for (j = 2; j <= nfcns; ++j) alpha[j] *= 2.0 / cn;
  alpha[1] /= cn;

  if (kkk != 1) {
    p[1] = 2.0 * alpha[nfcns] * bb + alpha[nm1];
    p[2] = 2.0 * aa * alpha[nfcns];
    q[1] = alpha[nfcns - 2] - alpha[nfcns];
    for (j = 2; j <= nm1; ++j) {
      if (j >= nm1) {
        aa *= 0.5;
        bb *= 0.5;
      }
      p[j + 1] = 0.0;
      for (k = 1; k <= j; ++k) {
        a[k] = p[k];
        p[k] = 2.0 * bb * a[k];
      }
      p[2] += a[1] * 2.0 * aa;
      jm1 = j - 1;
      for (k = 1; k <= jm1; ++k) p[k] += q[k] + aa * a[k + 1];
      jp1 = j + 1;
      for (k = 3; k <= jp1; ++k) p[k] += aa * a[k - 1];
      if (j != nm1) {
        for (k = 1; k <= j; ++k) q[k] = -a[k];
        q[1] += alpha[nfcns - 1 - j];
      }
    }
    for (j = 1; j <= nfcns; ++j) alpha[j] = p[j];
  }
  if (nfcns <= 3) alpha[nfcns + 1] = alpha[nfcns + 2] = 0.0;
  *niter_out = niter;
  return remez_status::ok;
}

// Desired response and weight at frequency f of band `band` (1-based).
double desired_at(double f, const double* fx, int band, int jtype) { return jtype != 2 ? fx[band] : fx[band] * f; }
double weight_at(double f, const double* fx, const double* wtx, int band, int jtype) {
  if (jtype != 2) return wtx[band];
  if (fx[band] >= 0.0001) return wtx[band] / f;
  return wtx[band];
}

std::string int_str(std::int64_t v) { return std::to_string(v); }

}  // namespace

remez_type parse_remez_type(std::string_view s) {
  if (s == "bandpass") return remez_type::bandpass;
  if (s == "differentiator") return remez_type::differentiator;
  if (s == "hilbert") return remez_type::hilbert;
  throw value_error(std::string(kFn) + ": Type must be 'bandpass', 'differentiator', or 'hilbert', got '" +
                    std::string(s) + "'");
}

host_array remez(std::int64_t numtaps, const std::vector<double>& bands_in, const std::vector<double>& desired,
                 const remez_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::remez");
  const std::string F = kFn;
  const double fs = opts.fs.value_or(1.0);
  const std::vector<double> weight = opts.weight.empty() ? std::vector<double>(desired.size(), 1.0) : opts.weight;
  // The checks of SciPy's _remez, in its order.
  CUSCI_EXPECTS(numtaps >= 2, value_error,
                F + ": The number of taps must be greater than 1, got numtaps=" + int_str(numtaps));
  CUSCI_EXPECTS(numtaps <= std::numeric_limits<int>::max() / 2, value_error,
                F + ": numtaps must fit a C int, got " + int_str(numtaps));
  const std::size_t numbands = desired.size();
  CUSCI_EXPECTS(bands_in.size() == 2 * numbands && weight.size() == numbands, value_error,
                F + ": The inputs desired and weight must have same length. The input bands must have twice this "
                    "length (got " + int_str(static_cast<std::int64_t>(bands_in.size())) + " band edges, " +
                    int_str(static_cast<std::int64_t>(numbands)) + " desired values, " +
                    int_str(static_cast<std::int64_t>(weight.size())) + " weights).");
  CUSCI_EXPECTS(numbands > 0, value_error, F + ": desired must not be empty (no bands given)");
  std::vector<double> bands(bands_in.size());
  double previous = 0.0;
  for (std::size_t k = 0; k < bands_in.size(); ++k) {
    const double b = bands_in[k];
    CUSCI_EXPECTS(std::isfinite(b), value_error, F + ": band edges must be finite");
    CUSCI_EXPECTS(!(b < previous), value_error, F + ": Bands must be monotonic starting at zero.");
    CUSCI_EXPECTS(!(b * 2 > fs), value_error, F + ": Band edges should be less than 1/2 the sampling frequency");
    previous = b;
    bands[k] = previous / fs;
  }
  CUSCI_EXPECTS(opts.maxiter >= 1, value_error,
                F + ": maxiter must be >= 1, got " + int_str(opts.maxiter));
  CUSCI_EXPECTS(opts.grid_density <= std::numeric_limits<int>::max() && opts.maxiter <= std::numeric_limits<int>::max(),
                value_error, F + ": grid_density and maxiter must fit a C int");

  const int nfilt = static_cast<int>(numtaps);
  const int jtype = opts.type == remez_type::bandpass ? 1 : opts.type == remez_type::differentiator ? 2 : 3;
  const int nbands = static_cast<int>(numbands);
  const int lgrid = static_cast<int>(opts.grid_density);
  const int dimsize = static_cast<int>(std::ceil(nfilt / 2.0 + 2));
  const std::int64_t wrk64 = static_cast<std::int64_t>(lgrid) * dimsize;
  const std::string no_convergence_prefix = F + ": Failure to converge at iteration ";
  const std::string no_convergence_suffix = ", try reducing transition band width.";
  if (wrk64 <= 0) throw value_error(no_convergence_prefix + "-1" + no_convergence_suffix);
  CUSCI_EXPECTS(wrk64 < std::numeric_limits<int>::max(), value_error,
                F + ": grid_density * (numtaps / 2 + 2) is too large, got grid_density=" + int_str(lgrid));
  const int wrksize = static_cast<int>(wrk64);

  // 1-based views of the inputs.
  const double* edge = bands.data() - 1;
  const double* fx = desired.data() - 1;
  const double* wtx = weight.data() - 1;

  std::vector<double> des_v(static_cast<std::size_t>(wrksize) + 2), grid_v(static_cast<std::size_t>(wrksize) + 2),
      wt_v(static_cast<std::size_t>(wrksize) + 2), alpha_v(static_cast<std::size_t>(dimsize) + 3);
  std::vector<int> iext_v(static_cast<std::size_t>(dimsize) + 3);
  remez_workspace ws;
  for (auto* v : {&ws.a, &ws.p, &ws.q, &ws.ad, &ws.x, &ws.y}) v->assign(static_cast<std::size_t>(dimsize) + 3, 0.0);
  double* des = des_v.data();
  double* grid = grid_v.data();
  double* wt = wt_v.data();
  double* alpha = alpha_v.data();
  int* iext = iext_v.data();

  const int neg = jtype == 1 ? 0 : 1;
  const int nodd = nfilt % 2;
  int nfcns = nfilt / 2;
  if (nodd == 1 && neg == 0) nfcns = nfcns + 1;

  // The dense grid: about lgrid points per cosine over the bands, each band's edges included.
  grid[1] = edge[1];
  double delf = lgrid * nfcns;
  delf = 0.5 / delf;
  if (neg != 0 && edge[1] < delf) grid[1] = delf;
  int j = 1, l = 1, band = 1;
  for (;;) {
    const double fup = edge[l + 1];
    double f;
    do {
      f = grid[j];
      des[j] = desired_at(f, fx, band, jtype);
      wt[j] = weight_at(f, fx, wtx, band, jtype);
      if (++j > wrksize) throw value_error(no_convergence_prefix + "-1" + no_convergence_suffix);
      grid[j] = f + delf;
    } while (grid[j] <= fup);
    grid[j - 1] = fup;
    des[j - 1] = desired_at(fup, fx, band, jtype);
    wt[j - 1] = weight_at(fup, fx, wtx, band, jtype);
    ++band;
    l += 2;
    if (band > nbands) break;
    grid[j] = edge[l];
  }
  int ngrid = j - 1;
  if (neg == nodd && grid[ngrid] > (0.5 - delf)) --ngrid;
  if (ngrid < nfcns + 1)
    throw value_error(F + ": Band edges are too close together to build the dense frequency grid: it has only " +
                      int_str(ngrid) + " point(s) but at least " + int_str(nfcns + 1) +
                      " (one per extremal frequency) are required. Widen the bands, reduce numtaps, or increase "
                      "grid_density.");

  // The equivalent problem for an approximation by a plain sum of cosines.
  if (neg <= 0) {
    if (nodd != 1)
      for (j = 1; j <= ngrid; ++j) {
        const double change = std::cos(kPi * grid[j]);
        des[j] = des[j] / change;
        wt[j] = wt[j] * change;
      }
  } else {
    for (j = 1; j <= ngrid; ++j) {
      const double change = nodd != 1 ? std::sin(kPi * grid[j]) : std::sin(kTwoPi * grid[j]);
      des[j] = des[j] / change;
      wt[j] = wt[j] * change;
    }
  }

  // Initial extremal frequencies: equally spaced over the grid.
  const double spacing = static_cast<double>(ngrid - 1) / static_cast<double>(nfcns);
  for (j = 1; j <= nfcns; ++j) iext[j] = static_cast<int>((j - 1) * spacing) + 1;
  iext[nfcns + 1] = ngrid;
  const int nm1 = nfcns - 1;
  const int nz = nfcns + 1;

  int niter = -1;
  if (exchange(des, grid, edge, wt, ngrid, nbands, iext, alpha, nfcns, static_cast<int>(opts.maxiter), ws, &niter) !=
      remez_status::ok)
    throw value_error(no_convergence_prefix + int_str(niter) + no_convergence_suffix);

  // The impulse response from the cosine coefficients.
  std::vector<double> h_v(static_cast<std::size_t>(nfilt) + 2, 0.0);
  double* h = h_v.data();
  if (neg <= 0) {
    if (nodd != 0) {
      for (j = 1; j <= nm1; ++j) h[j] = 0.5 * alpha[nz - j];
      h[nfcns] = alpha[1];
    } else {
      h[1] = 0.25 * alpha[nfcns];
      for (j = 2; j <= nm1; ++j) h[j] = 0.25 * (alpha[nz - j] + alpha[nfcns + 2 - j]);
      h[nfcns] = 0.5 * alpha[1] + 0.25 * alpha[2];
    }
  } else {
    if (nodd != 0) {
      h[1] = 0.25 * alpha[nfcns];
      h[2] = 0.25 * alpha[nm1];
      for (j = 3; j <= nm1; ++j) h[j] = 0.25 * (alpha[nz - j] - alpha[nfcns + 3 - j]);
      h[nfcns] = 0.5 * alpha[1] - 0.25 * alpha[3];
      h[nz] = 0.0;
    } else {
      h[1] = 0.25 * alpha[nfcns];
      for (j = 2; j <= nm1; ++j) h[j] = 0.25 * (alpha[nz - j] - alpha[nfcns + 2 - j]);
      h[nfcns] = 0.5 * alpha[1] - 0.25 * alpha[2];
    }
  }
  for (j = 1; j <= nfcns; ++j) {
    const int k = nfilt + 1 - j;
    h[k] = neg == 0 ? h[j] : -h[j];
  }
  if (neg == 1 && nodd == 1) h[nz] = 0.0;
  return host_array::from(std::vector<double>(h_v.begin() + 1, h_v.begin() + 1 + nfilt));
}

}  // namespace cusci::signal

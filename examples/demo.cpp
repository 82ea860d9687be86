// cusci demo: real-data pipelines on the GPU.
//  1. A SuiteSparse SPD matrix (bcsstk16) solved with Jacobi-preconditioned conjugate gradients, and
//     reordered with reverse_cuthill_mckee (csgraph) after a seeded shuffle of its node numbers: the
//     bandwidth as distributed, shuffled, and after the reordering. A nonsymmetric one (orsirr_1)
//     solved with ILU(0)-preconditioned GMRES(30), its convergence history printed, and without a
//     preconditioner for as many restart cycles.
//  2. A photograph (camera) smoothed with gaussian_filter at several sigmas, written as .npy and PNG.
//  3. An ECG recording (MIT-BIH 208, 360 Hz) band-pass filtered 0.5-40 Hz with an elliptic filter and a
//     60 Hz notch (ellip, iirnotch, tf2sos; the cascade's response printed with freqz_sos), causally
//     (sosfilt) and with zero phase (sosfiltfilt), then resampled to 250 Hz (resample_poly);
//     raw, filtered and resampled signals written as .npy and plotted to a PNG with PLplot.
//  4. An image pipeline on the same photograph: salt-and-pepper noise removed with median_filter, edges
//     as the Sobel gradient magnitude of a Gaussian-smoothed image, a 30 degree rotation and a 2x zoom,
//     each written as PNG.
//  3b. R waves of the filtered ECG found with find_peaks and the heart rate they give; the raw ECG's
//     Welch PSD plotted to a PNG; the spectrogram of a recorded chime (44.1 kHz) written as a colour PNG.
//  5. A segmentation of a photograph of coins: an Otsu threshold from cusci's histogram, binary_opening,
//     binary_fill_holes, label, per-object area (sum_labels) and centroid (center_of_mass), then
//     distance_transform_edt and watershed_ift on the inverted distance to split touching objects; the
//     labels written as colour PNGs and the largest objects printed.
// Run `cusci_demo --help` for the options; with no GPU it exits with code 2 and a message.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/ndimage/ndimage.hpp"
#include "cusci/signal/signal.hpp"
#include "cusci/sparse/sparse.hpp"
#include "png_writer.hpp"
#ifdef CUSCI_DEMO_HAVE_PLPLOT
#include "signal_plot.hpp"
#endif

namespace {

struct row {
  std::string pipeline, input, result;
  double ms;
};

double norm2(const cusci::ndarray& v) { return std::sqrt(cusci::sum(v * v).item<double>()); }

// Milliseconds of wall time for fn(), with the device synchronized before and after.
template <class F>
double timed(F&& fn) {
  cusci::device_synchronize();
  auto t0 = std::chrono::steady_clock::now();
  fn();
  cusci::device_synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// "n=.. nnz=..: .. iterations, info .., rel. residual .., rms error .." of a solve of A x = b with b = A 1.
std::string solve_summary(const cusci::sparse::csr_matrix& A, const cusci::ndarray& b, const cusci::ndarray& x,
                          std::int64_t iterations, std::int64_t info) {
  const std::int64_t n = A.shape()[0];
  const double relres = norm2(b - A.dot(x)) / norm2(b);
  const double err = norm2(x - 1.0) / std::sqrt(static_cast<double>(n));
  char buf[256];
  std::snprintf(buf, sizeof buf, "n=%lld nnz=%lld: %lld iterations, info %lld, rel. residual %.2e, rms error %.2e",
                static_cast<long long>(n), static_cast<long long>(A.nnz()), static_cast<long long>(iterations),
                static_cast<long long>(info), relres, err);
  return buf;
}

row solve_matrix(const std::string& path, double rtol) {
  namespace sp = cusci::sparse;
  sp::csr_matrix A = cusci::io::mmread(path).tocsr();
  const std::int64_t n = A.shape()[0];
  cusci::ndarray b = A.dot(cusci::ones({n}));  // b = A 1: the exact solution is all ones
  sp::linalg::cg_result res;
  const double ms = timed([&] {
    res = sp::linalg::cg(A, b, {.rtol = rtol, .maxiter = 20 * n, .M = sp::linalg::jacobi(A)});
  });
  return {"Jacobi-CG", std::filesystem::path(path).filename().string(),
          solve_summary(A, b, res.x, res.iterations, res.info), ms};
}

// A nonsymmetric SuiteSparse matrix (orsirr_1, an oil-reservoir simulation) solved with restarted
// GMRES(30), preconditioned with ILU(0) and, for comparison, without a preconditioner for as many
// restart cycles; the preconditioned solve's convergence history (the residual norm its convergence
// test used, and the seconds since the solve began) is printed every few iterations.
std::vector<row> solve_nonsymmetric(const std::string& path, double rtol) {
  namespace sp = cusci::sparse;
  namespace sla = cusci::sparse::linalg;
  std::vector<row> rows;
  sp::csr_matrix A = cusci::io::mmread(path).tocsr();
  const std::int64_t n = A.shape()[0];
  cusci::ndarray b = A.dot(cusci::ones({n}));  // b = A 1: the exact solution is all ones
  const std::string name = std::filesystem::path(path).filename().string();
  auto describe = [&](const sla::krylov_result& r) { return solve_summary(A, b, r.x, r.iterations, r.info); };
  sla::krylov_result pre;
  std::int64_t cycles = 0;
  const double ms_pre = timed([&] {
    const sla::incomplete_factorization M = sla::ilu0(A);
    pre = sla::gmres(A, b, {.rtol = rtol, .restart = 30, .maxiter = 1000, .M = M});
  });
  cycles = (pre.iterations + 29) / 30;
  rows.push_back({"ILU(0)-GMRES(30)", name, describe(pre), ms_pre});
  sla::krylov_result plain;
  const double ms_plain =
      timed([&] { plain = sla::gmres(A, b, {.rtol = rtol, .restart = 30, .maxiter = std::max<std::int64_t>(cycles, 1)}); });
  rows.push_back({"GMRES(30), same cycles", name, describe(plain), ms_plain});
  const auto& h = pre.history;
  std::printf("ILU(0)-GMRES(30) on %s: convergence history (%zu entries)\n%10s %14s %12s\n", name.c_str(),
              h.residual_norms.size(), "iteration", "residual", "seconds");
  const std::size_t step = std::max<std::size_t>(1, h.residual_norms.size() / 12);
  for (std::size_t i = 0; i < h.residual_norms.size(); ++i)
    if (i % step == 0 || i + 1 == h.residual_norms.size())
      std::printf("%10zu %14.6e %12.6f\n", i, h.residual_norms[i], h.seconds[i]);
  return rows;
}

// The bandwidth max |i - j| over the stored entries of A, with rows and columns renumbered by q (q[i]:
// the new index of node i; identity when q is empty). Host side, over the index arrays.
std::int64_t bandwidth(const std::vector<std::int32_t>& indptr, const std::vector<std::int32_t>& indices,
                       const std::vector<std::int32_t>& q) {
  std::int64_t bw = 0;
  for (std::size_t i = 0; i + 1 < indptr.size(); ++i)
    for (std::int32_t k = indptr[i]; k < indptr[i + 1]; ++k) {
      const std::int64_t a = q.empty() ? static_cast<std::int64_t>(i) : q[i];
      const std::int64_t b = q.empty() ? indices[k] : q[indices[k]];
      bw = std::max(bw, a > b ? a - b : b - a);
    }
  return bw;
}

row reorder_matrix(const std::string& path) {
  namespace sp = cusci::sparse;
  // The stiffness matrix as a mesh generator without a reordering step might number it: its nodes
  // shuffled by a seeded permutation s (node i becomes s[i]); reverse_cuthill_mckee then recovers a
  // narrow band.
  sp::csr_matrix A = cusci::io::mmread(path).tocsr();
  const std::int64_t n = A.shape()[0];
  const auto indptr = A.indptr().astype(cusci::dtype::int32).get().to_vector<std::int32_t>();
  const auto indices = A.indices().astype(cusci::dtype::int32).get().to_vector<std::int32_t>();
  std::vector<std::int32_t> s(static_cast<std::size_t>(n));
  std::iota(s.begin(), s.end(), 0);
  std::shuffle(s.begin(), s.end(), std::mt19937_64(20261202));
  std::vector<std::int32_t> rows, cols;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int32_t k = indptr[i]; k < indptr[i + 1]; ++k) {
      rows.push_back(s[static_cast<std::size_t>(i)]);
      cols.push_back(s[static_cast<std::size_t>(indices[k])]);
    }
  const sp::csr_matrix B = sp::coo_matrix(A.data(), {cusci::asarray(rows), cusci::asarray(cols)}, {.shape = A.shape()}).tocsr();
  cusci::ndarray perm;
  const double ms = timed([&] { perm = sp::csgraph::reverse_cuthill_mckee(B, {.symmetric_mode = true}); });
  const auto bptr = B.indptr().astype(cusci::dtype::int32).get().to_vector<std::int32_t>();
  const auto bind = B.indices().astype(cusci::dtype::int32).get().to_vector<std::int32_t>();
  const auto p = perm.astype(cusci::dtype::int32).get().to_vector<std::int32_t>();
  std::vector<std::int32_t> q(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) q[static_cast<std::size_t>(p[k])] = static_cast<std::int32_t>(k);
  char buf[256];
  std::snprintf(buf, sizeof buf, "n=%lld: bandwidth %lld as distributed, %lld shuffled, %lld after RCM of the shuffled",
                static_cast<long long>(n), static_cast<long long>(bandwidth(indptr, indices, {})),
                static_cast<long long>(bandwidth(bptr, bind, {})), static_cast<long long>(bandwidth(bptr, bind, q)));
  return {"reverse_cuthill_mckee", std::filesystem::path(path).filename().string(), buf, ms};
}

std::vector<row> smooth_image(const std::string& path, const std::vector<double>& sigmas, const std::string& out) {
  std::vector<row> rows;
  cusci::ndarray img = cusci::load(path);
  if (img.ndim() != 2) throw cusci::value_error("demo: the image must be 2-D (grayscale), got " + std::to_string(img.ndim()) + "-D");
  cusci::ndarray f = img.astype(cusci::dtype::float32);
  const std::string stem = std::filesystem::path(path).stem().string();
  for (double s : sigmas) {
    cusci::ndarray smooth;
    const double ms = timed([&] { smooth = cusci::ndimage::gaussian_filter(f, s); });
    char tag[32];
    std::snprintf(tag, sizeof tag, "%g", s);
    const std::string base = out + "/" + stem + "_gauss_sigma" + tag;
    cusci::save(base + ".npy", smooth);
    // Values of a Gaussian average of [0, 255] stay in [0, 255]; round to the nearest level.
    cusci::host_array pix = (smooth + 0.5).astype(cusci::dtype::uint8).get();
    demo::write_png_gray8(base + ".png", pix.data_as<std::uint8_t>(), static_cast<int>(img.shape()[1]),
                          static_cast<int>(img.shape()[0]));
    rows.push_back({"gaussian_filter sigma=" + std::string(tag), std::filesystem::path(path).filename().string(),
                    base + ".{npy,png}", ms});
  }
  cusci::host_array orig = img.astype(cusci::dtype::uint8).get();
  demo::write_png_gray8(out + "/" + stem + "_original.png", orig.data_as<std::uint8_t>(),
                        static_cast<int>(img.shape()[1]), static_cast<int>(img.shape()[0]));
  return rows;
}

// Writes a float image as an 8-bit PNG: values rounded to the nearest level and clipped to [0, 255].
void write_png(const std::string& file, const cusci::ndarray& img) {
  cusci::host_array pix = cusci::clip(img + 0.5, 0.0, 255.0).astype(cusci::dtype::uint8).get();
  demo::write_png_gray8(file, pix.data_as<std::uint8_t>(), static_cast<int>(img.shape()[1]),
                        static_cast<int>(img.shape()[0]));
}

std::vector<row> image_pipeline(const std::string& path, const std::string& out) {
  namespace nd = cusci::ndimage;
  std::vector<row> rows;
  cusci::ndarray img = cusci::load(path);
  if (img.ndim() != 2) throw cusci::value_error("demo: the image must be 2-D (grayscale), got " + std::to_string(img.ndim()) + "-D");
  const cusci::ndarray f = img.astype(cusci::dtype::float32);
  const std::string stem = out + "/" + std::filesystem::path(path).stem().string();
  const std::string input = std::filesystem::path(path).filename().string();

  // 5% of the pixels set to black or white (seeded), then a 3 x 3 median filter.
  const cusci::ndarray u = cusci::random::default_rng(2026).random(f.shape(), cusci::dtype::float32);
  const cusci::ndarray noisy = cusci::where(u < 0.025, 0.0, cusci::where(u > 0.975, 255.0, f));
  cusci::ndarray clean;
  double ms = timed([&] { clean = nd::median_filter(noisy, 3); });
  const double err_noisy = norm2(noisy - f), err_clean = norm2(clean - f);
  write_png(stem + "_noisy.png", noisy);
  write_png(stem + "_median3.png", clean);
  char buf[256];
  std::snprintf(buf, sizeof buf, "error vs original %.0f -> %.0f (L2); %s_median3.png", err_noisy, err_clean,
                stem.c_str());
  rows.push_back({"median_filter 3x3 (5% noise)", input, buf, ms});

  // Edges: |(sobel_0, sobel_1)| of the image smoothed with sigma 2.
  cusci::ndarray edges;
  ms = timed([&] {
    const cusci::ndarray smooth = nd::gaussian_filter(f, 2.0);
    edges = cusci::hypot(nd::sobel(smooth, 0), nd::sobel(smooth, 1));
  });
  const double emax = cusci::max(edges).item<double>();
  write_png(stem + "_edges.png", edges * (255.0 / emax));
  std::snprintf(buf, sizeof buf, "max gradient %.1f; %s_edges.png", emax, stem.c_str());
  rows.push_back({"gaussian_filter + sobel", input, buf, ms});

  cusci::ndarray rotated;
  ms = timed([&] { rotated = nd::rotate(f, 30.0); });
  write_png(stem + "_rotate30.png", rotated);
  std::snprintf(buf, sizeof buf, "%lld x %lld, cubic spline; %s_rotate30.png", static_cast<long long>(rotated.shape()[0]),
                static_cast<long long>(rotated.shape()[1]), stem.c_str());
  rows.push_back({"rotate 30 degrees", input, buf, ms});

  cusci::ndarray zoomed;
  ms = timed([&] { zoomed = nd::zoom(f, 2.0); });
  write_png(stem + "_zoom2.png", zoomed);
  std::snprintf(buf, sizeof buf, "%lld x %lld, cubic spline; %s_zoom2.png", static_cast<long long>(zoomed.shape()[0]),
                static_cast<long long>(zoomed.shape()[1]), stem.c_str());
  rows.push_back({"zoom x2", input, buf, ms});
  return rows;
}

// Otsu's threshold of 8-bit counts: the level t maximising the between-class variance of {<= t} and {> t}.
int otsu_threshold(const std::vector<std::int64_t>& counts) {
  double total = 0, sum_all = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    total += static_cast<double>(counts[i]);
    sum_all += static_cast<double>(i) * static_cast<double>(counts[i]);
  }
  double w0 = 0, sum0 = 0, best = -1;
  int t_best = 0;
  for (std::size_t t = 0; t + 1 < counts.size(); ++t) {
    w0 += static_cast<double>(counts[t]);
    sum0 += static_cast<double>(t) * static_cast<double>(counts[t]);
    const double w1 = total - w0;
    if (w0 == 0 || w1 == 0) continue;
    const double d = sum0 / w0 - (sum_all - sum0) / w1, between = w0 * w1 * d * d;
    if (between > best) best = between, t_best = static_cast<int>(t);
  }
  return t_best;
}

// Writes labels (any integer dtype, 0 = background) as an RGB PNG: background black, label l in colour
// (l - 1) % 12 of a fixed palette; the colouring is one take() on the device.
void write_labels_png(const std::string& file, const cusci::ndarray& labels) {
  static const std::vector<std::uint8_t> palette{
      0,   0,   0,                                                                          // background
      230, 25,  75,  60,  180, 75,  255, 225, 25,  0,   130, 200, 245, 130, 48,  145, 30,  180,
      70,  240, 240, 240, 50,  230, 210, 245, 60,  250, 190, 212, 0,   128, 128, 170, 110, 40};
  const cusci::ndarray lut = cusci::asarray(palette, {13, 3});
  const cusci::ndarray l = labels.astype(cusci::dtype::int64);
  const cusci::ndarray idx = cusci::where(l > 0, (l - 1) % 12 + 1, 0).astype(cusci::dtype::int64);
  cusci::host_array rgb = cusci::take(lut, idx, 0).get();  // [H, W, 3]
  demo::write_png_rgb8(file, rgb.data_as<std::uint8_t>(), static_cast<int>(labels.shape()[1]),
                       static_cast<int>(labels.shape()[0]));
}

std::vector<row> segment_coins(const std::string& path, int min_area, const std::string& out) {
  namespace nd = cusci::ndimage;
  std::vector<row> rows;
  const cusci::ndarray img = cusci::load(path);
  if (img.ndim() != 2) throw cusci::value_error("demo: the image must be 2-D (grayscale), got " + std::to_string(img.ndim()) + "-D");
  const std::string stem = out + "/" + std::filesystem::path(path).stem().string();
  const std::string input = std::filesystem::path(path).filename().string();
  char buf[512];

  // Threshold: Otsu's level from the 256-bin histogram (cusci's ndimage.histogram; the 256-value
  // search on the host), foreground = brighter than it.
  cusci::ndarray fg;
  int t = 0;
  double ms = timed([&] {
    t = otsu_threshold(nd::histogram(img, 0.0, 256.0, 256).get().to_vector<std::int64_t>());
    fg = img > static_cast<double>(t);
  });
  std::snprintf(buf, sizeof buf, "level %d, %.1f%% of the pixels above it", t,
                100.0 * cusci::mean(fg.astype(cusci::dtype::float64)).item<double>());
  rows.push_back({"Otsu threshold (histogram)", input, buf, ms});

  // Clean-up: an opening (2 iterations of the 3 x 3 cross) removes specks and thin bridges, then the
  // holes inside each object are filled.
  cusci::ndarray filled;
  ms = timed([&] {
    const cusci::ndarray opened = nd::binary_opening(fg, {.iterations = 2});
    filled = nd::binary_fill_holes(opened);
  });
  std::snprintf(buf, sizeof buf, "%.0f -> %.0f foreground pixels", cusci::sum(fg.astype(cusci::dtype::float64)).item<double>(),
                cusci::sum(filled.astype(cusci::dtype::float64)).item<double>());
  rows.push_back({"binary_opening + fill_holes", input, buf, ms});

  // Connected objects (4-connectivity), their areas (sum_labels of ones) and centroids.
  nd::label_result lab;
  ms = timed([&] { lab = nd::label(filled); });
  write_labels_png(stem + "_labels.png", lab.labels);
  std::int64_t large = 0;
  {
    std::vector<std::int64_t> index(static_cast<std::size_t>(lab.num_features));
    std::iota(index.begin(), index.end(), std::int64_t{1});
    const std::vector<double> area =
        index.empty() ? std::vector<double>{}
                      : nd::sum_labels(cusci::ones(img.shape()), lab.labels, index).get().to_vector<double>();
    for (double a : area) large += a >= min_area;
  }
  std::snprintf(buf, sizeof buf, "%lld objects, %lld of >= %d px; %s_labels.png", static_cast<long long>(lab.num_features),
                static_cast<long long>(large), min_area, stem.c_str());
  rows.push_back({"label (4-connected)", input, buf, ms});

  // Split touching objects: markers at the maxima of the distance to the background (the points where
  // the distance equals its maximum over a 21 x 21 window, at least 5 px deep, labelled), one background
  // marker (-1) on every background pixel, and watershed_ift on the inverted distance. The foreground's
  // inverted distance spans 0..200 and the background is 255, so the background marker enters an object
  // only where no object marker reaches it first: every step inside an object costs less than the step
  // from the background into it.
  cusci::ndarray ws, dist;
  std::int64_t nmarkers = 0;
  ms = timed([&] {
    dist = *nd::distance_transform_edt(filled).distances;
    const double dmax = std::max(cusci::max(dist).item<double>(), 1.0);
    const cusci::ndarray peaks = (dist == nd::maximum_filter(dist, 21)) & (dist >= 5.0);
    nd::label_result m = nd::label(peaks);
    nmarkers = m.num_features;
    const cusci::ndarray markers = cusci::where(filled, m.labels, -1).astype(cusci::dtype::int32);
    const cusci::ndarray inv =
        cusci::where(filled, 200.0 * (1.0 - dist / dmax) + 0.5, 255.0).astype(cusci::dtype::uint8);
    const cusci::ndarray w = nd::watershed_ift(inv, markers);
    ws = cusci::where(w > 0, w, 0).astype(cusci::dtype::int32);
  });
  write_labels_png(stem + "_watershed.png", ws);
  std::snprintf(buf, sizeof buf, "max distance %.1f px, %lld markers (a region each); %s_watershed.png",
                cusci::max(dist).item<double>(), static_cast<long long>(nmarkers), stem.c_str());
  rows.push_back({"distance_transform_edt + watershed", input, buf, ms});

  // Areas and centroids of the watershed regions; the largest are printed.
  std::vector<double> area, com;
  ms = timed([&] {
    if (nmarkers == 0) return;
    std::vector<std::int64_t> index(static_cast<std::size_t>(nmarkers));
    std::iota(index.begin(), index.end(), std::int64_t{1});
    area = nd::sum_labels(cusci::ones(img.shape()), ws, index).get().to_vector<double>();
    com = nd::center_of_mass(filled, ws, index).get().to_vector<double>();  // [nmarkers, 2]
  });
  std::int64_t objects = 0;
  double total_area = 0;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < area.size(); ++i)
    if (area[i] >= min_area) order.push_back(i), ++objects, total_area += area[i];
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return area[a] > area[b]; });
  std::printf("\nObjects of %s after the watershed (area >= %d px; %lld of them, mean area %.0f px), largest first:\n",
              input.c_str(), min_area, static_cast<long long>(objects), objects ? total_area / objects : 0.0);
  std::printf("%8s %10s %12s %12s\n", "label", "area (px)", "centroid y", "centroid x");
  for (std::size_t k = 0; k < order.size() && k < 8; ++k) {
    const std::size_t i = order[k];
    std::printf("%8zu %10.0f %12.1f %12.1f\n", i + 1, area[i], com[2 * i], com[2 * i + 1]);
  }
  if (order.size() > 8) std::printf("%8s (%zu more)\n", "...", order.size() - 8);
  std::snprintf(buf, sizeof buf, "%lld objects of >= %d px, mean area %.0f px", static_cast<long long>(objects),
                min_area, objects ? total_area / objects : 0.0);
  rows.push_back({"sum_labels + center_of_mass", input, buf, ms});
  return rows;
}

std::vector<row> filter_ecg(const std::string& path, double fs, double low, double high, double mains,
                            double fs_out, const std::string& out, cusci::ndarray& zerophase) {
  namespace sg = cusci::signal;
  cusci::ndarray x = cusci::load(path);
  // The ECG filter, designed on the host: an elliptic band-pass (order 4 per edge, 0.5 dB passband ripple,
  // 40 dB stopband) as second-order sections, then a notch at the mains frequency (60 Hz in the MIT-BIH
  // recordings, quality factor 30) appended as one more section.
  const sg::iir_filter bp = sg::ellip(4, 0.5, 40.0, {low, high},
                                      {.btype = sg::band_type::bandpass, .output = sg::output_form::sos, .fs = fs});
  std::vector<double> sections = bp.sos.to_vector<double>();
  if (mains < fs / 2) {
    const sg::ba_coeffs notch = sg::iirnotch(mains, 30.0, fs);
    const std::vector<double> ns = sg::tf2sos(notch.b, notch.a).to_vector<double>();
    sections.insert(sections.end(), ns.begin(), ns.end());
  }
  const cusci::host_array sos =
      cusci::host_array::from(sections, {static_cast<std::int64_t>(sections.size() / 6), 6});
  // Its response where it matters: the baseline wander, the band edges, the QRS band, the mains.
  {
    std::vector<double> f{0.05, low, 1.0, 5.0, 15.0, high, mains, 100.0};
    f.erase(std::remove_if(f.begin(), f.end(), [&](double v) { return !(v > 0 && v < fs / 2); }), f.end());
    const sg::freq_response r = sg::freqz_sos(sos, f, {.fs = fs});
    const auto h = r.h.to_vector<std::complex<double>>();
    std::printf("\nECG filter: ellip(4, 0.5 dB, 40 dB) band-pass %g-%g Hz + iirnotch(%g Hz, Q=30) at %g Hz, %lld sections\n",
                low, high, mains, fs, static_cast<long long>(sections.size() / 6));
    std::printf("%12s %12s\n", "f (Hz)", "gain (dB)");
    for (std::size_t i = 0; i < f.size(); ++i)
      std::printf("%12.2f %12.1f\n", f[i], 20.0 * std::log10(std::max(std::abs(h[i]), 1e-300)));
  }
  cusci::ndarray y;
  const double ms = timed([&] { y = sg::sosfilt(sos, x); });
  const std::string stem = out + "/" + std::filesystem::path(path).stem().string();
  const std::string file = stem + "_bandpass.npy";
  cusci::save(file, y);
  const double n = static_cast<double>(x.size());
  const double mean_in = cusci::mean(x).item<double>(), mean_out = cusci::mean(y).item<double>();
  const double rms_in = norm2(x - mean_in) / std::sqrt(n), rms_out = norm2(y - mean_out) / std::sqrt(n);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%lld samples at %g Hz: mean %.3f -> %.3f mV, rms %.3f -> %.3f mV; %s",
                static_cast<long long>(x.size()), fs, mean_in, mean_out, rms_in, rms_out, file.c_str());
  std::vector<row> rows{{"ellip(4) bandpass + notch sosfilt", std::filesystem::path(path).filename().string(), buf, ms}};

  // Zero phase (forward and backward: no delay), then to fs_out by a rational factor up / down.
  const auto ratio = std::gcd(static_cast<std::int64_t>(std::llround(fs_out)), static_cast<std::int64_t>(std::llround(fs)));
  const std::int64_t up = std::llround(fs_out) / ratio, down = std::llround(fs) / ratio;
  cusci::ndarray z, r;
  const double ms2 = timed([&] {
    z = sg::sosfiltfilt(sos, x);
    r = sg::resample_poly(z, up, down);
  });
  const std::string zfile = stem + "_zerophase.npy", rfile = stem + "_zerophase_250hz.npy";
  cusci::save(zfile, z);
  cusci::save(rfile, r);
  // Delay of each filtered signal against the raw one: the lag of the cross-correlation peak over +-0.5 s.
  auto lag_of = [&](const cusci::ndarray& f) {
    const auto a = cusci::to_host(x).astype(cusci::dtype::float64).to_vector<double>();
    const auto b = cusci::to_host(f).astype(cusci::dtype::float64).to_vector<double>();
    const std::int64_t N = static_cast<std::int64_t>(a.size()), W = static_cast<std::int64_t>(fs / 2);
    std::int64_t best = 0;
    double best_v = -1e300;
    for (std::int64_t l = -W; l <= W; ++l) {
      double acc = 0;
      for (std::int64_t i = std::max<std::int64_t>(0, -l); i < std::min(N, N - l); ++i) acc += a[i] * b[i + l];
      if (acc > best_v) best_v = acc, best = l;
    }
    return 1000.0 * static_cast<double>(best) / fs;
  };
  std::string plot = "no plot (PLplot was not found when cusci was configured)";
#ifdef CUSCI_DEMO_HAVE_PLPLOT
  const std::string png = stem + "_filtered.png";
  demo::plot_ecg(png, cusci::to_host(x).astype(cusci::dtype::float64).to_vector<double>(), fs,
                 cusci::to_host(z).astype(cusci::dtype::float64).to_vector<double>(),
                 cusci::to_host(r).astype(cusci::dtype::float64).to_vector<double>(), fs * static_cast<double>(up) / static_cast<double>(down));
  plot = "plot " + png;
#endif
  std::snprintf(buf, sizeof buf, "delay vs raw: sosfilt %.1f ms, sosfiltfilt %.1f ms; %lld samples at %g Hz -> %lld at %g Hz; %s; %s",
                lag_of(y), lag_of(z), static_cast<long long>(x.size()), fs, static_cast<long long>(r.size()),
                fs * static_cast<double>(up) / static_cast<double>(down), rfile.c_str(), plot.c_str());
  rows.push_back({"sosfiltfilt + resample_poly", std::filesystem::path(path).filename().string(), buf, ms2});
  zerophase = z;
  return rows;
}

// R peaks of the zero-phase band-passed ECG (find_peaks with a refractory distance of 0.25 s and a
// prominence of 1 mV) and the heart rate they give; the Welch PSD of the raw recording, plotted.
std::vector<row> ecg_beats(const std::string& path, const cusci::ndarray& z, const cusci::ndarray& raw, double fs,
                           const std::string& out) {
  namespace sg = cusci::signal;
  sg::find_peaks_result pk;
  const double ms = timed([&] {
    pk = sg::find_peaks(z, {.distance = 0.25 * fs, .prominence = sg::peak_interval(1.0)});
  });
  const std::vector<std::int64_t> p = cusci::to_host(pk.peaks).to_vector<std::int64_t>();
  std::vector<double> rr;
  for (std::size_t i = 1; i < p.size(); ++i) rr.push_back(static_cast<double>(p[i] - p[i - 1]) / fs);
  std::vector<double> sorted = rr;
  std::sort(sorted.begin(), sorted.end());
  const double median_rr = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
  const double span = p.size() > 1 ? static_cast<double>(p.back() - p.front()) / fs : 0.0;
  const std::string name = std::filesystem::path(path).filename().string();
  char buf[512];
  std::snprintf(buf, sizeof buf, "%zu R peaks in %.1f s: heart rate %.1f beats/min (median RR %.0f ms)", p.size(),
                static_cast<double>(z.size()) / fs, span > 0 ? 60.0 * static_cast<double>(p.size() - 1) / span : 0.0,
                1000.0 * median_rr);
  std::vector<row> rows{{"find_peaks (R waves)", name, buf, ms}};

  sg::psd_result psd;
  const double ms2 = timed([&] { psd = sg::welch(raw, {.fs = fs, .nperseg = 4096}); });
  const std::vector<double> f = psd.f.to_vector<double>();
  const std::vector<double> P = cusci::to_host(psd.Pxx).astype(cusci::dtype::float64).to_vector<double>();
  // The strongest component above 0.5 Hz (below it lies the baseline wander).
  std::size_t best = 0;
  for (std::size_t i = 1; i < P.size() && i < f.size(); ++i)
    if (f[i] > 0.5 && (best == 0 || P[i] > P[best])) best = i;
  std::string plot = "no plot (PLplot was not found when cusci was configured)";
#ifdef CUSCI_DEMO_HAVE_PLPLOT
  const std::string png = out + "/" + std::filesystem::path(path).stem().string() + "_welch.png";
  demo::plot_psd(png, f, P, fs / 2, "Welch PSD of the raw ECG (nperseg 4096, Hann)", "log10 PSD (mV^2/Hz)");
  plot = "plot " + png;
#endif
  std::snprintf(buf, sizeof buf, "%zu bins of %.3f Hz, strongest above 0.5 Hz at %.3f Hz; %s", f.size(),
                f.size() > 1 ? f[1] : 0.0, f[best], plot.c_str());
  rows.push_back({"welch PSD", name, buf, ms2});
  return rows;
}

// The spectrogram of the first channel of an audio recording (1024-sample Hann segments, 7/8 overlap),
// in dB over its top 80 dB, written as a colour PNG with time to the right and frequency upwards.
row audio_spectrogram(const std::string& path, double fs, const std::string& out) {
  namespace sg = cusci::signal;
  cusci::ndarray a = cusci::load(path);
  if (a.ndim() == 2) a = a[{cusci::slice{}, 0}];  // the first channel of (frames, channels)
  sg::spectrogram_result sp;
  const double ms = timed([&] {
    sp = sg::spectrogram(a, {.fs = fs, .window = "hann", .nperseg = 1024, .noverlap = 896});
  });
  const cusci::ndarray db = cusci::log10(sp.Sxx.astype(cusci::dtype::float64) + 1e-30) * 10.0;
  const std::vector<double> v = cusci::to_host(db).to_vector<double>();
  const std::int64_t nf = sp.Sxx.shape()[0], nt = sp.Sxx.shape()[1];
  const double top = *std::max_element(v.begin(), v.end()), floor_db = top - 80.0;
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(nf * nt * 3));
  std::int64_t loudest = 0;
  double loudest_sum = -1e300;
  for (std::int64_t i = 0; i < nf; ++i) {
    double row_sum = 0;
    for (std::int64_t j = 0; j < nt; ++j) {
      const double d = v[static_cast<std::size_t>(i * nt + j)];
      row_sum += d;
      // black -> red -> yellow -> white over [floor_db, top]
      const double u = std::clamp((d - floor_db) / 80.0, 0.0, 1.0) * 3.0;
      const auto c = [](double w) { return static_cast<std::uint8_t>(std::lround(255.0 * std::clamp(w, 0.0, 1.0))); };
      std::uint8_t* px = &rgb[static_cast<std::size_t>(((nf - 1 - i) * nt + j) * 3)];  // frequency upwards
      px[0] = c(u);
      px[1] = c(u - 1.0);
      px[2] = c(u - 2.0);
    }
    if (row_sum > loudest_sum) loudest_sum = row_sum, loudest = i;
  }
  const std::string png = out + "/" + std::filesystem::path(path).stem().string() + "_spectrogram.png";
  demo::write_png_rgb8(png, rgb.data(), static_cast<int>(nt), static_cast<int>(nf));
  const std::vector<double> f = sp.f.to_vector<double>();
  char buf[512];
  std::snprintf(buf, sizeof buf, "%lld samples at %g Hz -> %lld x %lld (frequency x time); loudest band %.0f Hz; %s",
                static_cast<long long>(a.size()), fs, static_cast<long long>(nf), static_cast<long long>(nt),
                f[static_cast<std::size_t>(loudest)], png.c_str());
  return {"spectrogram", std::filesystem::path(path).filename().string(), buf, ms};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cusci demo: sparse CG and ILU(0)-GMRES, image smoothing, denoising, edges, rotation and zoom, ECG band-pass filtering, "
               "and a segmentation of coins (threshold, morphology, labels, measurements, watershed) on the GPU"};
  std::string data = CUSCI_EXAMPLE_DATA;
  std::string matrix = data + "/bcsstk16.mtx.gz", nonsym = data + "/orsirr_1.mtx", image = data + "/camera.npy", coins = data + "/coins.npy",
              ecg = data + "/ecg_mitdb208_360hz_mV.npy", audio = data + "/freedesktop_complete_44100hz_f32.npy",
              out = "demo-out";
  std::vector<double> sigmas{1.0, 2.0, 4.0, 8.0};
  double audio_fs = 44100.0;
  double rtol = 1e-8, fs = 360.0, low = 0.5, high = 40.0, mains = 60.0, fs_out = 250.0;
  int min_area = 500;
  app.add_option("--matrix", matrix, "SPD Matrix Market file to solve")->check(CLI::ExistingFile);
  app.add_option("--nonsymmetric", nonsym, "nonsymmetric Matrix Market file to solve with ILU(0)-GMRES")
      ->check(CLI::ExistingFile);
  app.add_option("--image", image, "grayscale image as .npy")->check(CLI::ExistingFile);
  app.add_option("--coins", coins, "grayscale image of bright objects on a darker background (.npy) to segment")
      ->check(CLI::ExistingFile);
  app.add_option("--min-area", min_area, "smallest object (pixels) listed in the segmentation's table");
  app.add_option("--ecg", ecg, "1-D signal as .npy")->check(CLI::ExistingFile);
  app.add_option("--audio", audio, "audio recording as .npy, (frames,) or (frames, channels), for the spectrogram")
      ->check(CLI::ExistingFile);
  app.add_option("--audio-fs", audio_fs, "sampling rate of the audio recording, Hz");
  app.add_option("--out", out, "output directory");
  app.add_option("--sigmas", sigmas, "Gaussian sigmas in pixels");
  app.add_option("--rtol", rtol, "CG and GMRES relative tolerance");
  app.add_option("--fs", fs, "sampling rate of the signal, Hz");
  app.add_option("--low", low, "band-pass low edge, Hz");
  app.add_option("--high", high, "band-pass high edge, Hz");
  app.add_option("--mains", mains, "mains frequency to notch out, Hz (at or above fs/2: no notch)");
  app.add_option("--resample", fs_out, "rate to resample the filtered signal to, Hz (a rational multiple of --fs)");
  CLI11_PARSE(app, argc, argv);

  if (!cusci::is_available()) {
    std::fprintf(stderr, "cusci demo: no CUDA GPU is visible; the demo runs its pipelines on the GPU and needs one.\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out);
    std::vector<row> rows;
    rows.push_back(solve_matrix(matrix, rtol));
    rows.push_back(reorder_matrix(matrix));
    for (auto& r : solve_nonsymmetric(nonsym, rtol)) rows.push_back(r);
    for (auto& r : smooth_image(image, sigmas, out)) rows.push_back(r);
    cusci::ndarray zerophase;
    for (auto& r : filter_ecg(ecg, fs, low, high, mains, fs_out, out, zerophase)) rows.push_back(r);
    for (auto& r : ecg_beats(ecg, zerophase, cusci::load(ecg), fs, out)) rows.push_back(r);
    rows.push_back(audio_spectrogram(audio, audio_fs, out));
    for (auto& r : image_pipeline(image, out)) rows.push_back(r);
    for (auto& r : segment_coins(coins, min_area, out)) rows.push_back(r);
    std::printf("\n%-34s %-28s %10s  %s\n", "pipeline", "input", "time (ms)", "result");
    for (const row& r : rows)
      std::printf("%-34s %-28s %10.3f  %s\n", r.pipeline.c_str(), r.input.c_str(), r.ms, r.result.c_str());
  } catch (const cusci::error& e) {
    std::fprintf(stderr, "cusci demo: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cusci demo: %s\n", e.what());
    return 1;
  }
  return 0;
}

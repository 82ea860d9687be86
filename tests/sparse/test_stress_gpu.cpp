// Threads sharing const objects: 8 threads, each on its own non-blocking stream, run a mixed pipeline
// (SpMV through cuSPARSE on a shared csr_matrix of skewed row lengths and its cached descriptors,
// cusci's CSR-vector and CSR-stream SpMV on two others, SpMM with 40 row-major columns, elementwise
// ufuncs, a reduction, a sort, cuFFT, cuBLAS) several times at
// once; every result must be bit-identical to a single-threaded run. The shared matrices are fresh
// (sorted/canonical flags not yet known), so the threads also fill in the lazy flags concurrently.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/sparse.hpp"

using namespace cusci;
using sparse::csr_matrix;

namespace {

using blob = std::vector<unsigned char>;

blob bytes_of(const ndarray& a) {
  const host_array h = to_host(a);
  const auto* p = static_cast<const unsigned char*>(h.data());
  return blob(p, p + h.nbytes());
}

/// An n x n CSR matrix with `per_row` entries in every row, or, with `skewed`, in every 16th row and
/// 4 in the others (coefficient of variation of the row lengths above 1: cuSPARSE's SpMV); columns
/// spread by a fixed rule, sorted.
csr_matrix make_matrix(std::int64_t n, std::int64_t per_row, double scale, bool skewed = false) {
  std::vector<double> data;
  std::vector<std::int32_t> indices, indptr{0};
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t len = skewed && i % 16 != 0 ? 4 : per_row;
    const std::int64_t step = n / len;
    for (std::int64_t k = 0; k < len; ++k) {
      indices.push_back(static_cast<std::int32_t>((i % step) + k * step));
      data.push_back(scale * std::sin(0.1 * static_cast<double>(i * per_row + k)));
    }
    indptr.push_back(static_cast<std::int32_t>(indices.size()));
  }
  return csr_matrix(asarray(data), asarray(indices), asarray(indptr), sparse::matrix_options{.shape = sparse::shape2{n, n}});
}

struct result {
  std::vector<blob> parts;
  bool sorted = false, canonical = false;
};

/// The pipeline for input `seed` on the current stream; synchronizes at the end (to_host).
result pipeline(const csr_matrix& A, const csr_matrix& B, const csr_matrix& C, int seed) {
  const std::int64_t n = A.shape()[0], k = 40;
  std::vector<double> xv(static_cast<std::size_t>(n)), xm(static_cast<std::size_t>(n * k));
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = std::cos(0.01 * static_cast<double>(i) + seed);
  for (std::size_t i = 0; i < xm.size(); ++i) xm[i] = std::sin(0.003 * static_cast<double>(i) * (seed + 1));
  const ndarray x = asarray(xv), X = asarray(xm, {n, k});
  const ndarray y = A.dot(x);   // cusci's CSR-vector kernel (64 entries in every row)
  const ndarray y2 = B.dot(x);  // cusci's CSR-stream kernel (few entries a row)
  const ndarray y3 = C.dot(x);  // cuSPARSE SpMV, the shared matrix's cached plan for this stream
  const ndarray Y = A.dot(X);   // cusci's row kernel (40 row-major columns)
  const ndarray z = add(add(multiply(sin(y), scalar(2.0)), y2), y3);
  result r;
  r.sorted = A.has_sorted_indices();
  r.canonical = B.has_canonical_format();
  r.parts = {bytes_of(y),
             bytes_of(y2),
             bytes_of(y3),
             bytes_of(Y),
             bytes_of(sum(z)),
             bytes_of(sort(z)),
             bytes_of(fft::fft(z)),
             bytes_of(matmul(Y.T(), Y))};
  return r;
}

}  // namespace

TEST_CASE("8 threads on their own streams sharing const matrices give the single-thread bits") {
  constexpr int threads = 8, rounds = 3;
  const std::int64_t n = 4096;
  std::vector<result> expected;
  {
    const csr_matrix A = make_matrix(n, 64, 1.0), B = make_matrix(n, 4, 0.5), C = make_matrix(n, 256, 0.25, true);
    stream s(true);
    stream_guard g(s);
    for (int t = 0; t < threads; ++t) expected.push_back(pipeline(A, B, C, t));
  }
  CHECK(expected[0].sorted);
  CHECK(expected[0].canonical);

  // Fresh matrices (flags unknown, no cached plans) shared by all threads.
  const csr_matrix A = make_matrix(n, 64, 1.0), B = make_matrix(n, 4, 0.5), C = make_matrix(n, 256, 0.25, true);
  std::vector<std::string> errors(threads);
  std::vector<int> mismatches(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        stream s(true);
        stream_guard g(s);
        for (int r = 0; r < rounds; ++r) {
          const result got = pipeline(A, B, C, t);
          if (got.sorted != expected[t].sorted || got.canonical != expected[t].canonical) ++mismatches[t];
          for (std::size_t p = 0; p < got.parts.size(); ++p)
            if (got.parts[p] != expected[t].parts[p]) {
              ++mismatches[t];
              errors[t] += "round " + std::to_string(r) + ": part " + std::to_string(p) + " differs; ";
            }
        }
      } catch (const std::exception& e) {
        errors[t] += std::string("threw: ") + e.what();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK_MESSAGE(errors[t].empty(), "thread " << t << ": " << errors[t]);
    CHECK(mismatches[t] == 0);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}

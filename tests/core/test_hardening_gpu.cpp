// Recovery from device memory exhaustion (exhaust the device through cusci allocations, release,
// free_all_blocks, pool counters back, cuBLAS / cuSOLVER / cuFFT give the same bits as before, also
// on a thread whose first library call ran out of memory), and the host loops of tril_indices /
// triu_indices for k far outside the matrix (NumPy's triangles, at once).

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/detail/libraries.hpp"

using namespace cusci;

namespace {

/// The bytes of a device array (bitwise comparisons).
std::vector<unsigned char> bytes_of(const ndarray& a) {
  const host_array h = to_host(a);
  const auto* p = static_cast<const unsigned char*>(h.data());
  return std::vector<unsigned char>(p, p + h.nbytes());
}

struct library_results {
  std::vector<unsigned char> blas, solver, fft;
  int info = -1;
};

/// A cuBLAS product, a cuSOLVER Cholesky factorization and a cuFFT transform of fixed inputs.
library_results run_libraries() {
  library_results r;
  std::vector<double> a(64 * 48), b(48 * 32);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.11 * static_cast<double>(i));
  r.blas = bytes_of(matmul(asarray(a, {64, 48}), asarray(b, {48, 32})));

  const int n = 16;  // SPD: n I + ones
  std::vector<double> s(n * n, 1.0);
  for (int i = 0; i < n; ++i) s[i * n + i] += n;
  ndarray A = asarray(s, {n, n});
  cusolverDnHandle_t h = detail::cusolver_dn_handle();
  int lwork = 0;
  REQUIRE(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A.data_as<double>(), n, &lwork) ==
          CUSOLVER_STATUS_SUCCESS);
  device_buffer<double> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
  device_buffer<int> info(1);
  REQUIRE(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A.data_as<double>(), n, work.data(), lwork, info.data()) ==
          CUSOLVER_STATUS_SUCCESS);
  r.solver = bytes_of(A);
  REQUIRE(cudaMemcpyAsync(&r.info, info.data(), sizeof(int), cudaMemcpyDeviceToHost, get_current_stream()) ==
          cudaSuccess);
  REQUIRE(cudaStreamSynchronize(get_current_stream()) == cudaSuccess);

  std::vector<double> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.013 * static_cast<double>(i * i));
  r.fft = bytes_of(fft::fft(asarray(x)));
  return r;
}

void check_same(const library_results& a, const library_results& b) {
  CHECK(a.blas == b.blas);
  CHECK(a.solver == b.solver);
  CHECK(a.info == 0);
  CHECK(b.info == 0);
  CHECK(a.fft == b.fft);
}

/// Runs `f`; true when it succeeded, false when it raised out_of_memory. Any other exception is a
/// failure of the promise (a library error under memory pressure) and is reported.
template <class F>
bool ok_or_oom(const char* what, F&& f) {
  try {
    f();
    return true;
  } catch (const out_of_memory&) {
    return false;
  } catch (const std::exception& e) {
    FAIL_CHECK(std::string(what) << " under memory pressure raised something other than out_of_memory: " << std::string(e.what()));
    return false;
  }
}

}  // namespace

TEST_CASE("exhausting the device: out_of_memory, recovery, pool counters back, library results unchanged") {
  memory_pool& pool = get_default_memory_pool();
  const library_results before = run_libraries();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  pool.free_all_blocks();
  const std::size_t used0 = pool.used_bytes();

  // Exhaust: blocks of 1 GiB, then halving down to 1 MiB, until every size fails.
  std::vector<memory_ptr> hold;
  std::size_t chunk = std::size_t{1} << 30, held = 0;
  int failures = 0;
  while (chunk >= (std::size_t{1} << 20)) {
    try {
      hold.push_back(cusci::malloc(chunk));
      held += chunk;
    } catch (const out_of_memory& e) {
      ++failures;
      CHECK(e.requested_bytes() == chunk);
      chunk /= 2;
    }
  }
  CHECK(failures > 0);
  CHECK(pool.used_bytes() >= used0 + held);
  CHECK_THROWS_AS((void)empty({std::int64_t{1} << 30}), out_of_memory);  // 8 GiB on a full device

  // While the device is full: library calls on this thread (handles exist) and on a new thread (its
  // first cuBLAS / cuSOLVER / cuFFT call creates the handles) raise out_of_memory or succeed.
  (void)ok_or_oom("matmul", [] { (void)matmul(ones({8, 8}), ones({8, 8})); });
  bool fresh_ok = true;
  std::vector<std::string> fresh_errors;
  std::thread([&] {
    (void)ok_or_oom("cublas_handle (new thread)", [] { (void)detail::cublas_handle(); });
    (void)ok_or_oom("cusolver_dn_handle (new thread)", [] { (void)detail::cusolver_dn_handle(); });
    (void)ok_or_oom("cusparse_handle (new thread)", [] { (void)detail::cusparse_handle(); });
    (void)ok_or_oom("fft (new thread)", [] { (void)fft::fft(ones({4096}, dtype::complex128)); });
  }).join();

  // Release everything: the pool's counters return, and every library works again.
  hold.clear();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(pool.used_bytes() == used0);
  pool.free_all_blocks();
  CHECK(pool.n_free_blocks() == 0);
  CHECK(pool.total_bytes() == pool.used_bytes());
  CHECK(cudaGetLastError() == cudaSuccess);  // no pending error left behind

  check_same(before, run_libraries());
  std::thread([&] {
    // A new thread after the recovery: its handles are made from scratch.
    try {
      check_same(before, run_libraries());
    } catch (const std::exception& e) {
      fresh_ok = false;
      fresh_errors.push_back(e.what());
    }
  }).join();
  CHECK_MESSAGE(fresh_ok, (fresh_errors.empty() ? std::string() : fresh_errors[0]));

  // The same thread, exhausted again right before its first library call, then released.
  std::thread([&] {
    std::vector<memory_ptr> h2;
    std::size_t c = std::size_t{1} << 30;
    while (c >= (std::size_t{1} << 20)) {
      try {
        h2.push_back(cusci::malloc(c));
      } catch (const out_of_memory&) {
        c /= 2;
      }
    }
    (void)ok_or_oom("cusolver_dn_handle (first call, full device)", [] { (void)detail::cusolver_dn_handle(); });
    (void)ok_or_oom("cublas_handle (first call, full device)", [] { (void)detail::cublas_handle(); });
    (void)ok_or_oom("fft (first call, full device)", [] { (void)fft::fft(ones({2048}, dtype::complex128)); });
    h2.clear();
    cudaDeviceSynchronize();
    get_default_memory_pool().free_all_blocks();
    try {
      check_same(before, run_libraries());  // cusolverDnSetStream etc. work now on this thread
    } catch (const std::exception& e) {
      fresh_ok = false;
      fresh_errors.push_back(e.what());
    }
  }).join();
  CHECK_MESSAGE(fresh_ok, (fresh_errors.empty() ? std::string() : fresh_errors.back()));
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("tril_indices / triu_indices with k far outside the matrix: NumPy's triangles") {
  const std::int64_t t40 = std::int64_t{1} << 40;
  auto count = [](const std::pair<ndarray, ndarray>& p) { return p.first.size(); };
  CHECK(count(tril_indices(3, t40)) == 9);
  CHECK(count(tril_indices(3, -t40)) == 0);
  CHECK(count(tril_indices(3, INT64_MAX)) == 9);
  CHECK(count(triu_indices(4, INT64_MIN)) == 16);
  CHECK(count(triu_indices(4, INT64_MAX)) == 0);
  const auto [r, c] = triu_indices(4, 1, 2);  // NumPy: ([0], [1])
  CHECK(to_host(r).to_vector<std::int64_t>() == std::vector<std::int64_t>{0});
  CHECK(to_host(c).to_vector<std::int64_t>() == std::vector<std::int64_t>{1});
  const auto [r2, c2] = tril_indices(3, -1, 4);  // NumPy: ([1, 2, 2], [0, 0, 1])
  CHECK(to_host(r2).to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 2, 2});
  CHECK(to_host(c2).to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 0, 1});
}

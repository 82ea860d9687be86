#pragma once
// Helpers shared by the incremental family's tests (dok_matrix, lil_matrix): replaying the goldens'
// assignment sequences and exact comparisons of host arrays.

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/lil.hpp"
#include "testing.hpp"

namespace incremental_test {

using namespace cusci;
namespace sp = cusci::sparse;
namespace t = cusci::testing;

inline const char* M = "sparse_incremental";

inline host_array g(const std::string& name) { return t::golden(M, name); }

inline std::vector<std::int64_t> int64s(const host_array& h) { return h.astype(dtype::int64).to_vector<std::int64_t>(); }

/// Element k of a host array as the scalar a user would assign: exact weak integers for int64/uint64,
/// strong scalars of the array's dtype otherwise.
inline scalar element_scalar(const host_array& h, std::int64_t k) {
  switch (h.dtype()) {
    case dtype::int64: return scalar(h.data_as<std::int64_t>()[k]);
    case dtype::uint64: return scalar(h.data_as<std::uint64_t>()[k]);
    case dtype::bool_: return scalar::of(static_cast<const std::uint8_t*>(h.data())[k] ? 1.0 : 0.0, dtype::bool_);
    default: return scalar::of(t::element(h, k), h.dtype());
  }
}

/// Same dtype, same shape, same bytes (bool: same truth values).
inline void check_exact(const host_array& a, const host_array& e, const std::string& what) {
  CAPTURE(what);
  CHECK_MESSAGE(a.dtype() == e.dtype(), "dtype " << dtype_name(a.dtype()) << " != " << dtype_name(e.dtype()));
  REQUIRE_MESSAGE(a.size() == e.size(), "size " << a.size() << " != " << e.size());
  if (a.dtype() != e.dtype()) return;
  if (a.dtype() == dtype::bool_) {
    const auto* pa = static_cast<const std::uint8_t*>(a.data());
    const auto* pe = static_cast<const std::uint8_t*>(e.data());
    for (std::int64_t k = 0; k < a.size(); ++k) CHECK((pa[k] != 0) == (pe[k] != 0));
    return;
  }
  const bool same = a.nbytes() == 0 || std::memcmp(a.data(), e.data(), a.nbytes()) == 0;
  if (!same) t::check_allclose(a, e, 0, 0);  // names the first difference
  CHECK(same);
}

/// Index arrays compared by value (any integer dtypes).
inline void check_index(const std::vector<std::int64_t>& a, const host_array& e, const std::string& what) {
  CAPTURE(what);
  CHECK(a == int64s(e));
}

/// Replays A[i[k], j[k]] = v[k].
template <class Mat>
void replay(Mat& A, const host_array& i, const host_array& j, const host_array& v) {
  const auto ii = int64s(i), jj = int64s(j);
  for (std::size_t k = 0; k < ii.size(); ++k) A.set(ii[k], jj[k], element_scalar(v, static_cast<std::int64_t>(k)));
}

/// The DOK's keys and values against <pre>_row/_col/_val (dict order).
inline void check_dok(const sp::dok_matrix& D, const std::string& pre) {
  std::vector<std::int64_t> r, c;
  for (const auto& k : D.keys()) {
    r.push_back(k[0]);
    c.push_back(k[1]);
  }
  check_index(r, g(pre + "_row"), pre + "_row");
  check_index(c, g(pre + "_col"), pre + "_col");
  check_exact(D.values_array(), g(pre + "_val"), pre + "_val");
  CHECK(D.nnz() == static_cast<std::int64_t>(r.size()));
}

/// The LIL's rows and values against the CSR arrays <pre>_data/_indices/_indptr.
inline void check_lil(const sp::lil_matrix& L, const std::string& pre) {
  const host_array dat = g(pre + "_data");
  std::vector<std::int64_t> my_ind, my_ptr{0};
  std::vector<std::byte> my_dat;
  for (std::int64_t r = 0; r < L.shape()[0]; ++r) {
    const auto& row = L.rows()[static_cast<std::size_t>(r)];
    my_ind.insert(my_ind.end(), row.begin(), row.end());
    my_ptr.push_back(static_cast<std::int64_t>(my_ind.size()));
    const host_array d = L.row_data(r);
    const auto* p = static_cast<const std::byte*>(d.data());
    my_dat.insert(my_dat.end(), p, p + d.nbytes());
  }
  check_index(my_ptr, g(pre + "_indptr"), pre + "_indptr");
  check_index(my_ind, g(pre + "_indices"), pre + "_indices");
  host_array h(L.dtype(), shape_t{static_cast<std::int64_t>(my_ind.size())});
  if (!my_dat.empty()) std::memcpy(h.data(), my_dat.data(), my_dat.size());
  check_exact(h, dat, pre + "_data");
  CHECK(L.nnz() == static_cast<std::int64_t>(my_ind.size()));
}

inline sp::shape2 shape_of(const t::golden_case& c) { return {c.get<std::int64_t>("rows"), c.get<std::int64_t>("cols")}; }

}  // namespace incremental_test

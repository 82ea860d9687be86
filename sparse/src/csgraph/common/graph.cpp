// Host side of csgraph's shared pieces: SciPy's validate_graph and the representation conversions of
// scipy.sparse.csgraph._tools (csgraph/tools.hpp). Kernels: common/graph_kernels.cu.

#include <cmath>
#include <limits>
#include <string>

#include "csgraph/common/graph.hpp"
#include "csgraph/common/graph_device.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/sparse/csgraph/tools.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse::csgraph {
namespace detail {
namespace {

void check_real(cusci::dtype t, const std::string& fn, const char* what) {
  CUSCI_EXPECTS(!is_complex(t), type_error,
                msg(fn, std::string(what) + " must have real weights, got " + std::string(dtype_name(t))));
}

// Index arrays as int32 (SciPy's ITYPE); data as float64.
csr_matrix as_f64_int32(const csr_matrix& c, const std::string& fn) {
  ndarray data = c.data().astype(dtype::float64, false);
  ndarray indices = c.indices(), indptr = c.indptr();
  if (indices.dtype() != dtype::int32) {
    CUSCI_EXPECTS(c.nnz() <= std::numeric_limits<std::int32_t>::max() &&
                      c.shape()[0] <= std::numeric_limits<std::int32_t>::max() &&
                      c.shape()[1] <= std::numeric_limits<std::int32_t>::max(),
                  value_error, msg(fn, "the graph is too large for int32 indices (SciPy's ITYPE)"));
    indices = indices.astype(dtype::int32);
    indptr = indptr.astype(dtype::int32);
  }
  if (data.dtype() == c.dtype() && indices.dtype() == c.indices().dtype()) return c;
  return csr_matrix::from_valid(data, indices, indptr, c.shape(), c.has_canonical_format());
}

}  // namespace

// A C-contiguous float64 copy-or-view of a dense 2-D square graph, after SciPy's shape checks.
ndarray dense_f64(const ndarray& g, const std::string& fn) {
  CUSCI_EXPECTS(g.ndim() == 2, value_error, msg(fn, "graph should have two dimensions"));
  CUSCI_EXPECTS(g.shape()[0] == g.shape()[1], value_error, msg(fn, "graph should be a square array"));
  check_real(g.dtype(), fn, "graph");
  ndarray a = g.astype(dtype::float64, false);
  return a.is_c_contiguous() ? a : ascontiguousarray(a);
}

csr_matrix validate_graph_csr(const graph_input& g, bool directed, const std::string& fn, const validate_options& o) {
  if (!g.is_sparse()) {
    ndarray a = dense_f64(g.dense(), fn);
    return dense_to_csr_f64(a, a.shape()[0], o, fn);
  }
  const spmatrix& s = g.sparse();
  check_real(s.dtype(), fn, "csgraph");
  CUSCI_EXPECTS(s.shape()[0] == s.shape()[1], value_error, msg(fn, "compressed-sparse graph must be shape (N, N)"));
  csr_matrix c = [&]() -> csr_matrix {
    if (!directed && s.format() == format::csc) {
      // SciPy transposes an undirected CSC graph instead of converting it: the same arrays read as CSR.
      const csc_matrix& m = s.get<csc_matrix>();
      const bool cp = o.copy_if_sparse;
      return csr_matrix::from_valid(cp ? m.data().copy() : m.data(), cp ? m.indices().copy() : m.indices(),
                                    cp ? m.indptr().copy() : m.indptr(), {s.shape()[1], s.shape()[0]},
                                    m.has_canonical_format());
    }
    if (s.format() == format::bsr) {
      csr_matrix r = s.tocsr(o.copy_if_sparse);
      r.eliminate_zeros();
      return r;
    }
    return s.tocsr(o.copy_if_sparse);
  }();
  return as_f64_int32(c, fn);
}

ndarray validate_graph_dense(const graph_input& g, bool directed, const std::string& fn, double null_value_out,
                             const validate_options& o) {
  (void)directed;  // SciPy's dense output does not depend on it
  if (g.is_sparse()) {
    const spmatrix& s = g.sparse();
    check_real(s.dtype(), fn, "csgraph");
    CUSCI_EXPECTS(s.shape()[0] == s.shape()[1], value_error, msg(fn, "compressed-sparse graph must be shape (N, N)"));
    return csr_to_dense_min(s.tocsr(), null_value_out);
  }
  ndarray a = dense_f64(g.dense(), fn);
  ndarray mask = null_mask_f64(a, o);
  return where(mask, scalar(null_value_out), a);
}

csr_matrix from_dense(const ndarray& dense, const validate_options& o, const std::string& fn) {
  ndarray a = dense_f64(dense, fn);
  return dense_to_csr_f64(a, a.shape()[0], o, fn);
}

ndarray csr_to_dense_min(const csr_matrix& g, double null_value) {
  ndarray data = g.data().astype(dtype::float64, false);
  return csr_to_dense_min_f64(data, g.indices(), g.indptr(), g.shape()[0], g.shape()[1], null_value);
}

}  // namespace detail

namespace {
detail::validate_options to_validate(const from_dense_options& o) {
  detail::validate_options v;
  v.null_value_in = o.null_value.value_or(0.0);
  v.null_value_none = !o.null_value.has_value();
  v.nan_null = o.nan_null;
  v.infinity_null = o.infinity_null;
  return v;
}

// SciPy's csgraph_to_dense accepts CSR, CSC (and LIL) only.
csr_matrix sparse_for_dense(const graph_input& g, const std::string& fn) {
  CUSCI_EXPECTS(g.is_sparse(), value_error, detail::msg(fn, "csgraph must be sparse"));
  const spmatrix& s = g.sparse();
  CUSCI_EXPECTS(s.format() == format::csr || s.format() == format::csc, value_error,
                detail::msg(fn, "csgraph must be lil, csr, or csc format"));
  CUSCI_EXPECTS(s.shape()[0] == s.shape()[1], value_error, detail::msg(fn, "csgraph should be a square matrix"));
  CUSCI_EXPECTS(!is_complex(s.dtype()), type_error,
                detail::msg(fn, "csgraph must have real weights, got " + std::string(dtype_name(s.dtype()))));
  return s.tocsr();
}
}  // namespace

csr_matrix csgraph_from_dense(const ndarray& graph, const from_dense_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::csgraph_from_dense");
  return detail::from_dense(graph, to_validate(o), "cusci::sparse::csgraph::csgraph_from_dense");
}

ndarray csgraph_to_dense(const graph_input& csgraph, double null_value) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::csgraph_to_dense");
  const csr_matrix c = sparse_for_dense(csgraph, "cusci::sparse::csgraph::csgraph_to_dense");
  return detail::csr_to_dense_min(c, null_value);
}

masked_graph csgraph_masked_from_dense(const ndarray& graph, const from_dense_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::csgraph_masked_from_dense");
  const std::string fn = "cusci::sparse::csgraph::csgraph_masked_from_dense";
  ndarray a = detail::dense_f64(graph, fn);
  masked_graph r;
  r.mask = detail::null_mask_f64(a, to_validate(o));
  r.data = (o.copy || !graph.is_c_contiguous()) ? graph.copy() : graph;
  if (o.null_value) {
    // NumPy casts the fill value to the data's dtype.
    const double v = *o.null_value;
    r.fill_value = is_bool(graph.dtype()) ? (v != 0 ? 1.0 : 0.0) : is_integer(graph.dtype()) ? std::trunc(v) : v;
  } else {
    r.fill_value = is_bool(graph.dtype()) ? 1.0 : is_integer(graph.dtype()) ? 999999.0 : 1e20;
  }
  return r;
}

csr_matrix csgraph_from_masked(const masked_graph& graph) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::csgraph_from_masked");
  const std::string fn = "cusci::sparse::csgraph::csgraph_from_masked";
  ndarray a = detail::dense_f64(graph.data, fn);
  CUSCI_EXPECTS(graph.mask.dtype() == dtype::bool_, type_error,
                detail::msg(fn, "mask must be a bool array, got " + std::string(dtype_name(graph.mask.dtype()))));
  CUSCI_EXPECTS(graph.mask.shape() == graph.data.shape(), value_error,
                detail::msg(fn, "mask must have the shape of data"));
  ndarray m = graph.mask.is_c_contiguous() ? graph.mask : ascontiguousarray(graph.mask);
  detail::validate_options v;
  v.null_value_none = true;
  v.nan_null = false;
  v.infinity_null = false;
  return detail::dense_to_csr_f64(a, a.shape()[0], v, fn, &m);
}

masked_graph csgraph_to_masked(const graph_input& csgraph) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::csgraph_to_masked");
  const csr_matrix c = sparse_for_dense(csgraph, "cusci::sparse::csgraph::csgraph_to_masked");
  masked_graph r;
  r.data = detail::csr_to_dense_min(c, std::numeric_limits<double>::quiet_NaN());
  detail::validate_options v;
  v.null_value_none = true;  // not finite <=> NaN or +-inf
  r.mask = detail::null_mask_f64(r.data, v);
  r.fill_value = 1e20;
  return r;
}

}  // namespace cusci::sparse::csgraph

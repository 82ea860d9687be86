// SciPy's sparse .npz files (scipy.sparse.save_npz / load_npz), through core's .npz reader and
// writer (cusci::io::load_npz / savez): the index and value arrays are ordinary members, `format` is a
// NumPy bytes scalar (np.array(b'csr'), dtype |S3; unicode is read too), read with
// npz_file::member_string and written as an npz_member::bytes.

#include <string>
#include <utility>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/sparse/access.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse {
namespace {

constexpr const char* rfn = "cusci::sparse::load_npz";

}  // namespace

npz_sparse_host load_npz_host(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::sparse::load_npz_host");
  const io::npz_file z = io::load_npz(path);
  const std::string ctx0 = std::string(rfn) + ": " + path + ": ";
  npz_sparse_host m;
  std::string fmt;
  bool have_format = false, have_shape = false;
  std::vector<std::pair<std::string, host_array>> arrays;
  for (const auto& name : z.files()) {
    if (name == "format") {
      CUSCI_EXPECTS(z.is_string(name), value_error, ctx0 + "the 'format' member must be a string");
      fmt = z.member_string(name);
      have_format = true;
      continue;
    }
    CUSCI_EXPECTS(!z.is_string(name), value_error, ctx0 + "member '" + name + "' must be numeric");
    const host_array& x = z[name];
    if (name == "shape") {
      const host_array s = x.astype(dtype::int64);
      CUSCI_EXPECTS(s.size() == 2, value_error,
                    ctx0 + "the 'shape' member must hold 2 values (n-D sparse arrays are not supported), got " +
                        std::to_string(s.size()));
      m.shape = {s.data_as<std::int64_t>()[0], s.data_as<std::int64_t>()[1]};
      have_shape = true;
    } else if (name == "_is_array") {
      m.is_array = x.size() > 0 && x.astype(dtype::bool_).data_as<bool>()[0];
    } else if (name == "coords") {
      throw value_error(ctx0 + "n-D COO files (a 'coords' member) are not supported");
    } else {
      arrays.emplace_back(name, x);
    }
  }
  if (!have_format) throw value_error(ctx0 + "The file " + path + " does not contain a sparse array or matrix.");
  try {
    m.fmt = format_from_string(fmt);
  } catch (const error&) {
    throw value_error(ctx0 + "Unknown format \"" + fmt + (m.is_array ? "_array" : "_matrix") + "\"");
  }
  CUSCI_EXPECTS(have_shape, value_error, ctx0 + "missing member 'shape'");
  auto take = [&](const char* key) -> host_array {
    for (auto& [n, a] : arrays)
      if (n == key) return std::move(a);
    throw value_error(ctx0 + "missing member '" + key + "' for format " + fmt);
  };
  m.data = take("data");
  switch (m.fmt) {
    case format::csr:
    case format::csc:
    case format::bsr:
      m.indices = take("indices");
      m.indptr = take("indptr");
      break;
    case format::dia: m.offsets = take("offsets"); break;
    case format::coo:
      m.row = take("row");
      m.col = take("col");
      break;
  }
  return m;
}

void save_npz_host(const std::string& path, const npz_sparse_host& m, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::sparse::save_npz_host");
  // SciPy's member order: the index arrays, then format, shape, data (and _is_array).
  std::vector<io::npz_member> members;
  switch (m.fmt) {
    case format::csr:
    case format::csc:
    case format::bsr:
      members.push_back(io::npz_member::array("indices", m.indices));
      members.push_back(io::npz_member::array("indptr", m.indptr));
      break;
    case format::dia: members.push_back(io::npz_member::array("offsets", m.offsets)); break;
    case format::coo:
      members.push_back(io::npz_member::array("row", m.row));
      members.push_back(io::npz_member::array("col", m.col));
      break;
  }
  members.push_back(io::npz_member::bytes("format", std::string(to_string(m.fmt))));
  members.push_back(io::npz_member::array("shape", host_array::from(std::vector<std::int64_t>{m.shape[0], m.shape[1]})));
  members.push_back(io::npz_member::array("data", m.data));
  if (m.is_array) {
    host_array one(dtype::bool_, {});
    *static_cast<unsigned char*>(one.data()) = 1;
    members.push_back(io::npz_member::array("_is_array", std::move(one)));
  }
  io::savez(path, members, compressed);
}

void save_npz(const std::string& path, const spmatrix& A, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::sparse::save_npz");
  npz_sparse_host m;
  m.fmt = A.format();
  m.shape = A.shape();
  A.visit([&](const auto& M) {
    using T = std::decay_t<decltype(M)>;
    m.data = to_host(M.data());
    if constexpr (std::is_same_v<T, coo_matrix>) {
      m.row = to_host(M.row());
      m.col = to_host(M.col());
    } else if constexpr (std::is_same_v<T, dia_matrix>) {
      m.offsets = to_host(M.offsets());
    } else {
      m.indices = to_host(M.indices());
      m.indptr = to_host(M.indptr());
    }
  });
  save_npz_host(path, m, compressed);
}

spmatrix load_npz(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::sparse::load_npz");
  const npz_sparse_host m = load_npz_host(path);
  const ndarray data = asarray(m.data);
  switch (m.fmt) {
    case format::csr:
      return csr_matrix(data, asarray(m.indices), asarray(m.indptr), matrix_options{.shape = m.shape});
    case format::csc:
      return csc_matrix(data, asarray(m.indices), asarray(m.indptr), matrix_options{.shape = m.shape});
    case format::bsr:
      return bsr_matrix(data, asarray(m.indices), asarray(m.indptr), bsr_options{.shape = m.shape});
    case format::dia: return dia_matrix(data, asarray(m.offsets), matrix_options{.shape = m.shape});
    case format::coo:
      return coo_matrix(data, std::pair<ndarray, ndarray>{asarray(m.row), asarray(m.col)}, matrix_options{.shape = m.shape});
  }
  throw value_error(std::string(rfn) + ": unknown format");
}

}  // namespace cusci::sparse

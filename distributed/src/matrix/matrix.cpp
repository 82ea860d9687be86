// The row-partitioned CSR matrix (matrix.hpp): construction from a global matrix (halo planned with
// plan_halos on every rank), from each rank's rows or from a Matrix Market file read in parallel (halo
// planned by exchanging the ranks' ghost lists), and the product with the halo exchange overlapped with
// the diagonal block's product.
//
// Construction is host work on each rank's rows: their entries are renumbered (owned columns
// c - begin(rank), ghosts by position in halo.ghosts), sorted within each row with duplicates summed,
// split into the two blocks and copied to the rank's device once.

#include "cusci/distributed/matrix.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "matrix/common.hpp"
#include "matrix/matrix_kernels.hpp"
#include "matrix/matrix_market.hpp"

namespace cusci::distributed {

using cusci::detail::msg;
using cusci::detail::shape_str;

namespace {

// One rank's rows on the host: CSR with global column indices, in any order, duplicates allowed.
template <class T>
struct host_rows {
  std::vector<std::int64_t> indptr{0};  // [nlocal + 1] from 0
  std::vector<std::int64_t> cols;
  std::vector<T> vals;
};

// A rank's share, ready for the matrix: its halo and its two blocks on its device.
struct local_parts {
  halo h;
  sparse::csr_matrix diag, offd;
  cusci::dtype index_dtype;
  bool any_halo;  // some rank of the communicator has ghosts (every rank computes the same)
};

// The value dtype a matrix of dtype t is stored in (float32 and float64 kept, other reals float64).
cusci::dtype value_dtype(const char* fn, const char* what, cusci::dtype t) {
  CUSCI_EXPECTS(!is_complex(t), type_error,
                msg(fn, std::string(what) + " must have real values (complex matrices are not supported), got " +
                            std::string(dtype_name(t))));
  return t == cusci::dtype::float32 ? cusci::dtype::float32 : cusci::dtype::float64;
}

// An index array (any device) as int64 host values. Synchronizes.
std::vector<std::int64_t> host_int64(const ndarray& a) {
  return to_host(a).astype(cusci::dtype::int64).to_vector<std::int64_t>();
}

// Values (any device, any real dtype) as T on the host. Synchronizes.
template <class T>
std::vector<T> host_values(const ndarray& a) {
  return to_host(a).astype(dtype_of<T>).template to_vector<T>();
}

template <class I>
ndarray device_indices(const std::vector<std::int64_t>& v) {
  if constexpr (std::is_same_v<I, std::int64_t>) return asarray(v);
  else return asarray(std::vector<I>(v.begin(), v.end()));
}

ndarray device_indices(const std::vector<std::int64_t>& v, cusci::dtype it) {
  return it == cusci::dtype::int32 ? device_indices<std::int32_t>(v) : device_indices<std::int64_t>(v);
}

// Numbers the rows' entries locally, sorts each row, sums duplicates and uploads the two blocks
// (current device). Every column either lies in the rank's block or is one of h.ghosts.
template <class T>
local_parts assemble(const row_partition& part, halo h, bool any_halo, const host_rows<T>& rows) {
  const std::int64_t b = part.begin(h.rank), e = part.end(h.rank), nl = h.nlocal;
  const auto ng = static_cast<std::int64_t>(h.ghosts.size());
  std::vector<std::int64_t> dptr{0}, optr{0}, dcol, ocol;
  std::vector<T> dval, oval;
  dptr.reserve(static_cast<std::size_t>(nl) + 1);
  optr.reserve(static_cast<std::size_t>(nl) + 1);
  std::vector<std::pair<std::int64_t, T>> row;
  for (std::int64_t i = 0; i < nl; ++i) {
    row.clear();
    for (std::int64_t k = rows.indptr[static_cast<std::size_t>(i)]; k < rows.indptr[static_cast<std::size_t>(i) + 1]; ++k) {
      const std::int64_t c = rows.cols[static_cast<std::size_t>(k)];
      const std::int64_t l = c >= b && c < e ? c - b
                                             : nl + (std::lower_bound(h.ghosts.begin(), h.ghosts.end(), c) - h.ghosts.begin());
      row.emplace_back(l, rows.vals[static_cast<std::size_t>(k)]);
    }
    auto by_col = [](const auto& p, const auto& q) { return p.first < q.first; };
    if (!std::is_sorted(row.begin(), row.end(), by_col)) std::stable_sort(row.begin(), row.end(), by_col);
    for (std::size_t k = 0; k < row.size();) {
      const std::int64_t l = row[k].first;
      T v = row[k].second;
      for (++k; k < row.size() && row[k].first == l; ++k) v += row[k].second;
      if (l < nl) {
        dcol.push_back(l);
        dval.push_back(v);
      } else {
        ocol.push_back(l - nl);
        oval.push_back(v);
      }
    }
    dptr.push_back(static_cast<std::int64_t>(dcol.size()));
    optr.push_back(static_cast<std::int64_t>(ocol.size()));
  }
  const cusci::dtype it = sparse::get_index_dtype(
      std::max({nl, ng, static_cast<std::int64_t>(dcol.size()), static_cast<std::int64_t>(ocol.size())}));
  auto upload = [&](const std::vector<std::int64_t>& ptr, const std::vector<std::int64_t>& col, const std::vector<T>& val,
                    std::int64_t ncols) {
    return sparse::csr_matrix::from_valid(asarray(val), device_indices(col, it), device_indices(ptr, it), {nl, ncols},
                                          true);
  };
  sparse::csr_matrix diag = upload(dptr, dcol, dval, nl);
  sparse::csr_matrix offd = upload(optr, ocol, oval, ng);
  return local_parts{std::move(h), std::move(diag), std::move(offd), it, any_halo};
}

// The halo of rank comm.rank() whose rows read the global columns `ghosts` (sorted, unique, none its
// own): the ranks exchange how many columns each needs from each other (an all-gather of int64
// counts), then the column lists themselves (point-to-point, int64), so that every owner learns its
// send lists. The result equals plan_halos' for the same matrix. Collective; synchronizes.
halo exchange_ghost_lists(const communicator& comm, const row_partition& part, std::vector<std::int64_t> ghosts,
                          bool& any_halo) {
  const int P = comm.size(), r = comm.rank();
  halo h;
  h.rank = r;
  h.nlocal = part.size(r);
  h.ghosts = std::move(ghosts);
  std::vector<std::int64_t> need(static_cast<std::size_t>(P), 0);
  for (std::size_t g = 0; g < h.ghosts.size(); ++g) {
    const int o = part.owner(h.ghosts[g]);
    if (h.recv_ranks.empty() || h.recv_ranks.back() != o) {
      if (!h.recv_ranks.empty()) h.recv_offsets.push_back(static_cast<std::int64_t>(g));
      h.recv_ranks.push_back(o);
    }
    ++need[static_cast<std::size_t>(o)];
  }
  if (!h.recv_ranks.empty()) h.recv_offsets.push_back(static_cast<std::int64_t>(h.ghosts.size()));

  const cudaStream_t s = get_current_stream();
  const ndarray d_need = asarray(need);
  ndarray d_counts = empty({static_cast<std::int64_t>(P) * P}, cusci::dtype::int64);
  comm.allgather(d_need.data(), d_counts.data(), static_cast<std::size_t>(P), cusci::dtype::int64, s);
  const std::vector<std::int64_t> counts = to_host(d_counts).to_vector<std::int64_t>();  // [q * P + p]: q needs from p
  any_halo = std::any_of(counts.begin(), counts.end(), [](std::int64_t c) { return c > 0; });
  if (!any_halo) return h;
  for (int q = 0; q < P; ++q) {
    const std::int64_t c = counts[static_cast<std::size_t>(q) * static_cast<std::size_t>(P) + static_cast<std::size_t>(r)];
    if (c == 0) continue;
    h.send_ranks.push_back(q);
    h.send_offsets.push_back(h.send_offsets.back() + c);
  }
  const ndarray d_ghosts = asarray(h.ghosts);
  ndarray d_wanted = empty({h.send_offsets.back()}, cusci::dtype::int64);
  std::vector<message> sends, recvs;
  for (std::size_t i = 0; i < h.recv_ranks.size(); ++i)
    sends.push_back({h.recv_ranks[i], d_ghosts.data_as<std::int64_t>() + h.recv_offsets[i],
                     static_cast<std::size_t>(h.recv_offsets[i + 1] - h.recv_offsets[i])});
  for (std::size_t i = 0; i < h.send_ranks.size(); ++i)
    recvs.push_back({h.send_ranks[i], d_wanted.data_as<std::int64_t>() + h.send_offsets[i],
                     static_cast<std::size_t>(h.send_offsets[i + 1] - h.send_offsets[i])});
  // Every rank takes part (some with no message), which a collective implementation may need.
  comm.exchange(sends, recvs, cusci::dtype::int64, s);
  h.send_rows = to_host(d_wanted).to_vector<std::int64_t>();
  const std::int64_t b = part.begin(r);
  for (std::int64_t& row : h.send_rows) {
    CUSCI_EXPECTS(row >= b && row < b + h.nlocal, runtime_error,
                  "cusci::distributed::csr_matrix: a rank asked for column " + std::to_string(row) + ", which rank " +
                      std::to_string(r) + " does not own (the ranks disagree on the partition)");
    row -= b;
  }
  return h;
}

// Plans the halo of `rows` by exchanging ghost lists, then assembles. Collective.
template <class T>
local_parts from_host_rows(const char* fn, const communicator& comm, const row_partition& part, const host_rows<T>& rows) {
  const int r = comm.rank();
  const std::int64_t b = part.begin(r), e = part.end(r), n = part.nrows();
  std::vector<std::int64_t> ghosts;
  for (const std::int64_t c : rows.cols) {
    CUSCI_EXPECTS(c >= 0 && c < n, index_error,
                  msg(fn, "column index " + std::to_string(c) + " is outside [0, " + std::to_string(n) + ")"));
    if (c < b || c >= e) ghosts.push_back(c);
  }
  std::sort(ghosts.begin(), ghosts.end());  // owner then column: column order for contiguous blocks
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  bool any_halo = false;
  halo h = exchange_ghost_lists(comm, part, std::move(ghosts), any_halo);
  return assemble(part, std::move(h), any_halo, rows);
}

}  // namespace

/// What the product needs besides the blocks, made once per matrix: the send rows on the device, the
/// packed send values and received ghost values, the exchange's messages over them, the second stream
/// the exchange runs on and the events that join it with the caller's stream. A nested class, so it
/// also assembles the matrix (it may set the private members).
struct csr_matrix::exchange_buffers {
  int device = 0;
  cusci::dtype index_dtype = cusci::dtype::int32;
  bool exchange = false;  // some rank has a halo: every rank takes part in each product's exchange
  int diag_lanes = 1, offd_lanes = 1;
  ndarray send_rows, send_values, ghost_values;
  std::vector<message> sends, recvs;
  cusci::stream side{true};  // non-blocking, on `device` (current when made)
  cusci::event packed{true}, received{true}, finished{true};
  bool used = false;

  exchange_buffers(const csr_matrix& A, cusci::dtype it, bool any_halo)
      : device(A.comm_.device()), index_dtype(it), exchange(any_halo) {
    const halo& h = A.halo_;
    diag_lanes = detail::spmv_lanes(A.diag_.shape()[0], A.diag_.nnz());
    offd_lanes = detail::spmv_lanes(A.offd_.shape()[0], A.offd_.nnz());
    send_rows = device_indices(h.send_rows, it);
    send_values = empty({static_cast<std::int64_t>(h.send_rows.size())}, A.dtype());
    ghost_values = empty({static_cast<std::int64_t>(h.ghosts.size())}, A.dtype());
    const std::size_t isz = itemsize(A.dtype());
    for (std::size_t i = 0; i < h.send_ranks.size(); ++i)
      sends.push_back({h.send_ranks[i], static_cast<char*>(send_values.data()) + h.send_offsets[i] * isz,
                       static_cast<std::size_t>(h.send_offsets[i + 1] - h.send_offsets[i])});
    for (std::size_t i = 0; i < h.recv_ranks.size(); ++i)
      recvs.push_back({h.recv_ranks[i], static_cast<char*>(ghost_values.data()) + h.recv_offsets[i] * isz,
                       static_cast<std::size_t>(h.recv_offsets[i + 1] - h.recv_offsets[i])});
  }
  // The buffers go back to the pool: wait for the last product's work on both streams first.
  ~exchange_buffers() {
    if (used) (void)cudaEventSynchronize(finished.handle());
    (void)cudaStreamSynchronize(side.handle());
  }
  exchange_buffers(const exchange_buffers&) = delete;
  exchange_buffers& operator=(const exchange_buffers&) = delete;

  static csr_matrix make(const communicator& comm, const row_partition& part, local_parts p) {
    csr_matrix A;
    A.comm_ = comm;
    A.part_ = part;
    A.halo_ = std::move(p.h);
    A.diag_ = std::move(p.diag);
    A.offd_ = std::move(p.offd);
    A.buffers_ = std::make_shared<exchange_buffers>(A, p.index_dtype, p.any_halo);
    return A;
  }
};

namespace {

void check_square(const char* fn, const char* what, sparse::shape2 s) {
  CUSCI_EXPECTS(s[0] == s[1], value_error, msg(fn, std::string(what) + " must be square, got shape " + shape_str(s)));
}

void check_partition_rows(const char* fn, const row_partition& part, std::int64_t n, const char* what) {
  CUSCI_EXPECTS(part.nrows() == n, value_error,
                msg(fn, "part must have " + std::string(what) + " = " + std::to_string(n) + " rows, got " +
                            std::to_string(part.nrows())));
}

}  // namespace

csr_matrix csr_matrix::from_global(const communicator& comm, const row_partition& part, const sparse::csr_matrix& A) {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::from_global");
  constexpr const char* fn = "cusci::distributed::csr_matrix::from_global";
  detail::check_comm_partition(fn, comm, part);
  check_square(fn, "A", A.shape());
  check_partition_rows(fn, part, A.shape()[0], "A.shape[0]");
  const cusci::dtype vt = value_dtype(fn, "A", A.dtype());
  const int r = comm.rank();
  const device_guard g(comm.device());
  // The pattern on the host (A may live on any device); every rank plans every rank's halo alike.
  const std::vector<std::int64_t> indptr = host_int64(A.indptr());
  const std::int64_t nnz = indptr.back();
  const ndarray indices = A.indices().size() == nnz ? A.indices() : A.indices()[{slice{0, nnz}}];
  const host_array ind_h = to_host(indices);  // int32 or int64, as every cusci sparse matrix
  const bool i32 = ind_h.dtype() == cusci::dtype::int32;
  const auto cnt = static_cast<std::size_t>(nnz);
  const std::vector<local_rows> plans =
      i32 ? plan_halos(part, indptr, std::span<const std::int32_t>(ind_h.data_as<std::int32_t>(), cnt))
          : plan_halos(part, indptr, std::span<const std::int64_t>(ind_h.data_as<std::int64_t>(), cnt));
  const bool any_halo =
      std::any_of(plans.begin(), plans.end(), [](const local_rows& lr) { return !lr.h.ghosts.empty(); });
  const std::int64_t lo = indptr[static_cast<std::size_t>(part.begin(r))];
  const std::int64_t hi = indptr[static_cast<std::size_t>(part.end(r))];
  auto rows_of = [&](auto tag) {
    using T = decltype(tag);
    host_rows<T> rows;
    rows.indptr.assign(indptr.begin() + part.begin(r), indptr.begin() + part.end(r) + 1);
    for (std::int64_t& p : rows.indptr) p -= lo;
    rows.cols.resize(static_cast<std::size_t>(hi - lo));
    for (std::int64_t k = lo; k < hi; ++k)
      rows.cols[static_cast<std::size_t>(k - lo)] =
          i32 ? ind_h.data_as<std::int32_t>()[k] : ind_h.data_as<std::int64_t>()[k];
    if (hi > lo) rows.vals = host_values<T>(A.data()[{slice{lo, hi}}]);
    return exchange_buffers::make(comm, part, assemble(part, plans[static_cast<std::size_t>(r)].h, any_halo, rows));
  };
  return vt == cusci::dtype::float32 ? rows_of(float{}) : rows_of(double{});
}

csr_matrix csr_matrix::from_global(const communicator& comm, const sparse::csr_matrix& A) {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::from_global");
  constexpr const char* fn = "cusci::distributed::csr_matrix::from_global";
  CUSCI_EXPECTS(comm.valid(), value_error, msg(fn, "comm is not a valid communicator"));
  check_square(fn, "A", A.shape());
  const device_guard g(comm.device());
  return from_global(comm, partition_rows_by_nnz(host_int64(A.indptr()), comm.size()), A);
}

csr_matrix csr_matrix::from_rows(const communicator& comm, const row_partition& part, const sparse::csr_matrix& rows) {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::from_rows");
  constexpr const char* fn = "cusci::distributed::csr_matrix::from_rows";
  detail::check_comm_partition(fn, comm, part);
  const int r = comm.rank();
  CUSCI_EXPECTS(rows.shape()[0] == part.size(r) && rows.shape()[1] == part.nrows(), value_error,
                msg(fn, "rows must have shape (part.size(" + std::to_string(r) + "), part.nrows()) = " +
                            shape_str(sparse::shape2{part.size(r), part.nrows()}) + ", got " + shape_str(rows.shape())));
  const cusci::dtype vt = value_dtype(fn, "rows", rows.dtype());
  const device_guard g(comm.device());
  const std::vector<std::int64_t> indptr = host_int64(rows.indptr());
  const std::int64_t nnz = indptr.back();
  auto build = [&](auto tag) {
    using T = decltype(tag);
    host_rows<T> h;
    h.indptr = indptr;
    if (nnz > 0) {
      h.cols = host_int64(rows.indices()[{slice{0, nnz}}]);
      h.vals = host_values<T>(rows.data()[{slice{0, nnz}}]);
    }
    return exchange_buffers::make(comm, part, from_host_rows(fn, comm, part, h));
  };
  return vt == cusci::dtype::float32 ? build(float{}) : build(double{});
}

csr_matrix csr_matrix::read_matrix_market(const communicator& comm, const std::string& path,
                                          const std::optional<row_partition>& part) {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::read_matrix_market");
  constexpr const char* fn = "cusci::distributed::csr_matrix::read_matrix_market";
  CUSCI_EXPECTS(comm.valid(), value_error, msg(fn, "comm is not a valid communicator"));
  detail::mm_row_reader reader(path, fn);
  const io::mm_info& info = reader.info();
  CUSCI_EXPECTS(info.format == io::mm_format::coordinate, value_error,
                msg(fn, "'" + path + "' is an array (dense) file; only coordinate files are read"));
  CUSCI_EXPECTS(info.field != io::mm_field::complex, type_error,
                msg(fn, "'" + path + "' holds complex values (complex matrices are not supported)"));
  check_square(fn, "the matrix", {info.rows, info.cols});
  const row_partition p = part ? *part : partition_rows(info.rows, comm.size());
  detail::check_comm_partition(fn, comm, p);
  check_partition_rows(fn, p, info.rows, "the file's row count");
  const int r = comm.rank();
  detail::mm_rows mm = reader.read_rows(p.begin(r), p.end(r));
  host_rows<double> rows{std::move(mm.indptr), std::move(mm.cols), std::move(mm.vals)};
  const device_guard g(comm.device());
  return exchange_buffers::make(comm, p, from_host_rows(fn, comm, p, rows));
}

vector csr_matrix::dot(const vector& x) const {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::dot");
  CUSCI_EXPECTS(comm_.valid(), value_error, "cusci::distributed::csr_matrix::dot: A is an empty matrix");
  const device_guard g(comm_.device());
  vector y(comm_, part_, empty({halo_.nlocal}, dtype()));
  dot(x, y);
  return y;
}

void csr_matrix::dot(const vector& x, vector& y) const {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::dot");
  constexpr const char* fn = "cusci::distributed::csr_matrix::dot";
  CUSCI_EXPECTS(comm_.valid(), value_error, msg(fn, "A is an empty matrix"));
  detail::check_same_layout(fn, "A", "x", comm_, part_, x.comm(), x.partition());
  detail::check_same_layout(fn, "A", "y", comm_, part_, y.comm(), y.partition());
  CUSCI_EXPECTS(y.dtype() == dtype(), type_error,
                msg(fn, "y must have A's dtype " + std::string(dtype_name(dtype())) + ", got " +
                            std::string(dtype_name(y.dtype()))));
  exchange_buffers& B = *buffers_;
  const device_guard g(comm_.device());
  const cudaStream_t s = get_current_stream();
  const ndarray xl = x.local().astype(dtype(), false);  // x of the other float dtype: cast (a copy)
  // y sharing memory with x: the product goes to a scratch block first.
  const auto* xb = static_cast<const char*>(xl.data());
  auto* yb = static_cast<char*>(y.local().data());
  const bool overlap = xl.nbytes() > 0 && y.local().nbytes() > 0 && xb < yb + y.local().nbytes() && yb < xb + xl.nbytes();
  ndarray out = overlap ? empty({halo_.nlocal}, dtype()) : y.local();

  // The previous product may have run on another stream: its exchange must be done with the buffers.
  B.finished.wait_on(s);
  const cusci::dtype vt = dtype(), it = B.index_dtype;
  if (B.exchange) {
    detail::pack(vt, it, static_cast<std::int64_t>(halo_.send_rows.size()), xl.data(), B.send_rows.data(),
                 B.send_values.data(), s);
    B.packed.record(s);
  }
  detail::csr_spmv(vt, it, halo_.nlocal, diag_.indptr().data(), diag_.indices().data(), diag_.data().data(), xl.data(),
                   out.data(), false, B.diag_lanes, s);
  if (B.exchange) {
    // The exchange waits only for the packing, so it runs beside the diagonal block's product (the
    // local group's exchange blocks the host: the product is enqueued before it).
    B.packed.wait_on(B.side.handle());
    comm_.exchange(B.sends, B.recvs, vt, B.side.handle());
    B.received.record(B.side.handle());
    B.received.wait_on(s);
    if (offd_.nnz() > 0)
      detail::csr_spmv(vt, it, halo_.nlocal, offd_.indptr().data(), offd_.indices().data(), offd_.data().data(),
                       B.ghost_values.data(), out.data(), true, B.offd_lanes, s);
  }
  B.finished.record(s);
  B.used = true;
  if (overlap && out.nbytes() > 0)
    CUSCI_CUDA_TRY(cudaMemcpyAsync(y.local().data(), out.data(), out.nbytes(), cudaMemcpyDeviceToDevice, s));
}

vector csr_matrix::diagonal() const {
  CUSCI_NVTX_SCOPE("cusci::distributed::csr_matrix::diagonal");
  CUSCI_EXPECTS(comm_.valid(), value_error, "cusci::distributed::csr_matrix::diagonal: A is an empty matrix");
  const device_guard g(comm_.device());
  return vector(comm_, part_, diag_.diagonal());
}

}  // namespace cusci::distributed

// Row partitions and halo plans (partition.hpp).

#include "cusci/distributed/partition.hpp"

#include <algorithm>
#include <string>

#include "cusci/error.hpp"

namespace cusci::distributed {

namespace {

void check_indptr(const char* fn, std::span<const std::int64_t> indptr, std::int64_t nrows) {
  CUSCI_EXPECTS(!indptr.empty(), value_error, std::string(fn) + ": indptr must have nrows + 1 entries, got 0");
  CUSCI_EXPECTS(nrows < 0 || static_cast<std::int64_t>(indptr.size()) == nrows + 1, value_error,
                std::string(fn) + ": indptr must have nrows + 1 = " + std::to_string(nrows + 1) + " entries, got " +
                    std::to_string(indptr.size()));
  CUSCI_EXPECTS(indptr[0] == 0, value_error,
                std::string(fn) + ": indptr must start at 0, got " + std::to_string(indptr[0]));
  for (std::size_t i = 1; i < indptr.size(); ++i)
    CUSCI_EXPECTS(indptr[i] >= indptr[i - 1], value_error,
                  std::string(fn) + ": indptr must be non-decreasing (indptr[" + std::to_string(i) + "] = " +
                      std::to_string(indptr[i]) + " < " + std::to_string(indptr[i - 1]) + ")");
}

template <class I>
std::vector<local_rows> plan(const row_partition& part, std::span<const std::int64_t> indptr,
                             std::span<const I> indices) {
  constexpr const char* fn = "cusci::distributed::plan_halos";
  const std::int64_t n = part.nrows();
  check_indptr(fn, indptr, n);
  CUSCI_EXPECTS(static_cast<std::int64_t>(indices.size()) == indptr.back(), value_error,
                std::string(fn) + ": indices must have indptr[-1] = " + std::to_string(indptr.back()) +
                    " entries, got " + std::to_string(indices.size()));
  for (std::size_t e = 0; e < indices.size(); ++e)
    CUSCI_EXPECTS(indices[e] >= 0 && static_cast<std::int64_t>(indices[e]) < n, index_error,
                  std::string(fn) + ": column index " + std::to_string(indices[e]) + " (entry " + std::to_string(e) +
                      ") is outside [0, " + std::to_string(n) + ")");

  const int P = part.nranks();
  std::vector<local_rows> out(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) {
    local_rows& lr = out[static_cast<std::size_t>(r)];
    halo& h = lr.h;
    h.rank = r;
    const std::int64_t b = part.begin(r), e = part.end(r);
    h.nlocal = e - b;
    // Ghosts: the columns outside [b, e), unique; ordered by owner then column, which for contiguous
    // blocks is plain column order.
    for (std::int64_t k = indptr[b]; k < indptr[e]; ++k) {
      const std::int64_t c = indices[k];
      if (c < b || c >= e) h.ghosts.push_back(c);
    }
    std::sort(h.ghosts.begin(), h.ghosts.end());
    h.ghosts.erase(std::unique(h.ghosts.begin(), h.ghosts.end()), h.ghosts.end());
    for (std::size_t g = 0; g < h.ghosts.size(); ++g) {
      const int o = part.owner(h.ghosts[g]);
      if (h.recv_ranks.empty() || h.recv_ranks.back() != o) {
        if (!h.recv_ranks.empty()) h.recv_offsets.push_back(static_cast<std::int64_t>(g));
        h.recv_ranks.push_back(o);
      }
    }
    if (!h.recv_ranks.empty()) h.recv_offsets.push_back(static_cast<std::int64_t>(h.ghosts.size()));
    lr.indices.resize(static_cast<std::size_t>(indptr[e] - indptr[b]));
    for (std::int64_t k = indptr[b]; k < indptr[e]; ++k) {
      const std::int64_t c = indices[k];
      std::int64_t l;
      if (c >= b && c < e) {
        l = c - b;
      } else {
        l = h.nlocal + (std::lower_bound(h.ghosts.begin(), h.ghosts.end(), c) - h.ghosts.begin());
      }
      lr.indices[static_cast<std::size_t>(k - indptr[b])] = l;
    }
  }
  // Send lists: what each rank receives from r, in the receiver's order, is what r sends to it (the
  // exchange of ghost lists the ranks make, done here in one place).
  for (int q = 0; q < P; ++q) {
    const halo& hq = out[static_cast<std::size_t>(q)].h;
    for (std::size_t i = 0; i < hq.recv_ranks.size(); ++i) {
      halo& hr = out[static_cast<std::size_t>(hq.recv_ranks[i])].h;
      hr.send_ranks.push_back(q);
      const std::int64_t b = part.begin(hr.rank);
      for (std::int64_t g = hq.recv_offsets[i]; g < hq.recv_offsets[i + 1]; ++g)
        hr.send_rows.push_back(hq.ghosts[static_cast<std::size_t>(g)] - b);
      hr.send_offsets.push_back(static_cast<std::int64_t>(hr.send_rows.size()));
    }
  }
  return out;
}

}  // namespace

row_partition::row_partition(std::vector<std::int64_t> offsets) : offsets_(std::move(offsets)) {
  constexpr const char* fn = "cusci::distributed::row_partition";
  CUSCI_EXPECTS(offsets_.size() >= 2, value_error,
                std::string(fn) + ": offsets must have nranks + 1 >= 2 entries, got " + std::to_string(offsets_.size()));
  CUSCI_EXPECTS(offsets_[0] == 0, value_error,
                std::string(fn) + ": offsets must start at 0, got " + std::to_string(offsets_[0]));
  for (std::size_t i = 1; i < offsets_.size(); ++i)
    CUSCI_EXPECTS(offsets_[i] >= offsets_[i - 1], value_error,
                  std::string(fn) + ": offsets must be non-decreasing (offsets[" + std::to_string(i) + "] = " +
                      std::to_string(offsets_[i]) + " < " + std::to_string(offsets_[i - 1]) + ")");
}

std::int64_t row_partition::begin(int rank) const {
  CUSCI_EXPECTS(rank >= 0 && rank < nranks(), index_error,
                "cusci::distributed::row_partition: rank " + std::to_string(rank) + " is outside [0, " +
                    std::to_string(nranks()) + ")");
  return offsets_[static_cast<std::size_t>(rank)];
}

std::int64_t row_partition::end(int rank) const {
  CUSCI_EXPECTS(rank >= 0 && rank < nranks(), index_error,
                "cusci::distributed::row_partition: rank " + std::to_string(rank) + " is outside [0, " +
                    std::to_string(nranks()) + ")");
  return offsets_[static_cast<std::size_t>(rank) + 1];
}

int row_partition::owner(std::int64_t row) const {
  CUSCI_EXPECTS(row >= 0 && row < nrows(), index_error,
                "cusci::distributed::row_partition::owner: row " + std::to_string(row) + " is outside [0, " +
                    std::to_string(nrows()) + ")");
  // The last offset <= row starts the block that holds it (empty blocks before it share its offset).
  const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), row);
  return static_cast<int>(it - offsets_.begin()) - 1;
}

row_partition partition_rows(std::int64_t nrows, int nranks) {
  CUSCI_EXPECTS(nrows >= 0, value_error,
                "cusci::distributed::partition_rows: nrows must be >= 0, got " + std::to_string(nrows));
  CUSCI_EXPECTS(nranks >= 1, value_error,
                "cusci::distributed::partition_rows: nranks must be >= 1, got " + std::to_string(nranks));
  std::vector<std::int64_t> off(static_cast<std::size_t>(nranks) + 1, 0);
  const std::int64_t q = nrows / nranks, rem = nrows % nranks;
  for (int r = 0; r < nranks; ++r) off[static_cast<std::size_t>(r) + 1] = off[static_cast<std::size_t>(r)] + q + (r < rem ? 1 : 0);
  return row_partition(std::move(off));
}

row_partition partition_rows_by_nnz(std::span<const std::int64_t> indptr, int nranks) {
  constexpr const char* fn = "cusci::distributed::partition_rows_by_nnz";
  CUSCI_EXPECTS(nranks >= 1, value_error, std::string(fn) + ": nranks must be >= 1, got " + std::to_string(nranks));
  check_indptr(fn, indptr, -1);
  const std::int64_t nrows = static_cast<std::int64_t>(indptr.size()) - 1;
  const std::int64_t nnz = indptr.back();
  std::vector<std::int64_t> off(static_cast<std::size_t>(nranks) + 1, 0);
  off.back() = nrows;
  for (int r = 1; r < nranks; ++r) {
    // ceil(r * nnz / nranks) without overflow for nnz < 2^62 / nranks
    const std::int64_t target = (static_cast<std::int64_t>(r) * nnz + nranks - 1) / nranks;
    const auto it = std::lower_bound(indptr.begin(), indptr.end() - 1, target);
    off[static_cast<std::size_t>(r)] = std::max(off[static_cast<std::size_t>(r) - 1], static_cast<std::int64_t>(it - indptr.begin()));
  }
  return row_partition(std::move(off));
}

std::vector<local_rows> plan_halos(const row_partition& part, std::span<const std::int64_t> indptr,
                                   std::span<const std::int64_t> indices) {
  return plan<std::int64_t>(part, indptr, indices);
}

std::vector<local_rows> plan_halos(const row_partition& part, std::span<const std::int64_t> indptr,
                                   std::span<const std::int32_t> indices) {
  return plan<std::int32_t>(part, indptr, indices);
}

}  // namespace cusci::distributed

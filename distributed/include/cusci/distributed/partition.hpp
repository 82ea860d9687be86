#pragma once
// Row partitions of square sparse matrices over ranks, and each rank's halo: the plan a distributed
// sparse matrix-vector product follows (docs/distributed.md). Host code, no GPU needed.

#include <cstdint>
#include <span>
#include <vector>

namespace cusci::distributed {

/// Contiguous blocks of rows: rank r owns the global rows [offsets[r], offsets[r + 1]). For a square
/// matrix the same blocks partition the columns (the entries of x each rank owns).
class row_partition {
 public:
  row_partition() = default;
  /// From the block boundaries: offsets[0] == 0, non-decreasing, at least two entries (one rank).
  /// Throws value_error otherwise.
  explicit row_partition(std::vector<std::int64_t> offsets);

  int nranks() const { return static_cast<int>(offsets_.size()) - 1; }
  std::int64_t nrows() const { return offsets_.back(); }
  std::int64_t begin(int rank) const;  ///< first row of `rank` (index_error outside [0, nranks))
  std::int64_t end(int rank) const;    ///< one past its last row
  std::int64_t size(int rank) const { return end(rank) - begin(rank); }
  /// The rank that owns global row (or column) `row`; the last of the ranks whose block holds it, so
  /// empty blocks own nothing. index_error outside [0, nrows).
  int owner(std::int64_t row) const;
  const std::vector<std::int64_t>& offsets() const { return offsets_; }

 private:
  std::vector<std::int64_t> offsets_{0};
};

/// nrows rows in nranks blocks of equal size, the first nrows % nranks one row larger. value_error for
/// nrows < 0 or nranks < 1.
row_partition partition_rows(std::int64_t nrows, int nranks);

/// Blocks of about equal stored entries: rank r > 0 starts at the first row i with indptr[i] >=
/// ceil(r nnz / nranks) (nnz = indptr.back(); nrows when there is none), so a block holds at most its
/// share plus one row's entries (and one). value_error for an empty or decreasing indptr,
/// indptr[0] != 0 or nranks < 1.
row_partition partition_rows_by_nnz(std::span<const std::int64_t> indptr, int nranks);

/// One rank's halo.
struct halo {
  int rank = 0;
  std::int64_t nlocal = 0;  ///< rows (and columns) the rank owns
  /// Global columns the rank's rows read but another rank owns, ordered by owner, then by column.
  std::vector<std::int64_t> ghosts;
  /// The ranks the ghosts come from, ascending; ghosts[recv_offsets[i] .. recv_offsets[i + 1]) come
  /// from recv_ranks[i] (recv_offsets has recv_ranks.size() + 1 entries).
  std::vector<int> recv_ranks;
  std::vector<std::int64_t> recv_offsets{0};
  /// The ranks this rank sends to, ascending, and the local indices (0 .. nlocal - 1) of the rows whose
  /// x entries it sends: send_rows[send_offsets[i] .. send_offsets[i + 1]) go to send_ranks[i], in the
  /// order of that rank's ghosts.
  std::vector<int> send_ranks;
  std::vector<std::int64_t> send_offsets{0};
  std::vector<std::int64_t> send_rows;
};

/// One rank's rows in local numbering: `indices` (one per stored entry of its rows, in their order)
/// numbers owned column c as c - begin(rank) and ghost g as nlocal + its position in halo.ghosts, so
/// that its rows multiply the vector [x_owned, x_ghosts].
struct local_rows {
  std::vector<std::int64_t> indices;
  halo h;
};

/// The plan of every rank of `part` for the square CSR matrix (indptr, indices) with
/// part.nrows() rows and columns: the single-process form (one process driving all ranks), and the
/// result every rank reaches when the ranks exchange their ghost lists. value_error when indptr has
/// not part.nrows() + 1 non-decreasing entries from 0, or indices.size() != indptr.back(); index_error
/// for a column outside [0, nrows). Checked before anything is allocated.
std::vector<local_rows> plan_halos(const row_partition& part, std::span<const std::int64_t> indptr,
                                   std::span<const std::int64_t> indices);
/// The same for int32 column indices.
std::vector<local_rows> plan_halos(const row_partition& part, std::span<const std::int64_t> indptr,
                                   std::span<const std::int32_t> indices);

}  // namespace cusci::distributed

#pragma once
/// @file distributed/matrix.hpp
/// A square sparse matrix split by rows over the ranks of a communicator (docs/distributed.md). Rank r
/// holds the rows [begin(r), end(r)) as two CSR blocks on its device: the diagonal block (the columns
/// it owns, renumbered 0 .. nlocal - 1) and the off-diagonal block (the ghost columns, numbered
/// 0 .. nghost - 1 in the order of halo_plan().ghosts). The halo (which x entries a rank receives from whom
/// and sends to whom) is planned once, when the matrix is built.
///
/// The product y = A x overlaps the halo exchange with the local product: the rank packs the entries
/// its neighbours need and exchanges them on a second stream while the diagonal block multiplies the
/// owned entries on the current stream; the off-diagonal block then adds the ghost contribution.
/// Value dtypes: float32 and float64 (other real dtypes are read as float64); index dtype int32 (int64
/// when a rank's block size or stored entries need it). Both blocks are canonical: each row's columns
/// sorted, duplicates summed (explicit zeros kept).
///
/// Construction is collective and synchronizes (the entries are renumbered on the host, the blocks
/// copied to the rank's device once; the halo's buffers, a second stream and its events are made then).
/// Validation (sizes, squareness, the partition's row and rank counts, dtypes) comes first, before any
/// collective, so that every rank throws the same exception for the same input.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/distributed/vector.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::distributed {

class csr_matrix {
 public:
  /// An empty matrix (no communicator); only assignment works on it. (Its empty blocks allocate their
  /// one-element indptr, so it needs a device, as sparse::csr_matrix's default constructor.)
  csr_matrix() = default;

  /// Scatter from a global square matrix: every rank passes the same matrix (the same data; it may live
  /// on any device or be each process's own copy; any order, duplicates allowed) and keeps its rows.
  /// Every rank copies the pattern (indptr, indices) and its own rows' values to the host and plans
  /// every rank's halo from the global pattern with plan_halos, keeping its own: no communication.
  /// Collective (every rank must call it); synchronizes. Values other than float32/float64 are cast to
  /// float64.
  /// @param A [n, n] CSR, any value dtype but complex, int32 or int64 indices.
  /// @throws cusci::value_error for an invalid comm, a non-square matrix ("A must be square, got shape
  ///         (3, 4)") or a partition of another row count or rank count; cusci::type_error for complex
  ///         values.
  static csr_matrix from_global(const communicator& comm, const row_partition& part,
                                const sparse::csr_matrix& A);
  /// from_global with partition_rows_by_nnz(A.indptr, comm.size()) (blocks of about equal stored
  /// entries). Throws as from_global.
  static csr_matrix from_global(const communicator& comm, const sparse::csr_matrix& A);

  /// From each rank's own rows: `rows` is [part.size(rank), part.nrows()] with global column indices
  /// (any order, duplicates allowed), on any device. The ranks exchange how many ghost columns each
  /// needs from each other (an all-gather of int64 counts), then the column lists (a point-to-point
  /// exchange of int64), so that every owner learns its send lists; the plan equals plan_halos' for the
  /// assembled matrix. No rank ever holds the whole matrix. Collective; synchronizes.
  /// @throws as from_global; cusci::value_error when rows has another shape; cusci::index_error for a
  ///         column outside [0, n) (only a matrix built with from_valid can hold one).
  static csr_matrix from_rows(const communicator& comm, const row_partition& part,
                              const sparse::csr_matrix& rows);

  /// Reads a Matrix Market coordinate file (real, integer or pattern; general, symmetric,
  /// skew-symmetric, or hermitian with real values; plain or gzip-compressed) in parallel: every rank
  /// streams the file line by line and keeps only the entries of its own rows (the mirrored entries
  /// too for a symmetric file: (j, i) for a stored (i, j) whose j it owns), so no rank holds the whole
  /// matrix, then plans the halo as from_rows. The header is cusci::io::mminfo's; the entries follow
  /// cusci::io::mmread's rules (1-based indices in range, the size line's entry count, comments and
  /// blank lines anywhere). Without `part`, rows are split in equal blocks (partition_rows).
  /// Collective; synchronizes. Values float64 (pattern: 1.0; duplicates summed, as SciPy's A @ x does).
  /// @throws cusci::error when the file cannot be opened or read; cusci::value_error for a malformed
  ///         header (cusci::io::mminfo's message) or entry (naming the path and the 1-based line:
  ///         "...: m.mtx:7: row index 9 out of range [1, 5]"), an array (dense) file, a non-square
  ///         matrix, or a `part` of another row count or rank count; cusci::type_error for a complex
  ///         file.
  static csr_matrix read_matrix_market(const communicator& comm, const std::string& path,
                                       const std::optional<row_partition>& part = {});

  /// (n, n), the global shape.
  sparse::shape2 shape() const noexcept { return {part_.nrows(), part_.nrows()}; }
  cusci::dtype dtype() const noexcept { return diag_.dtype(); }
  const communicator& comm() const noexcept { return comm_; }
  const row_partition& partition() const noexcept { return part_; }
  /// This rank's halo plan (ghost columns, receive and send lists).
  const halo& halo_plan() const noexcept { return halo_; }
  /// [nlocal, nlocal]: this rank's rows, owned columns (local numbering).
  const sparse::csr_matrix& diagonal_block() const noexcept { return diag_; }
  /// [nlocal, nghost]: this rank's rows, ghost columns (numbered by position in halo_plan().ghosts).
  const sparse::csr_matrix& offdiagonal_block() const noexcept { return offd_; }
  /// Stored entries of this rank's rows.
  std::int64_t local_nnz() const noexcept { return diag_.nnz() + offd_.nnz(); }

  /// y = A x (a new vector of A's dtype with A's partition). Collective; asynchronous on the current
  /// stream: the entries the neighbours need are packed on the current stream, exchanged on the
  /// matrix's second stream (which waits for the packing only) while the diagonal block multiplies the
  /// owned entries on the current stream, which then waits for the exchange and adds the off-diagonal
  /// block's product. The local group's exchange blocks the host until it is done (the diagonal
  /// product is enqueued before it). When no rank has ghosts there is no exchange. x of the other float
  /// dtype is cast to A's first (a copy). Sums in A's dtype, as cusci::sparse's CSR product. Not safe
  /// to call on one matrix (or its copies, which share the buffers) from two threads at once.
  /// @throws cusci::value_error when x has another partition or communicator, or A is empty.
  vector dot(const vector& x) const;
  /// y = A x into an existing vector: y [A's partition] of A's dtype; y may be x (the product then
  /// goes to a scratch block first). As dot(x).
  /// @throws as dot(x); cusci::value_error when y has another partition or communicator;
  ///         cusci::type_error when y's dtype is not A's.
  void dot(const vector& x, vector& y) const;

  /// The main diagonal as a distributed vector of A's dtype (the diagonal block's diagonal, zeros where
  /// no entry is stored). Asynchronous on the current stream. Not collective.
  /// @throws cusci::value_error when A is empty.
  vector diagonal() const;

 private:
  struct exchange_buffers;
  communicator comm_;
  row_partition part_;
  halo halo_;
  sparse::csr_matrix diag_;
  sparse::csr_matrix offd_;
  /// Device copies of halo_.send_rows (the blocks' index dtype) and scratch for the packed send and
  /// received ghost values, with the second stream and events of the product, made once and shared by
  /// copies of the matrix.
  std::shared_ptr<exchange_buffers> buffers_;
};

}  // namespace cusci::distributed

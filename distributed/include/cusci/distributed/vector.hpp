#pragma once
/// @file distributed/vector.hpp
/// A vector of a global length n split over the ranks of a communicator by a row_partition: each rank
/// holds its block [begin(rank), end(rank)) as a contiguous 1-D device array on its device
/// (docs/distributed.md). Element-wise work is ndarray arithmetic on `local()`; the reductions here
/// (dot products, norms) combine the ranks' partial sums with an all-reduce.
/// Value dtypes: float32 and float64 (complex vectors are not supported yet).

#include <cstdint>

#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::distributed {

class vector {
 public:
  /// An empty vector (no communicator); only assignment works on it.
  vector() = default;
  /// Wraps this rank's block: `local` is 1-D, contiguous, on comm.device(), float32 or float64, with
  /// part.size(comm.rank()) entries; part.nranks() == comm.size(). Shares `local` (no copy). Not
  /// collective; no device work.
  /// @throws cusci::value_error naming the mismatch (an invalid comm, part of another rank count,
  ///         local not 1-D, of another length, not contiguous or on another device);
  ///         cusci::type_error for another dtype.
  vector(communicator comm, row_partition part, ndarray local);

  /// A vector of zeros [part.size(rank)] of dtype dt on comm.device() (asynchronous, current stream).
  /// Not collective. @throws cusci::value_error as the constructor; cusci::type_error for a dt other
  /// than float32/float64.
  static vector zeros(const communicator& comm, const row_partition& part, cusci::dtype dt);
  /// This rank's block of a global 1-D array of part.nrows() entries that this rank holds (on any
  /// device, or the same array on every rank): a copy of global[begin(rank):end(rank)] on this rank's
  /// device, cast to float64 when `global` is not float32/float64. Asynchronous (current stream; a copy
  /// from another device is ordered after that device's current stream). Not collective.
  /// @throws cusci::value_error for an invalid comm, a part of another rank count, or a global that is
  ///         not 1-D of part.nrows() entries; cusci::type_error for complex values.
  static vector from_global(const communicator& comm, const row_partition& part, const ndarray& global);

  const ndarray& local() const noexcept { return local_; }
  ndarray& local() noexcept { return local_; }
  const communicator& comm() const noexcept { return comm_; }
  const row_partition& partition() const noexcept { return part_; }
  /// The global length n.
  std::int64_t size() const noexcept { return part_.nrows(); }
  cusci::dtype dtype() const noexcept { return local_.dtype(); }
  /// A deep copy of the local block (asynchronous, current stream), same communicator and partition.
  vector copy() const;

 private:
  communicator comm_;
  row_partition part_;
  ndarray local_;
};

/// The whole vector [n] of x's dtype on every rank, on its device (an all-gather; blocks of unequal
/// size are padded to the largest for the exchange, then compacted). Collective; enqueued on the
/// current stream (the local group's all-gather blocks the host until it is done). An empty partition
/// (n == 0) gives an empty array without a collective.
/// @throws cusci::value_error for an empty vector.
ndarray gather(const vector& x);

/// sum_i x_i y_i over all ranks, accumulated in float64 (NumPy's `dot` of the gathered vectors, up to
/// rounding order): each rank's partial sum in a fixed order (per-block sums, then one block), then an
/// all-reduce of one float64 on the current stream, read back. float32 operands are widened, so a
/// float32 dot is the float64 sum of the float32 products. Collective; synchronizes (returns a host
/// value). NumPy: `np.dot(x, y)` (deviation: float32 vectors accumulate in float64).
/// @throws cusci::value_error when x and y have different partitions or communicators, or are empty.
double dot(const vector& x, const vector& y);

/// The 2-norm sqrt(dot(x, x)) (float64 accumulation; no scaling against overflow). Collective;
/// synchronizes. @throws as dot. NumPy: `np.linalg.norm(x)`.
double norm(const vector& x);

}  // namespace cusci::distributed

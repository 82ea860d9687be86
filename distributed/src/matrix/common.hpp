#pragma once
// Internal (host only): argument checks shared by the vector and matrix sources of the matrix family.

#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/distributed/communicator.hpp"
#include "cusci/distributed/partition.hpp"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"

namespace cusci::distributed::detail {

/// @throws cusci::value_error naming `fn` unless comm is valid and part has comm.size() ranks.
inline void check_comm_partition(const char* fn, const communicator& comm, const row_partition& part) {
  CUSCI_EXPECTS(comm.valid(), value_error, cusci::detail::msg(fn, "comm is not a valid communicator"));
  CUSCI_EXPECTS(part.nranks() == comm.size(), value_error,
                cusci::detail::msg(fn, "part must have comm.size() = " + std::to_string(comm.size()) +
                                           " ranks, got " + std::to_string(part.nranks())));
}

/// Whether a and b are handles of one communicator (both valid).
inline bool same_communicator(const communicator& a, const communicator& b) {
  return a.valid() && b.valid() && &a.get() == &b.get();
}

/// @throws cusci::value_error naming `fn` unless the operands named `a` and `b` share the communicator
/// and the partition (the same block boundaries).
inline void check_same_layout(const char* fn, const char* a, const char* b, const communicator& ca,
                              const row_partition& pa, const communicator& cb, const row_partition& pb) {
  CUSCI_EXPECTS(same_communicator(ca, cb), value_error,
                cusci::detail::msg(fn, std::string(a) + " and " + b + " must share one communicator"));
  CUSCI_EXPECTS(pa.offsets() == pb.offsets(), value_error,
                cusci::detail::msg(fn, std::string(a) + " and " + b + " must have the same partition, got " +
                                           cusci::detail::shape_str(pa.offsets()) + " and " +
                                           cusci::detail::shape_str(pb.offsets())));
}

/// @throws cusci::type_error naming `fn` and `what` unless dt is float32 or float64.
inline void check_float(const char* fn, const char* what, cusci::dtype dt) {
  CUSCI_EXPECTS(dt == cusci::dtype::float32 || dt == cusci::dtype::float64, type_error,
                cusci::detail::msg(fn, std::string(what) + " must have dtype float32 or float64, got " +
                                           std::string(dtype_name(dt))));
}

}  // namespace cusci::distributed::detail

#pragma once
/// @file distributed/mpi.hpp
/// NCCL communicators for programs started by `mpirun`: one process a GPU, the NCCL communicator
/// bootstrapped through MPI (docs/distributed.md). Header-only, so that cusci itself never links MPI:
/// link the target cusci::distributed_mpi (cusci::distributed plus MPI's library), defined where CMake
/// finds MPI. Uses MPI's C API only (its deprecated C++ bindings are skipped).
///
///   MPI_Init(&argc, &argv);
///   {
///     cusci::distributed::communicator comm = cusci::distributed::from_mpi();
///     cusci::set_device(comm.device());
///     ...  // every rank calls the same cusci::distributed functions in the same order
///   }      // the communicator is destroyed before MPI_Finalize
///   MPI_Finalize();

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <array>
#include <exception>
#include <string>

#include "cusci/device.hpp"
#include "cusci/distributed/communicator.hpp"
#include "cusci/error.hpp"

namespace cusci::distributed {

namespace detail {
/// Throws cusci::runtime_error naming `call` unless rc is MPI_SUCCESS (reached only where MPI's error
/// handler returns errors instead of aborting, e.g. MPI_ERRORS_RETURN).
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw runtime_error(std::string("cusci::distributed::from_mpi: ") + call + " failed: " + text);
}
}  // namespace detail

/// This process's rank of an NCCL communicator over the processes of `comm`: rank and size are those
/// of `comm`; rank 0 makes NCCL's unique id (get_unique_id), MPI_Bcast sends its 128 bytes to the
/// others, and every process calls init_rank. Collective over `comm` (every process must call it);
/// blocks until all have joined. MPI must be initialized (MPI_Init) and the communicator destroyed
/// before MPI_Finalize.
///
/// @param comm    the MPI communicator whose processes become the ranks.
/// @param device  this process's GPU; -1 (default): its rank among the processes of its node
///                (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) modulo device_count(), which gives
///                one GPU a process when a node runs at most as many processes as it has GPUs.
///                Start one process a GPU: `mpirun -n 4 ./app` on a node of four GPUs.
/// @return a communicator of backend `nccl` on `device`; the caller's current device is unchanged.
/// @throws every process throws when any cannot take part (so that none waits in NCCL's setup for
///         one that has gone): cusci::not_implemented_error when cusci was built without NCCL;
///         cusci::index_error for a device outside [0, device_count()) or no GPU; cusci::value_error
///         when device is -1 and a node runs more processes than it has GPUs (NCCL allows one rank a
///         GPU); cusci::runtime_error when MPI is not initialized, an MPI call fails, or another process
///         could not take part; what init_rank throws.
inline communicator from_mpi(MPI_Comm comm = MPI_COMM_WORLD, int device = -1) {
  const std::string fn = "cusci::distributed::from_mpi";
  int initialized = 0;
  detail::mpi_check(MPI_Initialized(&initialized), "MPI_Initialized");
  CUSCI_EXPECTS(initialized, runtime_error, fn + ": MPI is not initialized (call MPI_Init first)");
  int size = 0, rank = 0;
  detail::mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  detail::mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");

  // This process's device, and whether it can take part; then every process learns whether all can.
  std::exception_ptr mine;
  try {
    if (!have_nccl()) throw not_implemented_error(fn + ": cusci was built without NCCL (have_nccl() is false)");
    const int n = device_count();
    if (device == -1) {
      MPI_Comm node;
      detail::mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
                        "MPI_Comm_split_type");
      int local = 0, local_size = 0;
      MPI_Comm_rank(node, &local);
      MPI_Comm_size(node, &local_size);
      MPI_Comm_free(&node);
      if (n == 0) throw index_error(fn + ": no GPU is visible to rank " + std::to_string(rank));
      if (local_size > n)
        throw value_error(fn + ": " + std::to_string(local_size) + " processes run on the node of rank " +
                          std::to_string(rank) + ", which has " + std::to_string(n) +
                          " visible GPU(s) (NCCL allows one rank a GPU): start at most one process a GPU, or pass device");
      device = local % n;
    }
    if (device < 0 || device >= n)
      throw index_error(fn + ": device must be in [0, " + std::to_string(n) + ") or -1, got " + std::to_string(device));
  } catch (...) {
    mine = std::current_exception();
  }
  int all_ok = mine ? 0 : 1;
  detail::mpi_check(MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (mine) std::rethrow_exception(mine);
  CUSCI_EXPECTS(all_ok, runtime_error, fn + ": another process could not take part (see its error)");

  // Rank 0's unique id, with a leading byte saying whether it could make one.
  std::array<char, 1 + sizeof(unique_id::bytes)> packet{};
  if (rank == 0) {
    try {
      const unique_id id = get_unique_id();
      packet[0] = 1;
      std::copy(id.bytes.begin(), id.bytes.end(), packet.begin() + 1);
    } catch (...) {
      mine = std::current_exception();
    }
  }
  detail::mpi_check(MPI_Bcast(packet.data(), static_cast<int>(packet.size()), MPI_BYTE, 0, comm), "MPI_Bcast");
  if (mine) std::rethrow_exception(mine);
  CUSCI_EXPECTS(packet[0] == 1, runtime_error, fn + ": rank 0 could not make NCCL's unique id (see its error)");
  unique_id id;
  std::copy(packet.begin() + 1, packet.end(), id.bytes.begin());
  return init_rank(id, size, rank, device);
}

}  // namespace cusci::distributed

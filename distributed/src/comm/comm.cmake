# The communicators of cusci::distributed (communicator.hpp): one rank (self.cpp), the in-process local
# group (local.cpp, its all-reduce kernel local_reduce.cu) and NCCL (nccl.cpp), behind the members of
# communicator.cpp. And the header-only MPI bootstrap (cusci/distributed/mpi.hpp, target
# cusci::distributed_mpi).
target_sources(cusci_distributed PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/communicator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/self.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_reduce.cu
  ${CMAKE_CURRENT_LIST_DIR}/nccl.cpp)

# NCCL, optional: the CUDA Toolkit ships nccl.h here; else -DCUSCI_NCCL_INCLUDE_DIR=... (or Debian's
# libnccl-dev in the system paths). Only the header is needed to build: libnccl.so.2 is loaded on first
# use, as cuBLAS & co. are (core's lazy_libs.cpp), so a program that never makes an NCCL communicator never
# loads it, and a machine without NCCL runs everything else. Without the header (or with
# -DCUSCI_WITH_NCCL=OFF) have_nccl() is false and init_all, get_unique_id and init_rank throw
# cusci::not_implemented_error; self_communicator and local_group work either way.
option(CUSCI_WITH_NCCL "Build cusci::distributed's NCCL backend when nccl.h is found" ON)
find_path(CUSCI_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} DOC "Directory holding nccl.h")
if(CUSCI_WITH_NCCL AND CUSCI_NCCL_INCLUDE_DIR)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/nccl.cpp PROPERTIES
                              COMPILE_DEFINITIONS CUSCI_HAVE_NCCL=1
                              INCLUDE_DIRECTORIES "${CUSCI_NCCL_INCLUDE_DIR}")
  message(STATUS "cusci: NCCL header found (${CUSCI_NCCL_INCLUDE_DIR}); cusci::distributed's NCCL backend "
                 "enabled (libnccl.so.2 loaded on first use)")
else()
  message(STATUS "cusci: NCCL not used: cusci::distributed has the self and local-group communicators only "
                 "(init_all, get_unique_id and init_rank throw not_implemented_error)")
endif()

# MPI, optional: cusci::distributed_mpi = cusci::distributed + MPI's C API, for cusci/distributed/mpi.hpp
# (from_mpi; header-only, so cusci itself never links MPI). MPI's CXX component is searched (its C
# component needs the C language, which cusci does not enable) with the deprecated C++ bindings
# skipped; mpi.hpp uses the C API only. Made global so that tests/ sees MPI::MPI_CXX. An installed
# cusci defines cusci::distributed_mpi in cusciConfig.cmake where the consumer's MPI is found.
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  get_target_property(_cusci_mpi_global MPI::MPI_CXX IMPORTED_GLOBAL)
  if(NOT _cusci_mpi_global)
    set_target_properties(MPI::MPI_CXX PROPERTIES IMPORTED_GLOBAL TRUE)
  endif()
  add_library(cusci_distributed_mpi INTERFACE)
  add_library(cusci::distributed_mpi ALIAS cusci_distributed_mpi)
  target_link_libraries(cusci_distributed_mpi INTERFACE cusci_distributed MPI::MPI_CXX)
  message(STATUS "cusci: MPI found (${MPI_CXX_LIBRARIES}); target cusci::distributed_mpi defined")
endif()

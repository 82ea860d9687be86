# Tests of the communicators (distributed/src/comm): every backend in one process
# (test_communicator_gpu.cpp: self, local groups, NCCL's init_all and init_rank where cusci has NCCL); and
# from_mpi over processes started by mpiexec (test_mpi_gpu.cpp), where CMake found MPI and mpiexec:
# ctest runs it as one process (`mpiexec -n 1`), scripts/mpirun-tests with one process a GPU. Label `mpi`
# besides `gpu`: its ctest command is mpiexec, not the test executable.
cusci_add_test(test_distributed_communicator_gpu LABEL gpu SOURCES test_communicator_gpu.cpp LINK cusci::distributed)
if(TARGET cusci::distributed_mpi AND MPIEXEC_EXECUTABLE)
  add_executable(test_distributed_mpi_gpu test_mpi_gpu.cpp)
  target_link_libraries(test_distributed_mpi_gpu PRIVATE cusci::distributed_mpi cusci_core)
  target_include_directories(test_distributed_mpi_gpu PRIVATE ${CUSCI_DOCTEST_INCLUDE_DIR})
  target_compile_options(test_distributed_mpi_gpu PRIVATE ${CUSCI_TEST_OPT})
  add_test(NAME test_distributed_mpi_gpu
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 ${MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:test_distributed_mpi_gpu> ${MPIEXEC_POSTFLAGS})
  # Open MPI refuses to start as root (CI containers) unless told; other MPIs ignore these.
  set_tests_properties(test_distributed_mpi_gpu PROPERTIES LABELS "gpu;mpi" SKIP_RETURN_CODE 77 TIMEOUT 300
                       ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()

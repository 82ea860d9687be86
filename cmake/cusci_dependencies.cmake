# Dependencies. A missing one stops configuration with the command that installs it.

find_package(CUDAToolkit 13 QUIET)
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR
    "cusci needs the CUDA Toolkit 13 (cudart, cuBLAS, cuSPARSE, cuSOLVER, cuFFT, Thrust, CUB).\n"
    "Install it from NVIDIA's Debian repository with:\n"
    "  apt-get install cuda-toolkit-13-0\n"
    "and put its nvcc on PATH (export PATH=/usr/local/cuda/bin:$PATH).")
endif()
foreach(_lib cudart cublas cusparse cusolver cufft)
  if(NOT TARGET CUDA::${_lib})
    message(FATAL_ERROR "CUDA library ${_lib} not found in the CUDA Toolkit at ${CUDAToolkit_LIBRARY_DIR}.\n"
                        "Install it with: apt-get install cuda-toolkit-13-0")
  endif()
endforeach()

if(CUSCI_BUILD_TESTS)
  find_path(CUSCI_DOCTEST_INCLUDE_DIR doctest/doctest.h)
  if(NOT CUSCI_DOCTEST_INCLUDE_DIR)
    message(FATAL_ERROR "doctest not found. Install it with:\n  apt-get install doctest-dev\n"
                        "or configure with -DCUSCI_BUILD_TESTS=OFF.")
  endif()
endif()

if(CUSCI_BUILD_EXAMPLES)
  find_package(PNG QUIET)
  if(NOT PNG_FOUND)
    message(FATAL_ERROR "libpng not found (the demo writes PNG images). Install it with:\n"
                        "  apt-get install libpng-dev\nor configure with -DCUSCI_BUILD_EXAMPLES=OFF.")
  endif()
  find_path(CUSCI_CLI11_INCLUDE_DIR CLI/CLI.hpp)
  if(NOT CUSCI_CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "CLI11 not found (the demo parses its command line with it). Install it with:\n"
                        "  apt-get install libcli11-dev\nor configure with -DCUSCI_BUILD_EXAMPLES=OFF.")
  endif()
endif()

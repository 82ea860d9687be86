# Dependencies. A missing one stops configuration with the command that installs it.

find_package(CUDAToolkit 13 QUIET)
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR
    "cusci needs the CUDA Toolkit 13 (cudart, cuBLAS, cuSPARSE, cuSOLVER, cuFFT, Thrust, CUB).\n"
    "Install it from NVIDIA's Debian repository with:\n"
    "  apt-get install cuda-toolkit-13-0\n"
    "and put its nvcc on PATH (export PATH=/usr/local/cuda/bin:$PATH).")
endif()
# cudart is linked; cuBLAS, cuSPARSE, cuSOLVER, cuFFT (and NVRTC) are not: their headers are compiled
# against and their sonames read from the toolkit's files (core/src/memory/memory.cmake), and cusci loads
# them on first use (dlopen). The tests and benchmarks that call them directly link them.
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
  # nlohmann/json: the tests read their reference manifests (JSON) with it.
  find_path(CUSCI_JSON_INCLUDE_DIR nlohmann/json.hpp)
  if(NOT CUSCI_JSON_INCLUDE_DIR)
    message(FATAL_ERROR "nlohmann/json not found (the tests read their reference manifests with it). "
                        "Install it with:\n  apt-get install nlohmann-json3-dev\n"
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

# zlib: deflate and CRC-32 for NumPy's .npz archives (core's io).
find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  message(FATAL_ERROR "zlib not found (cusci reads and writes NumPy .npz archives with it). Install it with:\n"
                      "  apt-get install zlib1g-dev")
endif()

# DLPack: only its header (dlpack/dlpack.h), needed to build core's DLPack exchange; the public
# headers do not include it. Looked up in -DCUSCI_DLPACK_INCLUDE_DIR=..., the system include paths
# (Debian: libdlpack-dev), then the copy CuPy ships inside its Python package
# (cupy/_core/include/cupy/_dlpack/dlpack.h). CUSCI_DLPACK_HEADER is the file found.
set(CUSCI_DLPACK_INCLUDE_DIR "" CACHE PATH "Directory holding dlpack/dlpack.h (or dlpack.h itself)")
set(_cusci_dlpack_hints)
if(CUSCI_DLPACK_INCLUDE_DIR)
  list(APPEND _cusci_dlpack_hints ${CUSCI_DLPACK_INCLUDE_DIR} ${CUSCI_DLPACK_INCLUDE_DIR}/dlpack)
endif()
find_file(CUSCI_DLPACK_HEADER NAMES dlpack/dlpack.h dlpack.h HINTS ${_cusci_dlpack_hints}
          PATH_SUFFIXES include NO_CACHE)
if(NOT CUSCI_DLPACK_HEADER)
  find_program(_cusci_python3 NAMES python3 python)
  if(_cusci_python3)
    # find_spec locates the package without importing it (no GPU or driver needed).
    execute_process(
      COMMAND ${_cusci_python3} -c
        "import importlib.util, os; s = importlib.util.find_spec('cupy'); print(os.path.dirname(s.origin) if s and s.origin else '')"
      OUTPUT_VARIABLE _cusci_cupy_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _cusci_rc)
    if(_cusci_rc EQUAL 0 AND _cusci_cupy_dir)
      find_file(CUSCI_DLPACK_HEADER NAMES dlpack.h
                PATHS ${_cusci_cupy_dir}/_core/include/cupy/_dlpack ${_cusci_cupy_dir}/_core/include/cupy/dlpack
                NO_DEFAULT_PATH NO_CACHE)
    endif()
  endif()
endif()
if(NOT CUSCI_DLPACK_HEADER)
  message(FATAL_ERROR "dlpack.h not found (cusci's DLPack exchange is built against it). Install it with:\n"
                      "  apt-get install libdlpack-dev\n"
                      "or point cusci at a copy (CuPy ships one under site-packages/cupy/_core/include/cupy/_dlpack)"
                      " with -DCUSCI_DLPACK_INCLUDE_DIR=<directory holding dlpack/dlpack.h or dlpack.h>.")
endif()
message(STATUS "cusci: DLPack header ${CUSCI_DLPACK_HEADER}")

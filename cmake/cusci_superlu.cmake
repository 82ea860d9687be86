# SuperLU (https://portal.nersc.gov/project/sparse/superlu/), the sequential sparse LU library that
# SciPy bundles: cusci's scipy.sparse.linalg direct solvers (spsolve, splu, spilu, factorized, inv)
# factor on the host with it. Optional: when it is not found, cusci builds without it and those
# functions throw cusci::not_implemented_error naming the library (the rest of cusci is unaffected).
#
# Looked up in -DCUSCI_SUPERLU_INCLUDE_DIR=... (the folder holding slu_ddefs.h) and
# -DCUSCI_SUPERLU_LIBRARY=... (libsuperlu.so / .a), else in the system paths (Debian / Ubuntu:
# apt-get install libsuperlu-dev puts the headers in /usr/include/superlu). SuperLU 5 or later with
# 32-bit indices (int_t = int), as Debian builds it.
#
# Sets CUSCI_SUPERLU_FOUND (TRUE/FALSE) and, when found, CUSCI_SUPERLU_LINK (the libraries to link:
# full paths, so that an exported static cusci_sparse names them without a target to import).

include_guard(GLOBAL)

find_path(CUSCI_SUPERLU_INCLUDE_DIR slu_ddefs.h PATH_SUFFIXES superlu SuperLU
          DOC "Directory holding SuperLU's headers (slu_ddefs.h)")
find_library(CUSCI_SUPERLU_LIBRARY NAMES superlu DOC "SuperLU's library (libsuperlu)")

set(CUSCI_SUPERLU_FOUND FALSE)
if(CUSCI_SUPERLU_INCLUDE_DIR AND CUSCI_SUPERLU_LIBRARY)
  set(CUSCI_SUPERLU_FOUND TRUE)
  # A static SuperLU needs a BLAS; the shared Debian library records its own.
  set(CUSCI_SUPERLU_LINK ${CUSCI_SUPERLU_LIBRARY})
  if(CUSCI_SUPERLU_LIBRARY MATCHES "\\.a$")
    find_package(BLAS QUIET)
    if(BLAS_FOUND)
      list(APPEND CUSCI_SUPERLU_LINK ${BLAS_LIBRARIES})
    endif()
  endif()
  message(STATUS "cusci: SuperLU found (${CUSCI_SUPERLU_LIBRARY}); sparse.linalg direct solvers enabled")
else()
  message(STATUS "cusci: SuperLU not found: scipy.sparse.linalg's spsolve, splu, spilu, factorized and inv "
                 "will throw not_implemented_error. Install it with:\n  apt-get install libsuperlu-dev\n"
                 "or pass -DCUSCI_SUPERLU_INCLUDE_DIR=... -DCUSCI_SUPERLU_LIBRARY=...")
endif()

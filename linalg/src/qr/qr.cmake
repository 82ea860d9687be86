# Sources of the qr family of cusci::linalg (qr, rq, qr_multiply): the host drivers (qr.cpp) and, in one
# translation unit (qr_kernels.cu), the gathers/copies, the cuSOLVER single-matrix path (Xgeqrf,
# ?orgqr/?ungqr, ?ormqr/?unmqr) and the batched / column-pivoting Householder kernels.
target_sources(cusci_linalg PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qr_kernels.cu)

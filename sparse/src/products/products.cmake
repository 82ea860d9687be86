# Sources of the products family of cusci::sparse: sparse x dense (spmv.cpp), dense x sparse
# (dense_sparse), sparse x sparse, reductions, and SciPy's sparse utilities (sputils.cpp).
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/spmv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_sparse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_sparse.cu
  ${CMAKE_CURRENT_LIST_DIR}/products_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/products_spgemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/products_spgemm_rows.cu
  ${CMAKE_CURRENT_LIST_DIR}/products_reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sputils.cpp
)
# The row-wise SpGEMM and the dense x sparse column kernel round every product before adding it, as
# SciPy's csr_matmat and csc_matvecs: no contraction of a * b + c into a fused multiply-add.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/products_spgemm_rows.cu
                            ${CMAKE_CURRENT_LIST_DIR}/dense_sparse.cu PROPERTIES COMPILE_OPTIONS
                            "$<$<COMPILE_LANGUAGE:CUDA>:-fmad=false>")

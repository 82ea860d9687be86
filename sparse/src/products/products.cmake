# Sources of the products family of cusci::sparse: sparse x dense (spmv.cpp), sparse x sparse, reductions.
target_sources(cusci_sparse PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/spmv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/products_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/products_spgemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/products_spgemm_rows.cu
  ${CMAKE_CURRENT_LIST_DIR}/products_reduce.cpp
)
# The row-wise SpGEMM rounds every product before adding it, as SciPy's csr_matmat: no contraction
# of a * b + c into a fused multiply-add.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/products_spgemm_rows.cu PROPERTIES COMPILE_OPTIONS
                            "$<$<COMPILE_LANGUAGE:CUDA>:-fmad=false>")

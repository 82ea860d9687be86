# Sources of sparse printing (repr/str of the sparse formats).
target_sources(cusci_sparse PRIVATE ${CMAKE_CURRENT_LIST_DIR}/printing.cpp)

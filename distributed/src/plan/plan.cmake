target_sources(cusci_distributed PRIVATE ${CMAKE_CURRENT_LIST_DIR}/partition.cpp)

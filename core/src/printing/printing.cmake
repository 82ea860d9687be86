# Sources of the printing family of cusci::core (filled in by the family's work).
target_sources(cusci_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/printing.cpp)

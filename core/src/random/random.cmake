# Sources of the random family of cusci::core.
target_sources(cusci_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/random.cu)

# Sources of the diagnostics family of cusci::core: the warning hook (warnings.cpp, cusci/warnings.hpp).
target_sources(cusci_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/warnings.cpp)

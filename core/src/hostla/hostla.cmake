# Sources of the hostla family of cusci::core: dense linear algebra on the host for the small matrices of
# design and analysis code (polynomial roots, companion and state-space matrices, window eigenproblems):
# cusci/detail/host_linalg.hpp (internal).
file(GLOB _hostla_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
target_sources(cusci_core PRIVATE ${_hostla_sources})

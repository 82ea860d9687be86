# cusci::sparse::csgraph (scipy.sparse.csgraph): one sub-folder per family under src/csgraph/
# (common: validate_graph and shared device utilities; tools; traversal; shortest_path; flow), every
# .cpp and .cu of them picked up here.
file(GLOB_RECURSE _csgraph_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.cu)
target_sources(cusci_sparse PRIVATE ${_csgraph_sources})

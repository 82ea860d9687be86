# Sources of the engine family of cusci::ndimage: the axis-pass engine (axis_engine.hpp/.cuh, the
# fast float kernels in axis_fast.cuh, the pass chain in axis_engine.cu), the footprint engine
# (footprint_engine.hpp/.cuh/.cu) and the boundary modes they share (boundary.hpp/.cuh). Policies and
# their instantiations live with the filters (src/filters).
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/axis_engine.cu)
target_sources(cusci_ndimage PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/footprint_engine.cpp)

# Sources of the cossin family of cusci::linalg (scipy.linalg.cossin): host work only (cossin.cpp: LAPACK's
# ?orcsd / ?uncsd per matrix and SciPy's assembly of the factors), no device code. The host LAPACK is
# found in linalg/CMakeLists.txt.
target_sources(cusci_linalg PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cossin.cpp)
target_link_libraries(cusci_linalg PRIVATE LAPACK::LAPACK)

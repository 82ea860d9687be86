# Sources of the testing family of cusci::core: numpy.testing's array assertions (testing.hpp) and
# cupyx.profiler's benchmark / time_range plus cusci's NVTX ranges (profiler.hpp). Host code only.
target_sources(cusci_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/testing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profiler.cpp)
# NVTX3 is header-only; it loads a profiler's injection library with dlopen (in libc since glibc 2.34).
target_link_libraries(cusci_core PRIVATE ${CMAKE_DL_LIBS})

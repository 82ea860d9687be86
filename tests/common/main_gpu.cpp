// doctest main for tests labelled `gpu`: exits with 77 (ctest: skipped) when no GPU is visible.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "cusci/device.hpp"
#include "cusci/memory.hpp"

int main(int argc, char** argv) {
  if (cusci::device_count() == 0) {
    std::printf("no CUDA device visible: skipping GPU tests\n");
    return 77;
  }
  doctest::Context ctx(argc, argv);
  const int rc = ctx.run();
  // Return the pools' cached blocks to the driver, so memory checkers see only real leaks.
  cusci::get_default_memory_pool().free_all_blocks();
  cusci::pinned_free_all_blocks();
  return rc;
}

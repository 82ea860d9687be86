// doctest main for tests labelled `gpu`: exits with 77 (ctest: skipped) when no GPU is visible.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "cusci/device.hpp"

int main(int argc, char** argv) {
  if (cusci::device_count() == 0) {
    std::printf("no CUDA device visible: skipping GPU tests\n");
    return 77;
  }
  doctest::Context ctx(argc, argv);
  return ctx.run();
}

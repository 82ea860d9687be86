// doctest main for tests labelled `host`: they run everywhere, with or without a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

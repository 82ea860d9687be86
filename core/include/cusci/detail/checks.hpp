#pragma once
/// @file detail/checks.hpp
/// Argument checks shared by the modules (host only).

#include <initializer_list>
#include <string>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail {

/// Throws cusci::value_error naming `function` when the arrays are not all on one device.
inline void check_same_device(const char* function, std::initializer_list<const ndarray*> arrays) {
  const ndarray* first = nullptr;
  for (const ndarray* a : arrays) {
    if (!a) continue;
    if (!first) first = a;
    else if (a->device() != first->device())
      throw value_error(std::string(function) + ": arrays are on different devices (" +
                        std::to_string(first->device()) + " and " + std::to_string(a->device()) + ")");
  }
}

}  // namespace cusci::detail

#pragma once
/// @file warnings.hpp
/// Warnings: conditions SciPy reports through Python's `warnings` module (the result is returned, but
/// may be inaccurate), surfaced in C++ through one process-wide hook. Each warning has a category named
/// after SciPy's class (`"BadCoefficients"`, `"LinAlgWarning"`, `"UserWarning"`, ...), the function
/// that issued it and SciPy's message.
///
/// By default a warning is written to stderr as `cusci: <Category>: <message>`. A program replaces the
/// handler with `set_warning_handler` (for example to log, count or turn warnings into errors by
/// throwing from the handler), and a test collects them with `warning_capture`.
/// Thread safety: the handler is swapped atomically; a handler itself must be thread-safe when cusci is
/// called from several threads.

#include <functional>
#include <string>
#include <vector>

namespace cusci {

/// One warning: SciPy's category (class name), the cusci function that issued it
/// (`"cusci::signal::tf2zpk"`) and the message.
struct warning {
  std::string category;
  std::string function;
  std::string message;
};

/// A warning handler. It may throw; the exception then propagates out of the cusci function that warned.
using warning_handler = std::function<void(const warning&)>;

/// Installs `h` as the handler for every later warning and returns the previous one. An empty handler
/// ignores warnings.
warning_handler set_warning_handler(warning_handler h);

/// Issues a warning through the current handler.
void warn(std::string category, std::string function, std::string message);

/// Collects the warnings issued while it lives (on any thread) instead of passing them to the previous
/// handler, which it restores when destroyed. Not nestable across threads in a meaningful way: meant
/// for tests and for a caller that checks a single call.
class warning_capture {
 public:
  warning_capture();
  ~warning_capture();
  warning_capture(const warning_capture&) = delete;
  warning_capture& operator=(const warning_capture&) = delete;
  /// The warnings collected so far, in the order issued.
  std::vector<warning> warnings() const;
  /// Whether a warning of `category` was collected.
  bool has(const std::string& category) const;

 private:
  struct state;
  state* s_;
  warning_handler previous_;
};

}  // namespace cusci

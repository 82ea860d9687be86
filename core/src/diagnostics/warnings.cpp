// The process-wide warning hook of warnings.hpp.

#include "cusci/warnings.hpp"

#include <cstdio>
#include <memory>
#include <mutex>

namespace cusci {

namespace {

void print_warning(const warning& w) {
  std::fprintf(stderr, "cusci: %s: %s (%s)\n", w.category.c_str(), w.message.c_str(), w.function.c_str());
}

std::mutex& handler_mutex() {
  static std::mutex m;
  return m;
}

warning_handler& handler() {
  static warning_handler h = print_warning;
  return h;
}

}  // namespace

warning_handler set_warning_handler(warning_handler h) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  warning_handler previous = std::move(handler());
  handler() = std::move(h);
  return previous;
}

void warn(std::string category, std::string function, std::string message) {
  warning_handler h;
  {
    std::lock_guard<std::mutex> lock(handler_mutex());
    h = handler();
  }
  if (h) h(warning{std::move(category), std::move(function), std::move(message)});
}

struct warning_capture::state {
  mutable std::mutex m;
  std::vector<warning> got;
};

warning_capture::warning_capture() : s_(new state) {
  state* s = s_;
  previous_ = set_warning_handler([s](const warning& w) {
    std::lock_guard<std::mutex> lock(s->m);
    s->got.push_back(w);
  });
}

warning_capture::~warning_capture() {
  set_warning_handler(std::move(previous_));
  delete s_;
}

std::vector<warning> warning_capture::warnings() const {
  std::lock_guard<std::mutex> lock(s_->m);
  return s_->got;
}

bool warning_capture::has(const std::string& category) const {
  std::lock_guard<std::mutex> lock(s_->m);
  for (const auto& w : s_->got)
    if (w.category == category) return true;
  return false;
}

}  // namespace cusci

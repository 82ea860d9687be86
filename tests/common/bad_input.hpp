#pragma once
// Table-driven bad-input checks (tests/<module>/test_bad_input_host.cpp): each case is a call that
// must throw one typed cusci exception (the one SciPy/NumPy's exception maps to, docs/architecture.md
// "Errors"), with a message naming the function, within a second. Host tests: the calls must fail
// before any device work (data-less arrays from testing::fake_array are enough for argument checks).

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

#include "cusci/error.hpp"

namespace cusci::testing {

/// The exception a bad-input case must raise.
enum class raises { value_error, type_error, index_error, runtime_error, not_implemented_error, out_of_memory };

inline const char* raises_name(raises r) {
  switch (r) {
    case raises::value_error: return "value_error";
    case raises::type_error: return "type_error";
    case raises::index_error: return "index_error";
    case raises::runtime_error: return "runtime_error";
    case raises::not_implemented_error: return "not_implemented_error";
    case raises::out_of_memory: return "out_of_memory";
  }
  return "?";
}

struct bad_input_case {
  const char* name;                 ///< what is wrong, for the report
  raises expected;                  ///< the exception type it must raise
  const char* message;              ///< a part of the message (the function's name, the parameter, ...)
  std::function<void()> call;       ///< the call
};

/// Runs every case: the exception type must be `expected` (not a base or a sibling class, not a
/// std:: exception), its text must contain `message`, and the call must take under `max_seconds`.
inline void check_bad_inputs(const std::vector<bad_input_case>& cases, double max_seconds = 1.0) {
  for (const auto& c : cases) {
    std::string got = "no exception", what;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      c.call();
    } catch (const out_of_memory& e) {
      got = "out_of_memory", what = e.what();
    } catch (const value_error& e) {
      got = "value_error", what = e.what();
    } catch (const type_error& e) {
      got = "type_error", what = e.what();
    } catch (const index_error& e) {
      got = "index_error", what = e.what();
    } catch (const not_implemented_error& e) {
      got = "not_implemented_error", what = e.what();
    } catch (const runtime_error& e) {
      got = "runtime_error", what = e.what();
    } catch (const error& e) {
      got = std::string("another cusci exception (") + typeid(e).name() + ")", what = e.what();
    } catch (const std::exception& e) {
      got = std::string("a non-cusci exception (") + typeid(e).name() + ")", what = e.what();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string name(c.name), expected(raises_name(c.expected)), part(c.message);
    CHECK_MESSAGE(got == expected, name << ": expected " << expected << ", got " << got << ": " << what);
    if (got == expected)
      CHECK_MESSAGE(what.find(part) != std::string::npos,
                    name << ": the message should contain '" << part << "', got: " << what);
    CHECK_MESSAGE(seconds < max_seconds, name << ": took " << seconds << " s");
  }
}

}  // namespace cusci::testing

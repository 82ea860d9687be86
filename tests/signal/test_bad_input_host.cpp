// Bad input to signal's host design functions, table-driven (tests/common/bad_input.hpp): each call
// raises the typed exception SciPy's error maps to, names the function and fails within a second;
// lengths SciPy would allocate (numtaps, window points) are checked against the host's memory
// before any loop runs (SciPy: MemoryError).

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "bad_input.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/windows.hpp"

using namespace cusci;
using testing::check_bad_inputs;
using testing::raises;

TEST_CASE("signal: firwin and the windows refuse absurd lengths at once, and bad parameters") {
  const std::int64_t t40 = std::int64_t{1} << 40;
  check_bad_inputs({
      {"firwin: 2^40 taps (SciPy: MemoryError)", raises::out_of_memory, "cusci::signal::firwin",
       [&] { (void)signal::firwin(t40 + 1, 0.3); }},
      {"firwin: INT64_MAX taps", raises::value_error, "array is too big", [] { (void)signal::firwin(INT64_MAX, 0.3); }},
      {"firwin: 0 taps", raises::value_error, "is not a positive integer", [] { (void)signal::firwin(0, 0.3); }},
      {"firwin: cutoff at Nyquist", raises::value_error, "Invalid cutoff frequency",
       [] { (void)signal::firwin(11, 1.0); }},
      {"firwin: decreasing cutoffs", raises::value_error, "strictly increasing",
       [] { (void)signal::firwin(11, std::vector<double>{0.5, 0.2}); }},
      {"firwin: even taps with a passband at Nyquist", raises::value_error, "even number of coefficients",
       [] { (void)signal::firwin(10, 0.3, {.pass_zero = false}); }},
      {"get_window: 2^40 points (SciPy: MemoryError)", raises::out_of_memory, "cusci::signal::get_window",
       [&] { (void)signal::get_window("hann", t40); }},
      {"get_window: kaiser, 2^40 points", raises::out_of_memory, "window length M",
       [&] { (void)signal::get_window(signal::window_spec("kaiser", std::vector<double>{8.6}), t40); }},
      {"get_window: INT64_MAX points", raises::value_error, "array is too big",
       [] { (void)signal::get_window("hamming", INT64_MAX); }},
      {"get_window: unknown name", raises::value_error, "Invalid window name",
       [] { (void)signal::get_window("no-such-window", 8); }},
      {"windows::hann: 2^40 points", raises::out_of_memory, "unable to allocate",
       [&] { (void)signal::windows::hann(t40); }},
      {"windows::hann: M < 0", raises::value_error, "Window length M must be a non-negative integer",
       [] { (void)signal::windows::hann(-1); }},
  });
}

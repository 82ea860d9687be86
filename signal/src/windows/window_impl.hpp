#pragma once
// (internal, windows family only) The window computations on std::vector<double>, shared by
// windows.cpp (the closed-form windows, get_window) and windows_spectral.cpp (chebwin and dpss, which
// use core's host FFT and tridiagonal eigensolver). `F` is the name used in messages (the public
// function, or get_window's caller).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/windows.hpp"

namespace cusci::signal::windows::impl {

/// SciPy's _len_guards: throws value_error for M < 0; true when M <= 1 (the result is ones(M)).
bool len_guard(std::int64_t M, const std::string& F);

std::vector<double> chebwin(std::int64_t M, double at, bool sym, const std::string& F);

/// dpss's windows [rows x M] (row-major; rows = 1 when Kmax is unset) and ratios [rows].
struct dpss_values {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> windows;
  std::vector<double> ratios;
};
dpss_values dpss(std::int64_t M, double NW, std::optional<std::int64_t> Kmax, bool sym, dpss_norm norm,
                 bool return_ratios, const std::string& F);

}  // namespace cusci::signal::windows::impl

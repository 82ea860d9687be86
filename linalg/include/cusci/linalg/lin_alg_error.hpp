#pragma once
/// @file lin_alg_error.hpp
/// The exception cusci::linalg throws when a factorization or solve fails (SciPy's `LinAlgError`).

#include "cusci/error.hpp"

namespace cusci::linalg {

/// A linear-algebra computation failed: a singular matrix in `solve`, a matrix that is not positive
/// definite in `cholesky` or `solve(..., {.assume_a = positive_definite})`
/// (`scipy.linalg.LinAlgError`, a subclass of `numpy.linalg.LinAlgError`).
class lin_alg_error : public cusci::error {
 public:
  using cusci::error::error;
};

}  // namespace cusci::linalg

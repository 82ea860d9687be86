#pragma once
/// @file linalg/arpack_errors.hpp
/// The exceptions of `eigsh` and `svds` (SciPy's `scipy.sparse.linalg.ArpackError` and
/// `ArpackNoConvergence`), with SciPy's info codes and messages.

#include <cstdint>
#include <string>
#include <utility>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::sparse::linalg {

/// An error of the Lanczos iteration, with ARPACK's info code (SciPy: `ArpackError(info)`, a Python
/// RuntimeError; message "<function>: ARPACK error <info>: <text>" with the text of ARPACK's dsaupd
/// table, after the name of the cusci function that raised it).
/// Codes raised by cusci: -9 (the starting vector is zero, or B-orthogonal to nothing: its B-norm is
/// zero), -9999 (no Lanczos factorization could be built: a B-norm that is negative or not finite,
/// i.e. M not positive definite or an operator returning inf/NaN).
class arpack_error : public cusci::runtime_error {
 public:
  arpack_error(std::int64_t info, const std::string& what) : cusci::runtime_error(what), info_(info) {}
  /// ARPACK's info code.
  std::int64_t info() const noexcept { return info_; }

 private:
  std::int64_t info_;
};

/// The iteration did not converge within `maxiter` restarts (SciPy: `ArpackNoConvergence`, derived
/// from ArpackError with info -1, as SciPy's). Carries the partial result, as SciPy: the eigenvalues that did
/// converge ([nconv], ascending, the real dtype of A) and their eigenvectors ([n, nconv], A's dtype).
/// Message: "<function>: ARPACK error -1: No convergence (<iter> iterations, <nconv>/<k> eigenvectors
/// converged)".
class arpack_no_convergence : public arpack_error {
 public:
  arpack_no_convergence(const std::string& what, ndarray eigenvalues, ndarray eigenvectors)
      : arpack_error(-1, what), eigenvalues_(std::move(eigenvalues)), eigenvectors_(std::move(eigenvectors)) {}
  /// The converged eigenvalues [nconv] (SciPy: `err.eigenvalues`).
  const ndarray& eigenvalues() const noexcept { return eigenvalues_; }
  /// Their eigenvectors [n, nconv] (SciPy: `err.eigenvectors`).
  const ndarray& eigenvectors() const noexcept { return eigenvectors_; }

 private:
  ndarray eigenvalues_, eigenvectors_;
};

/// SciPy's names.
using ArpackError = arpack_error;
using ArpackNoConvergence = arpack_no_convergence;

}  // namespace cusci::sparse::linalg

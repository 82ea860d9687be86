#pragma once
/// @file linalg.hpp
/// Everything in cusci::linalg (SciPy's `scipy.linalg`).
#include "cusci/linalg/cholesky.hpp"
#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/linalg/lu.hpp"
#include "cusci/linalg/solve.hpp"
#include "cusci/linalg/special_matrices.hpp"
#include "cusci/linalg/triangular.hpp"

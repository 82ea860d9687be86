#pragma once
/// @file linalg.hpp
/// Everything in cusci::linalg (SciPy's `scipy.linalg`).
#include "cusci/linalg/cholesky.hpp"
#include "cusci/linalg/eigen.hpp"
#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/linalg/lu.hpp"
#include "cusci/linalg/matfuncs.hpp"
#include "cusci/linalg/norm.hpp"
#include "cusci/linalg/qr.hpp"
#include "cusci/linalg/solve.hpp"
#include "cusci/linalg/special_matrices.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/linalg/toeplitz.hpp"
#include "cusci/linalg/triangular.hpp"
